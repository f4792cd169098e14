"""The field: a candidate against every member in duplicate, each pairing the `run` it names."""

from __future__ import annotations

import signal

import numpy as np
import pytest
from hokm_checks import every

from hokm_sim.analysis import field as fld
from hokm_sim.analysis.summary import summarize
from hokm_sim.bots.registry import resolve
from hokm_sim.engine import records as r
from hokm_sim.errors import InputError
from hokm_sim.sim.run import RunConfig, execute

CANDIDATE = every("expert")
MEMBERS = [every("random"), every("longest"), every("basic")]
"""Bots through tests/bots/every.py: every pairing plays on one compiled engine."""


@pytest.fixture(scope="module")
def played() -> dict:
    cfg = fld.FieldConfig(CANDIDATE, members=MEMBERS, hands=1500, seed=4, threads=1)
    return fld.play(cfg, resolve(CANDIDATE), [resolve(m) for m in MEMBERS])


def test_each_pairing_is_the_run_with_the_same_seed(played):
    for member, pair in zip(MEMBERS, played["pairs"], strict=True):
        p = execute(
            RunConfig(a=CANDIDATE, b=member, hands=1500, seed=4), *map(resolve, (CANDIDATE, member))
        )
        s = summarize(p.counts, p.record)
        assert pair["opponent"] == member
        assert pair["wins"] == s.data["pair_score"]
        assert pair["points_per_hand"] == s.data["a"]["points_per_hand"]
        assert pair["pairs"] == 1500


def test_points_score_is_the_mean_of_d_plus_6_over_12(played):
    for pair in played["pairs"]:
        pph = pair["points_per_hand"]["value"]
        assert pair["points"]["value"] == pytest.approx(0.5 + pph / 6)


def test_the_weakest_is_the_lowest_score(played):
    low = min(played["pairs"], key=lambda p: p["wins"]["value"])
    assert played["weakest"]["opponent"] == low["opponent"]
    assert played["weakest"]["value"] == low["wins"]["value"]
    assert not played["partial"]
    text = fld.format_field(played)
    assert "<- weakest" in text and f"against {low['opponent']}" in text


def test_a_field_of_matches_scores_match_pairs():
    # longest against random: an engine whose match kernel tests/test_run.py compiles too
    cfg = fld.FieldConfig("longest", members=["random"], matches=30, seed=2, threads=1)
    d = fld.play(cfg, resolve("longest"), [resolve("random")])
    assert d["metric"] == "matches" and d["mode"] == "matches"
    p = execute(
        RunConfig(a="longest", b="random", matches=30, seed=2), *map(resolve, ("longest", "random"))
    )
    s = summarize(p.counts, p.record)
    assert d["pairs"][0]["matches"] == s.data["pair_score"]
    assert d["weakest"]["value"] == s.data["pair_score"]["value"]


def test_ctrl_c_keeps_the_pairings_finished():
    calls = []

    def progress(n):
        calls.append(n)
        if len(calls) == 1:
            signal.raise_signal(signal.SIGINT)

    cfg = fld.FieldConfig(CANDIDATE, members=MEMBERS, hands=200_000, seed=3, threads=1)
    d = fld.play(cfg, resolve(CANDIDATE), [resolve(m) for m in MEMBERS], progress=progress)
    assert d["partial"] and len(d["pairs"]) == 1 and d["pairs"][0]["partial"]
    assert d["pairs"][0]["pairs"] < 200_000


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"members": []}, "the field is empty"),
        ({"members": ["expert", "expert"]}, "names 'expert' twice"),
        ({"metric": "elo"}, "unknown metric 'elo'"),
        ({"metric": "matches"}, "--metric matches goes with --matches"),
        ({"matches": 10, "hands": None, "metric": "wins"}, "--metric matches goes with"),
    ],
)
def test_bad_configurations(kw, message):
    args = {"candidate": "expert", "hands": 10} | kw
    with pytest.raises(InputError, match=message):
        fld.FieldConfig(**args)


def test_pair_stats_on_points_has_the_thirteen_point_support():
    counts = np.zeros(r.N_COUNTS, np.int64)
    table = counts[r.C_PAIR_COPY : r.C_PAIR_COPY + r.C_PAIR_SIZE].reshape(6, 6)
    table[5, 3] = 10  # A won 3 then 1: D = 4
    table[2, 2] = 10  # A lost both plain hands: D = -2
    ps = fld.pair_stats(counts, "points")
    assert ps.score.value == pytest.approx(((4 + 6) / 12 + (-2 + 6) / 12) / 2)


def test_the_default_field_leaves_out_the_candidate():
    assert fld.FieldConfig("expert", hands=10).members == [m for m in fld.FIELD if m != "expert"]
    assert fld.FieldConfig("pimc", hands=10).members == list(fld.FIELD)
