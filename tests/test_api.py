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
    TournamentResult,
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


def test_tournament_result(tmp_path):
    t = hokm_sim.tournament(["longest", "random"], hands=500, seed=2, threads=1, out=tmp_path / "t")
    assert isinstance(t, TournamentResult)
    assert list(t.to_frame().index) == ["longest", "random"]  # ranked, best first
    assert "first longest" in repr(t)
    _round_trip(t, tmp_path / "t")


def test_regress_result_and_exit_code(tmp_path):
    r = hokm_sim.regress("random", "longest", seed=3, threads=1, out=tmp_path / "g")
    assert isinstance(r, RegressResult)
    assert r.exit_code == 1 and r.data["verdict"] == "regression"
    assert "random against longest: regression" in repr(r)
    _round_trip(r, tmp_path / "g")


def test_sprt_offline():
    res = hokm_sim.sprt([3100, 13200, 3700])
    assert res["pairs"] == 20000 and res["exit_code"] == 0
    assert res["verdict"] == "no regression" and res["llr"] > res["bounds"][1]
    assert hokm_sim.sprt([3700, 13200, 3100])["exit_code"] == 1  # the mirror: regression
    assert hokm_sim.sprt([0, 0, 0])["exit_code"] == 3  # no pairs: undecided
    with pytest.raises(InputError, match="expected 3 non-negative counts"):
        hokm_sim.sprt([1, 2])


def test_dd_study_result(tmp_path):
    d = hokm_sim.dd_study(["longest"], hands=4, seed=1, threads=1, out=tmp_path / "d")
    assert isinstance(d, DDStudyResult)
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


def test_bad_arguments_are_input_errors():
    with pytest.raises(InputError, match="A: unknown strategy"):
        hokm_sim.run("nope", "random", hands=10)
    with pytest.raises(InputError, match="--target"):
        hokm_sim.run("longest", "random", hands=10, target=5)
    with pytest.raises(InputError, match="at least two"):
        hokm_sim.tournament(["longest"])
    with pytest.raises(InputError, match="--hands"):
        hokm_sim.dd_study(["longest"], hands=0)
