"""PostgreSQL's own client library, libpq, called through :mod:`ctypes`: the few calls a
command needs to add a result to a store on a server, in its own process.

Why not psycopg: importing it takes about 0.12 s of CPU (its error classes, its type
adapters, asyncio, ssl, a version lookup), which a short command would pay or a process
of its own take from a machine's other core; loading libpq and connecting take about
10 ms. psycopg is libpq underneath, and this is the libpq psycopg itself uses where it
can be found: the copy bundled with ``psycopg[binary]`` (the ``postgres`` extra), else
the system's. Every call that waits on the server (connecting, a statement) is a
foreign call, which lets go of the interpreter's lock while it waits.

Values go as text and come back as text (``None`` for NULL); the statements are
SQLAlchemy's, compiled with numbered parameters (:mod:`.postgresql_sql`).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import importlib.util
from collections.abc import Sequence
from pathlib import Path

_CONNECTION_OK = 0
_COMMAND_OK, _TUPLES_OK = 1, 2
_SQLSTATE = ord("C")  # PG_DIAG_SQLSTATE
_SEVERITY = ord("S")  # PG_DIAG_SEVERITY, in the server's language


class Error(Exception):
    """What libpq said went wrong (one line), with the SQLSTATE code where the server
    gave one ("" for a connection that failed before it could)."""

    def __init__(self, message: str, sqlstate: str = "") -> None:
        super().__init__(" ".join(message.split()))
        self.sqlstate = sqlstate

    @property
    def connecting(self) -> bool:
        """Whether the server could not be reached, refused us or went away (psycopg's
        ``OperationalError``: no SQLSTATE, or one of its classes)."""
        return self.sqlstate[:2] in ("", "08", "53", "54", "55", "57", "58")

    @property
    def programming(self) -> bool:
        """A statement the database refused as written for it (psycopg's
        ``ProgrammingError``: a missing or existing table, say)."""
        return self.sqlstate[:2] in ("26", "2F", "34", "3D", "3F", "42")


def _candidates() -> list[str]:
    found = []
    spec = importlib.util.find_spec("psycopg_binary")  # found, not imported
    if spec is not None and spec.origin is not None:
        bundled = Path(spec.origin).parent.parent / "psycopg_binary.libs"
        found += [str(p) for p in sorted(bundled.glob("libpq*.so*"))]
    return [*found, "libpq.so.5", "libpq.5.dylib"]


def _load() -> ctypes.CDLL | None:
    for name in _candidates():
        try:
            return _declare(ctypes.CDLL(name))
        except OSError:
            continue
    name = ctypes.util.find_library("pq")
    return _declare(ctypes.CDLL(name)) if name else None


def _declare(lib: ctypes.CDLL) -> ctypes.CDLL:
    p, s, i = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
    strings = ctypes.POINTER(ctypes.c_char_p)
    for name, res, args in (
        ("PQconnectdbParams", p, [strings, strings, i]),
        ("PQstatus", i, [p]),
        ("PQerrorMessage", s, [p]),
        ("PQfinish", None, [p]),
        ("PQexecParams", p, [p, s, i, p, strings, p, p, i]),
        ("PQresultStatus", i, [p]),
        ("PQresultErrorMessage", s, [p]),
        ("PQresultErrorField", s, [p, i]),
        ("PQntuples", i, [p]),
        ("PQnfields", i, [p]),
        ("PQgetisnull", i, [p, i, i]),
        ("PQgetvalue", s, [p, i, i]),
        ("PQclear", None, [p]),
    ):
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    return lib


_LIB: ctypes.CDLL | None = None
_LOADED = False


def library() -> ctypes.CDLL | None:
    """libpq, loaded once; None where no copy of it is found."""
    global _LIB, _LOADED
    if not _LOADED:
        _LIB, _LOADED = _load(), True
    return _LIB


def _strings(values: Sequence[str | None]) -> ctypes.Array:
    return (ctypes.c_char_p * (len(values) + 1))(
        *[None if v is None else v.encode() for v in values], None
    )


class Connection:
    """One connection to a server (libpq's ``PGconn``), each statement in its own
    transaction unless one is begun."""

    def __init__(self, lib: ctypes.CDLL, arguments: dict[str, str]) -> None:
        self._lib = lib
        arguments = arguments | {"client_encoding": "UTF8"}  # values go as UTF-8 text
        names, values = list(arguments), [str(v) for v in arguments.values()]
        self._conn = lib.PQconnectdbParams(_strings(names), _strings(values), 0)
        if not self._conn:
            raise Error("out of memory")
        if lib.PQstatus(self._conn) != _CONNECTION_OK:
            message = (lib.PQerrorMessage(self._conn) or b"").decode(errors="replace")
            self.close()
            raise Error(f"connection failed: {message}")  # as psycopg tells it

    def execute(self, sql: str, values: Sequence[str | None] = ()) -> list[tuple[str | None, ...]]:
        """Run ``sql`` with ``values`` for ``$1``, ``$2``...; its rows, as text."""
        if self._conn is None:
            raise Error("the connection is closed")
        lib = self._lib
        res = lib.PQexecParams(self._conn, sql.encode(), len(values), None, _strings(values),
                               None, None, 0)  # fmt: skip
        if not res:
            raise Error((lib.PQerrorMessage(self._conn) or b"").decode(errors="replace"))
        try:
            status = lib.PQresultStatus(res)
            if status not in (_COMMAND_OK, _TUPLES_OK):
                message = (lib.PQresultErrorMessage(res) or b"").decode(errors="replace")
                severity = (lib.PQresultErrorField(res, _SEVERITY) or b"").decode(errors="replace")
                if severity and message.startswith(severity + ":"):  # as psycopg tells it
                    message = message[len(severity) + 1 :]
                state = (lib.PQresultErrorField(res, _SQLSTATE) or b"").decode()
                raise Error(message, state)
            return [
                tuple(None if lib.PQgetisnull(res, r, c) else lib.PQgetvalue(res, r, c).decode()
                      for c in range(lib.PQnfields(res)))
                for r in range(lib.PQntuples(res))
            ]  # fmt: skip
        finally:
            lib.PQclear(res)

    def close(self) -> None:
        if self._conn is not None:
            self._lib.PQfinish(self._conn)
            self._conn = None
