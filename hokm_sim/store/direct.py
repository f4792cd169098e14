"""Adding a result to a SQLite store through the driver alone, so that a command records
its result without importing SQLAlchemy (a fifth of a second of CPU that, in a short
command, no background thread hides: it holds the interpreter's lock as the command's
own Python does).

The statements are SQLAlchemy's (:func:`~.schema.writes`), as it compiles them for
SQLite (:mod:`.sqlite_sql`), run by the driver SQLAlchemy runs them with, with the
same settings (:func:`configure`). Only a store of this hokm-sim's schema version goes
this way: a new store, an older one (to migrate), a newer or damaged one go through
:class:`~.db.Store`, which makes, migrates or refuses it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from hokm_sim.store.location import StoreError
from hokm_sim.store.rows import Row, columns
from hokm_sim.store.sqlite_sql import SCHEMA, STATEMENTS

BUSY_MS = 60_000
"""How long a SQLite writer waits for the others (milliseconds) before it gives up."""


def configure(db: sqlite3.Connection) -> None:
    """The settings of every connection to a SQLite store: transactions begun by us
    (a writer's with the write lock: ``BEGIN IMMEDIATE``), the wait for other writers,
    foreign keys (a result's bots go with it)."""
    db.isolation_level = None
    db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
    # in WAL mode a commit is atomic without its own fsync; the log is synced at
    # each checkpoint (a power cut may lose the last results, never corrupt any)
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA foreign_keys = ON")


def why(exc: BaseException) -> str:
    """One line for a SQLite or file system error, saying so where the file is no store."""
    what = " ".join(str(exc).split()) or type(exc).__name__
    if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
        what += " (the file is damaged or not a hokm-sim results store)"
    return what


def connect(path: Path) -> sqlite3.Connection | None:
    """A connection to the SQLite store at ``path`` if it is one of this schema version;
    else None (nothing there, another version, not a database: for
    :class:`~.db.Store` to make, migrate or refuse)."""
    if not path.is_file():
        return None
    try:
        db = sqlite3.connect(path, timeout=BUSY_MS / 1000, check_same_thread=False)
    except sqlite3.Error:
        return None
    try:
        configure(db)
        if db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA:
            return db
    except sqlite3.Error:
        pass
    db.close()
    return None


def add(db: sqlite3.Connection, path: Path, row: Row) -> int:
    """Store ``row`` in one transaction, as :meth:`~.db.Store.add` does; its id."""

    def run(name: str, values: list[dict]) -> sqlite3.Cursor:
        sql, order = STATEMENTS[name]
        return db.executemany(sql, [tuple(v[k] for k in order) for v in values])

    result, bots, comparisons = columns(row)
    sql, order = STATEMENTS["result"]
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            if row.folder is not None:
                run("delete", [{"folder": row.folder}])
            rid = int(db.execute(sql, tuple(result[k] for k in order)).fetchall()[0][0])
            run("bots", [b | {"result": rid} for b in bots])
            run("comparisons", [c | {"result": rid} for c in comparisons])
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
    except (sqlite3.Error, OSError) as exc:
        raise StoreError(f"cannot write to the results store {path}: {why(exc)}") from None
    return rid
