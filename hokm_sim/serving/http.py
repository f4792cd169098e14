"""``hokm-sim serve BOT --http PORT``: the same messages as HTTP bodies, served by aiohttp.

``POST /decide`` takes a ``decide`` message and answers its ``answers``;
``POST /hello`` a ``hello``; ``GET /`` says what is served. A body that is
not a valid message or request gets ``400`` and one line of text (never a
traceback); a fault of the served strategy ``500`` and one line. A body
longer than :data:`MAX_BODY` gets ``413`` and the connection is closed (its
unread rest is never taken for a request); a malformed ``Content-Length``
(negative, not a number) gets aiohttp's ``400`` and a closed connection.

The server binds 127.0.0.1 unless told another host and listens with a
backlog of :data:`BACKLOG` connections. Connections are kept alive and
served on one event loop; the strategy decides one message at a time on a
thread of its own, so the loop goes on accepting connections and reading
bodies while it thinks, and the messages waiting for it are at most one
per open connection (a connection's next request is read once its answer
is written: that is the backpressure). A client that leaves before its
answer costs nothing more than the answer, and prints nothing.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from concurrent.futures import ThreadPoolExecutor

from aiohttp import web

from hokm_sim.errors import Terminated
from hokm_sim.jsontext import loads
from hokm_sim.protocol.request import RequestError
from hokm_sim.protocol.wire import dumps
from hokm_sim.serving.decider import Served, ServedFault, reply

MAX_BODY = 1 << 26
"""Bytes a request body may have (64 MiB)."""
BACKLOG = 1024
"""Connections the kernel holds for the server before it accepts them (the kernel's
``somaxconn`` caps it)."""
_PATHS = {"/decide": "decide", "/hello": "hello"}
_STOPPING = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n))
"""Signals that stop the server: between two steps of its loop (:meth:`ServeHTTP.serve_forever`)."""
_QUIET = logging.getLogger(__name__)
"""aiohttp's logger for the connections: what it would say is a client's malformed request
(answered ``400``) or a client gone (reset, broken pipe), the client's business, never a
traceback on the server's standard error. The handlers answer the server's own errors."""
_QUIET.addHandler(logging.NullHandler())
_QUIET.propagate = False
_TEXT = "text/plain"


def _text(code: int, text: str, close: bool = False) -> web.Response:
    """One line of text with status ``code``; ``close`` ends the connection after it."""
    resp = web.Response(status=code, text=" ".join(text.split()) + "\n", content_type=_TEXT)
    if close:
        resp.force_close()
    return resp


class ServeHTTP:
    """The HTTP server of one served strategy, listening from construction on (an
    ``OSError`` if it cannot); :meth:`serve_forever` runs it in the calling thread until
    :meth:`shutdown` (from any thread) or Ctrl-C."""

    def __init__(self, served: Served, host: str = "127.0.0.1", port: int = 0) -> None:
        self.served = served
        self._decider = ThreadPoolExecutor(1, thread_name_prefix="hokm-sim decide")
        self._loop = asyncio.new_event_loop()
        self._stop = asyncio.Event()
        self._idle = threading.Event()
        self._idle.set()
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_get("/", self._index)
        app.router.add_route("*", "/{path:.*}", self._post)
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, logger=_QUIET, lingering_time=0.0
        )
        try:
            self._loop.run_until_complete(self._runner.setup())
            site = web.TCPSite(self._runner, host, port, backlog=BACKLOG)
            self._loop.run_until_complete(site.start())
        except BaseException:
            self.server_close()
            raise
        sockets = site._server.sockets if site._server is not None else ()  # noqa: SLF001
        self.server_address = sockets[0].getsockname()[:2]

    @property
    def url(self) -> str:
        """Where ``POST /decide`` is."""
        host, port = self.server_address
        return f"http://{host}:{port}/decide"

    def serve_forever(self) -> None:
        """Serve until :meth:`shutdown`, or until Ctrl-C, ``SIGTERM`` or ``SIGHUP`` (in the
        main thread), which stop the loop between two of its steps and are raised here
        as :class:`KeyboardInterrupt` or :class:`~hokm_sim.errors.Terminated`: raised by a
        signal handler inside the loop, they would land in whichever request's task was
        running, and leave it half done with a traceback."""
        self._idle.clear()
        heard: list[int] = []
        old = {}
        if threading.current_thread() is threading.main_thread():
            for sig in _STOPPING:
                handler = signal.getsignal(sig)
                if handler is not signal.SIG_IGN:  # ignored (a background job) stays so
                    old[sig] = handler
                    self._loop.add_signal_handler(sig, self._on_signal, sig, heard)
        try:
            self._loop.run_until_complete(self._stop.wait())
        finally:
            for sig, handler in old.items():
                self._loop.remove_signal_handler(sig)
                signal.signal(sig, handler)
            self._idle.set()
        if heard:
            raise KeyboardInterrupt() if heard[0] == signal.SIGINT else Terminated(heard[0])

    def _on_signal(self, sig: int, heard: list[int]) -> None:
        heard.append(sig)
        self._stop.set()

    def shutdown(self) -> None:
        """Make :meth:`serve_forever` return, and wait until it has (from another thread)."""
        self._loop.call_soon_threadsafe(self._stop.set)
        self._idle.wait()

    def server_close(self) -> None:
        """Close the listening socket and the connections; idempotent."""
        if not self._loop.is_closed():
            self._loop.run_until_complete(self._runner.cleanup())
            self._loop.close()
        self._decider.shutdown(wait=False, cancel_futures=True)

    def __enter__(self) -> ServeHTTP:
        return self

    def __exit__(self, *exc) -> None:
        self.server_close()

    # --- the handlers --------------------------------------------------------------

    async def _index(self, request: web.Request) -> web.Response:
        name = self.served.strategy.name
        return _text(200, f"hokm-sim serve {name}: POST hokm-bot/1 decide messages to /decide")

    async def _post(self, request: web.Request) -> web.Response:
        want = _PATHS.get(request.path)
        if want is None or request.method != "POST":
            return _text(404, f"no {request.path}: POST a decide message to /decide")
        if (request.content_length or 0) > MAX_BODY:  # the rest is not read: closed
            return _text(413, f"a body may have at most {MAX_BODY} bytes", close=True)
        try:
            body = await request.read()
        except web.HTTPRequestEntityTooLarge:  # a chunked body past the limit
            return _text(413, f"a body may have at most {MAX_BODY} bytes", close=True)
        try:
            msg = loads(body)
        except ValueError:
            return _text(400, f"the body is not JSON: {body[:60]!r}")
        if not isinstance(msg, dict) or msg.get("type") != want:
            return _text(400, f"POST {request.path} takes a {want!r} message")
        try:
            answer = await self._loop.run_in_executor(self._decider, self._reply, msg)
        except RequestError as exc:
            return _text(400, str(exc))
        except ServedFault as exc:
            return _text(500, str(exc))
        except Exception as exc:  # noqa: BLE001 - one line, never a traceback
            return _text(500, f"internal error: {type(exc).__name__}: {exc}")
        return web.Response(body=dumps(answer), content_type="application/json")

    def _reply(self, msg: dict) -> dict:
        return reply(self.served, msg)[0]
