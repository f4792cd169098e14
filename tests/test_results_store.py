"""The results store: every report adds a row, writers at once lose nothing, a bad store
is one line (docs/results.md); on SQLite, and on the PostgreSQL server named by
``HOKM_SIM_TEST_POSTGRES`` (which ``.ci/run`` starts: without it these are skipped,
except under ``CI=true``, where a missing server fails them)."""

from __future__ import annotations

import json
import math
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner

import hokm_sim
from hokm_sim.cli import main
from hokm_sim.errors import InputError
from hokm_sim.store import SCHEMA, Row, Store, StoreError, keep, locate, postgresql_sql, prepare
from hokm_sim.store import server as pg
from hokm_sim.store.location import shown
from hokm_sim.store.rows import Bot, Comparison

ROOT = Path(__file__).resolve().parents[1]
BACKENDS = ["sqlite", "postgresql"]


def _server() -> str:
    """The test server's URL, or the test skipped (failed under ``CI=true``)."""
    url = os.environ.get("HOKM_SIM_TEST_POSTGRES")
    if not url:
        why = "no PostgreSQL server: HOKM_SIM_TEST_POSTGRES=postgresql://... names one"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{why}, and CI must test it (.ci/run starts one)")
        pytest.skip(why)
    return url


@pytest.fixture
def server():
    """A new, empty database on the test server (dropped after the test): its URL."""
    import psycopg
    import sqlalchemy as sa

    base = sa.make_url(_server())
    name = f"hokm_test_{uuid.uuid4().hex[:12]}"
    admin = base.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as c:
        c.execute(f"CREATE DATABASE {name}")
    yield base.set(database=name).render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as c:
        c.execute(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture(params=BACKENDS)
def where(request, tmp_path):
    """A new store: a SQLite file's path, or a new database's URL."""
    if request.param == "sqlite":
        return str(tmp_path / "results.sqlite")
    return request.getfixturevalue("server")


@pytest.fixture
def store(where, monkeypatch):
    monkeypatch.setenv("HOKM_SIM_STORE", where)
    return where


@pytest.fixture
def sqlite_store(tmp_path, monkeypatch):
    path = tmp_path / "results.sqlite"
    monkeypatch.setenv("HOKM_SIM_STORE", str(path))
    return path


def _rows(where, sql):
    with Store(where) as s:
        return [dict(r._mapping) for r in s.query(sql)]


def test_a_run_adds_its_row_with_its_bots_figures_and_folder(store, tmp_path):
    res = hokm_sim.run("random", "longest", hands=2000, seed=5, out=tmp_path / "r")
    (row,) = _rows(store, "SELECT * FROM results")
    assert row["kind"] == "run" and row["command"] == res.command
    assert row["seed"] == "5" and row["size"] == 2000
    assert row["folder"] == str((tmp_path / "r").resolve())
    assert row["headline"] == res.headline
    figures = json.loads(row["figures"])
    assert figures["pair_score"]["value"] == res.data["pair_score"]["value"]
    assert figures["elo"]["low"] < figures["elo"]["value"] < figures["elo"]["high"]
    bots = _rows(store, "SELECT * FROM bots ORDER BY role")
    assert [(b["role"], b["name"]) for b in bots] == [("a", "random"), ("b", "longest")]
    assert all(len(b["digest"]) == 64 for b in bots)
    assert bots[0]["digest"] != bots[1]["digest"]
    in_git = (ROOT / ".git").exists()
    assert all((b["git_commit"] is not None) == in_git for b in bots)
    (cmp,) = _rows(store, "SELECT * FROM comparisons")
    assert (cmp["a"], cmp["b"], cmp["pairs"]) == ("a", "b", 2000)
    # the same folder written again replaces its row
    hokm_sim.run("random", "longest", hands=2000, seed=6, out=tmp_path / "r", force=True)
    assert [r["seed"] for r in _rows(store, "SELECT seed FROM results")] == ["6"]


_WRITER = """
import sys
from hokm_sim.store import keep
w, n = int(sys.argv[1]), int(sys.argv[2])
for i in range(n):
    bots = {side: {"name": side * 3, "trump": {}, "play": {}} for side in "ab"}
    record = {"kind": "run", "seed": f"{w}-{i}",
              "config": {"duplicate": True, "mode": "hands", **bots},
              "pair_score": {"value": 0.5, "low": 0.4, "high": 0.6, "n": 10}}
    keep(record, store=sys.argv[3])
from hokm_sim import store
print("sqlalchemy" in sys.modules or "psycopg" in sys.modules,
      any(getattr(o, "_proc", None) is not None for o in store._OPEN.values()))
"""


@pytest.mark.parametrize("made", [True, False], ids=["made", "new"])
def test_processes_writing_at_once_lose_and_corrupt_nothing(where, made):
    """Four processes adding results at once (as commands do: :func:`keep`), to a store
    already made (then through the driver alone, SQLite's or libpq, in the command's
    process), or to a new one, whose tables one makes while the others wait for it (a
    server's made by the command's writer process)."""
    if made:
        Store(where).close()
    path = where
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(w), "150", str(path)],
            stdout=subprocess.PIPE, text=True,
        )
        for w in range(4)
    ]  # fmt: skip
    said = [p.communicate(timeout=120)[0].split() for p in procs]
    assert [p.returncode for p in procs] == [0] * 4
    if made:  # the driver alone, in the command's process
        assert said == [["False", "False"]] * 4  # SQLAlchemy, psycopg and a writer not needed
    elif not path.endswith(".sqlite"):  # made by a writer process, not by the command
        assert [s[0] for s in said] == ["False"] * 4
    seeds = {r["seed"] for r in _rows(path, "SELECT seed FROM results")}
    assert seeds == {f"{w}-{i}" for w in range(4) for i in range(150)}
    assert _rows(path, "SELECT COUNT(*) AS n FROM bots")[0]["n"] == 1200
    assert _rows(path, "SELECT COUNT(*) AS n FROM comparisons")[0]["n"] == 600
    with Store(path) as s:
        assert s.integrity() == "ok"


_KILLED = """
import os, signal, sys
from hokm_sim import store
store.prepare(sys.argv[1])
opening = next(iter(store._OPEN.values()))
opening._thread.join()
print(opening._proc.pid, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_server_writer_ends_with_its_command_and_never_shows_the_password(server):
    """The writer a command starts for a server's store to make (a new one here) reads
    the URL from its input (not its arguments, which any user can list), and ends when
    the command does, even killed."""
    proc = subprocess.run([sys.executable, "-c", _KILLED, server], capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert proc.returncode == -9
    pid = int(proc.stdout)
    password = __import__("sqlalchemy").make_url(server).password
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes()
        assert password.encode() not in argv and b"hokm_sim.store.writer" in argv
    except FileNotFoundError:
        pass  # already gone
    for _ in range(200):
        if not Path(f"/proc/{pid}").exists() or " Z " in Path(f"/proc/{pid}/stat").read_text():
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"the store's writer {pid} outlived its command")


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_compiled_statements_are_those_sqlalchemy_compiles(database):
    """The driver-alone paths run SQLAlchemy's statements: their modules are made from
    them (``python -m hokm_sim.store.schema``), never edited by hand."""
    import importlib

    from hokm_sim.store import schema

    kept = importlib.import_module(f"hokm_sim.store.{database}_sql")
    made: dict = {}
    exec(compile(schema.compiled_module(database), "<made>", "exec"), made)
    names = [n for n in made if n.isupper()]
    assert names == (["SCHEMA", "STATEMENTS"] if database == "sqlite" else
                     ["SCHEMA", "VERSION", "STATEMENTS"])  # fmt: skip
    assert {n: made[n] for n in names} == {n: getattr(kept, n) for n in names}


def test_libpq_runs_the_statements_sqlalchemy_runs_on_a_server(server):
    """What :class:`Store` sends psycopg to add a result (every statement, with its
    parameters) is what the libpq-alone path sends, but for the parameters' style, and
    stores the same rows."""
    import sqlalchemy as sa

    # values of every type the columns hold, None, text beyond ASCII, floats that print long
    row = Row(kind="run", seed="1", size=2000, folder="/r/1", figures={"élo": {"value": 1}},
              created="2026-01-01T00:00:00Z", partial=True, command="hokm-sim run 'bot ☃.py'",
              bots=[Bot("a", "random", "d" * 64, "c" * 40, True), Bot("b", "longest", dirty=False)],
              comparisons=[Comparison("a", "b", 1 / 3, -math.inf, 0.1 + 0.2, 2**40)])  # fmt: skip
    sent = []
    store = Store(server)
    sa.event.listen(store._engine, "before_cursor_execute",
                    lambda conn, cur, sql, params, context, many: sent.append(sql))  # fmt: skip
    assert store.add(row) == 1
    numbered = []
    for sql, order in postgresql_sql.STATEMENTS.values():
        for i, name in reversed(list(enumerate(order, 1))):  # $10 before $1
            sql = sql.replace(f"${i}", f"%({name})s")
        numbered.append(sql)
    assert sent == numbered

    def stored():
        return [[{k: v for k, v in r.items() if k not in ("id", "result")}
                 for r in _rows(server, f"SELECT * FROM {table}")]
                for table in ("results", "bots", "comparisons")]  # fmt: skip

    by_sqlalchemy = stored()
    conn = pg.connect(locate(server))
    assert conn is not None
    assert pg.add(conn, server, row) == 2  # the folder's row replaced
    conn.close()
    assert _rows(server, "SELECT id FROM results") == [{"id": 2}]
    assert stored() == by_sqlalchemy


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://hokm:s%40s%3Ame@db.lab.example:6543/results?sslmode=require",
        "postgres://hokm@127.0.0.1/results?connect_timeout=3&application_name=ci",
        "postgresql://hokm:pw@[::1]:5432/r%C3%A9sults",
        "postgresql:///results?host=/run/postgresql",
        "postgresql://@/",
    ],
)  # fmt: skip
def test_the_writer_connects_with_the_arguments_sqlalchemy_gives(url):
    """A URL of the plain form gives psycopg what SQLAlchemy's dialect gives it (the
    password unquoted, the query passed on, the wait for the server added)."""
    import sqlalchemy as sa

    located = locate(url)
    parsed = sa.make_url(located)
    given = parsed.get_dialect()().create_connect_args(parsed)[1]
    if "connect_timeout" not in given:
        given["connect_timeout"] = pg.CONNECT_TIMEOUT
    assert pg.arguments(located) == given


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://hokm:pw@h1:5432,h2:5433/results",  # several hosts
        "postgresql://hokm:pw@host/results?options=a&options=b",  # a parameter twice
        "postgresql://hokm:pw@host:port/results",  # refused by SQLAlchemy, as before
        "postgresql://hokm:p@ss@host/results",  # an @ not quoted
    ],
)  # fmt: skip
def test_a_url_of_another_form_is_left_to_sqlalchemy(url):

    assert pg.arguments(locate(url)) is None


_OPENED = """
import sys
from hokm_sim.store import Row, writer
add = writer.opened(sys.argv[1])
print(add(Row(kind="tune", seed=sys.argv[2])), "sqlalchemy" in sys.modules)
"""


def test_the_server_writer_needs_sqlalchemy_only_to_make_or_migrate(server):
    """The writer process adds to a store of this schema version through libpq alone;
    a new store is made, and an older one migrated, through SQLAlchemy, once."""

    def written(seed):
        proc = subprocess.run([sys.executable, "-c", _OPENED, locate(server), seed],
                              capture_output=True, text=True, timeout=60)  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.split()

    assert written("1") == ["1", "True"]  # new: made
    assert written("2") == ["2", "False"]
    with Store(server) as s, s.writing() as conn:  # back to version 1
        conn.exec_driver_sql("ALTER TABLE bots DROP COLUMN place")
        conn.exec_driver_sql("UPDATE hokm_sim_schema SET version = 1")
    assert written("3") == ["3", "True"]  # migrated
    assert written("4") == ["4", "False"]
    assert [r["seed"] for r in _rows(server, "SELECT seed FROM results")] == ["1", "2", "3", "4"]
    assert _rows(server, "SELECT version FROM hokm_sim_schema") == [{"version": SCHEMA}]


def test_a_server_write_that_fails_changes_nothing(server):
    """A result goes in whole or not at all through libpq alone too: a comparison the
    database refuses takes back the result's row and the removal of the folder's
    earlier one, in one line; the connection writes on."""

    Store(server).close()
    conn = pg.connect(locate(server))
    assert conn is not None
    first = Row(kind="run", seed="1", folder="/r/1", bots=[Bot("a", "random")])
    assert pg.add(conn, server, first) == 1
    bad = Row(kind="run", seed="2", folder="/r/1", bots=[Bot("a", "random"), Bot("b", "x")],
              comparisons=[Comparison("a", "b", None, None, None, 10)])  # fmt: skip
    with pytest.raises(StoreError) as told:
        pg.add(conn, server, bad)
    said = str(told.value)
    assert said.startswith(f"cannot write to the results store {shown(locate(server))}: ")
    assert '"score"' in said and "\n" not in said
    assert [r["seed"] for r in _rows(server, "SELECT seed FROM results")] == ["1"]
    assert _rows(server, "SELECT COUNT(*) AS n FROM bots")[0]["n"] == 1
    assert pg.add(conn, server, Row(kind="run", seed="3", folder="/r/1")) > 1
    assert [r["seed"] for r in _rows(server, "SELECT seed FROM results")] == ["3"]
    conn.close()


def test_the_server_writer_tells_what_store_tells(server):
    """The libpq-alone path says what :class:`Store` says of the same server: nobody
    listening, a wrong password."""
    import sqlalchemy as sa

    wrong = sa.make_url(server).set(password="not-the-password").render_as_string(
        hide_password=False)  # fmt: skip
    for url in (f"postgresql://hokm:sesame@127.0.0.1:{_free_port()}/results", wrong):
        with pytest.raises(StoreError) as by_store:
            Store(url)
        with pytest.raises(StoreError) as by_libpq:
            pg.connect(locate(url))
        assert str(by_libpq.value) == str(by_store.value)
        assert "sesame" not in str(by_store.value) and "not-the-password" not in str(by_store.value)


def _cli(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "hokm_sim", *args],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip


@pytest.mark.parametrize("damage", ["garbage", "newer", "folder"])
def test_a_damaged_or_newer_store_is_one_line_and_exit_2(tmp_path, damage):
    path = tmp_path / "s.sqlite"
    if damage == "garbage":
        path.write_bytes(b"this is not a database\n" * 200)
        expect = "damaged or not a hokm-sim results store"
    elif damage == "newer":
        db = sqlite3.connect(path)
        db.execute(f"PRAGMA user_version = {SCHEMA + 1}")
        db.close()
        expect = f"schema version {SCHEMA + 1}, newer than this hokm-sim knows"
    else:
        path.mkdir()
        expect = "is a folder"
    with pytest.raises(StoreError, match=expect):
        keep({"kind": "run"}, store=path)
    _refused(["results", "--store", str(path)], expect)


def _refused(args, expect, secret=None):
    """The command ``args`` is one line on standard error naming ``expect``, exit 2."""
    proc = _cli(*args)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and expect in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    assert secret is None or secret not in proc.stderr  # a password is never shown
    return proc.stderr


def test_a_newer_schema_on_a_server_is_one_line_and_exit_2(server):
    Store(server).close()
    with Store(server) as s, s.writing() as conn:
        conn.exec_driver_sql(f"UPDATE hokm_sim_schema SET version = {SCHEMA + 1}")
    expect = f"schema version {SCHEMA + 1}, newer than this hokm-sim knows"
    with pytest.raises(StoreError, match=expect):
        keep({"kind": "run"}, store=server)
    _refused(["results", "--store", server], expect)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize(
    "url, expect",
    [
        ("postgresql://hokm:sesame@127.0.0.1:{port}/results",
         "Connection refused Is the server running on that host and accepting TCP/IP "
         "connections? (a store is a file's path, sqlite:///PATH, or "
         "postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE)"),
        ("postgresql://hokm:sesame@host:port/results",
         "bad results store URL postgresql://hokm:***@host:port/results: expected"),
        ("mysql://hokm:sesame@127.0.0.1/results",
         "unknown kind of results store mysql://hokm:***@127.0.0.1/results (scheme 'mysql'): "
         "expected a file's path, sqlite:///PATH, or postgresql://"),
        ("sqlite://results.sqlite", "bad results store URL sqlite://results.sqlite"),
    ],
)  # fmt: skip
def test_a_store_url_that_cannot_serve_is_one_line_and_exit_2(url, expect):
    """A server not there (a port nobody listens on), a URL that does not parse, a
    database hokm-sim does not speak, a SQLite URL without its path."""
    url = url.format(port=_free_port())
    with pytest.raises(StoreError, match="results store"):
        keep({"kind": "run"}, store=url)
    _refused(["results", "--store", url], expect, secret="sesame")


def test_a_wrong_password_or_database_is_one_line_and_exit_2(server):
    import sqlalchemy as sa

    url = sa.make_url(server)
    wrong = url.set(password="not-the-password").render_as_string(hide_password=False)
    said = _refused(["results", "--store", wrong], "password authentication failed for user",
                    secret="not-the-password")  # fmt: skip
    assert said.rstrip().endswith("(check the user and password in the URL)"), said
    missing = url.set(database="no_such_db").render_as_string(hide_password=False)
    _refused(["results", "--store", missing], 'database "no_such_db" does not exist',
             secret=url.password)  # fmt: skip
    # postgres:// names the same server; the store there is made on the first write
    alias = url.set(drivername="postgres").render_as_string(hide_password=False)
    assert keep({"kind": "tune", "seed": 1}, store=alias) == 1
    assert [r["seed"] for r in _rows(server, "SELECT seed FROM results")] == ["1"]


def test_a_bad_store_found_while_preparing_is_raised_at_the_write(tmp_path):
    """A recording command opens its store in the background from its start; an error
    there waits for the write, where it is told."""
    path = tmp_path / "bad.sqlite"
    path.write_bytes(b"not a database\n" * 200)
    prepare(path)  # nothing raised here
    with pytest.raises(StoreError, match="damaged or not a hokm-sim results store"):
        keep({"kind": "run"}, store=path)
    path.unlink()  # mended: the next write opens it again
    assert keep({"kind": "run", "seed": 1}, store=path) == 1


@pytest.mark.parametrize("bad", ["damaged", "mysql"])
def test_a_command_whose_store_fails_keeps_its_report(tmp_path, monkeypatch, bad):
    """The store is told of last: the report's files are written first, and kept."""
    if bad == "damaged":
        where, expect = tmp_path / "bad.sqlite", "damaged or not a hokm-sim results store"
        where.write_bytes(b"not a database\n" * 200)
    else:
        where, expect = "mysql://hokm:sesame@127.0.0.1/results", "unknown kind of results store"
    monkeypatch.setenv("HOKM_SIM_STORE", str(where))
    out = tmp_path / "r"
    res = CliRunner().invoke(main, ["run", "random", "longest", "--hands", "2000", "--out", out])
    assert res.exit_code == 2 and expect in res.stderr and "sesame" not in res.stderr
    assert res.stderr.count("\n") == 1, res.stderr
    assert json.loads((out / "summary.json").read_text())["kind"] == "run"
    assert (out / "report.md").is_file()


def test_an_older_schema_is_migrated_and_its_rows_kept(tmp_path):
    path = tmp_path / "old.sqlite"
    sqlite3.connect(path).close()  # an empty database: schema version 0
    keep({"kind": "tune", "seed": 3}, store=path)
    with Store(path) as s:
        assert s.query("PRAGMA user_version")[0][0] == SCHEMA
        assert s.query("PRAGMA journal_mode")[0][0] == "wal"
    keep({"kind": "tune", "seed": 4}, store=path)
    assert [r["seed"] for r in _rows(path, "SELECT seed FROM results")] == ["3", "4"]


_FIRST_SCHEMA = """
CREATE TABLE results (id INTEGER PRIMARY KEY, created TEXT NOT NULL, kind TEXT NOT NULL,
    command TEXT, version TEXT, seed TEXT, size INTEGER, partial INTEGER NOT NULL DEFAULT 0,
    headline TEXT, figures TEXT NOT NULL DEFAULT '{}', verdict TEXT, folder TEXT);
CREATE TABLE bots (result INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    role TEXT NOT NULL, name TEXT NOT NULL, digest TEXT, git_commit TEXT, dirty INTEGER,
    path TEXT, PRIMARY KEY (result, role));
CREATE TABLE comparisons (result INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    a TEXT NOT NULL, b TEXT NOT NULL, score REAL NOT NULL, low REAL, high REAL,
    pairs INTEGER NOT NULL);
INSERT INTO results VALUES (1, '2026-01-01T00:00:00Z', 'run', 'hokm-sim run', '0.1.0', '9',
    2000, 1, 'h', '{"elo": {"value": 1, "low": 0, "high": 2}}', NULL, '/r/1');
INSERT INTO bots VALUES (1, 'partner', 'mybot', 'ab', 'cd', 1, NULL);
INSERT INTO bots VALUES (1, 'opponents', 'random', NULL, NULL, NULL, NULL);
PRAGMA user_version = 1;
"""


def test_a_store_written_by_the_first_hokm_sim_with_sqlite3_reads_and_grows(tmp_path):
    """The first stores were made with hand-written SQL (integers for flags): migrated,
    their bots kept in the order they were written, read and added to."""
    path = tmp_path / "first.sqlite"
    db = sqlite3.connect(path)
    db.executescript(_FIRST_SCHEMA)
    db.close()
    keep({"kind": "tune", "seed": 3}, store=path)
    old, new = hokm_sim.results(store=path).sort_index().itertuples()
    assert (old.partial, old.bots, old.elo_high) == (True, "partner=mybot@cd+, opponents=random", 2)
    assert (new.partial, new.seed) == (False, "3")
    with Store(path) as s:
        assert s.integrity() == "ok"
        assert s.query("PRAGMA user_version")[0][0] == SCHEMA


def test_report_folders_are_imported_without_digests(tmp_path, sqlite_store):
    store = sqlite_store
    other, first = tmp_path / "other.sqlite", tmp_path / "first.sqlite"
    out = str(tmp_path / "all" / "r7")
    args = ["--store", str(first), "run", "random", "longest", "--hands", "2000", "--seed", "7"]
    res = CliRunner().invoke(main, [*args, "--out", out])
    assert res.exit_code == 0, res.output
    assert [r["seed"] for r in _rows(first, "SELECT seed FROM results")] == ["7"]
    assert not store.exists()  # --store, not $HOKM_SIM_STORE
    proc = _cli("results", "import", str(tmp_path / "all"), "--store", str(other))
    assert proc.returncode == 0 and "imported 1 report folder" in proc.stdout, proc.stderr
    (row,) = hokm_sim.results(store=other, bot="longest").itertuples()
    assert row.kind == "run" and row.seed == "7" and row.bots == "a=random, b=longest"
    assert row.pair_score_low < row.pair_score < row.pair_score_high
    proc = _cli("results", "import", str(tmp_path), "--store", str(other))
    assert proc.returncode == 2 and "holds no report folder" in proc.stderr


def test_an_import_keeps_the_rows_stored_and_the_listing_is_newest_first(tmp_path, store):
    """A folder recorded when it was written keeps its row (its id, its bots' digests and
    commits); an older folder imported after it is listed after it."""
    from hokm_sim.store.query import select

    hokm_sim.run("random", "longest", hands=600, seed=7, out=tmp_path / "all" / "r7")
    (before,) = select(limit=None)
    old = tmp_path / "all" / "r0"
    shutil.copytree(tmp_path / "all" / "r7", old)
    os.utime(old / "summary.json", (1e9, 1e9))  # 2001
    res = CliRunner().invoke(main, ["results", "import", str(tmp_path / "all")])
    assert res.exit_code == 0 and res.stdout == "imported 1 report folder, kept 1 already stored\n"
    newest, imported = select(limit=None)
    assert newest == before and all(b["digest"] for b in newest["bots"])
    assert imported["folder"] == str(old.resolve()) and imported["id"] > newest["id"]
    assert imported["created"].startswith("2001-") and imported["bots"][0]["digest"] is None
    res = CliRunner().invoke(main, ["results", "import", str(tmp_path / "all")])
    assert res.stdout == "imported 0 report folders, kept 2 already stored\n"
    assert select(limit=None) == [newest, imported]


def _version(store, bot, digest, commit, opponent, score, created, verdict=None):
    """A stored comparison of ``bot`` at ``digest`` with ``opponent`` (a regress, if a
    verdict is given)."""
    from hokm_sim.store import Row

    roles = ("candidate", "baseline") if verdict else ("a", "b")
    with Store(store) as s:
        s.add(Row(kind="regress" if verdict else "run", created=created, verdict=verdict,
                  command=f"hokm-sim run {bot} {opponent[0]}",
                  bots=[Bot(roles[0], bot, digest, commit, False), Bot(roles[1], *opponent)],
                  comparisons=[Comparison(*roles, score, score - 0.02, score + 0.02, 4000)]),
        )  # fmt: skip


def test_history_fits_every_version_through_common_opponents(tmp_path, store):
    longest = ("longest", "l" * 64, "c" * 40, False)
    v1, v2 = ("1" * 64, "a" * 40), ("2" * 64, "b" * 40)
    _version(store, "mybot", *v1, longest, 0.40, "2026-01-01T00:00:00Z")
    _version(store, "mybot", *v2, longest, 0.50, "2026-02-01T00:00:00Z")
    _version(store, "mybot", *v2, ("mybot", *v1, False), 0.56, "2026-02-02T00:00:00Z", "H1")
    # a third version that only ever met a bot nobody else met: no rating
    _version(store, "mybot", "3" * 64, "d" * 40, ("loner", "e" * 64, None, None), 0.5,
             "2026-03-01T00:00:00Z")  # fmt: skip
    res = hokm_sim.history("mybot", store=store)
    first, second, third = res.data["versions"]
    assert third["elo"]["value"] is None and third["pairs"] == 4000
    assert (first["version"], second["version"]) == ("a" * 8, "b" * 8)
    assert first["elo"]["value"] == 0 and first["elo"]["low"] is None
    assert 0 < second["elo"]["low"] < second["elo"]["value"] < second["elo"]["high"]
    assert second["verdicts"] == {"no regression": 1} and first["verdicts"] == {}
    loner, longest_ = res.data["opponents"]
    assert (loner["name"], loner["elo"]["value"]) == ("loner", None)
    assert longest_["elo"]["value"] > 0  # v1 scored 0.40 against it
    plot = tmp_path / "h.png"
    proc = _cli("history", "mybot", "--store", str(store), "--plot", str(plot))
    assert proc.returncode == 0, proc.stderr
    assert "bbbbbbbb" in proc.stdout and plot.read_bytes()[:4] == b"\x89PNG"
    again = CliRunner().invoke(
        main, ["history", "mybot", "--store", str(store), "--plot", str(plot)]
    )
    assert again.exit_code == 2 and "--force" in again.output  # the plot is not overwritten
    with pytest.raises(InputError, match="no stored comparison of 'other'"):
        hokm_sim.history("other", store=store)


def test_history_takes_a_bot_by_its_name_or_any_path_to_its_file(store):
    longest = ("longest", "l" * 64, "c" * 40, False)
    baseline = ("my_bot@git:HEAD~1", "1" * 64, None, None)  # the first version's files
    _version(store, "strategies/my_bot.py", "1" * 64, "a" * 40, longest, 0.4,
             "2026-01-01T00:00:00Z")  # fmt: skip
    _version(store, "/home/u/work/strategies/my_bot.py", "2" * 64, "b" * 40, baseline, 0.55,
             "2026-02-01T00:00:00Z", "H1")  # fmt: skip
    # a version first met as a baseline outside git, then recorded at its commit
    ahead = ("my_bot@git:main", "3" * 64, None, None)
    _version(store, "my_bot.py", "2" * 64, "b" * 40, ahead, 0.5, "2026-03-01T00:00:00Z", "H1")
    _version(store, "my_bot.py", "3" * 64, "d" * 40, longest, 0.5, "2026-03-02T00:00:00Z")
    for name in ("my_bot", "my_bot.py", "strategies/my_bot.py", "../work/strategies/my_bot.py"):
        res = CliRunner().invoke(main, ["history", name, "--json"])
        assert res.exit_code == 0, res.output
        d = json.loads(res.stdout)
        assert [v["version"] for v in d["versions"]] == ["a" * 8, "b" * 8, "d" * 8], name
        assert [o["name"] for o in d["opponents"]] == ["longest"]
        assert d["versions"][1]["verdicts"] == {"no regression": 2}
    res = CliRunner().invoke(main, ["history", "my_bto"])
    assert res.exit_code == 2 and "stored bots: my_bot, longest" in res.output, res.output
    assert len(res.output.strip().splitlines()) == 1


def test_the_listing_filters_by_commit_digest_command_and_date(store):
    longest = ("longest", "l" * 64, "c" * 40, False)
    _version(store, "mybot", "1" * 64, "a" * 40, longest, 0.40, "2026-01-01T00:00:00Z")
    _version(store, "mybot", "2" * 64, "b" * 40, longest, 0.50, "2026-02-01T00:00:00Z", "H0")

    def listed(*args):
        res = CliRunner().invoke(main, ["results", "--json", *args])
        assert res.exit_code == 0, res.output
        return json.loads(res.stdout)

    assert [r["created"][:7] for r in listed()] == ["2026-02", "2026-01"]
    assert [r["kind"] for r in listed("--commit", "BBB")] == ["regress"]
    assert [r["kind"] for r in listed("--digest", "1111", "--bot", "mybot")] == ["run"]
    assert [r["verdict"] for r in listed("--command", "regress")] == ["H0"]
    assert [r["created"][:7] for r in listed("--until", "2026-01-31")] == ["2026-01"]
    assert [r["created"][:7] for r in listed("--since", "2026-01-02")] == ["2026-02"]
    assert listed("--bot", "expert") == []
    res = CliRunner().invoke(main, ["results", "--limit", "1"])  # the newest, and a count
    assert res.exit_code == 0 and res.stdout.count("regress") == 1, res.output
    assert res.stderr == "(1 more: --limit N, or --all, lists them)\n"
    res = CliRunner().invoke(main, ["results", "--all"])
    assert res.exit_code == 0 and "regress" in res.stdout and "run " in res.stdout
    assert res.stderr == ""
    frame = hokm_sim.results(bot="longest")
    assert frame["verdict"].iloc[0] == "H0" and frame["verdict"].isna().iloc[1]
    assert frame["bots"].iloc[1] == "a=mybot@aaaaaaaa, b=longest@cccccccc"
    for args, error in (
        (["--since", "yesterday"], "--since: bad date 'yesterday'"),
        (["--command", "runs"], "--command: unknown command 'runs'"),
        (["--commit", "xyz"], "--commit: expected hexadecimal digits"),
        (["--all", "--limit", "3"], "give --limit or --all, not both"),
    ):
        res = CliRunner().invoke(main, ["results", *args])
        assert res.exit_code == 2 and error in res.output, res.output


def test_every_kind_of_comparison_is_stored_with_its_bots(sqlite_store, tmp_path):
    """A tournament, a field, a regress and a calibration (no folder) of random and
    longest: each row's bots by role, and the duplicate-pair comparisons history fits."""
    store = sqlite_store
    hokm_sim.tournament(["random", "longest"], hands=600, seed=13, out=tmp_path / "t")
    hokm_sim.field("random", ["longest"], hands=600, seed=13, out=tmp_path / "f")
    r = hokm_sim.regress("random", "longest", max_pairs=400, check_every=100, seed=13,
                         out=tmp_path / "r")  # fmt: skip
    hokm_sim.calibrate("random", runs=2, max_pairs=200, check_every=100, seed=15)
    rows = {x["kind"]: x for x in _rows(store, "SELECT * FROM results")}
    assert set(rows) == {"tournament", "field", "regress", "calibrate"}
    assert rows["calibrate"]["folder"] is None
    assert rows["regress"]["verdict"] == r.data["hypothesis_accepted"] == "H0"
    roles = {
        kind: [(b["role"], b["name"]) for b in
               _rows(store, f"SELECT * FROM bots WHERE result = {x['id']} ORDER BY role")]
        for kind, x in rows.items()
    }  # fmt: skip
    assert roles == {
        "tournament": [("0", "random"), ("1", "longest")],
        "field": [("candidate", "random"), ("members.0", "longest")],
        "regress": [("baseline", "longest"), ("candidate", "random")],
        "calibrate": [("bot", "random")],
    }
    compared = _rows(store, "SELECT r.kind, c.a, c.b, c.score, c.pairs FROM comparisons c "
                            "JOIN results r ON r.id = c.result ORDER BY r.id")  # fmt: skip
    assert [(c["kind"], c["a"], c["b"]) for c in compared] == [
        ("tournament", "0", "1"), ("field", "candidate", "members.0"),
        ("regress", "candidate", "baseline"),
    ]  # fmt: skip
    assert all(c["score"] < 0.3 for c in compared)  # random loses to longest
    (only,) = hokm_sim.history("random").data["versions"]
    assert only["pairs"] == sum(c["pairs"] for c in compared)


@pytest.mark.parametrize(("versions", "comparisons"), [(1, 1), (2, 3)])
def test_the_history_headline_counts_in_words(versions, comparisons):
    from hokm_sim.analysis.results import HistoryResult

    elo = {"value": None, "low": None, "high": None}
    data = {"bot": "mybot", "anchor": "longest", "comparisons": comparisons}
    data["versions"] = [{"version": f"v{i}", "elo": elo} for i in range(versions)]
    words = HistoryResult(data).headline.split(";")[0]
    if versions == 1:
        assert words == "mybot: 1 version over 1 stored comparison"
    else:
        assert words == "mybot: 2 versions over 3 stored comparisons"


_NO_LIBPQ = """
import sys
from hokm_sim import store
from hokm_sim.store import libpq
libpq._LIB, libpq._LOADED = None, True  # as on a machine where no libpq is found
print(store.keep({"kind": "run", "seed": "9"}, store=sys.argv[1]),
      next(iter(store._OPEN.values()))._proc is not None)
"""


def test_without_libpq_a_server_store_is_written_by_the_writer_process(server):
    Store(server).close()
    proc = subprocess.run([sys.executable, "-c", _NO_LIBPQ, server], capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["1", "True"]
    assert _rows(server, "SELECT seed FROM results") == [{"seed": "9"}]


def test_a_command_ends_without_waiting_on_a_server_that_does_not_answer():
    """A server that takes the connection and never answers holds the store's thread
    until its connect timeout, not the command: it ends when its work is done."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        url = f"postgresql://hokm:pw@127.0.0.1:{silent.getsockname()[1]}/r?connect_timeout=60"
        code = "import sys; from hokm_sim import store; store.prepare(sys.argv[1])"
        proc = subprocess.run([sys.executable, "-c", code, url], capture_output=True,
                              text=True, timeout=30)  # fmt: skip
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
