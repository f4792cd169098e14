"""Where the results store is: a SQLite file on this machine, or a PostgreSQL database a
team shares, named by URL.

``store`` (``--store``), else ``$HOKM_SIM_STORE``, else ``results.sqlite`` in the
user's data folder (``$HOKM_SIM_DATA``, else ``$XDG_DATA_HOME/hokm-sim``, else
``~/.local/share/hokm-sim``: where ``hokm-sim play`` keeps its games). A value with
``://`` in it is a URL: ``postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE`` (or
``postgres://``, ``postgresql+psycopg://``; the query string passes on to the driver:
``?sslmode=require``) or ``sqlite:///PATH``; anything else is a file's path.

No SQLAlchemy here: a command learns where its store is without importing it.
"""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from pathlib import Path

from hokm_sim.errors import InputError

STORE_NAME = "results.sqlite"
FORMS = "a file's path, sqlite:///PATH, or postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE"
"""The valid values of ``--store``, as errors name them."""
SERVER_SCHEMES = ("postgresql", "postgres", "postgresql+psycopg")


class StoreError(InputError):
    """The store cannot be used: not a database, damaged, of a newer schema, not
    writable, a server that cannot be reached or refuses us, a URL of no known form."""


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


def locate(store: str | Path | None = None) -> Path | str:
    """The store: its file (a :class:`~pathlib.Path`), or the URL of its server (a
    ``postgresql+psycopg://`` str). A URL of another scheme is a :class:`StoreError`."""
    given = store if store is not None and str(store).strip() else None
    given = given if given is not None else os.environ.get("HOKM_SIM_STORE") or None
    if given is None:
        return data_dir() / STORE_NAME
    if isinstance(given, Path) or "://" not in given:
        return Path(given).expanduser()
    scheme, rest = given.split("://", 1)
    if scheme == "sqlite":
        if not rest.startswith("/") or rest == "/":
            raise StoreError(f"bad results store URL {masked(given)}: expected {FORMS}")
        return Path(rest[1:]).expanduser()  # sqlite:///rel/path, sqlite:////abs/path
    if scheme.lower() in SERVER_SCHEMES:
        return "postgresql+psycopg://" + rest
    raise StoreError(
        f"unknown kind of results store {masked(given)} (scheme {scheme!r}): expected {FORMS}"
    )


def shown(where: Path | str) -> str:
    """The store as errors and messages name it: a URL without its password (and
    without the driver :func:`locate` names)."""
    if isinstance(where, Path):
        return str(where)
    return masked(where.replace("postgresql+psycopg://", "postgresql://", 1))


def masked(url: str) -> str:
    """``url`` with the password in it, if any, as ``***``."""
    return re.sub(r"^([^:/]*://[^:/@]*:)[^@]*@", r"\1***@", url)


def now() -> str:
    """The current UTC time as the store writes it (ISO 8601, seconds, ``Z``)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
