"""No bot process outlives hokm-sim, nor any process a bot started: killed, interrupted,
terminated, hung up or crashed.

Each test starts ``hokm-sim run`` (or ``tournament``) with protocol bots in a process
of its own (its own session, as a terminal would), waits until the bots answer, ends
hokm-sim one way or another, and then looks through ``/proc`` for any process whose
command line holds the test's marker. ``tests/bots/protobot.py`` writes every message
it gets to the marker file, so a test can also see whether the bots got ``bye``; in
mode ``family`` each bot starts three helpers at ``hello``, one in its process group,
one in a session of its own and a daemon whose parent has exited, and those must go
too.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_exec_faults import PROTOBOT, bot_processes, no_bots_left

pytestmark = [
    pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux's /proc"),
    pytest.mark.usefixtures("reap_bots"),
]
FAMILY = 4
"""Processes of one bot in mode ``family``: itself and its three helpers."""


def start(
    tmp_path: Path, matches: int = 2000, mode: str = "family", command: str = "run"
) -> tuple[subprocess.Popen, Path]:
    """``hokm-sim run`` of a protocol bot against ``random``, ``matches`` long in chunks of
    an eighth and batches of a quarter: two chunks (two threads, two bot processes) a
    batch; or a ``tournament`` of the two on ``matches`` deals; started, and both bots
    answering (with their helpers, in mode ``family``)."""
    marker = tmp_path / "messages"
    spec = f"exec:{sys.executable} {PROTOBOT} {mode} {marker}"
    if command == "run":
        how = ["--matches", str(matches), "--task-size", str(matches // 4)]
    else:
        how = ["--hands", str(matches)]
    args = [sys.executable, "-m", "hokm_sim", command, spec, "random", *how, "--seed", "1",
            "--threads", "2", "--bot-timeout", "60", "--out", str(tmp_path / "run")]  # fmt: skip
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)  # fmt: skip
    each = FAMILY if mode == "family" else 1
    end = time.monotonic() + 240
    started = False
    while not started and time.monotonic() < end:  # until both threads' bots answer
        text = marker.read_text() if marker.exists() else ""
        # the count, once: a helper's double fork passes through a third process for a moment
        started = (
            text.count("hello") == 2
            and text.count("decide") >= 4
            and len(bot_processes(str(marker))) == 2 * each
        )
        if not started and proc.poll() is not None:
            pytest.fail(f"hokm-sim ended early: {proc.communicate()[1].decode()[-500:]}")
        time.sleep(0 if started else 0.1)
    assert started, bot_processes(str(marker))
    return proc, marker


def finish(proc: subprocess.Popen) -> tuple[int, str]:
    _, err = proc.communicate(timeout=120)
    return proc.returncode, err.decode()


@pytest.mark.parametrize("mode", ["ok", "family"])
def test_killed_hokm_sim_takes_its_bots_and_their_helpers_along(tmp_path, mode):
    """SIGKILL: the kernel kills the bots, and the watchdog what they started."""
    proc, marker = start(tmp_path, mode=mode)
    os.kill(proc.pid, signal.SIGKILL)
    assert finish(proc)[0] == -signal.SIGKILL
    assert no_bots_left(str(marker)), bot_processes(str(marker))


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_terminated_hokm_sim_stops_as_on_ctrl_c(tmp_path, sig, code):
    """SIGTERM (or a hang-up) is Ctrl-C: the batch in flight ends, the partial report is
    written, the bots get bye and go with their helpers; exit 128 + the signal."""
    proc, marker = start(tmp_path, 400)
    os.kill(proc.pid, sig)
    got, err = finish(proc)
    assert got == code, err
    assert "interrupted: the report covers only the finished batches" in err
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["partial"] is True and summary["config"]["done"] > 0
    assert no_bots_left(str(marker)), bot_processes(str(marker))
    assert marker.read_text().split().count("bye") == 2


def test_a_terminated_tournament_ends_the_bots_and_their_helpers(tmp_path):
    """Its one pairing is one batch, left behind after the grace time: the report is
    marked partial with nothing played."""
    proc, marker = start(tmp_path, 20_000, command="tournament")
    os.kill(proc.pid, signal.SIGTERM)
    got, err = finish(proc)
    assert got == 143, err
    assert "interrupted: the report covers only the finished batches" in err
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["partial"] is True and summary["done"] == 0
    assert no_bots_left(str(marker)), bot_processes(str(marker))


def test_ctrl_c_keeps_the_partial_report_and_ends_the_bots_with_bye(tmp_path):
    # batches of 100 matches, which end well within the 1.5 s a Ctrl-C waits for one
    # (a batch that does not is left behind, and its bots are killed without bye)
    proc, marker = start(tmp_path, 400)
    os.killpg(proc.pid, signal.SIGINT)  # the terminal's Ctrl-C: the whole foreground group
    code, err = finish(proc)
    assert code == 130, err
    assert (tmp_path / "run" / "summary.json").exists()
    assert no_bots_left(str(marker)), bot_processes(str(marker))
    assert marker.read_text().split().count("bye") == 2


def test_a_second_ctrl_c_stops_at_once_and_still_ends_the_bots(tmp_path):
    proc, marker = start(tmp_path)
    os.killpg(proc.pid, signal.SIGINT)
    time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    code, err = finish(proc)
    assert code == 130, err
    assert no_bots_left(str(marker)), bot_processes(str(marker))


def test_a_python_program_that_dies_of_an_exception_ends_its_bots(tmp_path):
    marker = tmp_path / "messages"
    script = (
        "import sys, hokm_sim\n"
        f"hokm_sim.run({f'exec:{sys.executable} {PROTOBOT} family {marker}'!r}, 'random', "
        "hands=50, seed=1, threads=2)\n"
        "raise RuntimeError('the notebook crashed')\n"
    )
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=300,
                         check=False)  # fmt: skip
    assert res.returncode == 1 and b"the notebook crashed" in res.stderr
    assert no_bots_left(str(marker))
    text = marker.read_text().split()
    assert text.count("hello") == text.count("bye") > 0


def test_ctrl_c_in_a_program_that_goes_on_kills_a_bot_that_loops_at_once(tmp_path):
    """The API in a program that keeps running after Ctrl-C: the engine call held up by
    a bot busy in a loop (deaf to its input, given 600 s to answer) is left behind
    after the grace time, and its bot is killed then, not at the program's end."""
    marker, after = tmp_path / "messages", tmp_path / "after"
    spec = f"exec:{sys.executable} {PROTOBOT} spin {marker}"
    script = (
        "import pathlib, sys, time, hokm_sim\n"
        f"s = hokm_sim.run({spec!r}, 'random', hands=2000, seed=1, threads=1, bot_timeout=600)\n"
        f"pathlib.Path({str(after)!r}).write_text('partial' if s.partial else 'whole')\n"
        "time.sleep(600)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE,
                            start_new_session=True)  # fmt: skip
    end = time.monotonic() + 240
    while "spin" not in (marker.read_text() if marker.exists() else ""):
        assert proc.poll() is None, proc.communicate()[1].decode()[-500:]
        assert time.monotonic() < end, "the bot never got to its loop"
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGINT)
    while not after.exists() and time.monotonic() < end:
        assert proc.poll() is None, proc.communicate()[1].decode()[-500:]
        time.sleep(0.05)
    assert after.read_text() == "partial"
    assert no_bots_left(str(marker), wait=2.0), bot_processes(str(marker))
    assert proc.poll() is None  # the program still runs: the bot went before it
