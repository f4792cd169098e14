"""The results store's two goals: adding a result costs little, listing answers at once.

1. Adding: the median wall time of :func:`hokm_sim.store.keep` for the record of a
   real run (random against longest: two built-in bots, their digests and ``git
   status`` included), after one call that warms the caches a run has warm anyway;
   and the time a real ``hokm_sim.run`` spends in the store (:func:`~hokm_sim.store.begin`
   before its report's files are written, and the add after them), each in a new
   process (the store's first write of the process, on an existing store).
2. Listing: a store of ``--rows`` results (default 100,000, two bots and a comparison
   each, written in one transaction), then the wall time of ``hokm-sim results``
   (a new process: start-up included) with no filter, filtered by a bot, by a
   commit, and ``--json`` of every row; and of ``hokm_sim.results()`` for a bot.
3. Writers at once: ``--writers`` processes adding ``--each`` results each at once,
   then every row counted and ``PRAGMA integrity_check``.

    python3 benchmarks/results_store.py [--rows 100000] [--writers 8 --each 1000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import hokm_sim
from hokm_sim.store import Store, keep

WRITER = """
import sys
from hokm_sim.store import Store, Row
from hokm_sim.store.rows import Bot, Comparison
w, n = int(sys.argv[1]), int(sys.argv[2])
with Store(sys.argv[3]) as s:
    for i in range(n):
        s.add(Row(kind="run", seed=f"{w}-{i}", bots=[Bot("a", "x"), Bot("b", "y")],
                  comparisons=[Comparison("a", "b", 0.5, 0.4, 0.6, 10)]))
"""


def adding(tmp: Path) -> None:
    res = hokm_sim.run("random", "longest", hands=2000, seed=1, out=tmp / "run")
    record = json.loads((tmp / "run" / "summary.json").read_text())
    store = tmp / "add.sqlite"
    keep(record, tmp / "run", res.headline, store=store)
    times = []
    for _ in range(50):
        t = time.perf_counter()
        keep(record, tmp / "run", res.headline, store=store)
        times.append(time.perf_counter() - t)
    print(f"add a run's result: median {1000 * statistics.median(times):.1f} ms, "
          f"max {1000 * max(times):.1f} ms over 50")  # fmt: skip


FRESH = """
import sys, time
import hokm_sim, hokm_sim.store as st
begin = st.begin
spent = [0.0]
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
st.begin = timed
hokm_sim.run("random", "longest", hands=2000, seed=1, out=sys.argv[1], force=True)
print(1000 * spent[0])
"""


def first_add(tmp: Path, n: int = 7) -> None:
    env = os.environ | {"HOKM_SIM_STORE": str(tmp / "fresh.sqlite")}
    times = []
    for _ in range(n + 1):  # the first creates the store
        out = subprocess.run([sys.executable, "-c", FRESH, str(tmp / "fresh")], env=env,
                             capture_output=True, text=True, check=True).stdout  # fmt: skip
        times.append(float(out.split()[-1]))
    rest = times[1:]
    print(f"a run's one result, each in a new process: median "
          f"{statistics.median(rest):.1f} ms, max {max(rest):.1f} ms over {n}")  # fmt: skip


def listing(tmp: Path, rows: int) -> None:
    store = tmp / "big.sqlite"
    bots = ("expert", "longest", "random", "mybot")
    with Store(store) as s:
        db = s._db
        db.execute("BEGIN")
        for i in range(rows):
            a, b = bots[i % 4], bots[(i + 1) % 4]
            cur = db.execute(
                "INSERT INTO results (created, kind, command, seed, size, headline, figures, "
                "folder) VALUES (?, 'run', ?, ?, 2000, ?, ?, ?)",
                (f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}T00:00:00Z", f"hokm-sim run {a} {b}",
                 str(i), f"{a} vs {b}", json.dumps({"elo": {"value": 1, "low": 0, "high": 2}}),
                 f"/r/{i}"),
            )  # fmt: skip
            rid = cur.lastrowid
            db.executemany(
                "INSERT INTO bots (result, role, name, digest, git_commit, dirty) "
                "VALUES (?, ?, ?, ?, ?, 0)",
                [(rid, "a", a, f"{i % 977:064x}", f"{i % 331:040x}"),
                 (rid, "b", b, f"{(i + 1) % 977:064x}", f"{(i + 1) % 331:040x}")],
            )  # fmt: skip
            db.execute(
                "INSERT INTO comparisons VALUES (?, 'a', 'b', 0.5, 0.45, 0.55, 2000)", (rid,)
            )
        db.execute("COMMIT")
    env = os.environ | {"HOKM_SIM_STORE": str(store)}
    for args in ([], ["--bot", "mybot"], ["--commit", f"{5:040x}"[:12]],
                 ["--json", "--limit", str(rows)]):  # fmt: skip
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "hokm_sim", "results", *args], env=env,
                       stdout=subprocess.DEVNULL, check=True)  # fmt: skip
        print(
            f"hokm-sim results {' '.join(args)} over {rows:,}: "
            f"{time.perf_counter() - t:.2f} s (a new process)"
        )
    t = time.perf_counter()
    frame = hokm_sim.results(bot="mybot", store=store)
    print(f"hokm_sim.results(bot='mybot'): {len(frame)} rows in {time.perf_counter() - t:.2f} s")


def writers(tmp: Path, n: int, each: int) -> None:
    store = tmp / "busy.sqlite"
    t = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(w), str(each), str(store)])
             for w in range(n)]  # fmt: skip
    assert all(p.wait() == 0 for p in procs)
    took = time.perf_counter() - t
    with Store(store) as s:
        count = s.query("SELECT COUNT(*) FROM results")[0][0]
        ok = s.integrity()
    print(f"{n} writers x {each:,} results at once: {count:,} rows of {n * each:,}, "
          f"integrity {ok}, {took:.1f} s")  # fmt: skip


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=100_000)
    p.add_argument("--writers", type=int, default=8)
    p.add_argument("--each", type=int, default=1000)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        os.environ["HOKM_SIM_STORE"] = str(Path(d) / "side.sqlite")
        adding(Path(d))
        first_add(Path(d))
        listing(Path(d), args.rows)
        writers(Path(d), args.writers, args.each)


if __name__ == "__main__":
    main()
