"""The results store: every result hokm-sim wrote, in a SQLite file or a PostgreSQL
database, through SQLAlchemy Core (the same tables and statements for both:
:mod:`.schema`).

Several processes may write at once (two runs, a tournament beside a regress, a lab's
CI machines): every result goes in with its bots and comparisons in one transaction,
so a reader sees all of it or none. On SQLite the database is in WAL mode, so readers
never wait and writers take turns (``BEGIN IMMEDIATE``), each waiting up to
:data:`~.direct.BUSY_MS` for the others; PostgreSQL's own transactions do it there. Opening a
store of an older schema applies the missing migrations; a store of a newer schema, a
file that is not a sound database, a server that cannot be reached or refuses us is a
:class:`StoreError` (one line naming the store without its password, exit 2), never a
traceback.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event, exc

from hokm_sim.store import direct, schema, server
from hokm_sim.store.location import FORMS, StoreError, locate, shown
from hokm_sim.store.rows import Row, columns


class Store:
    """The results store at ``where`` (see :func:`~.location.locate`: a path, a URL, or
    None for the default). ``create``: make it (a SQLite file and its folder, a server
    database's tables) if it is not there; else a missing store is a :class:`StoreError`."""

    def __init__(self, where: str | Path | None = None, create: bool = True) -> None:
        self.where = locate(where)
        self.name = shown(self.where)
        if isinstance(self.where, Path):
            if not create and not self.where.exists():
                raise StoreError(
                    f"no results stored yet: {self.name} does not exist "
                    "(every command that writes a report adds to it)"
                )
            if self.where.is_dir():
                raise StoreError(f"{self.name} is a folder, not a results store")
        with self._guarded("open"):
            self._engine = _engine(self.where)
            self._migrate(create)

    @property
    def sqlite(self) -> bool:
        return isinstance(self.where, Path)

    @contextmanager
    def _guarded(self, doing: str) -> Iterator[None]:
        """Turn the database's, the driver's and the file system's errors into one
        :class:`StoreError` line."""
        try:
            yield
        except StoreError:
            raise
        except (exc.SQLAlchemyError, sqlite3.Error, OSError) as e:
            why = self._why(e)
            raise StoreError(f"cannot {doing} the results store {self.name}: {why}") from None

    def _why(self, e: BaseException) -> str:
        """One line for what went wrong, with what to do where it is the user's to fix."""
        orig = getattr(e, "orig", None) or e
        return direct.why(orig) if self.sqlite else server.why(orig)

    def _migrate(self, create: bool) -> None:
        """Bring the schema up to :data:`~.schema.SCHEMA`; refuse a newer one."""
        with self._engine.connect() as conn:
            have = schema.version(conn)
        if have == schema.SCHEMA:
            return
        if have == 0 and not create:
            raise StoreError(
                f"no results stored yet in {self.name} "
                "(every command that writes a report adds to it)"
            )
        if have < schema.SCHEMA and self.sqlite:
            with self._engine.connect() as conn:  # outside a transaction: the driver's own
                conn.connection.driver_connection.execute("PRAGMA journal_mode = WAL")
        with self._engine.connect().execution_options(write=True) as conn, conn.begin():
            schema.lock(conn)  # one process migrates; the others wait, then find it done
            have = schema.version(conn)
            if have > schema.SCHEMA:
                raise StoreError(
                    f"the results store {self.name} has schema version {have}, newer than "
                    f"this hokm-sim knows ({schema.SCHEMA}): upgrade hokm-sim, or choose "
                    "another store with --store or HOKM_SIM_STORE"
                )
            for migration in schema.MIGRATIONS[have:]:
                migration(conn)
            if have < schema.SCHEMA:
                schema.set_version(conn, schema.SCHEMA)

    def close(self) -> None:
        """Nothing to release: the process's connections are pooled until it ends."""

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- writing ------------------------------------------------------------------------

    def add(self, row: Row) -> int:
        """Store ``row`` (replacing the row of the same report folder: a resumed run, a
        folder written again with ``force``); its id."""
        rid = self._add(row, replace=True)
        assert rid is not None
        return rid

    def add_new(self, row: Row) -> int | None:
        """Store ``row`` unless a row of its report folder is stored already (an import
        of a folder recorded when it was written, with its bots' digests and commits, or
        imported before): that row is kept as it is, and None returned; else its id."""
        return self._add(row, replace=False)

    def _add(self, row: Row, replace: bool) -> int | None:
        write = schema.writes()
        result, bots, comparisons = columns(row)
        with self._guarded("write to"), self.writing() as conn:
            if row.folder is not None and replace:
                conn.execute(write["delete"], {"folder": row.folder})
            elif row.folder is not None:
                on = schema.results.c.folder == row.folder
                if conn.execute(sa.select(schema.results.c.id).where(on)).first() is not None:
                    return None
            rid = int(conn.execute(write["result"], result).scalar_one())
            if bots:
                conn.execute(write["bots"], [b | {"result": rid} for b in bots])
            if comparisons:
                conn.execute(write["comparisons"], [c | {"result": rid} for c in comparisons])
        return rid

    @contextmanager
    def writing(self) -> Iterator[sa.Connection]:
        """A connection in a write transaction (SQLite: holding the write lock from its
        start), committed at the end, rolled back on an error."""
        with self._engine.connect().execution_options(write=True) as conn, conn.begin():
            yield conn

    # --- reading ------------------------------------------------------------------------

    def query(self, statement: sa.Executable | str, args: dict[str, Any] | None = None) -> list:
        """The rows of a read-only ``statement`` (SQL text: ``:name`` parameters), in
        one transaction; errors told as :class:`StoreError`."""
        if isinstance(statement, str):
            statement = sa.text(statement)
        with self._guarded("read"), self._engine.connect() as conn:
            return list(conn.execute(statement, args or {}))

    @contextmanager
    def reading(self) -> Iterator[sa.Connection]:
        """A connection in one read transaction (several queries that see the same
        store), errors told as :class:`StoreError`."""
        with self._guarded("read"), self._engine.connect() as conn:
            yield conn

    def integrity(self) -> str:
        """``ok`` for a sound store, else what is wrong: SQLite's own check of its file
        (``PRAGMA integrity_check``) and foreign keys, and on either database that every
        bot and comparison belongs to a stored result, and every comparison's two roles
        to bots of it."""
        r, b, c = schema.results, schema.bots, schema.comparisons
        problems = []
        with self.reading() as conn:
            if self.sqlite:
                problems += [x for (x,) in conn.exec_driver_sql("PRAGMA integrity_check")]
                problems = [p for p in problems if p != "ok"]
                if conn.exec_driver_sql("PRAGMA foreign_key_check").first() is not None:
                    problems.append("foreign keys broken")
            for table in (b, c):
                orphans = conn.execute(
                    sa.select(sa.func.count()).select_from(table).where(
                        ~sa.exists().where(r.c.id == table.c.result))
                ).scalar_one()  # fmt: skip
                if orphans:
                    problems.append(f"{orphans} rows of {table.name} without their result")
            for side in (c.c.a, c.c.b):
                loose = conn.execute(
                    sa.select(sa.func.count()).select_from(c).where(~sa.exists().where(
                        (b.c.result == c.c.result) & (b.c.role == side)))
                ).scalar_one()  # fmt: skip
                if loose:
                    problems.append(f"{loose} comparisons naming a bot their result lacks")
        return "; ".join(problems) or "ok"


_ENGINES: dict[tuple[int, str], sa.Engine] = {}
_ENGINES_LOCK = threading.Lock()


def _engine(where: Path | str) -> sa.Engine:
    """The process's engine for the store ``where`` (a forked child makes its own)."""
    key = (os.getpid(), str(where.resolve() if isinstance(where, Path) else where))
    with _ENGINES_LOCK:
        if key not in _ENGINES:
            _ENGINES[key] = _sqlite(where) if isinstance(where, Path) else _server(where)
        return _ENGINES[key]


def _sqlite(path: Path) -> sa.Engine:
    """A SQLite file's engine: SQLAlchemy leaves the transactions to us (the driver's own
    would begin them late, and never with the write lock), the pragmas on each connection."""
    path.parent.mkdir(parents=True, exist_ok=True)
    engine = sa.create_engine(
        sa.URL.create("sqlite", database=str(path)),
        connect_args={"timeout": direct.BUSY_MS / 1000, "check_same_thread": False},
    )

    @event.listens_for(engine, "connect")
    def _connect(dbapi: sqlite3.Connection, _record: object) -> None:
        direct.configure(dbapi)

    @event.listens_for(engine, "begin")
    def _begin(conn: sa.Connection) -> None:
        write = conn.get_execution_options().get("write")
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def _server(url: str) -> sa.Engine:
    """A PostgreSQL server's engine (psycopg 3), with a bound on the wait to connect."""
    server.driver()  # told here, not as SQLAlchemy's error
    try:
        parsed = sa.make_url(url)  # a port that is not a number is refused here
    except (exc.ArgumentError, ValueError):
        raise StoreError(f"bad results store URL {shown(url)}: expected {FORMS}") from None
    wait = {} if "connect_timeout" in parsed.query else {"connect_timeout": server.CONNECT_TIMEOUT}
    return sa.create_engine(parsed, connect_args=wait, pool_size=2)
