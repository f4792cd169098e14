"""`hokm-sim run`, the summary statistics and the Python API, on small sizes."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

import hokm_sim
from hokm_sim.analysis import scores
from hokm_sim.analysis.summary import summarize
from hokm_sim.cli import main
from hokm_sim.engine import records as r
from hokm_sim.sim.checkpoint import Checkpoint
from hokm_sim.sim.run import RunConfig, execute

A, B = "longest", "random"


@pytest.fixture(scope="module")
def small():
    """A small duplicate run of longest against random."""
    return hokm_sim.run(A, B, hands=4000, seed=11)


def test_summary_counts_are_consistent(small):
    d = small.data
    assert d["hands"] == 8000 and d["pairs"] == 4000
    assert d["a"]["hands"] == d["b"]["hands"] == 8000
    # Every hand has a winner: A's wins + B's wins = hands.
    assert d["a"]["hand_win_rate"]["count"] + d["b"]["hand_win_rate"]["count"] == 8000
    # In duplicate A is Hakem in exactly one copy of each pair.
    assert d["a"]["hakem_win_rate"]["n"] == d["a"]["defender_win_rate"]["n"] == 4000
    pc = d["pair_counts"]
    assert pc["LL"] + pc["split"] + pc["WW"] == 4000
    # The overall hand-win rate is the mean pair score, with the pair-level interval.
    assert d["a"]["hand_win_rate"]["value"] == pytest.approx(d["pair_score"]["value"])
    assert d["a"]["hand_win_rate"]["low"] == pytest.approx(d["pair_score"]["low"])
    # B's view mirrors A's.
    assert d["b"]["hand_win_rate"]["value"] == pytest.approx(1 - d["pair_score"]["value"])
    assert d["b"]["points_per_hand"]["value"] == pytest.approx(-d["a"]["points_per_hand"]["value"])
    # Kot made by A as Hakem = Kot conceded by B defending, on the same hands.
    assert d["a"]["kot_rate"]["count"] == d["b"]["kot_conceded_rate"]["count"]
    assert d["a"]["hakem_kot_rate"]["count"] == d["b"]["hakem_kot_suffered_rate"]["count"]
    assert sum(d["a"]["tricks_distribution"]) == 8000


def test_pair_statistics_match_stats_module(small):
    d = small.data
    pc = d["pair_counts"]
    ps = scores.pair_score([pc["LL"], pc["split"], pc["WW"]])
    assert d["elo"]["value"] == pytest.approx(ps.elo.value)
    assert d["nelo"]["value"] == pytest.approx(ps.nelo.value)
    assert d["los"] == pytest.approx(ps.los)
    # The longest bot beats random by far.
    assert d["pair_score"]["low"] > 0.7
    assert d["variance_reduction"] > 0


def test_points_from_counts_by_hand():
    """A hand-made counts array gives hand-computed points and rates."""
    counts = np.zeros(r.N_COUNTS, np.int64)
    tricks = counts[r.C_TRICKS : r.C_TRICKS + r.C_TRICKS_SIZE].reshape(2, 8, 8)
    tricks[0, 7, 0] = 1  # A Hakem, Kot: A +2
    tricks[1, 3, 7] = 1  # B Hakem, A defends and wins 7-3: A +1
    tricks[0, 0, 7] = 1  # A Hakem, Hakem Kot suffered: A -3
    tricks[1, 7, 5] = 1  # B Hakem wins: A -1
    s = summarize(counts, {"a": "x", "b": "y", "seed": 0, "duplicate": False, "mode": "hands"})
    a = s.data["a"]
    assert a["hands"] == 4
    assert a["kot_rate"]["count"] == 1 and a["kot_rate"]["n"] == 2
    assert a["hakem_kot_suffered_rate"]["count"] == 1
    assert a["points_won"] == 3 and a["points_lost"] == 4
    assert a["points_per_hand"]["value"] == pytest.approx((2 + 1 - 3 - 1) / 4)


def test_unseen_rates_say_so():
    counts = np.zeros(r.N_COUNTS, np.int64)
    s = summarize(counts, {"a": "x", "b": "y", "seed": 0, "duplicate": True, "mode": "hands"})
    assert s.data["a"]["kot_rate"]["value"] is None
    assert s.data["a"]["kot_rate"]["note"]
    from hokm_sim.report.markdown import cell, table

    assert cell(s.data["a"]["kot_rate"]) == "n/a"
    assert "nothing was played" in table(s)


def test_to_frame(small):
    df = small.to_frame()
    assert list(df.index) == [A, B]
    assert {"hand_win_rate", "hand_win_rate_low", "kot_rate_high"} <= set(df.columns)


def test_threads_and_chunks_give_identical_counts():
    base = RunConfig(a=A, b=B, hands=6000, seed=5, threads=1)
    from hokm_sim.bots.registry import resolve

    sa, sb = resolve(A), resolve(B)
    c1 = execute(base, sa, sb).counts
    other = RunConfig(a=A, b=B, hands=6000, seed=5, threads=2, chunk=777)
    c2 = execute(other, sa, sb).counts
    assert np.array_equal(c1, c2)


def test_a_thread_count_asked_for_is_restored_afterwards():
    """A notebook that once runs on one thread is not left on one thread."""
    import numba

    numba.set_num_threads(2)
    hokm_sim.run(A, B, hands=500, seed=1, threads=1)
    hokm_sim.tournament([A, B], hands=200, seed=1, threads=1)
    assert numba.get_num_threads() == 2


def test_run_cli_writes_report(tmp_path):
    out = tmp_path / "rep"
    res = CliRunner().invoke(main, ["run", A, B, "--hands", "2k", "--seed", "3", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "longest (A)" in res.output and "=>" in res.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["seed"] == 3 and summary["hands"] == 4000
    assert summary["command"].startswith("hokm-sim run longest random --hands 2000 --seed 3")
    assert summary["version"] == hokm_sim.__version__
    md = (out / "report.md").read_text()
    assert "## Reproduce" in md and summary["command"] in md
    # Never overwrite without being asked.
    again = CliRunner().invoke(main, ["run", A, B, "--hands", "2k", "--out", str(out)])
    assert again.exit_code == 2 and "--force" in again.output
    forced = CliRunner().invoke(
        main, ["run", A, B, "--hands", "2k", "--seed", "3", "--out", str(out), "--force"]
    )
    assert forced.exit_code == 0
    # A run's folder is a report folder, but not a trump study's: plot refuses it.
    plot = CliRunner().invoke(main, ["plot", str(out)])
    assert plot.exit_code == 2 and "not the report folder of a trump study" in plot.stderr
    assert len(plot.stderr.strip().splitlines()) == 1


def test_run_json_fields(tmp_path):
    res = CliRunner().invoke(
        main, ["run", A, B, "--hands", "1e3", "--seed", "9", "--json", "--out", str(tmp_path / "j")]
    )
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    for key in ("seed", "hands", "a", "b", "pair_score", "elo", "nelo", "los"):
        assert key in d
    for side in ("a", "b"):
        for key in ("hand_win_rate", "kot_rate", "hakem_kot_rate", "points_per_hand"):
            assert {"value", "low", "high"} <= set(d[side][key])
    assert d["hands"] == 2000


def test_run_matches_json(tmp_path):
    res = CliRunner().invoke(
        main,
        ["run", A, B, "--matches", "300", "--seed", "2", "--json", "--out", str(tmp_path / "m")],
    )
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert d["matches"] == 600 and d["match_pairs"] == 300
    assert {"value", "low", "high"} <= set(d["a"]["match_win_rate"])
    assert d["a"]["match_win_rate"]["value"] > 0.9
    assert d["match_length"]["mean_hands"] >= 4


def test_run_matches_with_a_house_rule_for_the_first_hakem(tmp_path, runner):
    """--first-hakem: recorded in the summary, the report and its command; the matches are
    the ones traced with the same rule; resuming keeps it; first ace stays the default."""
    cli = CliRunner()
    base = ["run", A, B, "--matches", "40", "--seed", "5", "--target", "3", "--json"]
    plain = json.loads(cli.invoke(main, [*base, "--out", str(tmp_path / "p")]).output)
    assert plain["config"]["first_hakem"] == "first-ace"
    command = json.loads((tmp_path / "p" / "summary.json").read_text())["command"]
    assert "--first-hakem" not in command
    out = tmp_path / "h"
    res = cli.invoke(main, [*base, "--first-hakem", "highest-two", "--out", str(out)])
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert d["config"]["first_hakem"] == "highest-two"
    command = json.loads((out / "summary.json").read_text())["command"]
    assert command.endswith("--target 3 --first-hakem highest-two")
    assert "first Hakem by highest-two" in (out / "report.md").read_text()
    # the counts are those of the traced matches under the same rule
    r_ = runner(A, B)
    hands = sum(len(r_.trace_match(5, m, 3, c, first_hakem=2)) for m in range(40) for c in (0, 1))
    assert d["hands"] == hands and d != plain
    # a resumed run keeps the rule: the checkpoint records it
    assert Checkpoint.load(out).config["run"]["first_hakem"] == "highest-two"
    bad = cli.invoke(main, ["run", A, B, "--hands", "10", "--first-hakem", "highest-card"])
    assert bad.exit_code == 2 and "--first-hakem" in bad.stderr and "--matches" in bad.stderr
    bad = cli.invoke(main, ["run", A, B, "--matches", "10", "--first-hakem", "two-aces"])
    assert bad.exit_code == 2 and "first-ace" in bad.stderr


def test_run_no_duplicate_and_save_hands(tmp_path):
    import pandas as pd

    out = tmp_path / "s"
    res = CliRunner().invoke(
        main, ["run", A, B, "--hands", "1500", "--seed", "4", "--save-hands", "--out", str(out)]
    )
    assert res.exit_code == 0, res.output
    df = pd.read_parquet(out / "hands.parquet")
    assert len(df) == 3000 and set(df["copy"]) == {0, 1}
    summary = json.loads((out / "summary.json").read_text())
    wins = int((df["a_points"] > 0).sum())
    assert wins == summary["a"]["hand_win_rate"]["count"]
    res = CliRunner().invoke(
        main,
        [
            "run",
            A,
            B,
            "--hands",
            "1500",
            "--seed",
            "4",
            "--no-duplicate",
            "--out",
            str(tmp_path / "n"),
        ],
    )
    assert res.exit_code == 0
    assert "not in duplicate" in res.output


@pytest.mark.parametrize(
    "args, needle",
    [
        (["run", "nosuchbot", B], "valid names"),
        (["run", A, B, "--hands", "0"], "positive"),
        (["run", A, B, "--hands", "-5"], "not a count"),
        (["run", A, B, "--hands", "lots"], "not a count"),
        (["run", A, B, "--hands", "10", "--matches", "10"], "not both"),
        (["run", A, B, "--seed", "-1"], "not a whole number in 0 .. 2**64-1"),
        (["run", A, B, "--target", "0"], "--target"),
        (["run", A, B, "--threads", "0"], "thread"),
    ],
)
def test_run_bad_input(args, needle):
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2
    assert needle in res.output
    assert "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_run_unwritable_out(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    res = CliRunner().invoke(main, ["run", A, B, "--hands", "10", "--out", str(blocker)])
    assert res.exit_code == 2 and "is a file" in res.output
    res = CliRunner().invoke(main, ["run", A, B, "--hands", "10", "--out", str(blocker / "sub")])
    assert res.exit_code == 2 and "cannot write" in res.output


def test_same_strategy_twice_is_a_calibration():
    s = hokm_sim.run(A, A, hands=2000, seed=1)
    # Deterministic bots in duplicate mirror each other exactly: every pair is split.
    assert s.data["pair_counts"]["split"] == 2000
    assert s.data["pair_score"]["value"] == 0.5
    assert s.data["pair_score"]["low"] is None  # zero variance: no interval, not 0.5 +- 0
    assert not math.isnan(s.data["a"]["hand_win_rate"]["value"])


def test_interrupt_writes_partial_report(monkeypatch, tmp_path):
    """A Ctrl-C during a run stops after the batch and marks the summary partial."""
    import signal

    from hokm_sim import api

    calls = {"n": 0}

    def on_batch(start, count):
        calls["n"] += 1
        if calls["n"] == 1:
            signal.raise_signal(signal.SIGINT)

    s = api.run(A, B, hands=400_000, seed=2, threads=1, on_batch=on_batch)
    assert s.partial
    assert 0 < s.data["config"]["done"] < 400_000
    assert s.data["pairs"] == s.data["config"]["done"]


def _wait_for_checkpoint(proc, folder, timeout: float = 120.0) -> int:
    """Deals done in ``folder``'s checkpoint once some (not all) are; the process must run."""
    import time

    from hokm_sim.sim.checkpoint import CheckpointError

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        assert proc.poll() is None, "the run ended before it could be killed"
        try:
            done = Checkpoint.load(folder).done_count
        except CheckpointError:  # the folder exists before its first checkpoint
            done = 0
        if done:
            return done
        time.sleep(0.01)
    raise AssertionError("no checkpoint appeared")


def test_run_killed_by_a_signal_resumes_to_the_uninterrupted_counts(tmp_path):
    """SIGKILL a real `hokm-sim run` mid-way, then --resume: the same counts as one go."""
    import os
    import signal
    import subprocess
    import sys

    out = tmp_path / "killed"
    args = ["run", A, B, "--hands", "600k", "--seed", "13", "--threads", "1"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "hokm_sim", *args, "--task-size", "8192", "--out", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=os.environ.copy(),  # HOKM_SIM_CACHE: load the engine the suite compiled
    )
    try:
        seen = _wait_for_checkpoint(proc, out)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    assert not (out / "summary.json").exists()  # killed: no report, only the checkpoint
    cp = Checkpoint.load(out)
    assert seen <= cp.done_count < 600_000
    resumed = CliRunner().invoke(main, ["run", "--resume", str(out), "--json"])
    assert resumed.exit_code == 0, resumed.output
    got = json.loads((out / "summary.json").read_text())
    whole = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "whole")])
    assert whole.exit_code == 0, whole.output
    want = json.loads((tmp_path / "whole" / "summary.json").read_text())
    assert got["counts"] == want["counts"] and got["pairs"] == 600_000
    assert got["command"] == want["command"] and not got["partial"]
    assert Checkpoint.load(out).done == [(0, 600_000)]


def test_interrupted_run_resumes_from_its_checkpoint(tmp_path, monkeypatch):
    """Ctrl-C: partial report and exit 130; --resume finishes to the one-go counts."""
    import signal

    from hokm_sim.sim import run as played

    out = tmp_path / "r"
    calls = {"n": 0}
    execute = played.execute

    def interrupt_once(*a, **kw):
        def on_batch(start, count):
            calls["n"] += 1
            if calls["n"] == 2:
                signal.raise_signal(signal.SIGINT)

        return execute(*a, **(kw | {"on_batch": on_batch}))

    args = ["run", A, B, "--matches", "2000", "--seed", "5", "--threads", "1"]
    monkeypatch.setattr(played, "execute", interrupt_once)  # api.run imports it when it runs
    res = CliRunner().invoke(main, [*args, "--task-size", "256", "--out", str(out)])
    monkeypatch.undo()
    assert res.exit_code == 130, res.output
    assert f"--resume {out}" in res.output
    part = json.loads((out / "summary.json").read_text())
    assert part["partial"] and part["matches"] == 2 * 512
    again = CliRunner().invoke(main, ["run", "--resume", str(out), "--threads", "1"])
    assert again.exit_code == 0, again.output
    whole = hokm_sim.run(A, B, matches=2000, seed=5)
    got = json.loads((out / "summary.json").read_text())
    assert got["counts"] == [int(x) for x in whole.counts] and not got["partial"]


def test_resume_refusals(tmp_path):
    res = CliRunner().invoke(main, ["run", "--resume", str(tmp_path)])
    assert res.exit_code == 2 and "nothing to resume" in res.output
    out = tmp_path / "r"
    ok = CliRunner().invoke(main, ["run", A, B, "--hands", "1k", "--seed", "1", "--out", str(out)])
    assert ok.exit_code == 0, ok.output
    for extra in (["--hands", "2k"], [A, B], ["--seed", "2"], ["--force"]):
        res = CliRunner().invoke(main, ["run", *extra, "--resume", str(out)])
        assert res.exit_code == 2 and "drop" in res.output, res.output
        assert len(res.output.strip().splitlines()) == 1
    cp = json.loads((out / "checkpoint.json").read_text())
    cp["config"]["engine"] = "hokm_engine_other"
    (out / "checkpoint.json").write_text(json.dumps(cp))
    res = CliRunner().invoke(main, ["run", "--resume", str(out)])
    assert res.exit_code == 2 and "changed since" in res.output


def test_small_runs_are_cut_into_enough_chunks_to_use_every_thread():
    from hokm_sim.sim.runner import HAND_CHUNK, MATCH_CHUNK, default_chunk

    assert default_chunk(True, 150, 2) == 19  # 8 chunks: 4 a thread, not 1 of 256
    assert default_chunk(False, 100, 1) == 25
    assert default_chunk(False, 10_000_000, 2) == HAND_CHUNK
    assert default_chunk(True, 100_000, 8) == MATCH_CHUNK
    assert default_chunk(True, 1, 2) == 1
