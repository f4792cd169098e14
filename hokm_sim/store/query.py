"""Reading stored results: the listing's filters on the bot, the command, the date, the
commit and the digest, newest first, without pandas (``hokm-sim results`` answers at
once); and the comparisons and verdicts a bot's history is fitted to."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from hokm_sim.errors import InputError
from hokm_sim.store.db import Store
from hokm_sim.store.schema import bots, comparisons, results

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


def _chosen(
    result: int | None,
    bot: str | None,
    command: str | None,
    since: str | None,
    until: str | None,
    commit: str | None,
    digest: str | None,
) -> list[sa.ColumnElement[bool]]:
    """The conditions on ``results`` of the listing's filters."""
    if command is not None and command not in COMMANDS:
        raise InputError(
            f"unknown command {command!r}: expected one of {', '.join(COMMANDS)}", "command"
        )
    r, b = results.c, bots.c
    where = []
    if result is not None:
        where.append(r.id == result)
    if command is not None:
        where.append(r.kind == command)
    if since is not None:
        where.append(r.created >= _when(since, "since", False))
    if until is not None:
        where.append(r.created < _when(until, "until", True))
    on_bot = []
    if bot is not None:
        on_bot.append(b.name == bot)
    for name, column, value in (("commit", b.git_commit, commit), ("digest", b.digest, digest)):
        if value is not None:
            if not value or any(c not in "0123456789abcdef" for c in value.lower()):
                raise InputError(f"expected hexadecimal digits, not {value!r}", name)
            on_bot += [column >= value.lower(), column < value.lower() + "g"]
    if on_bot:
        where.append(sa.exists().where(b.result == r.id, *on_bot))
    return where


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
    raw_figures: bool = False,
) -> list[dict[str, Any]]:
    """The stored results that match every filter given, newest first, at most ``limit``
    (None: all): each with its bots (role, name, digest, commit, dirty) and figures.
    ``result`` picks the one result of that id.
    ``bot`` is a bot's name; ``commit`` and ``digest`` match their beginnings.
    ``raw_figures``: the figures as the JSON text stored (for JSON output: not decoded
    only to be encoded again)."""
    if limit is not None and limit < 1:
        raise InputError(f"expected a positive number of results, not {limit}", "limit")
    where = _chosen(result, bot, command, since, until, commit, digest)
    newest = (results.c.created.desc(), results.c.id.desc())  # an import may be older
    ids = (sa.select(results.c.id).where(*where).order_by(*newest).limit(limit)).scalar_subquery()
    b = bots.c
    with Store(store, create=False).reading() as conn:
        # the results and their bots in two queries over the same chosen ids, all rows
        # fetched at once (not one by one: SQLAlchemy's work per row is the most of it)
        chosen = conn.execute(sa.select(results).where(results.c.id.in_(ids)).order_by(*newest))
        keys = list(chosen.keys())
        found = [dict(zip(keys, r, strict=True)) for r in chosen.all()]
        on: dict[int, list[dict[str, Any]]] = {}
        for rid, role, name, dig, com, dirty in conn.execute(
            sa.select(b.result, b.role, b.name, b.digest, b.git_commit, b.dirty)
            .where(b.result.in_(ids)).order_by(b.result, b.place, b.role)
        ).all():  # fmt: skip
            on.setdefault(rid, []).append(
                {"role": role, "name": name, "digest": dig, "commit": com, "dirty": dirty}
            )
    for r in found:
        if not raw_figures:
            r["figures"] = json.loads(r["figures"])
        r["bots"] = on.get(r["id"], [])
    return found


def count(
    store: str | Path | None = None,
    *,
    bot: str | None = None,
    command: str | None = None,
    since: str | None = None,
    until: str | None = None,
    commit: str | None = None,
    digest: str | None = None,
) -> int:
    """How many stored results match every filter given (:func:`select`'s)."""
    where = _chosen(None, bot, command, since, until, commit, digest)
    statement = sa.select(sa.func.count()).select_from(results).where(*where)
    with Store(store, create=False).reading() as conn:
        return int(conn.execute(statement).scalar_one())


def as_json(found: list[dict[str, Any]]) -> Iterator[str]:
    """:func:`select`'s results (with ``raw_figures``) as a JSON array, in pieces: the
    figures spliced in as stored, everything else through the C encoder."""
    yield "["
    for i, r in enumerate(found):
        figures = r.pop("figures")
        text = json.dumps(r)
        yield ("," if i else "") + text[:-1] + ', "figures": ' + figures + "}\n"
    yield "]"


def compared_names(store: str | Path | None) -> list[str]:
    """The names of the stored bots that have a comparison with digests: those a
    history can be fitted for."""
    b, c = bots.c, comparisons.c
    statement = (
        sa.select(b.name).distinct()
        .where(b.digest.is_not(None),
               sa.exists().where(c.result == b.result, (c.a == b.role) | (c.b == b.role)))
        .order_by(b.name)
    )  # fmt: skip
    with Store(store, create=False).reading() as conn:
        return list(conn.execute(statement).scalars())


def compared(store: str | Path | None, names: Sequence[str]) -> list[dict[str, Any]]:
    """Every stored comparison that involves a bot of one of ``names`` between bots with
    digests, oldest first: the result's id and date, the score, its interval and pairs,
    and each side's name, digest, commit and dirty flag (``a_name``, ``b_digest`` ...)."""
    r, c = results.c, comparisons.c
    ba, bb = bots.alias("ba"), bots.alias("bb")
    sides = [
        col.label(f"{side}_{label}")
        for side, t in (("a", ba), ("b", bb))
        for label, col in (("name", t.c.name), ("digest", t.c.digest),
                           ("commit", t.c.git_commit), ("dirty", t.c.dirty))
    ]  # fmt: skip
    statement = (
        sa.select(r.id, r.created, c.score, c.low, c.high, c.pairs, *sides)
        .select_from(comparisons.join(results, r.id == c.result)
                     .join(ba, (ba.c.result == c.result) & (ba.c.role == c.a))
                     .join(bb, (bb.c.result == c.result) & (bb.c.role == c.b)))
        .where(ba.c.name.in_(names) | bb.c.name.in_(names),
               ba.c.digest.is_not(None), bb.c.digest.is_not(None))
        .order_by(r.created, r.id)
    )  # fmt: skip
    with Store(store, create=False).reading() as conn:
        return [x._asdict() for x in conn.execute(statement)]


def verdicts(store: str | Path | None, names: Sequence[str]) -> list[dict[str, Any]]:
    """The regress verdicts stored with a bot of one of ``names`` as the candidate: its
    digest, the verdict."""
    r, b = results.c, bots.c
    statement = (
        sa.select(b.digest, r.verdict)
        .select_from(results.join(bots, (b.result == r.id) & (b.role == "candidate")))
        .where(r.kind == "regress", b.name.in_(names), r.verdict.is_not(None),
               b.digest.is_not(None))
    )  # fmt: skip
    with Store(store, create=False).reading() as conn:
        return [x._asdict() for x in conn.execute(statement)]


def bot_label(b: dict[str, Any]) -> str:
    """A stored bot as ``role=name@commit`` (its first 8 hex digits, ``+`` when its files
    differed from the commit; its digest's beginning outside git)."""
    version = ""
    if b.get("commit"):
        version = "@" + b["commit"][:8] + ("+" if b.get("dirty") else "")
    elif b.get("digest"):
        version = "#" + b["digest"][:8]
    return f"{b['role']}={b['name']}{version}"
