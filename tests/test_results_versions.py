"""A user's bot as the results store keeps it: the commit of its own repository and
whether it was dirty, a digest that depends on its files' contents alone (not on where
they lie), and its history by the name ``hokm-sim strategies`` shows (docs/results.md).

The bot is ``tests/bots/pyrandom.py`` (plain Python, importing one module of the
package), played against itself: plain-Python bots play on the one all-Python stepper
the suite compiles anyway, so nothing here compiles an engine of its own.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import hokm_sim
from hokm_sim.store.query import select

ROOT = Path(__file__).resolve().parents[1]
PYRANDOM = ROOT / "tests" / "bots" / "pyrandom.py"
BOT = "from hokm_sim import errors  # noqa: F401  (a file of the package in its closure)\n"

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


@pytest.fixture
def sqlite_store(tmp_path, monkeypatch):
    path = tmp_path / "results.sqlite"
    monkeypatch.setenv("HOKM_SIM_STORE", str(path))
    return path


def _repo(folder: Path) -> tuple[Path, list[str]]:
    """A new git repository in ``folder`` holding ``my_bot.py``, committed: the bot and
    the git command line to use there."""
    folder.mkdir(parents=True)
    bot = folder / "my_bot.py"
    bot.write_text(BOT + PYRANDOM.read_text())
    git = ["git", "-C", str(folder), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "my_bot.py"], check=True)
    subprocess.run([*git, "commit", "-qm", "my bot"], check=True)
    return bot, git


def _played(bot: Path, out: Path) -> list[dict]:
    """The stored bots of a run of ``bot`` against pyrandom."""
    hokm_sim.run(str(bot), str(PYRANDOM), hands=20, seed=1, out=out, force=True)
    (row,) = select(limit=1)
    return row["bots"]


@needs_git
def test_a_bot_in_its_own_repository_gets_its_commit_and_dirty_flag(tmp_path, sqlite_store):
    bot, git = _repo(tmp_path / "mine")
    head = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True)
    mine, other = _played(bot, tmp_path / "r")
    assert (mine["commit"], mine["dirty"]) == (head.stdout.strip(), False)
    # the other bot's answer (this checkout's git) is not lost to the user's repository
    assert (other["commit"] is not None) == (ROOT / ".git").exists()
    bot.write_text(bot.read_text() + "\n# edited\n")
    mine, _ = _played(bot, tmp_path / "r")
    assert (mine["commit"], mine["dirty"]) == (head.stdout.strip(), True)
