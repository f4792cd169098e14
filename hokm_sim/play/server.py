"""The web server of ``hokm-sim play``: aiohttp, one WebSocket per page, 127.0.0.1.

aiohttp is the server, the WebSocket endpoint and (in the tests) the client,
in one dependency with no server process of its own to manage. Routes:

- ``/`` the table of the latest game; ``/play/{id}`` the table of game ``id``;
- ``/ws/{id}`` the WebSocket of a page at that table (seat 0, the person);
- ``POST /api/new`` a new game (fresh seed, ``seed``, or the daily deal);
- ``/games`` every game played, results per bot and per daily deal;
- ``/games/{id}/hands/{h}`` hand ``h`` in the hand viewer, graded double dummy;
- ``/api/games/{id}/hands`` the finished hands of a game (trace records);
- ``/static/...`` the page's script and style.

Pages get only what their seat may see (:meth:`hokm_sim.play.game.Game.state_for`);
every decision is checked by the game. The bots decide in a worker thread,
the double-dummy grading in another.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import socket
import threading
import webbrowser
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path

from aiohttp import WSMsgType, web

from hokm_sim.api import analyse_hand, fresh_seed, strategy
from hokm_sim.bots.registry import Strategy
from hokm_sim.errors import InputError
from hokm_sim.house import DEFAULT_FIRST_HAKEM, first_hakem_code
from hokm_sim.play import pages, review
from hokm_sim.play.game import SEAT_NAMES, TARGETS, Game
from hokm_sim.play.seats import BotSeat, HumanSeat, warm
from hokm_sim.play.session import Session, Worker
from hokm_sim.play.store import Store
from hokm_sim.report.viewer import hand_page
from hokm_sim.version import __version__

HOST = "127.0.0.1"
DEFAULT_PORT = 8727
PAUSE = 0.7
"""Seconds a bot waits before its card shows (twice that after a full trick)."""


def daily_seed(day: datetime | None = None) -> tuple[int, str]:
    """The seed of the daily deal of ``day`` (UTC today): the date as ``YYYYMMDD``, so the
    same date deals the same cards to everyone; and the date."""
    day = day or datetime.now(UTC)
    date = day.strftime("%Y-%m-%d")
    return int(day.strftime("%Y%m%d")), date


@dataclass
class Settings:
    """What every game of this server is played with."""

    partner: Strategy
    opponents: Strategy
    target: int = 7
    pause: float = PAUSE
    data: Path | None = None
    first_hakem: str = DEFAULT_FIRST_HAKEM
    open_browser: bool = True
    port: int | None = None
    analyse: Callable[[dict, list[str]], dict] = field(default=analyse_hand)


class Server:
    """The sessions of this process and the web application over them."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = Store(settings.data)
        self.store.close_unfinished()
        self.sessions: dict[int, Session] = {}
        self.latest: int | None = None
        self.bots = Worker("hokm-sim-bots")
        self.grader = Worker("hokm-sim-grader")
        self._ready: asyncio.Future | None = None

    def seats(self) -> list:
        s = self.settings
        return [HumanSeat(SEAT_NAMES[0]), BotSeat(SEAT_NAMES[1], s.opponents),
                BotSeat(SEAT_NAMES[2], s.partner), BotSeat(SEAT_NAMES[3], s.opponents)]  # fmt: skip

    def new_game(self, seed: int | None = None, daily: bool = False, target: int | None = None):
        """Start a game (the daily deal, ``seed``, or a fresh seed); its session."""
        s = self.settings
        target = target or s.target
        if target not in TARGETS:
            raise InputError(f"bad target {target}: expected one of {TARGETS}")
        day = None
        if daily:
            seed, day = daily_seed()
        elif seed is None:
            seed = fresh_seed()
        seats = self.seats()
        game = Game(seats, seed, target, day, s.first_hakem)
        gid = self.store.start(
            seed=seed, daily=day, partner=s.partner.name, opponents=s.opponents.name,
            target=target, first_hakem=s.first_hakem, version=__version__,
        )  # fmt: skip
        if self._ready is None:
            self._ready = self.bots.run(warm, seats, BotSeat("hint", s.partner))
        session = Session(
            game, gid, self.store, self.bots, self.grader,
            adviser=BotSeat("Hint", s.partner), ready=self._ready, pause=s.pause,
            analyse=s.analyse, teams=review.teams(s.partner.name, s.opponents.name),
        )  # fmt: skip
        self.sessions[gid] = session
        self.latest = gid
        session.start()
        return session

    # --- the application ----------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application()
        static = resources.files("hokm_sim.play") / "static"
        app.router.add_get("/", self.index)
        app.router.add_get("/play/{id:\\d+}", self.table)
        app.router.add_get("/ws/{id:\\d+}", self.websocket)
        app.router.add_post("/api/new", self.api_new)
        app.router.add_get("/api/games/{id:\\d+}/hands", self.api_hands)
        app.router.add_get("/games", self.games_page)
        app.router.add_get("/games/{id:\\d+}/hands/{hand:\\d+}", self.hand_viewer)
        app.router.add_static("/static/", Path(str(static)))
        app.on_shutdown.append(self._on_shutdown)
        return app

    async def index(self, request: web.Request) -> web.StreamResponse:
        if self.latest is None:
            self.new_game()
        raise web.HTTPFound(f"/play/{self.latest}")

    def _session(self, request: web.Request) -> Session:
        session = self.sessions.get(int(request.match_info["id"]))
        if session is None:
            raise web.HTTPNotFound(text="no such game at this table (see /games)")
        return session

    async def table(self, request: web.Request) -> web.StreamResponse:
        self._session(request)
        page = resources.files("hokm_sim.play") / "static" / "table.html"
        return web.Response(text=page.read_text(encoding="utf-8"), content_type="text/html")

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        session = self._session(request)
        ws = web.WebSocketResponse(heartbeat=30)
        await ws.prepare(request)
        await session.join(ws, 0)
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                try:
                    data = json.loads(msg.data)
                except json.JSONDecodeError:
                    data = None
                if not isinstance(data, dict):
                    await ws.send_json({"type": "refused", "message": "not a JSON object"})
                    continue
                await session.message(ws, data)
        finally:
            session.leave(ws)
        return ws

    async def api_new(self, request: web.Request) -> web.Response:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            body = {}
        body = body if isinstance(body, dict) else {}
        seed = body.get("seed")
        try:
            if seed is not None:
                seed = int(str(seed).strip(), 0)
                if not 0 <= seed < 2**64:
                    raise ValueError
            target = int(body["target"]) if body.get("target") is not None else None
            session = self.new_game(seed, bool(body.get("daily")), target)
        except (ValueError, InputError) as exc:
            msg = str(exc) if isinstance(exc, InputError) else "a seed is a whole number 0..2**64-1"
            return web.json_response({"error": msg}, status=400)
        return web.json_response({"id": session.id, "url": f"/play/{session.id}"})

    async def api_hands(self, request: web.Request) -> web.Response:
        gid = int(request.match_info["id"])
        return web.json_response([h["record"] for h in self.store.hands(gid)])

    async def games_page(self, request: web.Request) -> web.Response:
        games = self.store.games()
        graded = {g["id"]: [h["graded"] for h in self.store.hands(g["id"]) if h["graded"]]
                  for g in games}  # fmt: skip
        return web.Response(text=pages.games_page(games, graded), content_type="text/html")

    async def hand_viewer(self, request: web.Request) -> web.Response:
        gid, h = int(request.match_info["id"]), int(request.match_info["hand"])
        hands = {x["hand"]: x for x in self.store.hands(gid)}
        if h not in hands:
            raise web.HTTPNotFound(text=f"game {gid} has no finished hand {h}")
        graded = hands[h]["graded"]
        if graded is None:
            if "fault" in hands[h]["record"]:
                raise web.HTTPNotFound(text="that hand was stopped by a bot's fault")
            game = self.store.game(gid)
            teams = review.teams(game["partner"], game["opponents"])
            graded = await self.grader.run(self.settings.analyse, hands[h]["record"], teams)
            self.store.add_grading(gid, h, graded)
        title = f"hokm-sim game {gid}, hand {h + 1} (seed {hands[h]['record']['seed']})"
        return web.Response(text=hand_page(graded, title), content_type="text/html")

    async def _on_shutdown(self, app: web.Application) -> None:
        for session in self.sessions.values():
            session.close()

    def close(self) -> None:
        """Stop the worker threads and close the database (after the app has shut down)."""
        self.bots.stop()
        self.grader.stop()
        self.store.close()


def _free_port(wanted: int | None) -> int:
    """``wanted``, or the default port if it is free, else any free port."""
    if wanted is not None:
        return wanted
    with socket.socket() as s:
        try:
            s.bind((HOST, DEFAULT_PORT))
            return DEFAULT_PORT
        except OSError:
            s.bind((HOST, 0))
            return int(s.getsockname()[1])


async def serve(
    server: Server,
    *,
    seed: int | None = None,
    daily: bool = False,
    announce: Callable[[str], None] = print,
    stop: asyncio.Event | None = None,
) -> None:
    """Run the table until Ctrl-C (or ``stop``): the first game, the browser, the server."""
    settings = server.settings
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
    runner = web.AppRunner(server.app(), handle_signals=False)
    try:
        await runner.setup()
        port = _free_port(settings.port)
        site = web.TCPSite(runner, HOST, port)
        try:
            await site.start()
        except OSError as exc:
            raise InputError(f"--port: cannot listen on {HOST}:{port}: {exc.strerror}") from None
        session = server.new_game(seed, daily)
        url = f"http://{HOST}:{port}/play/{session.id}"
        announce(f"hokm-sim play: the table is at {url} (Ctrl-C stops the server)")
        announce(f"games are saved in {server.store.path}")
        if settings.open_browser:
            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
        await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(sig)
        await runner.cleanup()
        server.close()


def play(
    partner: str = "expert",
    opponents: str = "expert",
    *,
    target: int = 7,
    seed: int | None = None,
    daily: bool = False,
    port: int | None = None,
    open_browser: bool = True,
    pause: float = PAUSE,
    data: str | Path | None = None,
    first_hakem: str = DEFAULT_FIRST_HAKEM,
    announce: Callable[[str], None] = print,
) -> None:
    """Serve a table on 127.0.0.1 until Ctrl-C: you and ``partner`` against two
    ``opponents``, matches to ``target`` whose first Hakem is found by house rule
    ``first_hakem``, every game saved (see :mod:`.store`)."""
    if target not in TARGETS:
        raise InputError(f"--target: a game is played to {', '.join(map(str, TARGETS))}")
    if seed is not None and daily:
        raise InputError("give --daily or --seed N, not both")
    if pause < 0:
        raise InputError("--pause: expected seconds >= 0")
    first_hakem_code(first_hakem)
    settings = Settings(
        partner=strategy(partner, "--partner"), opponents=strategy(opponents, "--opponents"),
        target=target, pause=pause, data=Path(data) if data else None,
        open_browser=open_browser, port=port, first_hakem=first_hakem,
    )  # fmt: skip
    server = Server(settings)
    asyncio.run(serve(server, seed=seed, daily=daily, announce=announce))
