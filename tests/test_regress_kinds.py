"""The bot author's loop for every kind of bot: commit, edit a line, ``regress`` against
``git:HEAD``; a verdict and its exit code, and the git baseline is the committed bot.

One bot of each kind: a compiled bot with PARAMS (``examples/my_bot.py``), one
without (``longest``), a plain-Python bot, a batched bot and a protocol bot
(``exec:`` the JavaScript port of ``longest``). Each is deterministic, so an edit
that changes nothing the bot does (a comment) must play identically against its
baseline, which regress reports at its first check; an edit that changes what it
plays must not.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from hokm_sim.cli import main

ROOT = Path(__file__).resolve().parents[1]
KINDS = {
    "compiled, PARAMS": "examples/my_bot.py",
    "compiled": "strategies/longest.py",
    "plain Python": "examples/python_bot.py",
    "batched": "examples/batched_bot.py",
    "exec": "examples/bots/longest.js",
}


def _repo(tmp_path: Path, source: str) -> Path:
    """A git repository holding a copy of ``source``, committed."""
    if shutil.which("git") is None:
        pytest.skip("needs git")
    top = tmp_path / "repo"
    top.mkdir()
    bot = top / Path(source).name
    shutil.copy(ROOT / source, bot)
    git = ["git", "-C", str(top), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "bot"], check=True)
    return bot


def _regress(spec: str, *more: str) -> tuple[int, dict]:
    args = ["regress", spec, "--seed", "1", "--max-pairs", "2000", "--json", *more]
    res = CliRunner().invoke(main, args)
    assert res.exit_code in (0, 1, 3), res.output
    return res.exit_code, json.loads(res.output)


@pytest.mark.parametrize("kind", list(KINDS))
def test_regress_after_a_one_line_edit_compares_with_the_committed_bot(kind, tmp_path, request):
    source = KINDS[kind]
    bot = _repo(tmp_path, source)
    comment = "// an edit that changes nothing\n" if kind == "exec" else "# no change\n"
    bot.write_text(bot.read_text() + comment)
    spec = f"exec:{request.getfixturevalue('node')} {bot}" if kind == "exec" else str(bot)
    code, d = _regress(spec)
    assert (code, d["identical_play"], d["hypothesis_accepted"]) == (0, True, "H1"), d
    strategies = d["config"]["strategies"]
    assert strategies["baseline"]["play"]["params"] == strategies["candidate"]["play"]["params"]
    assert d["config"]["baseline"].endswith("@git:HEAD")
    if kind == "compiled, PARAMS":  # the baseline at its file's PARAMS, not at 0
        assert strategies["baseline"]["play"]["params"] == {"greed": 1.0}
        # a candidate with settings: the committed bot with the same settings
        code, d = _regress(f"{bot}(greed=0)")
        assert d["config"]["strategies"]["baseline"]["play"]["params"] == {"greed": 0.0}
        assert (code, d["identical_play"]) == (0, True)
        assert d["config"]["baseline"] == "my_bot(greed=0)@git:HEAD"
        # and against the file at its defaults, another bot
        code, d = _regress(f"{bot}(greed=0)", "--baseline", str(bot))
        assert not d["identical_play"] and code in (1, 3)
