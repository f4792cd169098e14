"""The examples run as their README says."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from hokm_sim.bots.registry import resolve

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_api_tour_runs(tmp_path, capsys, monkeypatch):
    spec = importlib.util.spec_from_file_location("api_tour", EXAMPLES / "api_tour.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
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
    spec = importlib.util.spec_from_file_location("train_agent", EXAMPLES / "train_agent.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    weights = tmp_path / "w.npy"
    d = mod.main(["--episodes", "300", "--deals", "300", "--save", str(weights)])
    assert weights.is_file() and d["config"]["a"] == "trained-policy"
    assert "pair score" in capsys.readouterr().out
