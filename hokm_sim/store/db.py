"""The results store: a SQLite database of every result hokm-sim wrote.

Where it is: ``store`` (``--store PATH``), else ``$HOKM_SIM_STORE``, else
``results.sqlite`` in the user's data folder (``$HOKM_SIM_DATA``, else
``$XDG_DATA_HOME/hokm-sim``, else ``~/.local/share/hokm-sim``: where ``hokm-sim
play`` keeps its games).

Several processes may write at once (two runs, a tournament beside a regress):
the database is in WAL mode, so readers never wait and writers take turns, each
waiting up to :data:`BUSY_MS` for the others; every result goes in with its bots
and comparisons in one transaction, so a reader sees all of it or none. The
schema is versioned (``PRAGMA user_version``): opening a store of an older schema
applies the missing :data:`MIGRATIONS` in order, each in its own transaction; a
store of a newer schema, or a file that is not a sound database, is a
:class:`StoreError` (one line, exit 2), never a traceback.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from hokm_sim.errors import InputError
from hokm_sim.store.rows import Row

STORE_NAME = "results.sqlite"
BUSY_MS = 60_000
"""How long a writer waits for the others (milliseconds) before it gives up."""

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE results (
        id INTEGER PRIMARY KEY,
        created TEXT NOT NULL,
        kind TEXT NOT NULL,
        command TEXT,
        version TEXT,
        seed TEXT,
        size INTEGER,
        partial INTEGER NOT NULL DEFAULT 0,
        headline TEXT,
        figures TEXT NOT NULL DEFAULT '{}',
        verdict TEXT,
        folder TEXT
    );
    CREATE INDEX results_created ON results (created);
    CREATE INDEX results_kind ON results (kind, created);
    CREATE INDEX results_folder ON results (folder);
    CREATE TABLE bots (
        result INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        name TEXT NOT NULL,
        digest TEXT,
        git_commit TEXT,
        dirty INTEGER,
        path TEXT,
        PRIMARY KEY (result, role)
    );
    CREATE INDEX bots_name ON bots (name, result);
    CREATE INDEX bots_digest ON bots (digest);
    CREATE INDEX bots_commit ON bots (git_commit);
    CREATE TABLE comparisons (
        result INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
        a TEXT NOT NULL,
        b TEXT NOT NULL,
        score REAL NOT NULL,
        low REAL,
        high REAL,
        pairs INTEGER NOT NULL
    );
    CREATE INDEX comparisons_result ON comparisons (result);
    """,
)
"""The schema, one script per version: version ``i + 1`` is ``MIGRATIONS[i]``. A new
version appends a script; a released one never changes."""

SCHEMA = len(MIGRATIONS)
"""The schema version this hokm-sim writes."""


class StoreError(InputError):
    """The store cannot be used: not a database, damaged, of a newer schema, not writable."""


def data_dir(given: str | Path | None = None) -> Path:
    """The user's hokm-sim data folder: ``given``, ``$HOKM_SIM_DATA``, or the XDG data home."""
    if given is not None:
        return Path(given).expanduser()
    env = os.environ.get("HOKM_SIM_DATA")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "hokm-sim"


def store_path(store: str | Path | None = None) -> Path:
    """The store's file: ``store``, ``$HOKM_SIM_STORE``, or ``results.sqlite`` in
    :func:`data_dir`."""
    if store is not None and str(store).strip():
        return Path(store).expanduser()
    env = os.environ.get("HOKM_SIM_STORE")
    if env:
        return Path(env).expanduser()
    return data_dir() / STORE_NAME


def now() -> str:
    """The current UTC time as the store writes it (ISO 8601, seconds, ``Z``)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Store:
    """The results store at ``path`` (see :func:`store_path`). ``create``: make it (and
    its folder) if it is not there; else a missing store is a :class:`StoreError`."""

    def __init__(self, path: str | Path | None = None, create: bool = True) -> None:
        self.path = store_path(path)
        if not create and not self.path.exists():
            raise StoreError(
                f"no results stored yet: {self.path} does not exist "
                "(every command that writes a report adds to it)"
            )
        if self.path.is_dir():
            raise StoreError(f"{self.path} is a folder, not a results store")
        with self._guarded("open"):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None)
            self._db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
            # in WAL mode a commit is atomic without its own fsync; the log is synced at
            # each checkpoint (a power cut may lose the last results, never corrupt any)
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.execute("PRAGMA foreign_keys = ON")
            self._migrate()

    @contextmanager
    def _guarded(self, doing: str) -> Iterator[None]:
        """Turn SQLite's and the file system's errors into one :class:`StoreError` line."""
        try:
            yield
        except StoreError:
            raise
        except (sqlite3.Error, OSError) as exc:
            what = str(exc).strip() or type(exc).__name__
            if isinstance(exc, sqlite3.DatabaseError) and not isinstance(
                exc, sqlite3.OperationalError
            ):
                what += " (the file is damaged or not a hokm-sim results store)"
            message = f"cannot {doing} the results store {self.path}: {what}"
            raise StoreError(message) from None

    def _version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def _migrate(self) -> None:
        """Bring the schema up to :data:`SCHEMA`; refuse a newer one."""
        have = self._version()
        if have == SCHEMA:
            return
        if have < SCHEMA:
            self._db.execute("PRAGMA journal_mode = WAL")
        while True:
            have = self._version()
            if have > SCHEMA:
                raise StoreError(
                    f"the results store {self.path} has schema version {have}, newer than "
                    f"this hokm-sim knows ({SCHEMA}): upgrade hokm-sim, or choose another "
                    "store with --store or HOKM_SIM_STORE"
                )
            if have == SCHEMA:
                return
            self._db.execute("BEGIN IMMEDIATE")  # one process migrates; the others wait
            try:
                if self._version() == have:
                    for statement in _statements(MIGRATIONS[have]):
                        self._db.execute(statement)
                    self._db.execute(f"PRAGMA user_version = {have + 1}")
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing ------------------------------------------------------------------------

    def add(self, row: Row) -> int:
        """Store ``row`` (replacing the row of the same report folder: a resumed run, a
        folder written again with ``force``, an import of a folder already stored); its id."""
        with self._guarded("write to"):
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                if row.folder is not None:
                    db.execute("DELETE FROM results WHERE folder = ?", (row.folder,))
                cur = db.execute(
                    "INSERT INTO results (created, kind, command, version, seed, size, partial, "
                    "headline, figures, verdict, folder) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (row.created or now(), row.kind, row.command, row.version, row.seed,
                     row.size, int(row.partial), row.headline, json.dumps(row.figures),
                     row.verdict, row.folder),
                )  # fmt: skip
                rid = int(cur.lastrowid)
                db.executemany(
                    "INSERT INTO bots (result, role, name, digest, git_commit, dirty, path) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [(rid, b.role, b.name, b.digest, b.commit,
                      None if b.dirty is None else int(b.dirty), b.path) for b in row.bots],
                )  # fmt: skip
                db.executemany(
                    "INSERT INTO comparisons (result, a, b, score, low, high, pairs) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [(rid, c.a, c.b, c.score, c.low, c.high, c.pairs) for c in row.comparisons],
                )
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        return rid

    # --- reading ------------------------------------------------------------------------

    def query(self, sql: str, args: tuple | list = ()) -> list[sqlite3.Row]:
        """Rows of a read-only ``sql`` query, errors told as :class:`StoreError`."""
        with self._guarded("read"):
            cur = self._db.execute(sql, tuple(args))
            cur.row_factory = sqlite3.Row
            return cur.fetchall()

    def integrity(self) -> str:
        """SQLite's ``PRAGMA integrity_check``: ``ok`` for a sound store."""
        return "; ".join(r[0] for r in self.query("PRAGMA integrity_check"))


def _statements(script: str) -> list[str]:
    """The statements of a migration script (split on ``;``: the scripts hold no strings),
    run one by one inside the migration's transaction (``executescript`` would commit)."""
    return [s.strip() for s in script.split(";") if s.strip()]
