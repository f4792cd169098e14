"""Tournaments and experiment files, on small sizes."""

from __future__ import annotations

import json
import re
import sys

import numpy as np
import pytest
from click.testing import CliRunner
from test_exec_faults import PROTOBOT

import hokm_sim
from hokm_sim.analysis.experiment import Experiment, ExperimentError
from hokm_sim.analysis.ratings import bradley_terry
from hokm_sim.analysis.summary import pair_counts
from hokm_sim.analysis.tournament import Tournament, play
from hokm_sim.bots.registry import resolve
from hokm_sim.cli import main

BOTS = ["expert", "random", "longest"]


@pytest.fixture(scope="module")
def tour() -> Tournament:
    return play([resolve(n) for n in BOTS], seed=3, deals=3000)


def test_blocks_cover_every_deal_once(tour):
    for i in range(3):
        for j in range(i + 1, 3):
            assert tour.blocks[i, j].sum() == 3000
    assert tour.blocks[1, 0].sum() == 0


def test_crosstable_is_consistent(tour):
    score, n = tour.matrices()
    assert np.allclose(score + score.T, np.where(n > 0, 1.0, 0.0))
    assert (n == n.T).all() and n[0, 1] == 3000
    s = tour.summary(resamples=30)
    assert s["crosstable"][0][1]["value"] == pytest.approx(score[0, 1])
    assert s["los"][0][1] == pytest.approx(1 - s["los"][1][0])
    ranks = [r["name"] for r in s["ratings"]]
    assert ranks == [BOTS[0], BOTS[2], BOTS[1]]  # expert, longest, random
    assert sum(r["elo"] for r in s["ratings"]) == pytest.approx(0, abs=1e-6)
    for r in s["ratings"]:
        assert r["low"] <= r["elo"] <= r["high"]
    assert len(s["tests"]) == 3


def test_same_deals_as_a_run(tour):
    """A pairing in the tournament plays exactly the deals a run with that seed plays."""
    from hokm_sim.sim.runner import Runner

    c = Runner(resolve(BOTS[0]), resolve(BOTS[1])).counts(3, 3000)
    assert (pair_counts(c) == tour.blocks[0, 1].sum(axis=0)).all()


def test_bradley_terry_matches_pair_scores(tour):
    score, n = tour.matrices()
    ratings = bradley_terry(score, n)
    assert ratings[0] > ratings[2] > ratings[1]


def test_tournament_cli(tmp_path):
    out = tmp_path / "t"
    res = CliRunner().invoke(
        main,
        ["tournament", "longest", "random", "--hands", "2000", "--seed", "1", "--out", str(out)],
    )
    assert res.exit_code == 0, res.output
    assert "ranking" in res.output and "likelihood of superiority" in res.output
    d = json.loads((out / "summary.json").read_text())
    assert d["names"] == ["longest", "random"] and d["seed"] == 1
    assert (
        "hokm-sim tournament longest random --hands 2000 --seed 1"
        in (out / "report.md").read_text()
    )
    res = CliRunner().invoke(main, ["tournament", "longest"])
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1
    res = CliRunner().invoke(main, ["tournament", "longest", "nosuch"])
    assert res.exit_code == 2 and "valid names" in res.output


def test_experiment_runs(tmp_path):
    spec = tmp_path / "e.toml"
    spec.write_text(
        'name = "tiny"\nquestion = "does longest beat random?"\nseed = 4\n'
        'hands = 1000\n[[runs]]\na = "longest"\nb = "random"\n'
        '[[runs]]\na = "longest"\nb = "random"\nduplicate = false\n'
    )
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["experiment", str(spec), "--out", str(out)])
    assert res.exit_code == 0, res.output
    md = (out / "report.md").read_text()
    assert "does longest beat random?" in md and "| longest | random | yes |" in md
    d = json.loads((out / "summary.json").read_text())
    assert len(d["runs"]) == 2 and d["runs"][0]["seed"] == 4


@pytest.mark.parametrize(
    "text, needle",
    [
        ("kind = 'nope'", "bad kind"),
        ("hands = 10", "no [[runs]]"),
        ("bogus = 1\n[[runs]]\na='longest'\nb='random'", "unknown keys"),
        ("[[runs]]\na='longest'\nb='random'\nhands=0", "bad size"),
        ("[[runs]]\na='longest'\nb='nosuch'", "valid names"),
        ("kind = 'tournament'\nstrategies = ['longest']", "at least 2"),
        ("not toml [", "cannot read"),
    ],
)
def test_experiment_errors(tmp_path, text, needle):
    spec = tmp_path / "bad.toml"
    spec.write_text(text)
    with pytest.raises(Exception, match=re.escape(needle)):
        Experiment.load(spec)
    res = CliRunner().invoke(main, ["experiment", str(spec)])
    assert res.exit_code == 2 and needle.split()[0] in res.output


def test_shipped_experiments_parse():
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "experiments"
    files = sorted(folder.glob("*.toml"))
    assert len(files) >= 3
    for f in files:
        exp = Experiment.load(f)
        assert exp.spec.get("question")
        assert exp.runs or exp.spec.get("kind") == "tournament"


def test_a_bad_experiment_file_is_one_catchable_error(tmp_path):
    """From Python: an ExperimentError a caller can catch as ValueError, naming the
    problem, before anything is played or written. From the command line: exit 2,
    one line, no traceback, no report folder."""
    import hokm_sim

    spec = tmp_path / "bad.toml"
    spec.write_text("[[runs]]\na='longest'\nb='random'\nhands=0")
    out = tmp_path / "out"
    with pytest.raises(ExperimentError, match="bad size") as info:
        hokm_sim.experiment(spec, out=out)
    assert "\n" not in str(info.value)
    with pytest.raises(ValueError, match="bad size"):
        hokm_sim.experiment(spec)
    assert not out.exists()
    res = CliRunner().invoke(main, ["experiment", str(spec), "--out", str(out)])
    assert res.exit_code == 2
    assert res.stderr.startswith("Error: ") and len(res.stderr.strip().splitlines()) == 1
    assert "bad size" in res.stderr and "Traceback" not in res.output
    assert not out.exists()


def test_a_protocol_bot_gets_the_batched_messages_of_run(tmp_path):
    """A tournament asks an ``exec:`` bot for the decisions of every hand in flight in
    one message, as ``run`` does for the same deals: it sent one message per decision
    (16,494 messages for 200 deals, against about 380)."""

    def messages(name: str) -> int:
        return (tmp_path / name).read_text().split().count("decide")

    def spec(name: str) -> str:
        return f"exec:{sys.executable} {PROTOBOT} ok {tmp_path / name}"

    hokm_sim.run(spec("run"), "random", hands=200, seed=1, threads=2)
    hokm_sim.tournament([spec("tour"), "random"], hands=200, seed=1, threads=2)
    assert 0 < messages("tour") <= 2 * messages("run")
