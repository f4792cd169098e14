"""A bot's strength across its versions: one joint fit over every stored comparison.

A version of a bot is its source digest (the files it is made of), whatever name
it played under (a ``git:REF`` baseline of the bot's file is the version its files
are); each is labelled by the commit its files were at when first recorded in a
working tree. Every stored
duplicate-pair comparison on wins (runs, tournaments' pairings, fields, regress
tests) that involves a version of the bot gives a cell of one crosstable
whose players are its versions and the opponents they met (each opponent a
version too); Bradley-Terry (:mod:`.ratings`) fits all of it at once, so two
versions that never met are compared through their common opponents. Ratings
are Elo relative to the oldest version (0 by definition; none for a player
that no chain of comparisons joins to it), with 95% intervals from a
parametric bootstrap: each cell's mean pair score redrawn from the
normal law of its stored interval, every resample fitted again and anchored to
the oldest version again. Regress verdicts are counted against the candidate's
version.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

import numpy as np

from hokm_sim.analysis.ratings import bradley_terry_each
from hokm_sim.errors import InputError
from hokm_sim.store import query

RESAMPLES = 200
"""Bootstrap resamples of the crosstable."""
Z95 = 1.959963984540054
VERDICTS = {"H0": "regression", "H1": "no regression", "inconclusive": "inconclusive"}
SHOWN = 5
"""Stored bots named, closest first, when the bot asked for has none."""


@dataclass
class _Player:
    name: str
    digest: str
    commit: str | None
    dirty: bool | None
    first: str
    index: int = 0
    pairs: int = 0
    verdicts: dict[str, int] = field(default_factory=dict)

    def label(self) -> str:
        if self.commit:
            return f"{self.commit[:8]}{'+' if self.dirty else ''}"
        return f"#{self.digest[:8]}"


def bot_key(name: str) -> str:
    """What a stored bot's name says it is, as ``hokm-sim strategies`` names it: a bot
    file's stem however its path was given (``my_bot`` for ``strategies/my_bot.py``),
    with its parameters; a ``git:REF`` baseline's bot (``my_bot`` for
    ``my_bot@git:HEAD~1``); any other name as it is."""
    name = name.split("@git:", 1)[0]
    head, paren, rest = name.partition("(")
    if head.strip().endswith(".py"):
        head = PurePath(head.strip()).stem
    return head + paren + rest


def history(bot: str, store: str | Path | None = None, seed: int = 0) -> dict[str, Any]:
    """The record of ``bot``'s history: its versions (oldest first) and the opponents
    they met, each with its rating, interval and pairs; the versions with their regress
    verdicts. ``bot`` is a stored bot's name or what it names (:func:`bot_key`: a bot
    file by its path or its stem). ``seed`` seeds the bootstrap."""
    stored = query.compared_names(store)
    names = [n for n in stored if n == bot or bot_key(n) == bot_key(bot)]
    compared = query.compared(store, names) if names else []
    verdicts = query.verdicts(store, names) if names else []
    players: dict[tuple[str, str], _Player] = {}
    mine = {r[f"{s}_digest"] for r in compared for s in "ab" if r[f"{s}_name"] in names}

    def player(side: str, r: dict[str, Any]) -> _Player:
        digest = r[f"{side}_digest"]  # the same files under another name: that version
        key = (bot if digest in mine else r[f"{side}_name"], digest)
        if key not in players:
            players[key] = _Player(*key, r[f"{side}_commit"], r[f"{side}_dirty"], r["created"])
        elif players[key].commit is None and r[f"{side}_commit"] is not None:
            # first met outside git (a git:REF baseline, in the cache): its commit is
            # where its files were first recorded in a working tree
            players[key].commit, players[key].dirty = r[f"{side}_commit"], r[f"{side}_dirty"]
        return players[key]

    cells: list[tuple[_Player, _Player, dict[str, Any]]] = []
    for r in compared:
        a, b = player("a", r), player("b", r)
        if a is not b:
            cells.append((a, b, r))
    versions = [p for p in players.values() if p.name == bot]
    if not versions:
        keys = sorted({bot_key(n) for n in stored})
        close = difflib.get_close_matches(bot_key(bot), keys, n=SHOWN, cutoff=0.0)
        more = f", and {len(keys) - len(close)} more" if len(keys) > len(close) else ""
        listed = f"; stored bots: {', '.join(close)}{more}" if close else "; none stored yet"
        raise InputError(
            f"no stored comparison of {bot!r} with digests: run, regress or a tournament "
            f"with it adds one (results imported from old folders have no digests){listed}",
            "bot",
        )
    versions.sort(key=lambda p: p.first)
    others = sorted((p for p in players.values() if p.name != bot), key=lambda p: (p.name, p.first))
    ordered = versions + others
    for i, p in enumerate(ordered):
        p.index = i
    n = len(ordered)
    pairs = np.zeros((n, n))
    total = np.zeros((n, n))
    var = np.zeros((n, n))  # of the summed scores
    for a, b, r in cells:
        i, j, k = a.index, b.index, r["pairs"]
        se = _se(r)
        for x, y, sc in ((i, j, r["score"]), (j, i, 1.0 - r["score"])):
            pairs[x, y] += k
            total[x, y] += sc * k
            var[x, y] += (se * k) ** 2
        a.pairs += k
        b.pairs += k
    played = pairs > 0
    score = np.where(played, total / np.where(played, pairs, 1), 0.5)
    se = np.where(played, np.sqrt(var) / np.where(played, pairs, 1), 0.0)
    rng = np.random.default_rng(seed)
    tables = [(score, pairs)]
    for _ in range(RESAMPLES):
        draw = np.clip(score + rng.standard_normal((n, n)) * se, 0.0, 1.0)
        upper = np.triu(draw, 1)
        draw = upper + (1.0 - upper.T) * np.tril(np.ones((n, n)), -1)
        tables.append((np.where(played, draw, 0.5), pairs))
    fits = bradley_terry_each(tables)
    fits -= fits[:, :1]  # the oldest version at 0, in every fit
    point = fits[0]
    low, high = np.percentile(fits[1:], [2.5, 97.5], axis=0)
    by_digest = {v.digest: v for v in versions}
    for r in verdicts:
        if r["digest"] in by_digest:
            said = VERDICTS.get(r["verdict"], r["verdict"])
            tally = by_digest[r["digest"]].verdicts
            tally[said] = tally.get(said, 0) + 1

    linked = _linked(played)

    def entry(p: _Player) -> dict[str, Any]:
        i = p.index
        elo: dict[str, Any] = {"value": None, "low": None, "high": None, "n": p.pairs}
        if linked[i]:  # else no chain of comparisons joins it to the oldest version
            elo["value"] = float(point[i])
            if i:
                elo["low"], elo["high"] = float(low[i]), float(high[i])
        return {"name": p.name, "version": p.label(), "digest": p.digest, "commit": p.commit,
                "dirty": p.dirty, "first_seen": p.first, "pairs": p.pairs, "elo": elo}  # fmt: skip

    return {
        "bot": bot,
        "versions": [entry(v) | {"verdicts": v.verdicts} for v in versions],
        "opponents": [entry(p) for p in others],
        "comparisons": len(cells),
        "resamples": RESAMPLES,
        "anchor": versions[0].label(),
    }


def _se(r: dict[str, Any]) -> float:
    """The standard error of a comparison's mean pair score: from its stored 95%
    interval, else the largest a score in [0, 1] over its pairs can have."""
    if r["low"] is not None and r["high"] is not None and r["high"] > r["low"]:
        return (r["high"] - r["low"]) / (2 * Z95)
    return 0.5 / np.sqrt(max(r["pairs"], 1))


def _linked(played: np.ndarray) -> np.ndarray:
    """Which players a chain of comparisons joins to player 0 (the oldest version):
    the others have no rating against it."""
    seen = np.zeros(len(played), dtype=bool)
    todo = [0]
    seen[0] = True
    while todo:
        i = todo.pop()
        for j in np.flatnonzero(played[i] & ~seen):
            seen[j] = True
            todo.append(int(j))
    return seen
