"""What the store keeps of a result: one row from the record a report folder holds.

A record (``summary.json``, or the record of work that writes no folder) is read
for: what command made it, the version, the seed and size, whether it is partial,
its headline figures with their intervals (every estimate ``{value, low, high}``
at its top two levels, a tournament's ratings), a regress verdict, every bot it
names (each strategy record ``{name, trump, play}`` found in it, with the digest
of its files and, where they are in git, their commit and whether the tree was
dirty), and its duplicate-pair comparisons (a run, each pairing of a tournament
or a field, a regress): what ``hokm-sim history`` fits ratings to.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from hokm_sim import sources
from hokm_sim.store import gitinfo
from hokm_sim.store.location import now

KINDS = {"calibration": "calibrate", "game": "play"}
"""A record's ``kind`` where the command that writes it has another name."""


@dataclass
class Bot:
    """A bot a result names: its ``role`` in the record (``a``, ``candidate``,
    ``members.2`` ...), name, the digest of its files, and their git state."""

    role: str
    name: str
    digest: str | None = None
    commit: str | None = None
    dirty: bool | None = None
    path: str | None = None


@dataclass
class Comparison:
    """Duplicate pairs of bot ``a`` against bot ``b`` (roles): ``a``'s mean pair score
    on wins with its interval, over ``pairs`` pairs."""

    a: str
    b: str
    score: float
    low: float | None
    high: float | None
    pairs: int


@dataclass
class Row:
    """One stored result."""

    kind: str
    command: str | None = None
    version: str | None = None
    seed: str | None = None
    size: int | None = None
    partial: bool = False
    headline: str | None = None
    figures: dict[str, dict[str, Any]] = field(default_factory=dict)
    verdict: str | None = None
    folder: str | None = None
    created: str | None = None
    bots: list[Bot] = field(default_factory=list)
    comparisons: list[Comparison] = field(default_factory=list)


def columns(row: Row) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """The values of ``row``'s columns, as :func:`~.schema.writes` takes them: the
    result's, each bot's and each comparison's (less the result's id, known once it is
    stored); a bot's ``place`` is its place in the record."""
    result = {"created": row.created or now(), "kind": row.kind, "command": row.command,
              "version": row.version, "seed": row.seed, "size": row.size,
              "partial": bool(row.partial), "headline": row.headline,
              "figures": json.dumps(row.figures), "verdict": row.verdict,
              "folder": row.folder}  # fmt: skip
    bots = [{"role": b.role, "name": b.name, "digest": b.digest, "git_commit": b.commit,
             "dirty": b.dirty, "path": b.path, "place": i}
            for i, b in enumerate(row.bots)]  # fmt: skip
    comparisons = [{"a": c.a, "b": c.b, "score": c.score, "low": c.low, "high": c.high,
                    "pairs": c.pairs} for c in row.comparisons]  # fmt: skip
    return result, bots, comparisons


def _is_estimate(v: Any) -> bool:
    return isinstance(v, dict) and "value" in v and "low" in v and "high" in v


def _estimate(v: dict[str, Any]) -> dict[str, Any]:
    return {k: v.get(k) for k in ("value", "low", "high", "n") if k in v}


def figures(record: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The headline figures: estimates at the record's top two levels (``elo``,
    ``raw.nelo`` ...), and a tournament's ratings (``elo:NAME``)."""
    out: dict[str, dict[str, Any]] = {}
    for key, v in record.items():
        if _is_estimate(v):
            out[key] = _estimate(v)
        elif isinstance(v, dict) and key not in ("a", "b", "config"):
            for sub, w in v.items():
                if _is_estimate(w):
                    out[f"{key}.{sub}"] = _estimate(w)
    for r in record.get("ratings") or ():
        if isinstance(r, dict) and "name" in r and "elo" in r:
            out[f"elo:{r['name']}"] = {"value": r["elo"], "low": r.get("low"),
                                       "high": r.get("high")}  # fmt: skip
    return out


def _strategies(obj: Any, path: tuple[str, ...] = ()) -> list[tuple[str, dict[str, Any]]]:
    """Every strategy record in ``obj`` with its role: its place in the record, less the
    words ``config`` and ``strategies``."""
    if isinstance(obj, dict):
        parts = isinstance(obj.get("trump"), dict) and isinstance(obj.get("play"), dict)
        if parts and "name" in obj:
            role = ".".join(p for p in path if p not in ("config", "strategies"))
            return [(role or "bot", obj)]
        found = []
        for k, v in obj.items():
            if k not in ("counts", "values", "crosstable", "los"):
                found += _strategies(v, (*path, str(k)))
        return found
    if isinstance(obj, list) and obj and isinstance(obj[0], dict | list):
        return [x for i, v in enumerate(obj) for x in _strategies(v, (*path, str(i)))]
    return []


def _part_files(part: dict[str, Any]) -> list[Path]:
    """The files of one part (trump chooser or card player) of a strategy, its own file
    (the bot file; an exec: bot's first file) first."""
    if "command" in part:  # an exec: bot: the files its command names
        return [Path(p) for p in part.get("files") or ()]
    path = Path(part.get("path") or "")
    if not path.is_file():
        return []
    path = path.resolve()
    if sources.in_package(path):
        closure = _package_closure(path)
    else:
        closure = sources.source_closure(path, (path.parent,))
    return [path, *(f for f in closure if f != path)]


@cache
def _package_closure(path: Path) -> list[Path]:
    """:func:`~hokm_sim.sources.source_closure` of a file of the package or of the built-in
    bots, once per process: they stay as imported while it runs (as
    :func:`~hokm_sim.sources.package_digest` takes them)."""
    return sources.source_closure(path)


def _own_first(parts: list[list[Path]]) -> list[Path]:
    """A bot's files (of its parts' lists, each its own file first) once each, its own
    files first, a user's before the package's (a composition of a built-in part and
    the user's file is the user's): what decides where the bot stands in git
    (:func:`~.gitinfo.ask`)."""
    own = sorted((fs[0].resolve() for fs in parts if fs), key=sources.in_package)
    rest = sorted({f.resolve() for fs in parts for f in fs} - set(own))
    return list(dict.fromkeys(own)) + rest


def _part_digest(part: dict[str, Any], files: list[Path]) -> str | None:
    if "command" in part:
        return hashlib.sha256(
            json.dumps([part["command"], part.get("files")], sort_keys=True).encode()
        ).hexdigest()
    if not files:
        return None
    path = Path(part["path"]).resolve()
    if sources.in_package(path):
        return sources.package_digest(path)
    h = hashlib.sha256()
    for name, f in sorted(_named(f, path) for f in files):
        h.update(name.encode() + b"\0" + hashlib.sha256(f.read_bytes()).digest())
    return h.hexdigest()


def _named(f: Path, own: Path) -> tuple[str, Path]:
    """A file of the bot whose own file is ``own``, by a name that says nothing of where
    either lies, so that the same files give the same digest wherever they are (a
    ``git:REF`` baseline in the cache, the bot in the working tree): the bot's own file
    by its name (first), the package's by their names in it, those beside the bot by
    their names relative to its folder."""
    if f == own:
        return f"\0{f.name}", f
    for root, prefix in ((sources.strategies_dir(), "hokm_sim/strategies"),
                         (sources.PACKAGE, "hokm_sim")):  # fmt: skip
        if f.is_relative_to(root):
            return f"\1{prefix}/{f.relative_to(root).as_posix()}", f
    if f.is_relative_to(own.parent):
        return f"\2{f.relative_to(own.parent).as_posix()}", f
    return f"\3{f.name}", f


def bots(record: dict[str, Any], live: bool = True) -> tuple[list[Bot], Callable[[], None]]:
    """The bots ``record`` names, and the function that fills in their git state (it
    waits for the ``git`` processes started here). ``live``: the files are as they were
    when the result was made (the result is being recorded now), so their digests and
    git state are taken; a report folder imported later gets names and paths only."""
    named = _strategies(record)
    found = [Bot(role=role, name=str(s["name"]), path=s["trump"].get("path")) for role, s in named]
    if not live:
        return found, lambda: None
    parts = [(s["trump"], s["play"]) for _role, s in named]
    files = [[_part_files(p) for p in both] for both in parts]
    answers = gitinfo.ask([_own_first(each) for each in files])
    for bot, both, each in zip(found, parts, files, strict=True):  # git works meanwhile
        digests = [_part_digest(p, f) for p, f in zip(both, each, strict=True)]
        if all(d is not None for d in digests):
            params = [p.get("params") for p in both]
            bot.digest = hashlib.sha256(
                json.dumps([digests, params], sort_keys=True, default=str).encode()
            ).hexdigest()

    def fill() -> None:
        for bot, (commit, dirty) in zip(found, answers(), strict=True):
            bot.commit, bot.dirty = commit, dirty

    return found, fill


def _score(e: Any) -> tuple[float, float | None, float | None, int] | None:
    if not _is_estimate(e) or e.get("value") is None or not e.get("n"):
        return None
    return float(e["value"]), e.get("low"), e.get("high"), int(e["n"])


def comparisons(record: dict[str, Any], kind: str, roles: list[str]) -> list[Comparison]:
    """The duplicate-pair comparisons on wins in ``record``, between the bots' ``roles``."""
    found: list[tuple[str, str, Any]] = []
    cfg = record.get("config") or {}
    if kind == "run" and cfg.get("duplicate") and cfg.get("mode") == "hands":
        found.append(("a", "b", record.get("pair_score")))
    elif kind == "regress" and cfg.get("metric") == "wins":
        found.append(("candidate", "baseline", (record.get("raw") or {}).get("score")))
    elif kind == "field" and record.get("mode") == "hands":
        for i, p in enumerate(record.get("pairs") or ()):
            found.append(("candidate", f"members.{i}", p.get("wins")))
    elif kind == "tournament":
        cross = record.get("crosstable") or []
        for i, row in enumerate(cross):
            for j in range(i + 1, len(row)):
                found.append((str(i), str(j), row[j]))
    out = []
    for a, b, e in found:
        s = _score(e)
        if s is not None and a in roles and b in roles:
            out.append(Comparison(a, b, *s))
    return out


def _first_int(*values: Any) -> int | None:
    for v in values:
        if isinstance(v, int) and not isinstance(v, bool):
            return v
    return None


def start(
    record: dict[str, Any], folder: str | Path | None = None, live: bool = True
) -> tuple[Row, Callable[[], None]]:
    """The store's row of ``record`` (``folder``: its report folder, if it has one), and
    the function that completes it with its bots' git state (:func:`bots`)."""
    kind = str(record.get("kind") or "unknown")
    kind = KINDS.get(kind, kind)
    cfg = record.get("config") if isinstance(record.get("config"), dict) else {}
    seeds = (record.get("seed"), cfg.get("seed"), record.get("first_seed"))
    seed = next((v for v in seeds if v is not None), None)
    verdict = record.get("hypothesis_accepted") if kind == "regress" else None
    found, fill = bots(record, live)
    out = Row(
        kind=kind,
        command=record.get("command"),
        version=record.get("version") or cfg.get("version"),
        seed=None if seed is None else str(seed),
        size=_first_int(
            record.get("pairs"),
            record.get("deals"),
            record.get("size"),
            record.get("runs"),
            cfg.get("size"),
            record.get("hands"),
        ),  # fmt: skip
        partial=bool(record.get("partial")),
        figures=figures(record),
        verdict=None if record.get("partial") else verdict,
        folder=None if folder is None else str(Path(folder).resolve()),
        bots=found,
    )
    out.comparisons = comparisons(record, kind, [b.role for b in found])
    return out, fill


def row(
    record: dict[str, Any],
    folder: str | Path | None = None,
    headline: str | None = None,
    live: bool = True,
) -> Row:
    """The store's whole row of ``record`` (:func:`start`, completed), with ``headline``."""
    out, fill = start(record, folder, live)
    fill()
    out.headline = headline
    return out
