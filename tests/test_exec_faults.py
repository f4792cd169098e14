"""Every fault of the protocol stops a run in one line, exit 4, the partial report kept.

``tests/bots/protobot.py MODE`` plays cleanly, then breaks the protocol in
the way MODE says at a card request of seat 1 in the third trick (or at its
trump call, or at hello). Each run is ``hokm-sim run`` against the compiled
``random`` (the stepper of ``test_python_bots``), big enough that the fault
comes in a later batch than the first, so a partial report has finished
batches in it. The line must name the strategy, what went wrong, the seed,
hand and trick and the ``hokm-sim show`` command, and no bot process may be
left behind.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from processes import processes_holding

from hokm_sim.cli import main

ROOT = Path(__file__).resolve().parents[1]
PROTOBOT = ROOT / "tests" / "bots" / "protobot.py"


pytestmark = pytest.mark.usefixtures("reap_bots")


def bot_processes(marker: str) -> list[int]:
    """Pids of live ``protobot.py`` processes whose arguments hold ``marker``."""
    return [p for p in processes_holding(marker) if str(PROTOBOT) in _argv(p)]


def _argv(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return []


def no_bots_left(marker: str, wait: float = 10.0) -> bool:
    """Whether every bot process with ``marker`` is gone (within ``wait`` seconds)."""
    end = time.monotonic() + wait
    while bot_processes(marker) and time.monotonic() < end:
        time.sleep(0.05)
    return not bot_processes(marker)


CASES = [
    ("hang", "gave no answer to decide within"),
    ("exit", "exited with status 3 before bye; its last stderr line: 'boom: cannot go on'"),
    ("kill", "was killed by SIGSEGV before bye"),
    ("quit", "exited with status 0 before bye"),
    ("close", "closed its standard output before bye"),
    ("garbage", "answered a line that is not JSON: 'this is not json'"),
    ("array", "answered a line that is not a JSON object"),
    ("deep", "answered a line that is not JSON: '[[[["),
    ("type", "answered type 'hello' to a decide message; expected 'answers'"),
    ("missing", "answers to"),
    ("extra", "answers to"),
    ("order", "where request id 0 was due"),
    ("suit", "to a trump call: a suit is one of C, D, H, S"),
    ("illegal", "a card it does not hold, not one of its legal cards"),
    ("error", "answered an error: cannot decide this one"),
    ("twice", "wrote more than one line for one message"),
    ("hello-hang", "gave no answer to hello within 1 s"),
    ("hello-protocol", "speaks protocol 'hokm-bot/2', not 'hokm-bot/1'"),
]


@pytest.mark.parametrize(("mode", "what"), CASES, ids=[m for m, _ in CASES])
def test_a_protocol_fault_stops_the_run_in_one_line(tmp_path, mode, what):
    marker = f"{mode}-{tmp_path.name}"
    spec = f"exec:{sys.executable} {PROTOBOT} {mode} {tmp_path / marker}"
    out = tmp_path / "run"
    args = ["run", spec, "random", "--hands", "3000", "--seed", "3", "--threads", "2",
            "--bot-timeout", "1", "--task-size", "600", "--out", str(out)]  # fmt: skip
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 4, res.output
    line = res.output.strip()
    assert line.count("\n") == 0 and line.startswith(f"Error: strategy {shlex.quote(spec)}")
    assert what in line, line
    where = r"at seed 3, hand \d+, (trick \d+|at trump choice); replay it with: "
    replay = r"hokm-sim show --seed 3 --hand \d+ --a .+ --b random( --copy 1)?"
    assert re.search(where + replay, line), line
    assert f"(partial report: {out})" in line
    summary = json.loads((out / "summary.json").read_text())
    assert summary["partial"] is True
    fault = line.removeprefix("Error: ").split(" (partial report: ")[0]
    assert summary["fault"] == fault  # the report says why it is partial
    report = (out / "report.md").read_text()
    assert "the run stopped at a bot fault" in report and fault in report
    assert "interrupted" not in report
    assert no_bots_left(marker), f"bot processes left: {bot_processes(marker)}"


def test_the_fault_is_the_first_by_hand_whatever_the_threads(tmp_path):
    """An illegal card is its own request's fault: the same line on 1 and 2 threads and
    with few hands in flight."""
    spec = f"exec:{sys.executable} {PROTOBOT} illegal"
    lines = []
    for threads in ("1", "2"):
        args = ["run", spec, "random", "--hands", "400", "--seed", "3", "--threads", threads]
        res = CliRunner().invoke(main, [*args, "--out", str(tmp_path / threads)])
        assert res.exit_code == 4
        lines.append(res.output.split(" (partial report")[0])
    assert lines[0] == lines[1]


def test_the_replay_command_reproduces_the_fault(tmp_path):
    spec = f"exec:{sys.executable} {PROTOBOT} illegal"
    args = ["run", spec, "random", "--hands", "200", "--seed", "3", "--bot-timeout", "20"]
    res = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "r")])
    replay = res.output.split("replay it with: ")[1].split(" (partial report")[0]
    assert replay.endswith("--bot-timeout 20.0"), replay  # the limit it was played with
    again = CliRunner().invoke(main, shlex.split(replay)[1:])
    assert again.exit_code == 4 and "not one of its legal cards" in again.output


def test_a_noisy_bot_does_not_stall_and_ends_with_bye(tmp_path):
    """20,000 lines of stderr a message do not fill a pipe; the bot gets bye at the end."""
    marker = tmp_path / "messages"
    spec = f"exec:{sys.executable} {PROTOBOT} noise {marker}"
    res = CliRunner().invoke(main, ["run", spec, "random", "--hands", "200", "--seed", "3",
                                    "--threads", "1", "--out", str(tmp_path / "r")])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert no_bots_left(str(marker))
    got = marker.read_text().split()
    assert got[0] == "hello" and got[-1] == "bye" and got.count("hello") == got.count("bye")


def test_bad_exec_specs_are_usage_errors(tmp_path):
    for spec, what in [("exec:", "empty exec command"),
                       ("exec:/no/such/bot", "does not exist"),
                       ("exec:no-such-program-anywhere", "not on PATH")]:  # fmt: skip
        res = CliRunner().invoke(main, ["run", spec, "random", "--hands", "10",
                                        "--out", str(tmp_path / "x")])  # fmt: skip
        assert res.exit_code == 2 and what in res.output
    assert not os.path.exists(tmp_path / "x")


def _trace_fault(spec: str, *options: str, seat: str = "--a") -> str:
    """The one line of a ``trace`` stopped by the protocol bot ``spec`` in ``seat``."""
    other = "--b" if seat == "--a" else "--a"
    args = ["trace", "--seed", "3", "--hands", "30", seat, spec, other, "random", *options]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 4, res.output
    line = res.stderr.strip()
    assert line.count("\n") == 0, line
    return line


@pytest.mark.parametrize(
    ("mode", "first_of"),
    [("hello-protocol", False), ("first", True)],
    ids=["hello", "trump-calls"],
)
def test_a_whole_message_fault_at_a_trump_call_is_named_at_trump_choice(tmp_path, mode, first_of):
    """Hand 0's Hakem is seat 0 (--a): the first request asked of the bot is its trump call.
    A failed hello is no message of requests: no "first of N requests"."""
    spec = f"exec:{sys.executable} {PROTOBOT} {mode} {tmp_path / mode}"
    line = _trace_fault(spec, "--bot-timeout", "5")
    assert "(seat 0) at seed 3, hand 0, at trump choice; replay it with: " in line, line
    assert ("requests in the message)" in line) == first_of, line


def test_trace_holds_bots_to_its_bot_timeout_and_replays_with_it(tmp_path):
    """The hands of a trace are played as its lines are written, after the call that took
    --bot-timeout: they are held to it all the same (the fault says the limit)."""
    spec = f"exec:{sys.executable} {PROTOBOT} hang {tmp_path / 'hang'}"
    line = _trace_fault(spec, "--bot-timeout", "1", seat="--b")
    assert re.search(r"gave no answer to decide within 1(\.\d+)? s", line), line
    assert line.endswith("--bot-timeout 1.0"), line  # the replay command keeps the limit
