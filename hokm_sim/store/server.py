"""Adding a result to a PostgreSQL store through libpq alone (:mod:`.libpq`), in the
command's own process: neither SQLAlchemy (0.14 s of CPU to import) nor psycopg (0.12 s)
is imported for it, where loading libpq and connecting take about 10 ms.

The statements are SQLAlchemy's (:func:`~.schema.writes`), as it compiles them for
PostgreSQL with numbered parameters (:mod:`.postgresql_sql`), run on a connection made
with the arguments SQLAlchemy's psycopg dialect makes of the URL (:func:`arguments`),
in one transaction. Only a store of this hokm-sim's schema version, named by a URL of
the plain form, goes this way: a new store, an older one (to migrate), a newer one, a
URL of another form (several hosts, a parameter given twice, a port that is not a
number), or a machine where no libpq is found, go through :class:`~.db.Store` (in the
store's writer process, :mod:`.writer`), which makes, migrates or refuses it. Errors
are the lines :class:`~.db.Store` gives for the same failures (:func:`why`).
"""

from __future__ import annotations

import contextlib
import re
from types import ModuleType
from typing import Any
from urllib.parse import parse_qsl, unquote

from hokm_sim.store import libpq
from hokm_sim.store.location import FORMS, StoreError, shown
from hokm_sim.store.postgresql_sql import SCHEMA, STATEMENTS, VERSION
from hokm_sim.store.rows import Row, columns

CONNECT_TIMEOUT = 10
"""Seconds to wait for a PostgreSQL server to answer (unless the URL says)."""

_PLAIN = re.compile(
    r"postgresql\+psycopg://"
    r"(?:(?P<user>[^:/?#@\[\]]*)(?::(?P<password>[^/?#@]*))?@)?"
    r"(?:\[(?P<ipv6>[0-9A-Fa-f:.]+)\]|(?P<host>[^/:?#@\[\],%]*))"
    r"(?::(?P<port>[0-9]{1,5}))?"
    r"/(?P<database>[^/?#]*)"
    r"(?:\?(?P<query>[^#]*))?"
)


def driver() -> ModuleType:
    """psycopg, or the :class:`StoreError` that says how to install it."""
    try:
        import psycopg
    except ImportError:
        raise StoreError(
            "a PostgreSQL results store needs the psycopg driver: pip install 'hokm-sim[postgres]'"
        ) from None
    return psycopg


def arguments(url: str) -> dict[str, Any] | None:
    """The keyword arguments of ``psycopg.connect`` for the store at ``url`` (a
    ``postgresql+psycopg://`` URL, as :func:`~.location.locate` gives it), as SQLAlchemy's
    dialect makes them, with the wait for the server; None for a URL of any form but
    ``USER[:PASSWORD]@HOST[:PORT]/DATABASE[?NAME=VALUE&...]`` (each part optional,
    each name once)."""
    found = _PLAIN.fullmatch(url)
    if found is None:
        return None
    query = parse_qsl(found["query"] or "")
    if len({name for name, _ in query}) < len(query):
        return None
    given = {
        "host": found["ipv6"] or found["host"],
        "dbname": unquote(found["database"]),
        "user": unquote(found["user"] or ""),
        "password": unquote(found["password"] or ""),
        "port": int(found["port"] or 0),
    }
    args: dict[str, Any] = {k: v for k, v in given.items() if v}  # as SQLAlchemy leaves them
    args.update(query)
    return args if "connect_timeout" in args else args | {"connect_timeout": CONNECT_TIMEOUT}


def why(exc: BaseException) -> str:
    """One line for a psycopg or libpq error (or another), with what to do where it is
    the user's to fix."""
    what = " ".join(str(exc).split()) or type(exc).__name__
    if re.search(r"password|authentication", what, re.I):
        return what + " (check the user and password in the URL)"
    if isinstance(exc, libpq.Error):
        connecting, programming = exc.connecting, exc.programming
    else:
        psycopg = driver()
        connecting = isinstance(exc, psycopg.OperationalError)
        programming = isinstance(exc, psycopg.ProgrammingError)
    if connecting:  # not reached, not there, not answering
        ask = "" if "server running" in what else "is the server running, and the URL right? "
        return what + f" ({ask}a store is {FORMS})"
    if programming and "already exists" in what:
        return what + " (the database holds tables that are not a hokm-sim results store)"
    return what


def connect(url: str) -> libpq.Connection | None:
    """A connection to the store at ``url`` if it is one of this schema version, named
    by a URL of the plain form (:func:`arguments`), and libpq is found; else None (for
    :class:`~.db.Store` to make, migrate or refuse). A server that cannot be reached or
    refuses us is a :class:`StoreError`."""
    args = arguments(url)
    lib = libpq.library()
    if args is None or lib is None:
        return None
    try:
        conn = libpq.Connection(lib, {k: str(v) for k, v in args.items()})
    except libpq.Error as exc:
        raise StoreError(f"cannot open the results store {shown(url)}: {why(exc)}") from None
    try:
        if conn.execute(VERSION) == [(str(SCHEMA),)]:
            return conn
    except libpq.Error:  # no version table yet, or one we may not read
        pass
    conn.close()
    return None


def _text(value: Any) -> str | None:
    """A value as libpq sends it: text (PostgreSQL reads it as the column's type)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "t" if value else "f"
    return repr(value) if isinstance(value, float) else str(value)


def add(conn: libpq.Connection, url: str, row: Row) -> int:
    """Store ``row`` in one transaction, as :meth:`~.db.Store.add` does; its id."""
    result, bots, comparisons = columns(row)

    def run(name: str, values: dict[str, Any]) -> list[tuple[str | None, ...]]:
        sql, order = STATEMENTS[name]
        return conn.execute(sql, [_text(values[k]) for k in order])

    try:
        conn.execute("BEGIN")
        try:
            if row.folder is not None:
                run("delete", {"folder": row.folder})
            rid = int(str(run("result", result)[0][0]))
            for b in bots:
                run("bots", b | {"result": rid})
            for c in comparisons:
                run("comparisons", c | {"result": rid})
            conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(libpq.Error):  # a connection lost has nothing to undo
                conn.execute("ROLLBACK")
            raise
    except libpq.Error as exc:
        raise StoreError(f"cannot write to the results store {shown(url)}: {why(exc)}") from None
    return rid
