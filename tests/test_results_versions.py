"""A user's bot as the results store keeps it: the commit of its own repository and
whether it was dirty, a digest that depends on its files' contents alone (not on where
they lie), and a regress verdict stored without a report folder (docs/results.md).

The bot is ``tests/bots/pyrandom.py`` (plain Python) importing one module of the
package, played against pyrandom or its own commit: plain-Python bots play on the one
all-Python stepper the suite compiles anyway, so nothing here compiles an engine of its
own.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import hokm_sim
from hokm_sim.cli import main
from hokm_sim.sources import strategies_dir
from hokm_sim.store.query import select
from hokm_sim.store.rows import row

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
    # a composition of a built-in part and the user's file is dated by the user's file
    parts = {"trump": {"path": str(strategies_dir() / "random.py")}, "play": {"path": str(bot)}}
    (composed,) = row({"kind": "run", "a": {"name": "trump=random,play=my_bot", **parts}}).bots
    assert (composed.commit, composed.dirty) == (head.stdout.strip(), True)


_DIGESTS = """
import json, sys
from hokm_sim.sources import PACKAGE
from hokm_sim.store.rows import row
parts = lambda path: {"name": "my_bot", "trump": {"path": path}, "play": {"path": path}}
record = {"kind": "run", "strategies": {"a": parts(sys.argv[1]), "b": parts(sys.argv[2])}}
print(json.dumps([b.digest for b in row(record).bots] + [str(PACKAGE)]))
"""


def test_a_bot_has_one_digest_wherever_it_and_the_package_lie(tmp_path):
    """A byte-identical copy of a bot sorting before the package's files by path, one
    sorting after them (the package in a copy of its own, as installed): one digest."""
    site = tmp_path / "m_site"
    shutil.copytree(ROOT / "hokm_sim", site / "hokm_sim",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    copies = [tmp_path / where / "my_bot.py" for where in ("a_work", "z_cache")]
    for bot in copies:
        bot.parent.mkdir()
        bot.write_text(BOT + PYRANDOM.read_text())
    proc = subprocess.run(
        [sys.executable, "-c", _DIGESTS, *map(str, copies)], capture_output=True, text=True,
        env=os.environ | {"PYTHONPATH": str(site)}, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    first, second, package = json.loads(proc.stdout)
    assert Path(package) == site / "hokm_sim"
    assert first is not None and first == second
    # the package where it is, the bot in a third place: the same digest again
    (here,) = _stored_digests(copies[:1])
    assert here == first


def _stored_digests(bots: list[Path]) -> list[str | None]:
    parts = [{"name": "my_bot", "trump": {"path": str(b)}, "play": {"path": str(b)}} for b in bots]
    return [b.digest for b in row({"kind": "run", "strategies": dict(enumerate(parts))}).bots]


@needs_git
def test_a_git_baseline_of_an_unedited_bot_is_the_same_version(tmp_path, sqlite_store):
    """A ``git:HEAD`` baseline of an unedited bot lies in the cache, the bot in its
    working tree: one digest, one version in its history."""
    bot, _git = _repo(tmp_path / "mine")
    hokm_sim.regress(str(bot), "git:HEAD", max_pairs=200, check_every=100, seed=1,
                     out=tmp_path / "r")  # fmt: skip
    (row,) = select(limit=1)
    cand, base = row["bots"]
    assert (cand["name"], base["name"]) == (str(bot), "my_bot@git:HEAD")
    assert cand["digest"] == base["digest"]
    res = hokm_sim.history(str(bot))
    assert [v["commit"] for v in res.data["versions"]] == [cand["commit"]]
    assert res.data["opponents"] == []


@needs_git
def test_regress_without_a_report_folder_stores_its_verdict(tmp_path, sqlite_store):
    """The README's ``hokm-sim regress my_bot.py``: no ``--out``, yet the verdict is
    stored against the candidate's commit and digest, for ``history``."""
    bot, git = _repo(tmp_path / "mine")
    head = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True)
    args = ["regress", str(bot), "--max-pairs", "200", "--check-every", "100", "--seed", "1"]
    res = CliRunner().invoke(main, [*args, "--json"])
    assert res.exit_code in (0, 1, 3), res.output
    said = json.loads(res.stdout)
    (row,) = select(limit=None)
    assert (row["kind"], row["folder"]) == ("regress", None)
    assert row["verdict"] == said["hypothesis_accepted"] is not None
    cand = row["bots"][0]
    assert (cand["role"], cand["commit"], cand["dirty"]) == (
        "candidate",
        head.stdout.strip(),
        False,
    )
    assert len(cand["digest"]) == 64
    assert hokm_sim.history(str(bot)).data["versions"][0]["verdicts"]
