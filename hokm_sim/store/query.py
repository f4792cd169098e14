"""Listing stored results: filters on the bot, the command, the date, the commit and the
digest, newest first, without pandas (``hokm-sim results`` answers at once)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from hokm_sim.errors import InputError
from hokm_sim.store.db import Store

COMMANDS = (
    "run", "tournament", "field", "tune", "regress", "calibrate", "experiment",
    "trump-study", "dd-study", "play",
)  # fmt: skip
"""The commands whose results the store keeps (``play``: the table's finished games)."""


def _when(value: str, param: str, end: bool) -> str:
    """A date (``2026-01-31``) or time (``2026-01-31T12:00``, UTC unless it says) as the
    store writes times; a date as ``end`` is the start of the next day."""
    try:
        t = datetime.fromisoformat(value.strip())
    except ValueError:
        raise InputError(
            f"bad date {value!r}: expected YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]", param
        ) from None
    if t.tzinfo is not None:
        t = t.astimezone(UTC).replace(tzinfo=None)
    if end and len(value.strip()) == 10:
        t += timedelta(days=1)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def select(
    store: str | Path | None = None,
    *,
    result: int | None = None,
    bot: str | None = None,
    command: str | None = None,
    since: str | None = None,
    until: str | None = None,
    commit: str | None = None,
    digest: str | None = None,
    limit: int | None = 50,
) -> list[dict[str, Any]]:
    """The stored results that match every filter given, newest first, at most ``limit``
    (None: all): each with its bots (role, name, digest, commit, dirty) and figures.
    ``result`` picks the one result of that id.
    ``bot`` is a bot's name; ``commit`` and ``digest`` match their beginnings."""
    if command is not None and command not in COMMANDS:
        raise InputError(
            f"unknown command {command!r}: expected one of {', '.join(COMMANDS)}", "command"
        )
    if limit is not None and limit < 1:
        raise InputError(f"expected a positive number of results, not {limit}", "limit")
    where, args = [], []
    if result is not None:
        where.append("r.id = ?")
        args.append(result)
    if command is not None:
        where.append("r.kind = ?")
        args.append(command)
    if since is not None:
        where.append("r.created >= ?")
        args.append(_when(since, "since", False))
    if until is not None:
        where.append("r.created < ?")
        args.append(_when(until, "until", True))
    bot_where = []
    if bot is not None:
        bot_where.append("b.name = ?")
        args.append(bot)
    for name, column, value in (("commit", "git_commit", commit), ("digest", "digest", digest)):
        if value is not None:
            if not value or any(c not in "0123456789abcdef" for c in value.lower()):
                raise InputError(f"expected hexadecimal digits, not {value!r}", name)
            bot_where.append(f"b.{column} >= ? AND b.{column} < ?")
            args += [value.lower(), value.lower() + "g"]
    if bot_where:
        where.append(
            "EXISTS (SELECT 1 FROM bots b WHERE b.result = r.id AND "
            + " AND ".join(bot_where)
            + ")"
        )
    sql = "SELECT r.id FROM results r"
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY r.id DESC"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    with Store(store, create=False) as s:
        # the results and their bots in two queries over the same chosen ids
        rows = [dict(r) for r in s.query(f"SELECT * FROM results WHERE id IN ({sql}) "
                                         "ORDER BY id DESC", args)]  # fmt: skip
        bots: dict[int, list[dict[str, Any]]] = {}
        for result, role, name, dig, com, dirty in s.query(
            "SELECT result, role, name, digest, git_commit, dirty FROM bots "
            f"WHERE result IN ({sql}) ORDER BY result, rowid",
            args,
        ):
            bots.setdefault(result, []).append(
                {
                    "role": role,
                    "name": name,
                    "digest": dig,
                    "commit": com,
                    "dirty": None if dirty is None else bool(dirty),
                }  # fmt: skip
            )
    for r in rows:
        r["partial"] = bool(r["partial"])
        r["figures"] = json.loads(r["figures"])
        r["bots"] = bots.get(r["id"], [])
    return rows


def bot_label(b: dict[str, Any]) -> str:
    """A stored bot as ``role=name@commit`` (its first 8 hex digits, ``+`` when its files
    differed from the commit; its digest's beginning outside git)."""
    version = ""
    if b.get("commit"):
        version = "@" + b["commit"][:8] + ("+" if b.get("dirty") else "")
    elif b.get("digest"):
        version = "#" + b["digest"][:8]
    return f"{b['role']}={b['name']}{version}"
