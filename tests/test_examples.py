"""The examples run as their README says."""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path

import pytest

from hokm_sim.bots.registry import resolve

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _example(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_api_tour_runs(tmp_path, capsys, monkeypatch):
    mod = _example("api_tour")
    monkeypatch.setattr(mod.hokm_sim, "run", _small_run(mod.hokm_sim.run))
    mod.main(2000, tmp_path / "run")
    out = capsys.readouterr().out
    assert "pair score" in out and "read back from" in out


def _small_run(run):
    def small(a, b, **kw):  # the pair the rest of the suite compiles, on one thread
        return run("longest", "random", **kw | {"threads": 1})

    return small


def test_example_bot_loads_with_its_parameter():
    s = resolve(f"{EXAMPLES / 'my_bot.py'}(greed=0)")
    assert s.play.params == {"greed": 1.0} and s.play_params[0] == 0.0


def test_python_and_batched_example_bots_run_from_the_cli(tmp_path):
    from click.testing import CliRunner

    from hokm_sim.cli import main

    pyrandom = str(Path(__file__).parent / "bots" / "pyrandom.py")  # random, in plain Python
    for bot in ("python_bot.py", "batched_bot.py"):
        out = tmp_path / bot
        res = CliRunner().invoke(
            main,
            ["run", str(EXAMPLES / bot), pyrandom, "--hands", "300", "--seed", "1", "--threads",
             "1", "--out", str(out)],
        )  # fmt: skip
        assert res.exit_code == 0, res.output
        assert f"(A) is better than {pyrandom}" in res.output
        assert (out / "summary.json").is_file()


def test_training_example_learns_and_reports_against_random(tmp_path, capsys):
    mod = _example("train_agent")
    weights = tmp_path / "w.npy"
    d = mod.main(["--episodes", "300", "--deals", "300", "--save", str(weights)])
    assert weights.is_file() and d["config"]["a"] == "trained-policy"
    assert "pair score" in capsys.readouterr().out


def test_vector_training_example_trains_and_plays_in_duplicate(tmp_path, capsys):
    """A tiny run of examples/train_vector.py (PPO with PyTorch, skipped without it):
    against a plain-Python batched bot, so that it compiles no engine the suite lacks."""
    torch = pytest.importorskip("torch")
    mod = _example("train_vector")
    pybatch = str(Path(__file__).parent / "bots" / "pybatch.py")  # random, batched Python
    tiny = ["--steps", "1536", "--envs", "64", "--horizon", "8", "--minibatch", "256",
            "--report", "1024", "--opponents", pybatch]  # fmt: skip
    weights, curve, out = tmp_path / "w.pt", tmp_path / "curve.csv", tmp_path / "eval"
    files = ["--save", str(weights), "--curve", str(curve), "--out", str(out)]
    d = mod.main([*tiny, "--deals", "100", *files])
    assert [row["steps"] for row in d["curve"]] == [1024, 1536]
    with curve.open() as f:
        rows = list(csv.DictReader(f))
    assert [int(r["steps"]) for r in rows] == [1024, 1536] and int(rows[0]["hands"]) > 0
    assert (out / "summary.json").is_file()
    summary = d["summary"]
    assert summary["config"]["a"] == "trained-vector-policy" and summary["config"]["seed"] == 2
    assert "pair score" in capsys.readouterr().out
    again, _ = mod.train(mod.parser().parse_args(tiny))
    saved = torch.load(weights)
    assert all(torch.equal(saved[k], v) for k, v in again.state_dict().items())  # seeded
    with pytest.raises(SystemExit) as exc:
        mod.main([*tiny, *files])
    assert exc.value.code == 2 and "exists: give --force" in capsys.readouterr().err
