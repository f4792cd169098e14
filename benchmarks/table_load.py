"""``hokm-sim play --host`` under load: 100 shared tables, one scripted person and three bots each.

Starts a server of ``--tables`` shared tables on 127.0.0.1 in a process of its
own (bots ``random`` and ``longest``, no pause between cards, a 60 s timer
that the scripted people never run out; its games, tables' files and results
store in a temporary folder, not the user's), then for every table at once: the
host's page starts the match, and a person in seat 0 plays it to the end (the
last legal card, trump the suit of the first card), answering each state
that gives them the turn. For each of the person's decisions it measures

- the decision's latency: from sending it to the state that shows it made;
- the round: from sending it to the person's next turn (three bots' cards,
  or the end of a trick, in between; the table's pause is 0).

Prints tables finished, decisions, and the p50, p99 and largest of each.
Bounded: ``--tables`` (at most 200) matches to ``--target`` points, all
given ``--timeout`` seconds, then it stops the server and itself.

    python benchmarks/table_load.py [--tables 100] [--target 3] [--timeout 600]

Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import aiohttp

from hokm_sim.play.hosted import RATE

MAX_TABLES = 200


def serve_tables(tables: int, target: int, data: str) -> None:
    """The server process: ``tables`` shared tables on 127.0.0.1, their links on stdout."""
    from hokm_sim.api import strategy
    from hokm_sim.play.server import Server, Settings, serve

    settings = Settings(
        partner=strategy("longest"), opponents=strategy("random"), target=target, pause=0,
        data=data, open_browser=False,
    )  # fmt: skip
    server = Server(settings)
    bots = ["random", "random", "longest", "random"]
    for _ in range(tables):
        server.host_table(bots, {"random": "random", "longest": "longest"}, target=target,
                          timer=60)  # fmt: skip
    asyncio.run(serve(server, announce=lambda line: print(line, flush=True)))


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


class Pacer:
    """Keeps a page's messages within the table's limit (:data:`~hokm_sim.play.hosted.RATE`
    a second), as a page must; the wait is not counted in any latency."""

    def __init__(self) -> None:
        self.sent: list[float] = []

    async def wait(self) -> None:
        now = time.monotonic()
        self.sent = [t for t in self.sent if now - t < 1.05]
        if len(self.sent) >= RATE:
            await asyncio.sleep(1.05 - (now - self.sent[0]))
        self.sent.append(time.monotonic())


async def table(base: str, seat: str, host: str, acks: list, rounds: list) -> bool:
    """Play one table's match as its person; True if it was played to the end."""
    pacer = Pacer()
    timeout = aiohttp.ClientTimeout(total=None)
    async with aiohttp.ClientSession(timeout=timeout) as http:
        ws = await http.ws_connect(f"{base}/table/ws?token={seat}")
        boss = await http.ws_connect(f"{base}/table/ws?token={host}")
        await boss.send_json({"type": "start", "token": host})
        done, sent_at, waiting_ack = -1, None, None
        async for msg in ws:
            st = json.loads(msg.data)
            if st["type"] not in ("state", "refused"):
                continue
            now = time.perf_counter()
            if waiting_ack is not None and st["step"] > waiting_ack:
                acks.append(now - sent_at)
                waiting_ack = None
            if st["phase"] == "match_over":
                await boss.close()
                return True
            if st["type"] == "refused":
                raise RuntimeError(f"refused: {st['message']}")
            if st["phase"] in ("first_hakem", "hand_over"):
                await pacer.wait()
                await ws.send_json({"type": "next", "token": seat})
                continue
            if st["turn"] != 0 or not st["ready"] or st["step"] <= done:
                continue
            if sent_at is not None and waiting_ack is None:
                rounds.append(now - sent_at)
            done = st["step"]
            if st["phase"] == "trump":
                move = {"type": "trump", "suit": st["hand"][0][1]}
            else:
                move = {"type": "card", "card": st["legal"][-1]}
            await pacer.wait()
            sent_at, waiting_ack = time.perf_counter(), st["step"]
            await ws.send_json(move | {"step": st["step"], "token": seat})
    return False


async def load(base: str, links: list[tuple[str, str]], timeout: float) -> None:
    acks: list[float] = []
    rounds: list[float] = []
    t = time.perf_counter()
    jobs = [table(base, seat, host, acks, rounds) for seat, host in links]
    results = await asyncio.wait_for(asyncio.gather(*jobs, return_exceptions=True), timeout)
    wall = time.perf_counter() - t
    finished = sum(r is True for r in results)
    failed = [r for r in results if isinstance(r, BaseException)]
    print(f"{len(links)} tables, {finished} matches finished in {wall:.1f} s, {len(failed)} failed"
          + (f" (first: {failed[0]!r})" if failed else ""))  # fmt: skip
    for name, xs in (("decision (sent -> made)", acks), ("round (sent -> next turn)", rounds)):
        if xs:
            p50, p99 = statistics.median(xs) * 1000, percentile(xs, 0.99) * 1000
            print(f"{name}: {len(xs)}, p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
                  f"max {max(xs) * 1000:.1f} ms")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--target", type=int, default=3, choices=(3, 5, 7, 10))
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--data", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if not 1 <= args.tables <= MAX_TABLES:
        ap.error(f"--tables: 1 to {MAX_TABLES}")
    if args.serve:
        serve_tables(args.tables, args.target, args.data)
        return
    with tempfile.TemporaryDirectory() as data:
        cmd = [sys.executable, __file__, "--serve", "--tables", str(args.tables),
               "--target", str(args.target), "--data", data]  # fmt: skip
        store = {"HOKM_SIM_STORE": os.path.join(data, "results.sqlite")}  # not the user's
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=os.environ | store)
        try:
            base, seats, hosts = None, [], []
            for line in proc.stdout:
                if "a shared table at" in line:
                    base = line.split(" at ")[1].split()[0]
                elif "seat 0 (South):" in line:
                    seats.append(line.rsplit("/", 1)[1].strip())
                elif "host (lobby):" in line:
                    hosts.append(line.rsplit("/", 1)[1].strip())
                elif line.startswith("games are saved"):
                    break
            if base is None or not base.startswith("http://127.0.0.1:"):
                raise SystemExit("the server did not start on 127.0.0.1")
            asyncio.run(load(base, list(zip(seats, hosts, strict=True)), args.timeout))
        finally:
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(30)


if __name__ == "__main__":
    main()
