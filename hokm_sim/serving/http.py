"""``hokm-sim serve BOT --http PORT``: the same messages as HTTP bodies.

``POST /decide`` takes a ``decide`` message and answers its ``answers``;
``POST /hello`` a ``hello``; ``GET /`` says what is served. A body that is
not a valid message or request gets ``400`` and one line of text (never a
traceback); a fault of the served strategy ``500`` and one line. The server
binds 127.0.0.1 unless told another host, handles connections on threads
(keep-alive works) and decides one request at a time.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from hokm_sim.jsontext import loads
from hokm_sim.protocol.request import RequestError
from hokm_sim.protocol.wire import dumps
from hokm_sim.serving.decider import Served, ServedFault, reply

MAX_BODY = 1 << 26
"""Bytes a request body may have (64 MiB)."""
_PATHS = {"/decide": "decide", "/hello": "hello"}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "hokm-sim"
    server: ServeHTTP

    def log_message(self, format, *args) -> None:  # noqa: A002 - the base class's name
        """Quiet: a game may ask thousands of times a minute."""

    def _send(self, code: int, body: bytes, kind: str) -> None:
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _text(self, code: int, text: str) -> None:
        self._send(code, (" ".join(text.split()) + "\n").encode(), "text/plain; charset=utf-8")

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        if self.path != "/":
            self._text(404, f"no {self.path}: POST a decide message to /decide")
            return
        name = self.server.served.strategy.name
        self._text(200, f"hokm-sim serve {name}: POST hokm-bot/1 decide messages to /decide")

    def do_POST(self) -> None:  # noqa: N802 - the base class's name
        want = _PATHS.get(self.path)
        if want is None:
            self._text(404, f"no {self.path}: POST a decide message to /decide")
            return
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self._text(411, "a body needs a Content-Length")
            return
        if not 0 <= length <= MAX_BODY:
            self._text(413, f"a body may have at most {MAX_BODY} bytes")
            return
        body = self.rfile.read(length)
        try:
            msg = loads(body)
        except ValueError:
            self._text(400, f"the body is not JSON: {body[:60]!r}")
            return
        if not isinstance(msg, dict) or msg.get("type") != want:
            self._text(400, f"POST {self.path} takes a {want!r} message")
            return
        try:
            with self.server.lock:
                answer, _ = reply(self.server.served, msg)
        except RequestError as exc:
            self._text(400, str(exc))
        except ServedFault as exc:
            self._text(500, str(exc))
        except Exception as exc:  # noqa: BLE001 - one line, never a traceback
            self._text(500, f"internal error: {type(exc).__name__}: {exc}")
        else:
            self._send(200, dumps(answer), "application/json")


class ServeHTTP(ThreadingHTTPServer):
    """The HTTP server of one served strategy."""

    daemon_threads = True

    def __init__(self, served: Served, host: str = "127.0.0.1", port: int = 0) -> None:
        super().__init__((host, port), _Handler)
        self.served = served
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        """Where ``POST /decide`` is."""
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/decide"
