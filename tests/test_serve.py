"""``hokm-sim serve``: a strategy answering the protocol plays exactly its cards inside hokm-sim.

Requests are written from a table of the environments' stepper (the bytes a
host sends) and answered by :class:`Served`; each answer must be the one the
strategy gives at that table, whose memory and stream are the real ones. A
bot that keeps state in ``mem`` and draws (``tests/bots/pymemory.py``)
shows that both are rebuilt, with the replay cache and without it. Then the
whole path: a host running ``hokm-sim serve`` as an ``exec:`` bot, and the
HTTP server with its errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import io
import json
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from hokm_sim.bots.host import bot_timeout, write_decide
from hokm_sim.bots.registry import resolve
from hokm_sim.bots.seat import SeatBot
from hokm_sim.env.table import Table
from hokm_sim.protocol.encode import buffer_for
from hokm_sim.protocol.request import RequestError, read_request
from hokm_sim.serving.decider import Served, reply
from hokm_sim.serving.http import ServeHTTP
from hokm_sim.serving.stdio import serve_lines
from hokm_sim.sim.runner import Runner

ROOT = Path(__file__).resolve().parents[1]
PYMEMORY = str(ROOT / "tests" / "bots" / "pymemory.py")
SERVE = f"exec:{sys.executable} -m hokm_sim serve"


def table_requests(spec: str, deals: int, target: int | None = None, stream: bool = True):
    """``(request dict, the strategy's answer at the table)`` for every decision of
    ``deals`` deals (or matches) with ``spec`` in every seat."""
    bot = SeatBot(resolve(spec))
    table = Table(target=target)
    buf = buffer_for(1)
    out = []
    for deal in range(deals):
        table.start(seed=3, deal=deal)
        while table.waiting is not None:
            n = write_decide(table.slots, np.array([0]), stream, buf)
            (req,) = json.loads(bytes(buf[:n]))["requests"]
            answer = bot.decide(table)
            out.append((req, answer))
            table.act(answer)
    return out


def checked(pairs) -> list:
    """The requests of ``pairs`` read as a bot reads them (each from its own message)."""
    return [read_request(q, 0) for q, _ in pairs]


@pytest.mark.parametrize("cache", [1 << 16, 0])
def test_served_memory_and_draws_are_the_tables(cache):
    pairs = table_requests(PYMEMORY, 6) + table_requests(PYMEMORY, 1, target=3)
    served = Served(resolve(PYMEMORY), cache=cache)
    got = [served.decide(r) for r in checked(pairs)]
    assert got == [a for _, a in pairs]
    assert (served.replayed == 0) == (cache > 0)


def test_without_the_stream_an_answer_depends_on_its_request_alone():
    reqs = checked(table_requests(PYMEMORY, 3, stream=False))
    warm, cold = Served(resolve(PYMEMORY)), Served(resolve(PYMEMORY), cache=0)
    first = [warm.decide(r) for r in reqs]
    assert [cold.decide(r) for r in reversed(reqs)] == first[::-1]


def test_a_served_compiled_bot_draws_its_own_stream():
    pairs = table_requests("random", 4)
    served = Served(resolve("random"))
    assert [served.decide(r) for r in checked(pairs)] == [a for _, a in pairs]


def test_a_served_strategy_says_it_is_compiling_while_it_loads():
    """``hello`` loads the strategy (a first compilation can take a minute): told to the
    listeners, as ``hokm-sim serve``'s progress on standard error is."""
    from hokm_sim.bots.compiling import listen

    heard = []
    stop = listen(heard.append)
    try:
        Served(resolve("random")).ready()
    finally:
        stop()
    assert heard == ["random (once per version of its files)", None]


def _lines(*msgs) -> list[bytes]:
    return [(m if isinstance(m, str) else json.dumps(m)).encode() + b"\n" for m in msgs]


def test_the_message_loop_answers_hello_decide_bye_and_errors():
    (req, _), *_ = table_requests("longest", 1)
    out = io.BytesIO()
    served = Served(resolve("longest"))
    lines = _lines({"type": "hello", "protocol": "hokm-bot/1", "host": "test"}, "not json",
                   "[" * 100_000, [1], {"type": "frobnicate"},
                   {"type": "decide", "requests": [req]}, {"type": "bye"},
                   {"type": "decide", "requests": [req]})  # fmt: skip
    assert serve_lines(served, lines, out) == 0
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert answers[0] == {"type": "hello", "protocol": "hokm-bot/1", "name": "longest",
                          "version": answers[0]["version"], "extensions": ["stream"]}  # fmt: skip
    assert [a["type"] for a in answers] == ["hello", *["error"] * 4, "answers", "bye"]
    assert "not a JSON line" in answers[1]["message"] and "not a JSON line" in answers[2]["message"]
    assert "unknown message type 'frobnicate'" in answers[4]["message"]
    assert answers[5]["answers"][0]["id"] == req["id"]


def _bad(req: dict, **change) -> dict:
    return {**req, **change}


def test_requests_that_are_not_valid_are_refused_in_one_line():
    pairs = table_requests("longest", 1)
    trump = next(q for q, _ in pairs if q["kind"] == "trump")
    card = next(q for q, _ in pairs if q["kind"] == "card" and len(q["plays"]) == 5)
    served = Served(resolve("longest"))
    cases = [
        (_bad(card, seat=7), "'seat' must be a whole number 0..3"),
        (_bad(card, id=True), "'id' must be a whole number"),
        (_bad(card, kind="pass"), "'kind' must be 'trump' or 'card'"),
        (_bad(card, hand=card["hand"] + ["ZZ"]), "holds 'ZZ', not a card"),
        (_bad(card, hand=card["hand"] + card["hand"][:1]), "names a card twice"),
        (_bad(card, trump="X"), "'trump' must be one of"),
        (_bad(card, legal=["AS"] if "AS" not in card["hand"] else ["2C"]), "'legal' must be"),
        (_bad(card, plays=card["plays"] + card["hand"][:1]), "among 'plays'"),
        (_bad(card, seed=-1), "'seed' must be"),
        (_bad(card, tricks=[0]), "'tricks' must be two"),
        (_bad(trump, trump="H"), "a trump call has 'trump' null"),
        (_bad(trump, seat=(trump["seat"] + 1) % 4), "a trump call is the Hakem's"),
        (_bad(card, plays=card["plays"][:-1]), "another seat's turn"),
        (
            _bad(card, legal=card["hand"]) if len(card["legal"]) < len(card["hand"]) else None,
            "'legal' is not the cards the rules allow",
        ),  # fmt: skip
        (_bad(card, tricks=[1, 0]), "'tricks' do not match"),
    ]
    for req, what in cases:
        if req is not None:
            with pytest.raises(RequestError, match=what):
                reply(served, {"type": "decide", "requests": [req]})
    with pytest.raises(RequestError, match="needs a non-empty 'requests' list"):
        reply(served, {"type": "decide", "requests": []})
    with pytest.raises(RequestError, match="the same 'id'"):
        reply(served, {"type": "decide", "requests": [card, card]})


@pytest.fixture(scope="module")
def http_server():
    server = ServeHTTP(Served(resolve("longest")))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _post(server, path: str, body: bytes, headers=None):
    host, port = server.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=30)
    conn.request("POST", path, body, headers or {"Content-Type": "application/json"})
    res = conn.getresponse()
    return res.status, res.read().decode()


def test_http_answers_decide_and_refuses_bad_bodies_in_one_line(http_server):
    assert http_server.server_address[0] == "127.0.0.1"
    pairs = table_requests("longest", 1)
    msg = {"type": "decide", "requests": [{**q, "id": i} for i, (q, _) in enumerate(pairs[:20])]}
    status, body = _post(http_server, "/decide", json.dumps(msg).encode())
    assert status == 200
    got = json.loads(body)["answers"]
    assert [a.get("card", a.get("suit")) for a in got] == [
        a["card"] if "card" in a else a["suit"]
        for a in reply(Served(resolve("longest")), msg)[0]["answers"]
    ]
    status, body = _post(http_server, "/hello", b'{"type": "hello", "protocol": "hokm-bot/1"}')
    assert status == 200 and json.loads(body)["protocol"] == "hokm-bot/1"
    for path, data, code, what in [
        ("/decide", b"{not json", 400, "not JSON"),
        ("/decide", b"[" * 100_000, 400, "not JSON"),  # too deep for Python's json
        ("/decide", b'{"type": "hello"}', 400, "takes a 'decide' message"),
        (
            "/decide",
            json.dumps({"type": "decide", "requests": [{"id": 1}]}).encode(),
            400,
            "'kind' must be",
        ),  # fmt: skip
        ("/nowhere", b"{}", 404, "no /nowhere"),
    ]:
        status, body = _post(http_server, path, data)
        assert status == code and what in body and body.count("\n") == 1, body


def test_a_host_plays_a_served_bot_card_for_card(runner):
    """``exec:hokm-sim serve random`` (its draws through the stream extension) gives the
    counts of the compiled ``random`` on two threads (two served processes)."""
    with bot_timeout(120):
        want = runner("random", "random").counts(5, 400, threads=1)
        got = Runner(resolve(f"{SERVE} random"), resolve("random")).counts(5, 400, threads=2)
    assert (got == want).all()


def test_serve_keeps_standard_output_for_the_protocol(tmp_path):
    chatty = tmp_path / "chatty.py"
    chatty.write_text(
        '"""Prints while it plays."""\n'
        "def choose_trump(obs):\n    print('calling'); return 0\n"
        "def play_card(obs):\n    print('playing'); return obs.legal_cards[0]\n"
    )
    (req, _), *_ = table_requests("longest", 1)
    lines = b"".join(_lines({"type": "hello", "protocol": "hokm-bot/1"},
                            {"type": "decide", "requests": [req]}, {"type": "bye"}))  # fmt: skip
    res = subprocess.run([sys.executable, "-m", "hokm_sim", "serve", str(chatty)], input=lines,
                         capture_output=True, timeout=300, check=False)  # fmt: skip
    assert res.returncode == 0, res.stderr.decode()
    kinds = [json.loads(x)["type"] for x in res.stdout.splitlines()]
    assert kinds == ["hello", "answers", "bye"]
    assert b"calling" in res.stderr


def test_a_served_bot_that_raises_or_exits_is_an_error_line_not_a_crash(tmp_path):
    quits = tmp_path / "quits.py"
    quits.write_text('"""Leaves."""\nimport sys\n\ndef choose_trump(obs):\n    return 0\n\n'
                     "def play_card(obs):\n    sys.exit(3)\n")  # fmt: skip
    faulty = f"{ROOT / 'tests' / 'bots' / 'pyfaulty.py'}(mode=1)"  # raises in seat 1, trick 3
    req = next(q for q, _ in table_requests("longest", 2)
               if q["kind"] == "card" and q["seat"] == 1 and 8 <= len(q["plays"]) < 12)  # fmt: skip
    for bot, what in [(faulty, "raised ValueError: boom"), (str(quits), "called sys.exit(3)")]:
        out = io.BytesIO()
        lines = _lines({"type": "decide", "requests": [req]}, {"type": "bye"})
        assert serve_lines(Served(resolve(bot)), lines, out) == 0
        first, bye = (json.loads(x) for x in out.getvalue().splitlines())
        assert first["type"] == "error" and what in first["message"], first
        # the host names the bot it runs (exec:... serve BOT): the message does not again
        assert first["message"].startswith("the strategy ") and bot not in first["message"]
        assert bye == {"type": "bye"}


def test_the_api_serves_and_checks():
    import hokm_sim
    from hokm_sim import api

    assert hokm_sim.serve is api.serve and callable(hokm_sim.serve)
    assert hokm_sim.check_bot is api.check_bot


# --- HTTP under load and misuse ---------------------------------------------------------

SLOW = '''"""Plays the lowest legal card, after a pause long enough to hang up before it."""
import time


def choose_trump(obs):
    time.sleep(0.3)
    return 0


def play_card(obs):
    time.sleep(0.3)
    return min(obs.legal_cards)
'''


def _decide_body(n: int = 5) -> bytes:
    reqs = [{**q, "id": i} for i, (q, _) in enumerate(table_requests("longest", 1)[:n])]
    return json.dumps({"type": "decide", "requests": reqs}).encode()


def _raw(server, data: bytes) -> tuple[bytes, bool]:
    """Send ``data`` on a connection of its own: what comes back, and whether the server
    closed the connection after it (rather than wait for more)."""
    sock = socket.create_connection(server.server_address, timeout=10)
    with sock:
        sock.sendall(data)
        got = b""
        try:
            while chunk := sock.recv(65536):
                got += chunk
        except TimeoutError:
            return got, False
    return got, True


def test_http_refuses_bad_lengths_and_closes_the_connection(http_server):
    """An oversized body gets 413 and the connection is closed: its unsent rest is never
    read as a second request; a negative Content-Length is a bad request (400), not 413."""
    smuggled = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"
    big = f"POST /decide HTTP/1.1\r\nHost: x\r\nContent-Length: {(1 << 26) + 1}\r\n\r\n"
    got, closed = _raw(http_server, big.encode() + smuggled)
    assert got.startswith(b"HTTP/1.1 413 ") and closed and got.count(b"HTTP/1.") == 1
    got, closed = _raw(
        http_server, b"POST /decide HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n"
    )
    assert got.split(b" ")[1] == b"400" and closed


def test_http_answers_a_burst_of_concurrent_clients(http_server):
    """50 clients connect at once, each on its own connection: every one is answered (the
    listen backlog was 5, and some got a reset)."""
    import aiohttp

    body = _decide_body()
    url = f"http://{http_server.server_address[0]}:{http_server.server_address[1]}/decide"

    async def one() -> int:
        async with aiohttp.ClientSession() as session, session.post(url, data=body) as res:
            await res.read()
            return res.status

    async def burst() -> list[int]:
        return await asyncio.gather(*(one() for _ in range(50)))

    assert asyncio.run(burst()) == [200] * 50


def _serve_slow(tmp_path: Path) -> subprocess.Popen:
    """``hokm-sim serve --http 0`` of the slow bot (:data:`SLOW`), its standard error piped
    (its first line names the address)."""
    bot = tmp_path / "slow.py"
    bot.write_text(SLOW)
    # A terminal's Ctrl-C reaches the server even where these tests run as a background
    # job, whose ignored SIGINT a child would inherit (and the server then keeps ignoring).
    ignored = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "hokm_sim", "serve", str(bot), "--http", "0"],
            stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
    finally:
        signal.signal(signal.SIGINT, ignored)


def test_a_client_that_hangs_up_before_its_answer_prints_nothing(tmp_path):
    """``hokm-sim serve --http``: clients that leave before the answer (a closed socket,
    a reset) leave the server's standard error as it was, and it serves on."""
    proc = _serve_slow(tmp_path)
    try:
        line = proc.stderr.readline()
        host, port = line.split("http://")[1].split("/")[0].split(":")
        body = _decide_body(1)
        head = f"POST /decide HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n\r\n"
        for reset in (False, True, False, True):
            sock = socket.create_connection((host, int(port)))
            if reset:  # closed with a reset rather than a FIN
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.sendall(head.encode() + body)
            sock.close()
        conn = http.client.HTTPConnection(host, int(port), timeout=60)
        conn.request("POST", "/decide", body)
        assert conn.getresponse().status == 200
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=60)
    assert line.startswith("serving ") and err.strip() == "Terminated (SIGTERM).", err


@pytest.mark.parametrize(("sig", "code", "said"), [(signal.SIGTERM, 143, "Terminated (SIGTERM)."),
                                                   (signal.SIGINT, 130, "Aborted.")])  # fmt: skip
def test_a_signal_while_a_request_is_in_flight_stops_the_server_in_one_line(tmp_path, sig, code,
                                                                            said):  # fmt: skip
    """The signal stops the server's loop between two of its steps: before, raised inside
    the loop, it landed in the task of the request being answered and printed its
    traceback."""
    proc = _serve_slow(tmp_path)
    try:
        line = proc.stderr.readline()
        host, port = line.split("http://")[1].split("/")[0].split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=60)
        conn.request("POST", "/decide", _decide_body(5))  # 1.5 s of decisions
        stop = threading.Event()

        def knock() -> None:  # keeps the loop busy reading requests
            while not stop.is_set():
                with contextlib.suppress(OSError):
                    c = http.client.HTTPConnection(host, int(port), timeout=5)
                    c.request("GET", "/")
                    c.getresponse().read()

        knockers = [threading.Thread(target=knock) for _ in range(8)]
        for t in knockers:
            t.start()
        time.sleep(0.5)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
        stop.set()
        for t in knockers:
            t.join()
    finally:
        proc.kill()
    assert (proc.returncode, err.strip()) == (code, said), err


def test_hello_is_answered_once_the_strategy_is_compiled(tmp_path):
    """A host's first decision must not wait for a compilation: ``hello`` does it, and keeps
    nothing of the decisions that compiled it. A strategy that cannot decide answers the
    ``hello`` with an error."""
    bot = tmp_path / "fresh.py"  # a bot file never compiled in this process
    bot.write_text((ROOT / "strategies" / "longest.py").read_text())
    served = Served(resolve(str(bot)))
    assert served._bot is None
    answer, done = reply(served, {"type": "hello", "protocol": "hokm-bot/1"})
    assert answer["type"] == "hello" and not done
    for _kind, fn, _names in served.bot._parts:
        assert fn.signatures  # compiled (or loaded) before the hello was answered
    assert not served.cache and served.replayed == 0
    (req, want), *_ = table_requests(str(bot), 1)
    assert (
        reply(served, {"type": "decide", "requests": [req]})[0]["answers"][0]["suit"]
        == ("CDHS"[want])
    )
    broken = tmp_path / "broken.py"
    broken.write_text(bot.read_text().replace("return suit\n", "return suit + undefined_name\n"))
    assert broken.read_text() != bot.read_text()
    out = io.BytesIO()
    serve_lines(Served(resolve(str(broken))), io.BytesIO(b'{"type": "hello"}\n'), out)
    line = json.loads(out.getvalue())
    assert line["type"] == "error" and "does not compile" in line["message"]
    assert "undefined_name" in line["message"] and "\x1b" not in line["message"]
