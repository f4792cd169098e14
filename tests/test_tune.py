"""The SPSA tuner: it finds a toy bot's known best setting, reproducibly, and stops on Ctrl-C."""

from __future__ import annotations

import shlex
import signal
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_cli_inputs import _fails  # one line naming the problem, exit 2

import hokm_sim
from hokm_sim.analysis import tune
from hokm_sim.bots.registry import resolve
from hokm_sim.cli import main
from hokm_sim.errors import InputError

TOY = f"{Path(__file__).resolve().parent / 'bots' / 'toy.py'}(p0=5,p1=5)"
"""tests/bots/toy.py: plays as longest, but randomly with a chance that grows with the
distance of (p0, p1) from (3, 7)."""
LONGEST = "longest"
RUN = ["--iterations", "40", "--pairs", "1000", "--c", "0.1", "--rate", "0.01", "--seed", "5"]
RUN += ["--check", "2000", "--threads", "1", "--bot-timeout", "30"]


def tune_command(*extra: str):
    args = ["tune", TOY, "--param", "p0=0:10", "--param", "p1=0:10", "--against", LONGEST]
    return CliRunner().invoke(main, [*args, *RUN, *extra])


@pytest.fixture(scope="module")
def found(tmp_path_factory):
    """The toy tuned by the command, and its report folder."""
    out = tmp_path_factory.mktemp("tune") / "a"
    res = tune_command("--out", str(out))
    assert res.exit_code == 0, res.output
    assert "tuned:" in res.stdout and f"report: {out}" in res.stdout
    return hokm_sim.load(out), out


def test_the_command_finds_the_toy_optimum(found):
    result, folder = found
    x, y = (p["tuned"] for p in result.data["params"])
    assert abs(x - 3) < 0.5 and abs(y - 7) < 0.5, (x, y)
    assert result.data["done"] == 40 and not result.data["partial"]
    # On deals after the tuning's, the tuned toy plays as longest; the start did not.
    chk = result.data["check"]
    assert chk["deals"]["start"] == 40 * 1000
    assert chk["tuned"]["weakest"]["value"] > chk["start"]["weakest"]["high"]
    assert resolve(result.tuned).play_params[:2] == (x, y)
    assert list(result.to_frame().index) == ["p0", "p1"]
    assert list(result.history()["iteration"]) == list(range(1, 41))
    for name in ("summary.json", "report.md", "tune.png", "tune.svg"):
        assert (folder / name).stat().st_size > 0, name
    assert "![tune](tune.png)" in (folder / "report.md").read_text()
    (folder / "tune.png").unlink()
    (folder / "tune.svg").write_bytes(b"mine")
    res = CliRunner().invoke(main, ["plot", str(folder)])  # a figure is there: kept
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output
    assert "tune.svg" in res.output and "--force" in res.output
    assert (folder / "tune.svg").read_bytes() == b"mine" and not (folder / "tune.png").exists()
    res = CliRunner().invoke(main, ["plot", str(folder), "--force"])
    assert res.exit_code == 0 and (folder / "tune.png").exists(), res.output
    assert (folder / "tune.svg").read_bytes().startswith(b"<?xml")  # replaced


def test_the_recorded_command_gives_the_same_run(found, tmp_path):
    result, _ = found
    words = shlex.split(result.command)
    res = CliRunner().invoke(main, [*words[1:], "--out", str(tmp_path / "b")])
    assert res.exit_code == 0, res.output
    again = hokm_sim.load(tmp_path / "b")
    assert again.to_dict() == result.to_dict()
    # the limit for protocol bots is written: a slow one would fault without it
    assert words[-2:] == ["--bot-timeout", "30.0"], words


def test_ctrl_c_keeps_the_estimate_reached(tmp_path):
    seen = []

    def progress(tick):
        seen.append(tick)
        if tick.done == 3:
            signal.raise_signal(signal.SIGINT)

    d = hokm_sim.tune(
        TOY,
        ["p0=0:10", "p1=0:10"],
        against=LONGEST,
        iterations=40,
        pairs=1000,
        rate=0.01,
        seed=5,
        threads=1,
        out=tmp_path / "t",
        progress=progress,
    )
    assert d.data["done"] == 3 and d.data["partial"] and "check" not in d.data
    assert seen[-1].unit == "iterations" and "p0=" in seen[-1].note
    assert hokm_sim.load(tmp_path / "t").data["history"] == d.data["history"]
    assert (tmp_path / "t" / "tune.png").exists()


def test_the_gains_follow_spall():
    cfg = tune.TuneConfig(iterations=100, c=0.1, rate=0.2)
    assert cfg.c_k(0) == pytest.approx(0.1)
    assert cfg.c_k(99) == pytest.approx(0.1 / 100**tune.GAMMA)
    # a score difference of 0.01 moves a parameter by `rate` of its range at first
    assert cfg.a_k(0) * tune.SCORE_UNIT / (2 * cfg.c_k(0)) == pytest.approx(0.2)
    assert cfg.a_k(99) < cfg.a_k(0)


def test_whole_parameters_are_rounded_and_specs_round_trip():
    s = resolve("sharp")
    p = tune.parse_param("draw=2:6", s)
    assert p.whole and p.role == "both" and p.start == 3
    assert p.value(0.49) == 4.0
    t = tune.with_values(s, [p, tune.parse_param("length=1:8", s)], [5.0, 2.5])
    assert t.name == "sharp(length=2.5,strength=0.78,draw=5,cover=8,ruff2=7)"
    assert resolve(t.name).play_params == t.play_params


@pytest.mark.parametrize(
    ("spec", "text", "message"),
    [
        ("sharp", "draw", "expected NAME=LOW:HIGH"),
        ("sharp", "depth=1:3", "unknown parameter 'depth'"),
        ("sharp", "draw=3:3", "expected LOW < HIGH"),
        ("sharp", "draw=a:3", "must be numbers"),
        ("sharp", "draw=0:6", "lies in 1..13"),
        ("trump=weighted,play=expert", "length=1:5", "give trump.length or play.length"),
    ],
)
def test_bad_params(spec, text, message):
    with pytest.raises(InputError, match=message):
        tune.parse_param(text, resolve(spec))


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--param", "depth=1:3"], ["--param:", "unknown parameter 'depth'"]),
        ([], ["--param:", "nothing to tune"]),
        (["--param", "draw=2:4", "--param", "draw=3:5"], ["--param:", "draw is given twice"]),
        (["--param", "draw=2:4", "--against", "nosuch"], ["--against:", "unknown strategy"]),
        (["--param", "draw=2:4", "--pairs", "1"], ["--pairs:", "at least 2"]),
        (["--param", "draw=2:4", "--c", "0.9"], ["--c:", "(0, 0.5]"]),
        (["--param", "draw=2:4", "--rate", "0"], ["--rate:", "positive"]),
        (["--param", "draw=2:4", "--bot-timeout", "0"], ["--bot-timeout", "seconds > 0"]),
    ],
)
def test_bad_input_is_one_line(args, needles):
    _fails(["tune", "sharp", *args], *needles)


def test_a_composition_tunes_the_part_named():
    s = resolve("trump=weighted,play=expert")
    p = tune.parse_param("trump.length=1:5", s)
    t = tune.with_values(s, [p], [3.0])
    assert t.trump_params[0] == 3.0 and t.play_params == s.play_params
    assert t.name == "trump=weighted(length=3,strength=1),play=expert(length=4,strength=1)"


def test_a_tune_builds_each_opponents_runner_once(monkeypatch):
    """Every evaluation plays the tuned bot's files with other parameters: the engine of
    each opponent is found (its bot files hashed) once for the whole tune, and the counts
    are those of a runner built for the point itself."""
    from hokm_sim.bots import compiled
    from hokm_sim.bots.registry import resolve
    from hokm_sim.sim.runner import Runner

    built, real = [], compiled.engine_for
    monkeypatch.setattr(
        compiled, "engine_for", lambda a, b, *x, **kw: built.append(b.name) or real(a, b, *x, **kw)
    )
    hokm_sim.tune(TOY, ["p0=0:10"], against=[LONGEST, "random"], iterations=3, pairs=200,
                  seed=5, threads=1)  # fmt: skip
    assert built == [LONGEST, "random"]
    base, point = resolve(TOY), resolve(TOY.replace("p0=5", "p0=9"))
    want = Runner(point, resolve(LONGEST)).counts(5, 300, threads=1)
    got = Runner(base, resolve(LONGEST)).playing(point).counts(5, 300, threads=1)
    assert (got == want).all()
    with pytest.raises(ValueError, match="is not made of"):
        Runner(base, resolve(LONGEST)).playing(resolve(LONGEST))
