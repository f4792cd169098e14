"""Runs on a Dask cluster: same counts as threads, faults once, lost workers, no Dask.

One local Dask cluster of two single-threaded worker processes on the
loopback interface is started for the module and stopped after it; the
workers inherit ``HOKM_SIM_CACHE`` and load the engines the suite compiled.
"""

from __future__ import annotations

import json
import os
import signal
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from hokm_sim import api
from hokm_sim.bots.registry import resolve
from hokm_sim.cli import main
from hokm_sim.errors import StoppedError
from hokm_sim.sim.checkpoint import Checkpoint
from hokm_sim.sim.run import RunConfig, checkpoint_record, execute, resume_config
from hokm_sim.sim.runner import Runner, default_threads

distributed = pytest.importorskip("distributed")

A, B = "longest", "random"
BOT = os.path.join(os.path.dirname(__file__), "bots", "faulty.py")


@pytest.fixture(scope="module")
def cluster():
    """A two-worker local cluster on loopback, and a client to inspect it.

    The pair's engine is loaded (or compiled) here first, so the workers find it in the
    cache instead of both compiling it at once."""
    api.run(A, B, hands=1, threads=1)
    api.run(A, B, matches=1, threads=1)
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",
        ) as c,
        distributed.Client(c) as client,
    ):
        yield c.scheduler_address, client


def _run(tmp_path, name: str, *extra: str) -> list[int]:
    out = tmp_path / name
    res = CliRunner().invoke(
        main,
        ["run", A, B, "--hands", "30k", "--seed", "21", "--out", str(out), *extra],
    )
    assert res.exit_code == 0, res.output
    return json.loads((out / "summary.json").read_text())["counts"]


def test_threads_and_dask_workers_give_identical_counts(tmp_path, cluster):
    address, _ = cluster
    one = _run(tmp_path, "t1", "--threads", "1")
    assert _run(tmp_path, "t2", "--threads", str(min(2, default_threads()))) == one
    # 30k deals in tasks of one 8192-deal chunk: 4 tasks, finishing in any order.
    assert _run(tmp_path, "d2", "--scheduler", address, "--task-size", "8192") == one
    assert _run(tmp_path, "l1", "--scheduler", "local:1") == one
    done = Checkpoint.load(tmp_path / "d2")
    assert done.done == [(0, 30_000)] and done.counts.tolist() == one


def test_matches_on_dask_match_threads(cluster):
    address, _ = cluster
    local = api.run(A, B, matches=600, seed=4, threads=1)
    remote = api.run(A, B, matches=600, seed=4, scheduler=address)
    assert np.array_equal(local.counts, remote.counts)


def test_interrupted_dask_run_resumes_to_the_same_counts(tmp_path, cluster):
    """Ctrl-C on a Dask run: partial summary, checkpoint; resuming gives the full counts."""
    address, _ = cluster
    cfg = RunConfig(a=A, b=B, hands=60_000, seed=8, scheduler=address, task=8192)
    sa, sb = resolve(A), resolve(B)
    cp = Checkpoint.create(tmp_path, checkpoint_record(cfg, "x"), cfg.total)

    def on_batch(start, count):
        if len(cp.done) == 1 and cp.done_count < cfg.total:
            signal.raise_signal(signal.SIGINT)

    part = execute(cfg, sa, sb, on_batch=on_batch, checkpoint=cp)
    assert part.partial and 0 < cp.done_count < cfg.total
    again = Checkpoint.load(tmp_path)
    assert again.done == cp.done and np.array_equal(again.counts, part.counts)
    full = execute(resume_config(again.config, threads=1), sa, sb, checkpoint=again)
    assert not full.partial
    ref = api.run(A, B, hands=60_000, seed=8, threads=1)
    assert np.array_equal(full.counts, ref.counts)


def test_killed_worker_loses_only_its_task(cluster):
    """SIGKILL one worker process mid-run: its task runs again elsewhere, counts unchanged."""
    address, client = cluster
    pids = list(client.run(os.getpid).values())
    killed = []

    def on_batch(start, count):
        if not killed:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(start)

    cfg = RunConfig(a=A, b=B, hands=80_000, seed=6, scheduler=address, task=8192)
    got = execute(cfg, resolve(A), resolve(B), on_batch=on_batch)
    assert killed and not got.partial
    ref = api.run(A, B, hands=80_000, seed=6, threads=1)
    assert np.array_equal(got.counts, ref.counts)
    client.wait_for_workers(2, timeout=60)  # the nanny restarts it for the next tests


def test_strategy_fault_on_dask_is_the_local_one_in_one_line(tmp_path, cluster):
    address, _ = cluster
    spec = f"{BOT}(mode=0)"
    args = ["run", spec, f"{BOT}(mode=5)", "--hands", "40k", "--seed", "11"]
    local = CliRunner().invoke(main, [*args, "--threads", "1", "--out", str(tmp_path / "l")])
    remote = CliRunner().invoke(
        main, [*args, "--scheduler", address, "--task-size", "8192", "--out", str(tmp_path / "r")]
    )
    assert local.exit_code == remote.exit_code == 4
    # The same fault, found at the same deal; each keeps its partial report in its folder.
    assert f"(partial report: {tmp_path / 'l'})" in local.output
    assert remote.output == local.output.replace(str(tmp_path / "l"), str(tmp_path / "r"))
    assert len(remote.output.strip().splitlines()) == 1
    assert (
        "seed 11" in remote.output
        and "trick" in remote.output
        and "Traceback" not in (remote.output)
    )


def test_missing_dask_is_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    res = CliRunner().invoke(main, ["run", A, B, "--hands", "1k", "--scheduler", "local:2"])
    assert res.exit_code == 2
    assert "pip install 'hokm-sim[dask]'" in res.output
    assert len(res.output.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "value, needle",
    [("local:0", "local:N"), ("local:x", "local:N"), ("tcp://a b", "address")],
)
def test_bad_scheduler_is_one_line(value, needle):
    res = CliRunner().invoke(main, ["run", A, B, "--hands", "1k", "--scheduler", value])
    assert res.exit_code == 2 and needle in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_unreachable_scheduler_is_one_line(tmp_path, monkeypatch):
    from hokm_sim.sim import backends as d

    monkeypatch.setattr(d, "CONNECT_TIMEOUT", "1s")
    res = CliRunner().invoke(
        main,
        ["run", A, B, "--hands", "1k", "--scheduler", "tcp://127.0.0.1:9", "--out", str(tmp_path)],
    )
    assert res.exit_code == 2 and "cannot reach Dask scheduler" in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_dask_batches_in_deal_order_carry_every_pair_code(cluster):
    """Ordered consumption (regress): tasks finish in any order, pairs come in deal order."""
    from hokm_sim.sim.backends import Dask, Work

    address, _ = cluster
    sa, sb = resolve(A), resolve(B)
    work = Work(seed=3, codes=True, per_task=4096)
    with distributed.Client(address) as client:
        got = list(Dask(client).batches(Runner(sa, sb), work, [(0, 30_000)], ordered=True))
    assert [b.start for b in got] == list(range(0, 30_000, 4096))
    local = list(Runner(sa, sb).batches(3, 30_000, threads=1, codes=True))
    assert np.array_equal(
        np.concatenate([b.codes for b in got]), np.concatenate([b.codes for b in local])
    )


def test_regress_verdict_on_dask_is_the_local_one(cluster):
    address, _ = cluster
    args = ["regress", A, "--baseline", B, "--seed", "2", "--metric", "points", "--json"]
    local = CliRunner().invoke(main, [*args, "--threads", "1"])
    remote = CliRunner().invoke(main, [*args, "--scheduler", address])
    assert local.exit_code == remote.exit_code == 0, remote.output
    one, two = json.loads(local.output), json.loads(remote.output)
    assert (one["pairs"], one["counts"], one["llr"]) == (two["pairs"], two["counts"], two["llr"])


def test_tournament_blocks_on_dask_are_the_local_ones(cluster):
    from hokm_sim.analysis.tournament import play

    address, _ = cluster
    strats = [resolve(A), resolve(B)]
    local = play(strats, seed=3, deals=20_000, threads=1)
    remote = play(strats, seed=3, deals=20_000, scheduler=address)
    assert np.array_equal(local.blocks, remote.blocks) and local.blocks.sum() == 20_000


def test_trump_study_rows_on_dask_are_the_local_ones(cluster):
    from hokm_sim.analysis import trumpstudy as ts

    address, _ = cluster
    player, heur = resolve(A), [resolve("points")]
    local = ts.collect(player, heur, seed=4, deals=20_000, threads=1)
    remote = ts.collect(player, heur, seed=4, deals=20_000, scheduler=address)
    for field in ("five", "hand", "points", "tricks"):
        assert np.array_equal(getattr(local, field), getattr(remote, field)), field
    assert np.array_equal(local.calls["points"], remote.calls["points"])
    assert local.points.any() and (remote.five != 0).all()


def test_trump_study_with_an_unreachable_scheduler_is_one_line(tmp_path, monkeypatch):
    from hokm_sim.sim import backends as d

    monkeypatch.setattr(d, "CONNECT_TIMEOUT", "1s")
    res = CliRunner().invoke(
        main,
        ["trump-study", "--player", A, "--heuristics", "longest", "--hands", "1000", "--seed",
         "1", "--scheduler", "tcp://127.0.0.1:9", "--out", str(tmp_path / "s")],
    )  # fmt: skip
    assert res.exit_code == 2
    assert len(res.output.strip().splitlines()) == 1
    assert "cannot reach Dask scheduler tcp://127.0.0.1:9" in res.output


def test_ctrl_c_at_the_terminal_stops_a_local_cluster_run_cleanly(tmp_path):
    """SIGINT to the whole process group (a terminal's Ctrl-C) of `run --scheduler local:1`:
    the workers ignore it, the client stops after the tasks in flight, writes a partial
    report (exit 130), and --resume finishes to the uninterrupted counts."""
    import subprocess
    import time

    out = tmp_path / "cc"
    args = ["run", A, B, "--hands", "1M", "--seed", "17"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "hokm_sim", *args, "--scheduler", "local:1"]
        + ["--task-size", "8192", "--out", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        end = time.monotonic() + 120
        while not (out / "checkpoint.json").exists() or not Checkpoint.load(out).done_count:
            assert proc.poll() is None and time.monotonic() < end, "no progress to interrupt"
            time.sleep(0.01)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and f"--resume {out}" in err
    assert json.loads((out / "summary.json").read_text())["partial"]
    res = CliRunner().invoke(main, ["run", "--resume", str(out), "--threads", "1"])
    assert res.exit_code == 0, res.output
    whole = api.run(A, B, hands=1_000_000, seed=17, threads=1)
    assert json.loads((out / "summary.json").read_text())["counts"] == whole.counts.tolist()


def test_a_task_that_raises_is_retried_and_counts_are_unchanged(cluster):
    """Every worker fails its next task once (an injected exception): Dask runs those
    tasks again and the counts are the local ones."""
    address, client = cluster

    def break_once() -> None:
        import hokm_sim.sim.backends as d

        real, failed = d.worker_runner, []

        def flaky(*args):
            if not failed:
                failed.append(True)
                raise RuntimeError("injected worker failure")
            return real(*args)

        d.worker_runner, d._unbroken = flaky, real

    def mend() -> None:
        import hokm_sim.sim.backends as d

        d.worker_runner = d._unbroken

    client.run(break_once)
    try:
        got = api.run(A, B, hands=40_000, seed=9, scheduler=address)
    finally:
        client.run(mend)
    assert np.array_equal(got.counts, api.run(A, B, hands=40_000, seed=9, threads=1).counts)


def test_a_task_that_always_fails_stops_the_run_with_exit_4_in_one_line(cluster, tmp_path):
    """Retries spent: one line saying why and how to resume, exit code 4 (not 1, which
    regress uses for its verdict)."""
    address, client = cluster

    def break_always() -> None:
        import hokm_sim.sim.backends as d

        def broken(*args):
            raise RuntimeError("injected permanent failure")

        d._unbroken, d.worker_runner = d.worker_runner, broken

    def mend() -> None:
        import hokm_sim.sim.backends as d

        d.worker_runner = d._unbroken

    client.run(break_always)
    try:
        out = tmp_path / "r"
        res = CliRunner().invoke(
            main, ["run", A, B, "--hands", "20k", "--seed", "3", "--scheduler", address,
                   "--out", str(out)],
        )  # fmt: skip
    finally:
        client.run(mend)
    assert res.exit_code == 4, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and "injected permanent failure" in lines[0]
    assert f"--resume {out}" in lines[0]


def test_a_worker_with_other_files_fails_loudly():
    from hokm_sim.sim.backends import EngineMismatch, portable_spec, worker_runner

    sa, sb = resolve(A), resolve(B)
    with pytest.raises(EngineMismatch, match="same hokm-sim and bot files"):
        worker_runner(portable_spec(sa), A, portable_spec(sb), B, "hokm_engine_elsewhere", False)
    right = Runner(sa, sb).engine_key
    assert worker_runner(portable_spec(sa), A, portable_spec(sb), B, right, False).a.name == A


def test_dask_workers_start_their_own_protocol_bots(cluster, tmp_path):
    """An exec: bot on the cluster: each worker starts its own process and the counts
    are the threads'; a protocol fault comes back as the run's fault, not a failed task."""
    address, _ = cluster
    bot = os.path.join(os.path.dirname(__file__), "bots", "protobot.py")
    spec = f"exec:{sys.executable} {bot} ok"
    want = api.run(spec, "random", hands=1000, seed=6, threads=2)
    got = api.run(spec, "random", hands=1000, seed=6, scheduler=address, task=250)
    assert got.to_dict()["counts"] == want.to_dict()["counts"]
    with pytest.raises(StoppedError, match="not one of its legal cards"):
        api.run(f"exec:{sys.executable} {bot} illegal", "random", hands=500, seed=6,
                scheduler=address, task=100)  # fmt: skip
