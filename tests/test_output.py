"""Where output goes when things go wrong: a full disk, a closed pipe, a bot that prints
or calls sys.exit, library warnings. Standard output carries only what hokm-sim means.

Commands run in subprocesses here (a full device and a pipe are properties of the
real file descriptors); the strategies are pairs the suite compiles anyway.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from hokm_sim.cli import main
from hokm_sim.errors import OutputError
from hokm_sim.writing import AtomicWriter, atomic_text

BOTS = Path(__file__).parent / "bots"
PYRANDOM = str(BOTS / "pyrandom.py")


def _hokm(*args, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hokm_sim", *map(str, args)],
                          capture_output=kw.pop("capture", True), text=True, **kw)  # fmt: skip


@pytest.fixture(scope="module")
def deals(tmp_path_factory) -> Path:
    f = tmp_path_factory.mktemp("dd") / "deals.jsonl"
    f.write_text('{"hands": [["AS"], ["KS"], ["QS"], ["JS"]], "trump": "H", "leader": 0}\n')
    return f


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args",
    [
        ["strategies"],
        ["trace", "--seed", "1", "--hands", "3", "--a", "longest", "--b", "random"],
        ["show", "--seed", "1", "--hand", "2", "--a", "longest", "--b", "random"],
        ["sprt", "--wins", "100,400,120", "--json"],
        ["run", "longest", "random", "--hands", "200", "--seed", "1", "--json", "--out", "{tmp}"],
        ["analyse", "--seed", "1", "--hands", "2", "--a", "longest", "--b", "random"],
        ["dd", "{deals}"],
    ],
    ids=lambda a: a[0],
)
def test_a_full_device_is_one_line_and_exit_74(args, tmp_path, deals):
    args = [a.format(tmp=tmp_path / "r", deals=deals) for a in args]
    with open("/dev/full", "w") as full:
        res = subprocess.run([sys.executable, "-m", "hokm_sim", *args], stdout=full,
                             stderr=subprocess.PIPE, text=True)  # fmt: skip
    assert res.returncode == 74, res.stderr
    assert res.stderr.strip() == "Error: cannot write the output: no space left on device"


def test_a_closed_pipe_ends_quietly_with_141():
    proc = subprocess.Popen(
        [sys.executable, "-m", "hokm_sim", "trace", "--seed", "1", "--hands", "3000", "--a",
         "longest", "--b", "random"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout.read(10) == b'{"seed": 1'
    proc.stdout.close()  # as `| head -c 10` does
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 141, err
    assert err == b""


@pytest.mark.parametrize(
    "args", [["--help"], ["--version"], ["strategies"]], ids=["group-help", "version", "command"]
)
def test_a_pipe_closed_before_the_first_write_ends_quietly_with_141(args):
    """The reader gone before anything is written: the top-level ``--help`` and
    ``--version`` (printed by click while it parses, before any command runs; click
    exits 1 for a closed pipe there) and a command's output end as ``| head`` expects."""
    read, write = os.pipe()
    os.close(read)
    try:
        res = subprocess.run([sys.executable, "-m", "hokm_sim", *args], stdout=write,
                             stderr=subprocess.PIPE, timeout=120)  # fmt: skip
    finally:
        os.close(write)
    assert res.returncode == 141, res.stderr
    assert res.stderr == b""


def test_files_on_a_full_disk_name_themselves_and_leave_nothing(tmp_path, monkeypatch):
    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OutputError, match=r"cannot write .*a\.json: no space left on device"):
        atomic_text(tmp_path / "a.json", "{}")
    monkeypatch.undo()

    class Full:
        def write(self, text):
            raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OutputError, match=r"b\.jsonl: no space left on device"):  # noqa: SIM117
        with AtomicWriter(tmp_path / "b.jsonl") as f:
            f.write("x")
            Full().write("y")
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_under_the_checkpoint_writer_is_one_line_and_exit_74(tmp_path, monkeypatch):
    """The checkpoint is rewritten in a thread of its own while the next batch plays: a
    full disk there is the run's one-line error (it printed the thread's traceback)."""
    real_fsync = os.fsync

    def fsync(fd):
        if threading.current_thread().name == "checkpoint":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    uncaught = []
    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(threading, "excepthook", uncaught.append)
    res = CliRunner().invoke(main, ["run", "longest", "random", "--hands", "2000", "--seed", "1",
                                    "--out", str(tmp_path / "r")])  # fmt: skip
    assert uncaught == []
    assert res.exit_code == 74, res.stderr
    assert res.stderr.splitlines() == [
        f"Error: cannot write {tmp_path / 'r' / 'checkpoint.json'}: no space left on device"
    ]


PRINTING = '''"""Prints as it thinks (and plays as the plain-Python port of random beside it)."""
from port import choose_trump as _trump, play_card as _play


def choose_trump(obs):
    print("thinking about trump")
    return _trump(obs)


def play_card(obs):
    print("card!", flush=True)
    return _play(obs)
'''


def test_what_a_bot_prints_goes_to_standard_error(tmp_path):
    bot = tmp_path / "talker.py"
    bot.write_text(PRINTING)
    shutil.copy(PYRANDOM, tmp_path / "port.py")
    runner = CliRunner()
    res = runner.invoke(main, ["trace", "--seed", "1", "--hands", "2", "--a", str(bot),
                               "--b", PYRANDOM])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert [json.loads(line)["hand"] for line in res.stdout.splitlines()] == [0, 1]
    assert "thinking about trump" in res.stderr and "card!" in res.stderr
    args = ["run", str(bot), PYRANDOM, "--hands", "50", "--seed", "1", "--threads", "1",
            "--json", "--out", str(tmp_path / "r")]  # fmt: skip
    res = runner.invoke(main, args)
    assert res.exit_code == 0 and json.loads(res.stdout)["config"]["size"] == 50
    res = runner.invoke(main, ["regress", str(bot), "--baseline", PYRANDOM, "--seed", "1",
                               "--threads", "1", "--max-pairs", "200", "--json"])  # fmt: skip
    assert json.loads(res.stdout)["pairs"] == 200 and "card!" in res.stderr


EXITING = '''"""Leaves in its trump call."""
import sys


def choose_trump(obs):
    sys.exit({code})


def play_card(obs):
    return min(obs.legal_cards)
'''


@pytest.mark.parametrize("code", ["0", "3", "'bye'"])
@pytest.mark.parametrize("command", ["run", "regress", "tournament"])
def test_sys_exit_in_a_bot_is_a_bot_fault(tmp_path, code, command):
    bot = tmp_path / "leaver.py"
    bot.write_text(EXITING.format(code=code))
    args = {
        "run": ["run", bot, PYRANDOM, "--hands", 50, "--out", tmp_path / "r"],
        "regress": ["regress", bot, "--baseline", PYRANDOM, "--max-pairs", 200],
        "tournament": ["tournament", bot, PYRANDOM, "--hands", 50, "--out", tmp_path / "t"],
    }[command]
    res = CliRunner().invoke(main, [str(a) for a in [*args, "--seed", 1, "--threads", 1]])
    assert res.exit_code == 4, (res.exit_code, res.output)
    err = res.stderr.strip()
    assert "\n" not in err and f"strategy '{bot}' called sys.exit({code})" in err
    assert "at trump choice" in err


def test_numba_warnings_never_reach_the_terminal(tmp_path):
    """numba warns on import of its experimental annotations; a bot may import them."""
    bot = tmp_path / "annotated.py"
    bot.write_text(
        '"""Imports an experimental numba module."""\n'
        "import numba.core.annotations.pretty_annotate  # noqa: F401\n"
        "from port import choose_trump, play_card  # noqa: F401\n"
    )
    shutil.copy(PYRANDOM, tmp_path / "port.py")
    res = _hokm("trace", "--seed", 4243, "--hands", 2, "--a", bot, "--b", PYRANDOM)
    assert res.returncode == 0, res.stderr
    assert res.stderr == ""
