"""The results store's goals, on SQLite and on a PostgreSQL server: adding a result costs
little of a command's time, listing answers at once, writers at once lose nothing.

1. Adding: the median wall time of :func:`hokm_sim.store.keep` for the record of a
   real run (random against longest: two built-in bots, their digests and ``git
   status`` included) in a process that has added one; then a real ``hokm-sim run``
   command (random against longest, ``--hands``: 2,000 and 100,000 hands; the CLI's
   ``main`` in ``python -c``), each in a new process (the store's first
   write there, on an existing store), timed whole, alternately with the store's part
   (opening it, adding the row) left out: the difference of the medians (wall time,
   and the process's CPU time, steadier on a busy machine) is what the store costs
   the command; the time the run waits in the store's calls (``begin``, and the
   write after the report's files); the CPU time of its child processes (``git
   status``, and a server's store writer where one is started, to make or migrate the
   store, waited for after the run is timed); and the
   load average before and after.
2. Listing: a store of ``--rows`` results (default 100,000, two bots and a comparison
   each), then the wall time of ``hokm-sim results`` (a new process: start-up
   included) with no filter, filtered by a bot, by a commit, ``--json``, and every row
   (``--all``, and ``--all --json``); and of ``hokm_sim.results()`` for a bot.
3. Writers at once: ``--writers`` processes adding ``--each`` results each at once
   (:func:`~hokm_sim.store.keep`, as commands do), then every row counted and the
   store's integrity check.

The PostgreSQL server is ``--postgres URL`` (default ``$HOKM_SIM_TEST_POSTGRES``; none:
SQLite only); each part makes a new database on it, and drops it after.

    python3 benchmarks/results_store.py [--rows 100000] [--writers 8 --each 1000]
        [--postgres postgresql://USER:PASSWORD@HOST:PORT/DATABASE] [--only sqlite|postgresql]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import hokm_sim
from hokm_sim.store import Store, keep
from hokm_sim.store.schema import bots, comparisons, results

WRITER = """
import sys
from hokm_sim.store import keep
w, n = int(sys.argv[1]), int(sys.argv[2])
bots = {side: {"name": side * 3, "trump": {}, "play": {}} for side in "ab"}
for i in range(n):
    keep({"kind": "run", "seed": f"{w}-{i}", "config": {"duplicate": True, "mode": "hands", **bots},
          "pair_score": {"value": 0.5, "low": 0.4, "high": 0.6, "n": 10}}, store=sys.argv[3])
"""

FRESH = """
import sys, time
t0 = time.perf_counter()
import hokm_sim, hokm_sim.store as st
from hokm_sim.report import folder
spent = [0.0]
if sys.argv[2] == "without":  # the store's part left out: no opening, no row
    st.prepare = lambda *a, **k: None
    folder.store.begin = lambda *a, **k: (lambda headline=None: 0)
else:
    begin = st.begin
    def timed(*a, **k):
        t = time.perf_counter()
        add = begin(*a, **k)
        spent[0] += time.perf_counter() - t
        def timed_add(*a, **k):
            t = time.perf_counter()
            out = add(*a, **k)
            spent[0] += time.perf_counter() - t
            return out
        return timed_add
    folder.store.begin = timed
from hokm_sim.cli import main
try:
    main(["run", "random", "longest", "--hands", sys.argv[3], "--seed", "1", "--out",
          sys.argv[1], "--force"])
except SystemExit as exc:  # the CLI ends by exiting with its code
    assert exc.code == 0, exc.code
took = 1000 * (time.perf_counter() - t0)
import resource
for opening in st._OPEN.values():  # a server's writer, if one was needed: let it end
    if getattr(opening, "_proc", None) is not None:
        opening.settle()
        opening._proc.wait()
use = resource.getrusage(resource.RUSAGE_CHILDREN)
print(took, 1000 * time.process_time(), 1000 * spent[0], 1000 * (use.ru_utime + use.ru_stime))
"""


@contextmanager
def new_store(kind: str, tmp: Path, name: str, server: str | None) -> Iterator[str]:
    """A new store: a SQLite file in ``tmp``, or a new database on ``server`` (dropped
    at the end)."""
    if kind == "sqlite":
        yield str(tmp / f"{name}.sqlite")
        return
    import psycopg
    import sqlalchemy as sa

    base = sa.make_url(server)
    db = f"hokm_bench_{name}_{uuid.uuid4().hex[:8]}"
    admin = base.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as c:
        c.execute(f"CREATE DATABASE {db}")
    try:
        yield base.set(database=db).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as c:
            c.execute(f"DROP DATABASE {db} WITH (FORCE)")


def adding(store: str, tmp: Path) -> None:
    res = hokm_sim.run("random", "longest", hands=2000, seed=1, out=tmp / "run", force=True)
    record = json.loads((tmp / "run" / "summary.json").read_text())
    keep(record, tmp / "run", res.headline, store=store)
    times = []
    for _ in range(50):
        t = time.perf_counter()
        keep(record, tmp / "run", res.headline, store=store)
        times.append(time.perf_counter() - t)
    print(f"  add a run's result: median {1000 * statistics.median(times):.1f} ms, "
          f"max {1000 * max(times):.1f} ms over 50")  # fmt: skip


def first_add(store: str, tmp: Path, n: int, hands: int) -> None:
    env = os.environ | {"HOKM_SIM_STORE": store}
    whole: dict[str, list[float]] = {"with": [], "without": []}
    cpu: dict[str, list[float]] = {"with": [], "without": []}
    waited, writer = [], []
    load = os.getloadavg()[0]
    for i in range(2 * n + 1):  # the first makes the store and warms the caches
        how = ("with", "without")[i % 2]
        cmd = [sys.executable, "-c", FRESH, str(tmp / "fresh"), how, str(hands)]
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
        took, used, spent, child = (float(x) for x in out.split()[-4:])
        if i:
            whole[how].append(took)
            cpu[how].append(used)
            if how == "with":
                waited.append(spent)
                writer.append(child)
    (w, wc), (wo, woc) = ((statistics.median(whole[k]), statistics.median(cpu[k]))
                          for k in ("with", "without"))  # fmt: skip
    print(f"  a run of {hands:,} hands in a new process, medians of {n}: wall {w:.0f} ms "
          f"with the store, {wo:.0f} ms without ({w - wo:+.0f}); CPU {wc:.0f} ms with, "
          f"{woc:.0f} ms without ({wc - woc:+.0f}); waiting in the store's calls: median "
          f"{statistics.median(waited):.1f} ms, max {max(waited):.1f} ms; the store's writer "
          f"process (a server's): CPU {statistics.median(writer):.0f} ms; load average "
          f"{load:.2f} before, {os.getloadavg()[0]:.2f} after")  # fmt: skip


def fill(store: str, rows: int) -> None:
    """``rows`` results of four bots, each with two bots and a comparison."""
    names = ("expert", "longest", "random", "mybot")
    with Store(store) as s, s.writing() as conn:
        for start in range(0, rows, 10_000):
            ids = range(start + 1, min(start + 10_001, rows + 1))
            conn.execute(results.insert(), [
                {"id": i, "created": f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}T00:00:00Z",
                 "kind": "run", "command": f"hokm-sim run {names[i % 4]} {names[(i + 1) % 4]}",
                 "seed": str(i), "size": 2000, "partial": False,
                 "headline": f"{names[i % 4]} vs {names[(i + 1) % 4]}",
                 "figures": json.dumps({"elo": {"value": 1, "low": 0, "high": 2}}),
                 "folder": f"/r/{i}"} for i in ids])  # fmt: skip
            conn.execute(bots.insert(), [
                {"result": i, "role": role, "name": names[(i + k) % 4], "place": k,
                 "digest": f"{(i + k) % 977:064x}", "git_commit": f"{(i + k) % 331:040x}",
                 "dirty": False} for i in ids for k, role in enumerate("ab")])  # fmt: skip
            conn.execute(comparisons.insert(), [
                {"result": i, "a": "a", "b": "b", "score": 0.5, "low": 0.45, "high": 0.55,
                 "pairs": 2000} for i in ids])  # fmt: skip
        if conn.dialect.name == "postgresql":  # ids given: the sequence moved past them
            conn.exec_driver_sql("SELECT setval('results_id_seq', (SELECT max(id) FROM results))")
            conn.exec_driver_sql("ANALYZE")


def _children_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def listing(store: str, rows: int) -> None:
    t = time.perf_counter()
    fill(store, rows)
    print(f"  {rows:,} results stored in {time.perf_counter() - t:.1f} s")
    env = os.environ | {"HOKM_SIM_STORE": store}
    for args in ([], ["--bot", "mybot"], ["--commit", f"{5:040x}"[:12]], ["--json"],
                 ["--all"], ["--all", "--json"]):  # fmt: skip
        t, c = time.perf_counter(), _children_cpu()
        out = subprocess.run([sys.executable, "-m", "hokm_sim", "results", *args], env=env,
                             capture_output=True, check=True).stdout  # fmt: skip
        took, used = time.perf_counter() - t, _children_cpu() - c
        print(f"  hokm-sim results {' '.join(args)}: {took:.2f} s, CPU {used:.2f} s "
              f"({len(out) / 1e6:.1f} MB out; a new process)")  # fmt: skip
    t = time.perf_counter()
    frame = hokm_sim.results(bot="mybot", store=store)
    print(f"  hokm_sim.results(bot='mybot'): {len(frame)} rows in {time.perf_counter() - t:.2f} s")


def writers(store: str, n: int, each: int) -> None:
    Store(store).close()  # made, as by the first command that used it
    t = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(w), str(each), store])
             for w in range(n)]  # fmt: skip
    assert all(p.wait() == 0 for p in procs)
    took = time.perf_counter() - t
    with Store(store) as s:
        count = s.query("SELECT COUNT(*) FROM results")[0][0]
        seeds = {r[0] for r in s.query("SELECT seed FROM results")}
        ok = s.integrity()
    every = seeds == {f"{w}-{i}" for w in range(n) for i in range(each)}
    print(f"  {n} processes x {each:,} results (keep) at once: {count:,} rows of "
          f"{n * each:,} (every one: {every}), integrity {ok}, {took:.1f} s")  # fmt: skip


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=100_000)
    p.add_argument("--writers", type=int, default=8)
    p.add_argument("--each", type=int, default=1000)
    p.add_argument("--runs", type=int, default=7, help="new processes each way (part 1)")
    p.add_argument("--hands", type=int, nargs="+", default=[2000, 100_000],
                   help="the sizes of part 1's runs")  # fmt: skip
    p.add_argument("--postgres", default=os.environ.get("HOKM_SIM_TEST_POSTGRES"))
    p.add_argument("--only", choices=("sqlite", "postgresql"))
    p.add_argument("--parts", nargs="+", choices=("add", "list", "writers"),
                   default=["add", "list", "writers"])  # fmt: skip
    args = p.parse_args()
    kinds = [k for k in ("sqlite", "postgresql") if args.only in (None, k)]
    if not args.postgres:
        kinds = [k for k in kinds if k == "sqlite"]
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        os.environ["HOKM_SIM_STORE"] = str(tmp / "side.sqlite")
        for kind in kinds:
            print(kind)
            if "add" in args.parts:
                with new_store(kind, tmp, "add", args.postgres) as store:
                    adding(store, tmp)
                    for hands in args.hands:
                        first_add(store, tmp, args.runs, hands)
            if "list" in args.parts:
                with new_store(kind, tmp, "big", args.postgres) as store:
                    listing(store, args.rows)
            if "writers" in args.parts:
                with new_store(kind, tmp, "busy", args.postgres) as store:
                    writers(store, args.writers, args.each)


if __name__ == "__main__":
    main()
