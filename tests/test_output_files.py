"""Files that are not hokm-sim's: what ``-o FILE`` (and ``show --html FILE``) does with
what is already at the path.

A device or a named pipe is written to, as a shell's ``>`` would (``-o /dev/stdout``
means standard output); a full device is exit 74 in one line; an existing file is
replaced only with ``--force``; a symbolic link is followed and stays a link; a
folder is refused. Each case runs over every command with ``-o`` (``games``,
``trace``, ``dd``, ``analyse``); the ones that play use the session's longest/random
pair, and ``games`` reads an empty games database.

The devices (``/dev/full``, ``/dev/null``, ``/dev/stdout``) are named through a link
in the test's folder, which hokm-sim follows as it follows any link: code that
replaced what it was given (the fault these tests are for) replaces that link, never
the machine's device, which every other process writes to.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

import hokm_sim
from hokm_sim.cli import main
from hokm_sim.errors import InputError
from hokm_sim.play.store import Store

DEAL = '{"hands": [["AS"], ["KS"], ["QS"], ["JS"]], "trump": "H", "leader": 0}\n'
HAND = ["--seed", "1", "--hands", "1", "--a", "longest", "--b", "random"]


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    """A folder with an empty games database, a deal to solve and a trace to analyse."""
    folder = tmp_path_factory.mktemp("inputs")
    Store(folder).close()
    (folder / "deals.jsonl").write_text(DEAL)
    res = CliRunner().invoke(main, ["trace", *HAND, "-o", str(folder / "hand.jsonl")])
    assert res.exit_code == 0, res.output
    return folder


COMMANDS = {
    "games": ["games", "--data", "{in}"],
    "trace": ["trace", *HAND],
    "dd": ["dd", "{in}/deals.jsonl", "--threads", "1"],
    "analyse": ["analyse", "--trace", "{in}/hand.jsonl", "--format", "summary", "--threads", "1"],
}


@pytest.fixture(params=sorted(COMMANDS))
def command(request, inputs, runner) -> list[str]:
    runner("longest", "random")  # the pair trace and analyse play, compiled once
    return [a.replace("{in}", str(inputs)) for a in COMMANDS[request.param]]


def _invoke(args: list, **kw):
    return CliRunner().invoke(main, [str(a) for a in args], **kw)


def _one_line(res, exit_code: int, *needles: str) -> str:
    assert res.exit_code == exit_code, (res.exit_code, res.output)
    err = res.stderr.strip()
    assert err.startswith("Error:") and "\n" not in err and "Traceback" not in err, err
    for n in needles:
        assert n in err, err
    return err


def _device(tmp_path: Path, device: str) -> Path:
    """A link in ``tmp_path`` to ``device`` (see the module doc)."""
    link = tmp_path / Path(device).name
    link.symlink_to(device)
    return link


def _printed(command: list[str]) -> str:
    res = _invoke(command)
    assert res.exit_code == 0, res.output
    return res.stdout


def test_a_new_file_is_written_and_an_existing_one_only_with_force(command, tmp_path):
    out = tmp_path / "out.txt"
    assert _invoke([*command, "-o", out]).exit_code == 0
    assert out.read_text() == _printed(command) != ""
    out.write_text("mine\n")
    _one_line(_invoke([*command, "-o", out]), 2, "--output:", "exists", "--force")
    assert out.read_text() == "mine\n"
    assert _invoke([*command, "-o", out, "--force"]).exit_code == 0
    assert out.read_text() == _printed(command)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]  # no temporary left


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_device_is_written_to_and_is_exit_74(command, tmp_path):
    full = _device(tmp_path, "/dev/full")
    res = _invoke([*command, "-o", full])
    assert _one_line(res, 74) == f"Error: cannot write {full}: no space left on device"
    assert full.is_symlink() and stat.S_ISCHR(os.stat(full).st_mode)  # still the device


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="needs /dev/null")
def test_the_null_device_takes_the_output_and_stays_a_device(command, tmp_path):
    null = _device(tmp_path, "/dev/null")
    res = _invoke([*command, "-o", null])
    assert res.exit_code == 0 and res.stdout == "", res.output
    assert null.is_symlink() and stat.S_ISCHR(os.stat(null).st_mode)


def test_a_named_pipe_is_written_to(command, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    res = _invoke([*command, "-o", fifo])
    reader.join(timeout=60)
    assert res.exit_code == 0, res.output
    assert got == [_printed(command).encode()]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_link_is_followed_and_stays_a_link(command, tmp_path):
    target, link = tmp_path / "target.txt", tmp_path / "link.txt"
    link.symlink_to(target.name)  # leads nowhere yet: the target is made
    assert _invoke([*command, "-o", link]).exit_code == 0
    assert link.is_symlink() and target.read_text() == _printed(command)
    target.write_text("mine\n")  # now an existing file: the --force rule
    _one_line(_invoke([*command, "-o", link]), 2, "exists (a link to", "--force")
    assert target.read_text() == "mine\n"
    assert _invoke([*command, "-o", link, "--force"]).exit_code == 0
    assert link.is_symlink() and target.read_text() == _printed(command)


def test_a_folder_is_refused(command, tmp_path):
    _one_line(_invoke([*command, "-o", tmp_path]), 2, "--output:", "is a folder")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/dev/stdout").exists(), reason="needs /dev/stdout")
def test_dev_stdout_is_standard_output_whatever_it_is(inputs, tmp_path):
    """A pipe, and a file the shell opened: written as it is, neither replaced nor
    refused for existing (in a subprocess: ``/dev/stdout`` is the real descriptor)."""
    stdout = _device(tmp_path, "/dev/stdout")
    args = [sys.executable, "-m", "hokm_sim", "games", "--data", str(inputs)]
    direct = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    piped = subprocess.run([*args, "-o", stdout], capture_output=True, text=True)
    assert piped.returncode == 0 and piped.stdout == direct, piped.stderr
    out = tmp_path / "shell.txt"
    with open(out, "w") as f:
        res = subprocess.run([*args, "-o", stdout], stdout=f, stderr=subprocess.PIPE)
    assert res.returncode == 0 and out.read_text() == direct, res.stderr
    assert stdout.is_symlink()


def test_an_existing_file_is_refused_before_any_work(tmp_path, monkeypatch):
    """The refusal comes first: no engine is built, no hand is played."""
    from hokm_sim.sim import runner

    def refuse(*args, **kwargs):
        raise AssertionError("an engine was built before the output was checked")

    monkeypatch.setattr(runner.Runner, "__init__", refuse)
    out = tmp_path / "hands.jsonl"
    out.write_text("mine\n")
    _one_line(_invoke(["trace", *HAND, "-o", out]), 2, "--force")
    _one_line(_invoke(["analyse", *HAND, "-o", out]), 2, "--force")
    assert out.read_text() == "mine\n"


def test_show_html_keeps_an_existing_page_without_force(tmp_path, runner):
    runner("longest", "random")
    page = tmp_path / "hand.html"
    page.write_text("mine")
    args = ["show", "--seed", "1", "--hand", "0", "--a", "longest", "--b", "random"]
    _one_line(_invoke([*args, "--html", page]), 2, "--html:", "exists", "--force")
    with pytest.raises(InputError, match="exists") as e:
        hokm_sim.show("longest", "random", seed=1, hand=0, html=page)
    assert e.value.param == "html" and page.read_text() == "mine"
    res = _invoke([*args, "--html", page, "--force"])
    assert res.exit_code == 0 and page.read_text().startswith("<!DOCTYPE html>"), res.output


def test_a_socket_is_refused(inputs, tmp_path):
    import socket

    path = tmp_path / "sock"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(path))
        res = _invoke(["games", "--data", inputs, "-o", path])
    _one_line(res, 2, "--output:", "is a socket")
    assert stat.S_ISSOCK(os.lstat(path).st_mode)
