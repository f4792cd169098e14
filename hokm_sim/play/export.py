"""The games database for the command line: a table of games, JSON, or trace lines.

The table names the people of each game (a shared table's, ``play --host``:
every seat a person played) and counts the decisions their bots made for them
(the timer ran out, they had left, or the host gave the seat to its bot);
``json`` has the seats and each such decision. ``jsonl`` writes every finished
hand exactly as ``hokm-sim trace --matches`` writes a hand (one JSON object a
line), so ``hokm-sim analyse --trace`` and ``hokm-sim show --trace`` read it.
With ``by_person``, the table or JSON is one of each person's figures instead
(:mod:`.people`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from hokm_sim.play import people
from hokm_sim.play.store import Store

_COLUMNS = (
    ("id", "#", 4), ("started", "started (UTC)", 20), ("daily", "daily", 10),
    ("seed", "seed", 20), ("partner", "partner", 12), ("opponents", "opponents", 12),
    ("target", "to", 3), ("first_hakem", "first Hakem", 12), ("result", "result", 10),
    ("score", "score", 6), ("hands", "hands", 5), ("hints", "hints", 5),
    ("people", "people", 20), ("stand_ins", "bot for them", 12),
)  # fmt: skip


def _cell(g: dict, key: str) -> str:
    if key == "score":
        return f"{g['score0']}-{g['score1']}"
    if key == "hints":
        return str(len(g["hints"]))
    if key == "people":  # a game of hokm-sim play alone: the person in seat 0
        seats = g["seats"] or [{"name": "You", "kind": "person"}]
        return ", ".join(s["name"] for s in seats if s["kind"] == "person")
    if key == "stand_ins":
        return str(len(g["stand_ins"]))
    value = g.get(key)
    return "" if value is None else str(value)


def lines(
    data: str | Path | None, fmt: str, games: list[int] | None = None, by_person: bool = False
) -> Iterator[str]:
    """The lines ``hokm-sim games --format fmt`` prints (``table``, ``json``, ``jsonl``;
    ``by_person``: ``table`` or ``json`` of each person's figures)."""
    store = Store(data, create=False)
    try:
        found = store.games()
        if games is not None:
            for gid in games:
                store.game(gid)  # an unknown id is an error naming the database
            found = [g for g in found if g["id"] in games]
        if by_person:
            stats = people.person_stats(store, games)
            if fmt == "json":
                yield json.dumps(stats, indent=1)
                return
            if not stats:
                yield f"(no games in {store.path})"
                return
            yield from people.table_lines(stats)
            return
        if fmt == "jsonl":
            yield from (json.dumps(rec) for rec in store.records([g["id"] for g in found][::-1]))
            return
        if fmt == "json":
            out = [g | {"hands": store.hands(g["id"])} for g in found]
            yield json.dumps(out, indent=1)
            return
        if not found:
            yield f"(no games in {store.path})"
            return
        yield "  ".join(f"{head:<{w}}" for _k, head, w in _COLUMNS).rstrip()
        for g in found:
            yield "  ".join(f"{_cell(g, k):<{w}}" for k, _h, w in _COLUMNS).rstrip()
    finally:
        store.close()
