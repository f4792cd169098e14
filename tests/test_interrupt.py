"""Ctrl-C while the engine compiles stops at once (exit 130), not after the run; Ctrl-C
with a bot that never returns stops within seconds, keeping what finished."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from hokm_sim.cli import main
from hokm_sim.sim.runner import Runner


def test_engine_compiles_before_ctrl_c_becomes_a_stop_request(monkeypatch, tmp_path):
    """While the engine compiles, SIGINT has the handler the process had (Python's,
    which raises KeyboardInterrupt; or ignored, in a job started in the background)."""
    had = signal.getsignal(signal.SIGINT)
    seen = []

    def prepare(self, matches=False):
        seen.append(signal.getsignal(signal.SIGINT))
        raise KeyboardInterrupt  # Ctrl-C during compilation

    monkeypatch.setattr(Runner, "prepare", prepare)
    res = CliRunner().invoke(
        main, ["run", "longest", "random", "--hands", "100", "--out", str(tmp_path / "r")]
    )
    assert seen == [had]  # not yet the stop request's
    assert res.exit_code == 130
    assert res.stderr.strip() == "Aborted."


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
