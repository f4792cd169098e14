"""Where a bot's files stand in git: the commit their working tree is at, and whether
they differ from it.

A bot is its file and every file that file imports (:func:`hokm_sim.sources.source_closure`).
The bot's own file decides which working tree it belongs to: its commit is the commit
that working tree is at, and it is dirty when any of its files in that working tree
differs from that commit (modified, staged or untracked): so a clean bot's files there
are exactly those of its commit. Its files elsewhere (hokm-sim's own modules, installed
or in a checkout of their own) are not the bot's to date: hokm-sim's version tells them.
One ``git status`` answers for every bot of a working tree, naming only files inside
it, and the working trees are asked at once, in the background, each apart (one that
fails loses no other's answer): a result's record asks first and reads the answers
last, so recording it waits for git only as long as the rest takes less. A bot whose
file is outside a git working tree has no commit (None), as has everything where
``git`` is not installed.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

GIT_TIMEOUT = 5.0
"""Seconds a ``git`` query may take before its answer is given up (None)."""


def repo_root(path: Path) -> Path | None:
    """The top of the git working tree holding ``path`` (the first folder above it with a
    ``.git`` folder or file), or None."""
    for folder in path.resolve().parents:
        if (folder / ".git").exists():
            return folder
    return None


def _start(root: Path, *args: str) -> subprocess.Popen | None:
    try:
        return subprocess.Popen(
            ["git", "-C", str(root), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
    except OSError:  # no git
        return None


def _answer(proc: subprocess.Popen | None) -> str | None:
    if proc is None:
        return None
    try:
        out, _ = proc.communicate(timeout=GIT_TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return None
    return out if proc.returncode == 0 else None


def ask(groups: Sequence[Sequence[Path]]) -> Callable[[], list[tuple[str | None, bool | None]]]:
    """Ask git about each group of files (a bot's files, its own file first) now; the
    answers come from the function returned (it waits for git): ``(commit, dirty)`` per
    group, the commit the working tree holding its first file is at (``HEAD``) and
    whether any of its files in that working tree differs from it (modified, staged or
    untracked); ``(None, None)`` outside a git working tree, or where git fails there.
    One ``git status`` per working tree, all started at once."""
    roots = [repo_root(files[0]) if files else None for files in groups]
    mine = [
        [f.resolve() for f in files if root is not None and f.resolve().is_relative_to(root)]
        for root, files in zip(roots, groups, strict=True)
    ]  # a working tree's git refuses a path outside it: the whole answer would be lost
    asked: dict[Path, list[str]] = {}
    for root, files in zip(roots, mine, strict=True):
        if root is not None:
            asked.setdefault(root, []).extend(str(f) for f in files)
    started = {
        root: _start(root, "status", "--porcelain=v2", "--branch", "--untracked-files=all",
                     "--", *sorted(set(names)))
        for root, names in asked.items()
    }  # fmt: skip

    def answers() -> list[tuple[str | None, bool | None]]:
        said = {root: _parse(_answer(proc), root) for root, proc in started.items()}
        out: list[tuple[str | None, bool | None]] = []
        for root, files in zip(roots, mine, strict=True):
            if root is None or said[root] is None:
                out.append((None, None))
                continue
            head, changed = said[root]
            dirty = any(f in changed for f in files)
            out.append((head, dirty or head is None))
        return out

    return answers


def _parse(text: str | None, root: Path) -> tuple[str | None, set[Path]] | None:
    """``HEAD``'s commit (None before the first commit) and the changed files, from
    ``git status --porcelain=v2 --branch``."""
    if text is None:
        return None
    head = None
    changed: set[Path] = set()
    for line in text.splitlines():
        if line.startswith("# branch.oid "):
            oid = line.split()[2]
            head = None if oid == "(initial)" else oid
        elif line[:2] in ("1 ", "u "):
            changed.add((root / line.split(" ", 8 if line[0] == "1" else 10)[-1]).resolve())
        elif line.startswith("2 "):
            changed.add((root / line.split(" ", 9)[-1].split("\t")[0]).resolve())
        elif line.startswith("? "):
            changed.add((root / line[2:]).resolve())
    return head, changed
