"""The results store: every result hokm-sim writes, kept in one database to query and compare.

:func:`begin` (and :func:`keep`, which is it at once) is the one way in: the
report folder's writer calls it for every report (and the commands that write
none, ``regress --calibrate`` and the play table's finished games, call
:func:`keep` themselves). :mod:`.rows` reads a record into a row,
:mod:`.gitinfo` asks git where a bot's files stand, :mod:`.location` says where
the store is, :mod:`.schema` defines its tables, :mod:`.db` is the database
(SQLite or PostgreSQL, docs/results.md), :mod:`.query` lists what is stored.

SQLAlchemy takes a fifth of a second to import, more than recording a result may
cost: a result goes into a SQLite store of this schema version through the driver
alone (:mod:`.direct`: SQLAlchemy's statements, compiled), and into any other through
SQLAlchemy. A command that will record calls :func:`prepare` when it starts, which
opens the store in a background thread while the command works, and the write joins
it. This package itself imports no SQLAlchemy (``Store`` and ``SCHEMA`` load it when
first named).
"""

from __future__ import annotations

import atexit
import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hokm_sim.store import direct, rows
from hokm_sim.store.location import StoreError, data_dir, locate
from hokm_sim.store.rows import Row, row

if TYPE_CHECKING:
    from hokm_sim.store.db import Store

__all__ = [
    "SCHEMA", "Row", "Store", "StoreError", "begin", "data_dir", "keep", "locate", "prepare",
    "row",
]  # fmt: skip


def __getattr__(name: str) -> Any:
    if name == "Store":
        from hokm_sim.store.db import Store

        return Store
    if name == "SCHEMA":
        from hokm_sim.store.schema import SCHEMA

        return SCHEMA
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def prepare(store: str | Path | None = None) -> None:
    """Start opening the store (``store``, else ``$HOKM_SIM_STORE``, else the default)
    in the background, for a result this process will add later: SQLAlchemy and the
    driver are imported, the store connected to and migrated while the command works.
    An error is kept for the write (:func:`begin`) to raise, where a failed write is
    told. Nothing is started twice."""
    try:
        where = locate(store)
    except StoreError:
        return  # told at the write
    _opening(where)


def begin(
    record: dict[str, Any], folder: str | Path | None = None, store: str | Path | None = None
) -> Callable[[str | None], int]:
    """Start adding the result ``record`` (written to ``folder``, if any): its bots'
    digests are taken and git is asked now, in the background, and the store opened
    (:func:`prepare`); the function returned, called with the result's headline once
    the rest of the report is written, adds the row (one transaction) and gives its id.
    The bots' files are taken to be those the result was made with."""
    try:
        opening = _opening(locate(store))
    except StoreError as exc:  # told by the write, once the report's files are written
        failed = exc

        def refuse(headline: str | None = None) -> int:
            raise failed

        return refuse
    pending, fill = rows.start(record, folder)

    def add(headline: str | None = None) -> int:
        fill()
        pending.headline = headline
        return opening.add(pending)

    return add


def keep(
    record: dict[str, Any],
    folder: str | Path | None = None,
    headline: str | None = None,
    store: str | Path | None = None,
) -> int:
    """Add the result ``record`` to the store at once (:func:`begin`); its id."""
    return begin(record, folder, store)(headline)


class _Opening:
    """A store being opened in a background thread, then the process's open store: a
    SQLite store of this schema through the driver alone (:mod:`.direct`), any other
    through SQLAlchemy (:class:`~.db.Store`)."""

    def __init__(self, where: Path | str) -> None:
        self._where = where
        self._direct: sqlite3.Connection | None = None
        self._store: Store | None = None
        self._error: BaseException | None = None
        self._writing = threading.Lock()  # one transaction at a time on the one connection
        self._thread = threading.Thread(target=self._open, name="hokm-sim store", daemon=True)
        self._thread.start()

    def _open(self) -> None:
        try:
            if isinstance(self._where, Path):
                self._direct = direct.connect(self._where)
                if self._direct is not None:
                    return
            from hokm_sim.store.db import Store

            self._store = Store(self._where)
        except BaseException as exc:  # raised again by add(), in the thread that writes
            self._error = exc

    def wait(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    def add(self, row: Row) -> int:
        """Store ``row``; its id. The error that opening the store met, raised again."""
        self.wait()
        if self._error is not None:
            raise self._error
        if self._direct is not None:
            assert isinstance(self._where, Path)
            with self._writing:
                return direct.add(self._direct, self._where, row)
        assert self._store is not None
        return self._store.add(row)


_OPEN: dict[tuple[int, str], _Opening] = {}
_LOCK = threading.Lock()


def _opening(where: Path | str) -> _Opening:
    """The process's opening of the store ``where`` (a forked child opens its own; a
    failed opening is tried again)."""
    key = (os.getpid(), str(where.resolve() if isinstance(where, Path) else where))
    with _LOCK:
        found = _OPEN.get(key)
        if found is None or found._error is not None:
            found = _OPEN[key] = _Opening(where)
        return found


@atexit.register
def _settle() -> None:
    """Let an opening still under way finish before the interpreter goes (a thread
    stopped inside an import or a transaction may hold what the exit needs)."""
    for opening in list(_OPEN.values()):
        opening.wait(30)
