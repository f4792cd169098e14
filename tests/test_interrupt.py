"""Ctrl-C (or SIGTERM) while the engine compiles stops as soon as it is asked, playing
nothing (exit 130, or 143); Ctrl-C with a bot that never returns stops within seconds,
keeping what finished."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from hokm_sim.cli import main
from hokm_sim.sim.runner import Runner

RUN = ["run", "longest", "random", "--hands", "100"]


@pytest.mark.parametrize(
    ("sig", "code", "said", "ignored", "command"),
    [
        (signal.SIGINT, 130, "Aborted.", False, RUN),
        (signal.SIGINT, 130, "Aborted.", True, RUN),  # a job a script started in the background
        (signal.SIGTERM, 143, "Terminated (SIGTERM).", False, RUN),
        (signal.SIGINT, 130, "Aborted.", True, ["regress", "random", "--baseline", "longest"]),
    ],
)
def test_a_stop_while_the_engine_compiles_plays_nothing(
    monkeypatch, tmp_path, sig, code, said, ignored, command
):
    """The stop request is heard during compilation, even where the process was
    started with Ctrl-C ignored; no batch is played after it, and the report folder
    of a run with nothing done is given back."""
    played = []
    monkeypatch.setattr(Runner, "prepare", lambda self, matches=False: signal.raise_signal(sig))
    monkeypatch.setattr(Runner, "batches", lambda self, *a, **k: played.append(1) or iter(()))

    def unheard(signum, frame):  # rather than end the test's process
        raise RuntimeError(f"signal {signum} was not taken as a stop")

    old = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    signal.signal(signal.SIGTERM, unheard)
    if ignored:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        res = CliRunner().invoke(main, [*command, "--out", str(tmp_path / "r")])
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
    assert (res.exit_code, res.stderr.strip(), played) == (code, said, [])
    assert not (tmp_path / "r").exists()


SLOW_COMPILE = """
import pathlib, signal, sys, time
from hokm_sim.cli import main
from hokm_sim.sim.interrupt import off_main
from hokm_sim.sim.runner import Runner

def prepare(self, matches=False):  # a compilation numba would not let go of for a minute
    pathlib.Path(sys.argv[1]).touch()
    off_main(time.sleep, 60)

Runner.prepare = prepare
signal.signal(signal.SIGINT, signal.SIG_IGN)  # as for a job started in the background
main(sys.argv[2:])
"""


@pytest.mark.parametrize("command", ["run", "tournament"])
def test_ctrl_c_during_a_long_compilation_stops_it(tmp_path, command):
    """One Ctrl-C while the engine compiles (which cannot be interrupted) ends the
    command after the grace time, playing nothing: before, it was not heard and the
    whole run played."""
    started = tmp_path / "compiling"
    size = ["--hands", "50M"] if command == "run" else ["--hands", "1000"]
    args = [sys.executable, "-c", SLOW_COMPILE, str(started), command, "random", "longest",
            *size, "--out", str(tmp_path / "r")]  # fmt: skip
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(600):
            if started.exists() or proc.poll() is not None:
                break
            time.sleep(0.1)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=40)  # the compilation would take 60 s
    finally:
        proc.kill()
    assert (proc.returncode, err.strip()) == (130, "Aborted."), err
    assert not (tmp_path / "r").exists()


# --- Ctrl-C with a bot that never returns ------------------------------------------

BOTS = Path(__file__).parent / "bots"
PY_STUCK = '''"""Plays the lowest card, until its 3,000th decision, which never ends."""
COUNT = [0]


def choose_trump(obs):
    return 0


def play_card(obs):
    COUNT[0] += 1
    while COUNT[0] > 3000:
        pass
    return min(obs.legal_cards)
'''


def _stop_when_started(args: list[str], folder: Path, env: dict | None = None) -> tuple:
    """Start ``hokm-sim run`` with ``args``; once its checkpoint shows finished work,
    Ctrl-C it; its exit code, standard error and the folder's summary."""
    proc = subprocess.Popen([sys.executable, "-m", "hokm_sim", "run", *args, "--out", str(folder)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})})  # fmt: skip
    try:
        for _ in range(1200):  # the engine may have to be loaded first
            time.sleep(0.1)
            cp = folder / "checkpoint.json"
            if proc.poll() is not None or (cp.exists() and json.loads(cp.read_text())["done"]):
                break
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.5)  # the bot is stuck by now
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)  # before the fix: never, or only on SIGKILL
    finally:
        proc.kill()
    return proc.returncode, err, json.loads((folder / "summary.json").read_text())


def test_ctrl_c_stops_a_stuck_python_bot_keeping_what_finished(tmp_path):
    bot = tmp_path / "stuck.py"
    bot.write_text(PY_STUCK)
    code, err, summary = _stop_when_started(
        [str(bot), str(BOTS / "pyrandom.py"), "--hands", "5000", "--task-size", "20",
         "--threads", "1", "--seed", "1"], tmp_path / "r")  # fmt: skip
    assert code == 130, err
    assert "interrupted: the report covers only the finished batches" in err
    assert summary["partial"] is True and 0 < summary["config"]["done"] < 5000


def test_ctrl_c_stops_a_compiled_bot_in_an_endless_loop(tmp_path):
    """Deal 1023 of seed 3 never ends (``wild.py`` mode 4; mode 5 names the deal)."""
    args = [f"{BOTS / 'wild.py'}(mode=4)", "random", "--hands", "5000", "--task-size", "250",
            "--threads", "1", "--seed", "3"]  # fmt: skip
    code, err, summary = _stop_when_started(args, tmp_path / "r")
    assert code == 130, err
    assert summary["partial"] is True and summary["config"]["done"] == 1000
