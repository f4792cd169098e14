"""The results store: every result hokm-sim writes, kept in one database to query and compare.

:func:`begin` (and :func:`keep`, which is it at once) is the one way in: the
report folder's writer calls it for every report (and the commands that write
none, ``regress`` without a folder, ``regress --calibrate`` and the play table's
finished games, call :func:`keep` themselves). :mod:`.rows` reads a record into a row,
:mod:`.gitinfo` asks git where a bot's files stand, :mod:`.location` says where
the store is, :mod:`.schema` defines its tables, :mod:`.db` is the database
(SQLite or PostgreSQL, docs/results.md), :mod:`.query` lists what is stored.

SQLAlchemy takes a fifth of a second of CPU to import, more than recording a result
may cost, and a thread would not hide it (it holds the interpreter's lock, as the
command's own Python and its engine do). So a result goes into a SQLite store of this
schema version through the driver alone (:mod:`.direct`: SQLAlchemy's statements,
compiled), and into a server's store of this schema version through libpq alone
(:mod:`.server`, :mod:`.libpq`: the statements compiled with numbered parameters),
both in the command's process; a store to make or migrate goes through SQLAlchemy, a
server's in a process of its own (:mod:`.writer`).
A command that will record calls :func:`prepare` when it starts: the store is opened
in a background thread (made or migrated through SQLAlchemy where it must be) while
the command works. This package itself imports no SQLAlchemy (``Store`` and
``SCHEMA`` load it when first named).
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import json
import os
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hokm_sim.store import direct, libpq, rows, server
from hokm_sim.store.location import StoreError, data_dir, locate, shown
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


class _Local:
    """A SQLite store being opened in a background thread, then the process's open
    store: of this schema through the driver alone (:mod:`.direct`), any other through
    SQLAlchemy (:class:`~.db.Store`, which makes, migrates or refuses it)."""

    def __init__(self, where: Path) -> None:
        self._where = where
        self._direct: sqlite3.Connection | None = None
        self._store: Store | None = None
        self.error: BaseException | None = None
        self._writing = threading.Lock()  # one transaction at a time on the one connection
        self._thread = threading.Thread(target=self._open, name="hokm-sim store", daemon=True)
        self._thread.start()

    def _open(self) -> None:
        try:
            self._direct = direct.connect(self._where)
            if self._direct is None:
                from hokm_sim.store.db import Store

                self._store = Store(self._where)
        except BaseException as exc:  # raised again by add(), in the thread that writes
            self.error = exc

    def settle(self) -> None:
        self._thread.join(30)

    def add(self, row: Row) -> int:
        """Store ``row``; its id. The error that opening the store met, raised again."""
        self._thread.join()
        if self.error is not None:
            raise self.error
        if self._direct is not None:
            with self._writing:
                return direct.add(self._direct, self._where, row)
        assert self._store is not None
        return self._store.add(row)


class _Remote:
    """A store on a server, opened in a background thread started now: one of this
    schema version is written in this process, through libpq (:mod:`.server`); any
    other (to make or migrate) by a process of its own (:mod:`.writer`), through
    SQLAlchemy."""

    def __init__(self, where: str) -> None:
        self._where = where
        self._name = shown(where)
        self.error: BaseException | None = None
        self._conn: libpq.Connection | None = None
        self._proc: subprocess.Popen | None = None
        self._writing = threading.Lock()  # one result at a time on the connection or pipe
        self._thread = threading.Thread(target=self._open, name="hokm-sim store", daemon=True)
        self._thread.start()

    def _open(self) -> None:
        try:
            self._conn = server.connect(self._where)
            if self._conn is None:
                self._proc = self._writer()
        except BaseException as exc:  # raised again by add(), in the thread that writes
            self.error = exc

    def _writer(self) -> subprocess.Popen:
        package = str(Path(__file__).resolve().parents[2])  # where hokm_sim is imported from
        path = os.pathsep.join(filter(None, (package, os.environ.get("PYTHONPATH"))))
        proc = subprocess.Popen(
            [sys.executable, "-m", "hokm_sim.store.writer"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, start_new_session=True, env=os.environ | {"PYTHONPATH": path},
        )  # fmt: skip
        self._send(proc, self._where, answered=False)
        return proc

    @staticmethod
    def _send(proc: subprocess.Popen, line: str, answered: bool = True) -> str:
        """Send ``line`` to the writer; its answer ("" if it has gone)."""
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            return proc.stdout.readline() if answered else line
        except (OSError, ValueError):
            return ""

    def settle(self) -> None:
        """Close the connection, or let the writer go: the end of its input ends it. A
        connection still being made is left to the process's end (no wait on a server
        that does not answer)."""
        if self._thread.is_alive():
            return
        with self._writing:
            if self._conn is not None:
                self._conn.close()
            if self._proc is not None and self._proc.stdin is not None:
                with contextlib.suppress(OSError):
                    self._proc.stdin.close()

    def add(self, row: Row) -> int:
        """Store ``row``; its id."""
        self._thread.join()
        if self.error is not None:
            raise self.error
        with self._writing:
            if self._conn is not None:
                try:
                    return server.add(self._conn, self._where, row)
                except StoreError as exc:  # the next result opens the store again
                    self._conn.close()
                    self.error = exc
                    raise
            assert self._proc is not None
            said = self._send(self._proc, json.dumps(dataclasses.asdict(row)))
        if not said:
            self.error = StoreError(
                f"cannot write to the results store {self._name}: its writer process ended "
                f"(exit status {self._proc.poll()})"
            )
            raise self.error
        answer = json.loads(said)
        if "error" in answer:
            self.settle()  # the next result starts a new one, which tries again
            self.error = StoreError(answer["error"])
            raise self.error
        return int(answer["id"])


_OPEN: dict[tuple[int, str], _Local | _Remote] = {}
_LOCK = threading.Lock()


def _opening(where: Path | str) -> _Local | _Remote:
    """The process's way into the store ``where`` (a forked child opens its own; one
    that failed is tried again)."""
    key = (os.getpid(), str(where.resolve() if isinstance(where, Path) else where))
    with _LOCK:
        found = _OPEN.get(key)
        if found is None or found.error is not None:
            found = _OPEN[key] = _Local(where) if isinstance(where, Path) else _Remote(where)
        return found


@atexit.register
def _settle() -> None:
    """Before the interpreter goes: let a SQLite store's opening under way finish (a
    thread stopped inside an import or a transaction may hold what the exit needs), a
    server's connection close and its writer go."""
    for (pid, _), opening in list(_OPEN.items()):
        if pid == os.getpid():  # a forked child's copies are its parent's to close
            opening.settle()
