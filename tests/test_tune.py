"""The SPSA tuner: it finds a toy bot's known best setting, reproducibly, and stops on Ctrl-C."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from hokm_sim.analysis import tune
from hokm_sim.bots.registry import resolve
from hokm_sim.errors import InputError

TOY = str(Path(__file__).resolve().parent / "bots" / "toy.py")
"""Plays as longest, but randomly with a chance that grows with the distance from (3, 7)."""


def toy_run(iterations: int, check: int = 0, progress=None) -> dict:
    s = resolve(TOY)
    params = [tune.parse_param("x=0:10", s), tune.parse_param("y=0:10", s)]
    cfg = tune.TuneConfig(
        iterations=iterations, pairs=1000, c=0.1, rate=0.01, seed=5, threads=1, check=check
    )
    return tune.spsa(s, params, [resolve("longest")], cfg, progress=progress)


@pytest.fixture(scope="module")
def found() -> dict:
    return toy_run(40, check=2000)


def test_it_finds_the_toy_optimum(found):
    x, y = (p["tuned"] for p in found["params"])
    assert abs(x - 3) < 0.5 and abs(y - 7) < 0.5, (x, y)
    assert found["done"] == 40 and not found["partial"]
    # On deals after the tuning's, the tuned toy plays as longest; the start did not.
    chk = found["check"]
    assert chk["deals"]["start"] == 40 * 1000
    assert chk["tuned"]["weakest"]["value"] > chk["start"]["weakest"]["high"]
    assert resolve(found["tuned"]).play_params == tuple(p["tuned"] for p in found["params"])
    assert "tuned:" in tune.format_tune(found)


def test_the_same_seed_gives_the_same_run(found):
    again = toy_run(40, check=2000)
    assert again == found


def test_ctrl_c_keeps_the_estimate_reached():
    seen = []

    def progress(rec):
        seen.append(rec)
        if rec["iteration"] == 3:
            signal.raise_signal(signal.SIGINT)

    d = toy_run(40, check=2000, progress=progress)
    assert d["done"] == 3 and d["partial"] and "check" not in d
    assert [p["tuned"] for p in d["params"]] == pytest.approx(seen[-1]["values"])


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


def test_a_composition_tunes_the_part_named():
    s = resolve("trump=weighted,play=expert")
    p = tune.parse_param("trump.length=1:5", s)
    t = tune.with_values(s, [p], [3.0])
    assert t.trump_params[0] == 3.0 and t.play_params == s.play_params
    assert t.name == "trump=weighted(length=3,strength=1),play=expert(length=4,strength=1)"
