"""The public API: every command's work as a function returning a result object that
prints readably, turns into a table and a record, and reads back from its folder."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import hokm_sim
from hokm_sim.analysis.results import (
    DDStudyResult,
    ExperimentResult,
    RegressResult,
    SprtResult,
)
from hokm_sim.analysis.summary import Summary
from hokm_sim.errors import InputError


def _round_trip(result, folder):
    back = hokm_sim.load(folder)
    assert type(back) is type(result)

    def plain(d):
        d = {k: v for k, v in d.items() if k not in ("command", "version")}
        return json.loads(json.dumps(d))

    assert plain(back.to_dict()) == plain(result.to_dict())
    assert isinstance(back.to_frame(), pd.DataFrame)
    assert repr(back) == repr(result)
    return back


def test_run_returns_a_summary_that_reads_back(tmp_path):
    s = hokm_sim.run("longest", "random", hands=2000, seed=5, threads=1, out=tmp_path / "r")
    assert isinstance(s, Summary)
    assert "longest (A) vs random (B)" in repr(s) and "seed 5" in repr(s)
    frame = s.to_frame()
    assert list(frame.index) == ["longest", "random"]
    back = _round_trip(s, tmp_path / "r")
    assert (back.counts == s.counts).all()
    assert back.to_dict()["pair_score"] == s.to_dict()["pair_score"]


def test_run_without_a_folder_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    s = hokm_sim.run("longest", "random", hands=500, seed=5, threads=1)
    assert s.config["seed"] == 5 and not any(tmp_path.iterdir())


def test_regress_result_and_exit_code(tmp_path):
    r = hokm_sim.regress("random", "longest", seed=3, threads=1, out=tmp_path / "g")
    assert isinstance(r, RegressResult)
    assert r.exit_code == 1 and r.data["verdict"] == "regression"
    assert "random against longest: regression" in repr(r)
    _round_trip(r, tmp_path / "g")


def test_sprt_offline():
    res = hokm_sim.sprt([3100, 13200, 3700])
    assert isinstance(res, SprtResult)
    assert res.data["pairs"] == 20000 and res.exit_code == 0
    assert res.data["verdict"] == "no regression" and res.data["llr"] > res.data["bounds"][1]
    assert (
        res.command == "hokm-sim sprt --wins 3100,13200,3700 --elo0 -3.0 --elo1 0.0 "
        "--alpha 0.05 --beta 0.05"
    )
    assert hokm_sim.sprt([3700, 13200, 3100]).exit_code == 1  # the mirror: regression
    assert hokm_sim.sprt([0, 0, 0]).exit_code == 3  # no pairs: undecided
    assert hokm_sim.sprt(points=[0] * 6 + [10] + [0] * 6).data["pairs"] == 10
    with pytest.raises(InputError, match="wins: expected 3 non-negative counts"):
        hokm_sim.sprt([1, 2])


def test_dd_study_result(tmp_path):
    ticks = []
    d = hokm_sim.dd_study(
        ["longest"], hands=4, seed=1, threads=1, out=tmp_path / "d", progress=ticks.append
    )
    assert isinstance(d, DDStudyResult)
    assert ticks and (ticks[-1].done, ticks[-1].total, ticks[-1].unit) == (4, 4, "deals")
    assert list(d.to_frame().index) == ["perfect", "longest"]
    _round_trip(d, tmp_path / "d")


def test_experiment_result(tmp_path):
    f = tmp_path / "e.toml"
    f.write_text('name = "two"\nseed = 4\nhands = 300\n[[runs]]\na = "longest"\nb = "random"\n')
    e = hokm_sim.experiment(f, threads=1, out=tmp_path / "e")
    assert isinstance(e, ExperimentResult)
    assert len(e.runs()) == 1 and e.to_frame().loc[0, "a"] == "longest"
    _round_trip(e, tmp_path / "e")


def test_load_refuses_what_is_not_a_report(tmp_path):
    with pytest.raises(InputError, match="no summary.json"):
        hokm_sim.load(tmp_path)
    (tmp_path / "summary.json").write_text("[1, 2]")
    with pytest.raises(InputError, match="not a hokm-sim summary"):
        hokm_sim.load(tmp_path)


def test_bad_arguments_are_input_errors_that_name_the_python_parameter():
    with pytest.raises(InputError, match="^a: unknown strategy") as e:
        hokm_sim.run("nope", "random", hands=10)
    assert e.value.param == "a"
    with pytest.raises(InputError, match="^target: .* give it with matches$") as e:
        hokm_sim.run("longest", "random", hands=10, target=5)
    assert "--" not in str(e.value)
    with pytest.raises(InputError, match="at least two"):
        hokm_sim.tournament(["longest"])
    with pytest.raises(InputError, match="^hands: expected a positive whole number"):
        hokm_sim.dd_study(["longest"], hands=0)
    with pytest.raises(InputError, match="^analyse: grades deals of a hands run"):
        hokm_sim.run("longest", "random", matches=10, analyse=3)
    # a trace file's hand takes none of a seeded hand's parameters, and line needs trace
    with pytest.raises(InputError, match="^trace shows a hand of its file: drop seed, a, copy$"):
        hokm_sim.show("expert", seed=3, copy=0, trace="t.jsonl")
    with pytest.raises(InputError, match="^line picks a line of trace FILE: give trace$"):
        hokm_sim.show(seed=3, hand=1, line=2)


def test_every_result_follows_one_protocol(tmp_path):
    """headline (a property, also the repr), to_dict with kind, command and version,
    to_frame, the notebook's _repr_html_, folder None without out."""
    deals = tmp_path / "deals.jsonl"
    deals.write_text('{"hands": [["AS"], ["KS"], ["QS"], ["JS"]], "trump": "H", "leader": 0}\n')
    results = [
        hokm_sim.run("longest", "random", hands=300, seed=1),
        hokm_sim.sprt([10, 20, 30]),
        hokm_sim.trace("longest", "random", seed=2, hands=3),
        hokm_sim.show("longest", "random", seed=2, hand=1),
        hokm_sim.solve(deals, threads=1),
        hokm_sim.list_strategies(),
        hokm_sim.analyse(seed=2, hands=1, a="longest", b="random"),
    ]
    for r in results:
        assert isinstance(r.headline, str) and repr(r) == f"<{type(r).__name__}: {r.headline}>"
        assert r.folder is None
        d = r.to_dict()
        assert d["kind"] and d["version"] == hokm_sim.__version__, type(r)
        assert d["command"].startswith("hokm-sim ") and r.command == d["command"]
        json.dumps(d)
        frame = r.to_frame()
        assert isinstance(frame, pd.DataFrame) and len(frame) > 0
        html = r._repr_html_()
        assert "<table" in html and type(r).__name__ in html


def test_results_read_back_from_their_records():
    from hokm_sim.analysis.results import from_dict

    for r in (
        hokm_sim.sprt(points=[0, 1, 5, 40, 200, 900, 1500, 950, 210, 45, 6, 1, 0]),
        hokm_sim.trace("longest", "random", seed=3, matches=1),
        hokm_sim.show("longest", "random", seed=3, match=0, hand=1),
        hokm_sim.list_strategies(),
    ):
        back = from_dict(json.loads(json.dumps(r.to_dict())))
        assert type(back) is type(r) and back.to_dict() == r.to_dict()
        assert repr(back) == repr(r)


def test_a_run_frames_its_headline_figures_from_each_side():
    s = hokm_sim.run("longest", "random", hands=500, seed=4)
    f = s.to_frame()
    a, b = f.loc["longest"], f.loc["random"]
    d = s.to_dict()
    assert a["pair_score"] == d["pair_score"]["value"] and a["los"] == d["los"]
    assert b["pair_score"] == pytest.approx(1 - a["pair_score"])
    assert b["pair_score_low"] == pytest.approx(1 - a["pair_score_high"])
    assert b["elo"] == pytest.approx(-a["elo"]) and b["los"] == pytest.approx(1 - a["los"])
    assert {"nelo", "nelo_low", "hand_win_rate", "kot_rate_high"} <= set(f.columns)


def test_an_analysis_shows_briefly_and_frames_its_strategies_and_deals():
    a = hokm_sim.analyse(seed=5, hands=2, a="longest", b="random")
    assert len(repr(a)) < 200 and "array" not in repr(a)
    assert repr(a).startswith("<Analysis: 4 hands, ")
    d = a.to_dict()
    assert (
        d["kind"] == "analysis"
        and d["hands"] == 4
        and set(d["accuracy"]["strategies"])
        == {
            "longest",
            "random",
        }
    )
    f = a.to_frame()
    assert {"deal", "copy", "strategy", "seed"} <= set(f.columns)
    assert set(f["deal"]) == {0, 1} and set(f["copy"]) == {0, 1}
    # copy 0 has longest on team 0 (seats 0 and 2); copy 1 swaps the teams
    first = f[(f["copy"] == 0) & (f["seat"] % 2 == 0)]
    assert set(first["strategy"]) == {"longest"}
    second = f[(f["copy"] == 1) & (f["seat"] % 2 == 0)]
    assert set(second["strategy"]) == {"random"}


def test_the_lazy_exports_are_listed_and_never_shadowed_by_a_subpackage():
    import importlib

    from hokm_sim import api

    for sub in ("dd", "strategies", "analysis", "sim", "report", "bots", "engine"):
        importlib.import_module(f"hokm_sim.{sub}")
    assert set(api.__all__) <= set(dir(hokm_sim))
    for name in api.__all__:
        assert getattr(hokm_sim, name) is getattr(api, name), name
