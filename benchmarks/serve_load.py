"""``hokm-sim serve BOT --http``: requests per second and latency under 200 concurrent clients.

Starts ``hokm-sim serve BOT --http 0`` on 127.0.0.1 (or uses ``--url``), then
runs ``--clients`` clients at once, each on a keep-alive connection of its
own, each sending ``--requests`` ``POST /decide`` messages of ``--batch``
requests one after the other. Prints requests per second (HTTP requests,
each a message), the decisions per second, the median and 99th percentile
latency of a request, and how many failed (a reset, a refused connection,
a status other than 200). Bounded: clients x requests messages in all, each
given 60 s, and it stops by itself.

    python benchmarks/serve_load.py [--bot longest] [--clients 200] [--requests 20] [--batch 1]

Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time

import aiohttp

from hokm_sim.protocol.check import positions


def body(batch: int, seed: int) -> bytes:
    """A decide message of ``batch`` requests of random legal play."""
    reqs = [{**r, "id": i} for i, (r, _) in enumerate(positions(seed, max(batch, 8))[:batch])]
    return json.dumps({"type": "decide", "requests": reqs}).encode()


async def client(url: str, data: bytes, n: int, times: list[float], failed: list[str]) -> None:
    """One client: ``n`` requests on one keep-alive connection, one after the other."""
    connector = aiohttp.TCPConnector(limit=1)
    timeout = aiohttp.ClientTimeout(total=60)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        for _ in range(n):
            t = time.perf_counter()
            try:
                async with session.post(url, data=data) as res:
                    await res.read()
                    if res.status != 200:
                        failed.append(f"status {res.status}")
                        continue
            except (aiohttp.ClientError, TimeoutError) as exc:
                failed.append(type(exc).__name__)
                continue
            times.append(time.perf_counter() - t)


async def load(url: str, data: bytes, clients: int, requests: int) -> tuple[list, list, float]:
    times: list[float] = []
    failed: list[str] = []
    t = time.perf_counter()
    await asyncio.gather(*(client(url, data, requests, times, failed) for _ in range(clients)))
    return times, failed, time.perf_counter() - t


def start(bot: str) -> tuple[subprocess.Popen, str]:
    """``hokm-sim serve BOT --http 0``, and its URL once it listens."""
    proc = subprocess.Popen([sys.executable, "-m", "hokm_sim", "serve", bot, "--http", "0"],
                            stderr=subprocess.PIPE, text=True)  # fmt: skip
    line = proc.stderr.readline()
    if "http://" not in line:
        proc.kill()
        sys.exit(f"the server did not start: {line}{proc.communicate()[1]}")
    return proc, "http://" + line.split("http://")[1].split()[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="longest", help="the strategy served")
    ap.add_argument("--url", help="a server already running (127.0.0.1 only)")
    ap.add_argument("--clients", type=int, default=200)
    ap.add_argument("--requests", type=int, default=20, help="messages per client")
    ap.add_argument("--batch", type=int, default=1, help="requests (decisions) per message")
    args = ap.parse_args()
    if args.url and not args.url.startswith(("http://127.0.0.1:", "http://localhost:")):
        sys.exit("--url: this load test sends traffic to 127.0.0.1 only")
    proc, url = (None, args.url) if args.url else start(args.bot)
    try:
        data = body(args.batch, 1)
        asyncio.run(load(url, data, 1, 5))  # warm-up: the strategy loaded and compiled
        times, failed, wall = asyncio.run(load(url, data, args.clients, args.requests))
    finally:
        if proc is not None:
            proc.terminate()
            proc.communicate(timeout=60)
    ok = len(times)
    print(f"{args.clients} clients x {args.requests} messages of {args.batch} request(s), "
          f"{args.bot if proc else url}")  # fmt: skip
    print(f"  answered {ok}, failed {len(failed)} {sorted(set(failed)) or ''}")
    print(f"  {ok / wall:,.0f} requests/s, {ok * args.batch / wall:,.0f} decisions/s")
    if ok:
        q = statistics.quantiles(times, n=100)
        print(f"  latency p50 {1000 * statistics.median(times):.1f} ms, p99 {1000 * q[98]:.1f} ms")


if __name__ == "__main__":
    main()
