"""The results store's tables, one definition for SQLite and PostgreSQL (SQLAlchemy
Core), and their versioned migrations.

A store's schema version is SQLite's ``PRAGMA user_version`` (where the first stores
kept it, and where an older hokm-sim looks for it) or, on PostgreSQL, the one row of
the table ``hokm_sim_schema``: the only thing said twice. Version ``i + 1`` is made by
``MIGRATIONS[i]``, run in one transaction that holds the store's write lock (SQLite's
``BEGIN IMMEDIATE``, a PostgreSQL advisory lock), so that of several first writers one
migrates and the others find it done. A new version appends a migration that changes
the tables of the last one, and :func:`define` says what it adds; a released migration
never changes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import sqlalchemy as sa


def define(meta: sa.MetaData, version: int) -> sa.MetaData:
    """The tables of schema ``version`` in ``meta``: each migration makes its version's
    tables from the last's, so the tables of every version stay defined here."""
    sa.Table(
        "results", meta,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("created", sa.Text, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("command", sa.Text),
        sa.Column("version", sa.Text),
        sa.Column("seed", sa.Text),
        sa.Column("size", sa.BigInteger),
        sa.Column("partial", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("headline", sa.Text),
        sa.Column("figures", sa.Text, nullable=False, server_default="{}"),
        sa.Column("verdict", sa.Text),
        sa.Column("folder", sa.Text),
        sa.Index("results_created", "created"),
        sa.Index("results_kind", "kind", "created"),
        sa.Index("results_folder", "folder"),
    )  # fmt: skip
    sa.Table(
        "bots", meta,
        sa.Column("result", sa.Integer, sa.ForeignKey("results.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("role", sa.Text, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("digest", sa.Text),
        sa.Column("git_commit", sa.Text),
        sa.Column("dirty", sa.Boolean),
        sa.Column("path", sa.Text),
        # version 2: the bot's place among its result's bots (their order in the record)
        *([sa.Column("place", sa.Integer)] if version >= 2 else []),
        sa.Index("bots_name", "name", "result"),
        sa.Index("bots_digest", "digest"),
        sa.Index("bots_commit", "git_commit"),
    )  # fmt: skip
    sa.Table(
        "comparisons", meta,
        sa.Column("result", sa.Integer, sa.ForeignKey("results.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("a", sa.Text, nullable=False),
        sa.Column("b", sa.Text, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("low", sa.Float),
        sa.Column("high", sa.Float),
        sa.Column("pairs", sa.BigInteger, nullable=False),
        sa.Index("comparisons_result", "result"),
    )  # fmt: skip
    return meta


def _v1(conn: sa.Connection) -> None:
    """Results, their bots, their comparisons (a database that holds other tables of
    these names is refused)."""
    define(sa.MetaData(), 1).create_all(conn, checkfirst=False)


def _v2(conn: sa.Connection) -> None:
    """Each bot's place in its result, so that both databases list a result's bots in
    the order of its record (SQLite's stores of version 1 keep it as their row order)."""
    conn.exec_driver_sql("ALTER TABLE bots ADD COLUMN place INTEGER")
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql("UPDATE bots SET place = rowid")


MIGRATIONS: tuple[Callable[[sa.Connection], None], ...] = (_v1, _v2)
SCHEMA = len(MIGRATIONS)
"""The schema version this hokm-sim writes."""

META = define(sa.MetaData(), SCHEMA)
results, bots, comparisons = (META.tables[t] for t in ("results", "bots", "comparisons"))


@cache
def writes() -> dict[str, sa.Executable]:
    """The statements that add a result, with a parameter named for each column (the
    dictionaries of :func:`~.rows.columns`): ``delete`` the result of the same report
    folder, insert the ``result`` (giving its id), each of its ``bots``, each of its
    ``comparisons``. Executed through SQLAlchemy on either database, and compiled for
    SQLite into :mod:`.sqlite_sql`, which adds to a store without importing it."""

    def insert(table: sa.Table) -> sa.Insert:
        names = [c.name for c in table.columns if c.name != "id"]
        return table.insert().values({n: sa.bindparam(n) for n in names})

    return {
        "delete": results.delete().where(results.c.folder == sa.bindparam("folder")),
        "result": insert(results).returning(results.c.id),
        "bots": insert(bots),
        "comparisons": insert(comparisons),
    }


_HEADERS = {
    "sqlite": """The statements that add a result to a SQLite store, as SQLAlchemy compiles
them (:func:`hokm_sim.store.schema.writes`): the SQL, and the order of its
parameters. Made by ``python -m hokm_sim.store.schema`` (then ``ruff format``);
a test holds it to what SQLAlchemy compiles now.""",
    "postgresql": """The statements that add a result to a PostgreSQL store, as SQLAlchemy compiles
them for PostgreSQL with numbered parameters (:func:`hokm_sim.store.schema.writes`),
as libpq takes them (:mod:`.libpq`): the SQL, and the order of its parameters; and the
query of the store's schema version. Made by ``python -m hokm_sim.store.schema``
(then ``ruff format``); a test holds it to what SQLAlchemy compiles now.""",
}


def compiled_module(database: str) -> str:
    """The text of :mod:`.sqlite_sql` (``database`` ``sqlite``) or :mod:`.postgresql_sql`
    (``postgresql``): :func:`writes` compiled for the driver SQLAlchemy runs them with,
    and the schema version they are of, each with the order of its parameters; for
    PostgreSQL (numbered parameters, as libpq takes them), with :data:`VERSION_QUERY`."""
    from sqlalchemy.dialects import postgresql, sqlite

    out = [f'"""{_HEADERS[database]}"""', "", "# ruff: noqa: E501", "", f"SCHEMA = {SCHEMA}"]
    if database == "sqlite":
        dialect = sqlite.dialect(paramstyle="qmark")
    else:
        dialect = postgresql.psycopg.dialect(paramstyle="numeric_dollar")
        out.append(f"VERSION = {VERSION_QUERY!r}")
    out.append("STATEMENTS: dict[str, tuple[str, tuple[str, ...]]] = {")
    for name, statement in writes().items():
        compiled = statement.compile(dialect=dialect)
        out.append(f"    {name!r}: (")
        out.append(f"        {compiled.string!r},")
        out.append(f"        {tuple(compiled.positiontup or ())!r},")
        out.append("    ),")
    return "\n".join([*out, "}", ""])


_VERSION_TABLE = "hokm_sim_schema"
VERSION_QUERY = f"SELECT max(version) FROM {_VERSION_TABLE}"
"""A PostgreSQL store's schema version (the table's one row), where the table is there."""
LOCK_KEY = 0x686F6B6D  # "hokm": the PostgreSQL advisory lock a migration holds


def version(conn: sa.Connection) -> int:
    """The schema version of the store ``conn`` is connected to (0: none yet)."""
    if conn.dialect.name == "sqlite":
        return int(conn.exec_driver_sql("PRAGMA user_version").scalar_one())
    if not sa.inspect(conn).has_table(_VERSION_TABLE):
        return 0
    return int(conn.exec_driver_sql(VERSION_QUERY).scalar() or 0)


def set_version(conn: sa.Connection, v: int) -> None:
    """Record schema version ``v`` (inside the migration's transaction)."""
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql(f"PRAGMA user_version = {int(v)}")
        return
    conn.exec_driver_sql(f"CREATE TABLE IF NOT EXISTS {_VERSION_TABLE} (version INTEGER NOT NULL)")
    conn.exec_driver_sql(f"DELETE FROM {_VERSION_TABLE}")
    conn.exec_driver_sql(f"INSERT INTO {_VERSION_TABLE} (version) VALUES ({int(v)})")


def lock(conn: sa.Connection) -> None:
    """Hold the store's migration lock until the transaction ends (SQLite's write lock,
    taken by ``BEGIN IMMEDIATE``, is one already)."""
    if conn.dialect.name == "postgresql":
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": LOCK_KEY})


if __name__ == "__main__":
    from pathlib import Path

    for database in ("sqlite", "postgresql"):
        Path(__file__).with_name(f"{database}_sql.py").write_text(compiled_module(database))
