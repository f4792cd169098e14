"""The web server of ``hokm-sim play``: aiohttp, one WebSocket per page, 127.0.0.1.

aiohttp is the server, the WebSocket endpoint and (in the tests) the client,
in one dependency with no server process of its own to manage. Routes:

- ``/`` the table of the latest game; ``/play/{id}`` the table of game ``id``,
  its page carrying the game's secret;
- ``/ws/{id}?secret=S`` the WebSocket of a page at that table (seat 0, the person);
- ``POST /api/new`` a new game (fresh seed, ``seed``, or the daily deal), asked
  by the page of a game at this table (its secret in ``X-Hokm-Secret``);
- ``/games`` every game played, results per bot and per daily deal;
- ``/games/{id}/hands/{h}?secret=S`` hand ``h`` in the hand viewer, graded double dummy;
- ``/api/games/{id}/hands`` the finished hands of a game (trace records; the secret
  in ``X-Hokm-Secret`` or ``?secret=``);
- ``/static/...`` the page's script and style.

A shared table (``--host``, :mod:`.hosted`) has only its own routes besides
``/static/``: ``/table/{token}`` (a seat's, the spectators' or the host's
page) and ``/table/ws?token=T`` (its socket); the pages of single games and
of past games are not served there (its links may be opened by others).

Every request passes the doors first (:mod:`.doors`: its ``Host`` and ``Origin``
are the table's own); every call that acts on a game or reads one carries the
game's secret. Pages get only what their seat may see
(:meth:`hokm_sim.play.game.Game.state_for`), and no page gets a live game's
seed unless the person asked for it; every decision is checked by the game.
The bots decide in a worker thread, the double-dummy grading in another.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import re
import signal
import socket
import threading
import webbrowser
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import resources
from numbers import Real
from pathlib import Path

from aiohttp import WSMsgType, web

from hokm_sim import store as results_store
from hokm_sim.api import analyse_hand, fresh_seed, strategy
from hokm_sim.bots.registry import Strategy, builtin_names
from hokm_sim.errors import InputError
from hokm_sim.house import DEFAULT_FIRST_HAKEM, first_hakem_code
from hokm_sim.jsontext import loads
from hokm_sim.play import fields, pages, resume, review
from hokm_sim.play.doors import Doors, allowed_origin, given_secret, refused, same_secret
from hokm_sim.play.game import SEAT_NAMES, TARGETS, Game
from hokm_sim.play.hosted import DEFAULT_TIMER, TIMERS, HostedTable
from hokm_sim.play.seats import BotSeat, HumanSeat, warm
from hokm_sim.play.session import Session, Worker
from hokm_sim.play.store import Store
from hokm_sim.report.viewer import hand_page
from hokm_sim.version import __version__

HOST = "127.0.0.1"
DEFAULT_PORT = 8727
PAUSE = 0.7
"""Seconds a bot waits before its card shows (twice that after a full trick)."""
MAX_PAUSE = 10.0
"""The longest pause ``--pause`` takes."""


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
    allow_origins: tuple[str, ...] = ()
    """Origins besides the table's own that may use it (``--allow-origin``)."""
    bind: str = HOST
    """The address the server listens on (``--bind``, a shared table on a LAN)."""
    analyse: Callable[[dict, list[str]], dict] = field(default=analyse_hand)


class Server:
    """The sessions of this process and the web application over them."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.doors = Doors(settings.allow_origins)
        self.store = Store(settings.data)
        self.store.close_unfinished()
        self.sessions: dict[int, Session] = {}
        self.latest: int | None = None
        self.bots = Worker("hokm-sim-bots")
        self.grader = Worker("hokm-sim-grader")
        self.keeper = Worker("hokm-sim-store")
        self._ready: asyncio.Future | None = None
        self._warmed: dict[frozenset[str], asyncio.Future] = {}
        self.tables: list[HostedTable] = []
        """The shared tables this server holds (``--host``: one)."""
        self.saver = resume.Saver()
        """Writes the shared tables' files (:mod:`.resume`)."""

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
            game, gid, self.store, self.bots, self.grader, self.keeper,
            adviser=BotSeat("Hint", s.partner), ready=self._ready, pause=s.pause,
            analyse=s.analyse, teams=review.teams(s.partner.name, s.opponents.name),
            secret=self.store.secret(gid),
        )  # fmt: skip
        self.sessions[gid] = session
        self.latest = gid
        session.start()
        return session

    # --- the application ----------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self.doors.middleware])
        static = resources.files("hokm_sim.play") / "static"
        app.on_response_prepare.append(Doors.headers)
        app.on_shutdown.append(self._on_shutdown)
        app.router.add_static("/static/", Path(str(static)))
        if self.tables:
            app.on_startup.append(self._reopen)
            app.router.add_get("/table/ws", self.table_socket)
            app.router.add_get("/table/{token}", self.table_page)
            return app
        app.router.add_get("/", self.index)
        app.router.add_get("/play/{id:\\d+}", self.table)
        app.router.add_get("/ws/{id:\\d+}", self.websocket)
        app.router.add_post("/api/new", self.api_new)
        app.router.add_get("/api/games/{id:\\d+}/hands", self.api_hands)
        app.router.add_get("/games", self.games_page)
        app.router.add_get("/games/{id:\\d+}/hands/{hand:\\d+}", self.hand_viewer)
        return app

    def ready_for(self, bots: list[BotSeat], adviser: BotSeat) -> asyncio.Future:
        """Done once these bots' code is built (:func:`~hokm_sim.play.seats.warm`, in the
        bots' thread): once a set of strategies in this process, not once a table."""
        key = frozenset(json.dumps(b.strategy.to_dict(), sort_keys=True)
                        for b in [*bots, adviser])  # fmt: skip
        if key not in self._warmed:
            self._warmed[key] = self.bots.run(warm, bots, adviser)
        return self._warmed[key]

    def host_table(self, bots: Sequence[str], choices: dict[str, str], **kw) -> HostedTable:
        """Open a shared table (:class:`~hokm_sim.play.hosted.HostedTable`, its arguments),
        saved in the next free file of the data folder's ``tables`` unless ``path`` says."""
        if "path" not in kw:
            taken = {t.path for t in self.tables if t.path is not None}
            kw["path"] = resume.next_file(self.store.folder / resume.FOLDER, taken)
        table = HostedTable(self, bots, choices, **kw)
        self.tables.append(table)
        return table

    def open_tables(
        self, bots: Sequence[str], choices: dict[str, str], *,
        announce: Callable[[str], None] = print, **kw,
    ) -> list[HostedTable]:  # fmt: skip
        """The shared tables saved in the data folder, brought back (:mod:`.resume`), or a
        new one (:meth:`host_table`'s arguments) if none can be; each table or match that
        cannot be brought back is said in one line."""
        for path in resume.table_files(self.store.folder / resume.FOLDER):
            try:
                state = resume.read(path)
            except resume.CannotResume as exc:
                announce(f"hokm-sim play: the table saved in {path} cannot resume: {exc}; "
                         "it is left as it is")  # fmt: skip
                continue
            table = self.host_table(bots, choices, path=path, **kw)
            try:
                table.restore(state)
            except resume.CannotResume as exc:
                announce(f"hokm-sim play: the match of the table saved in {path} cannot resume: "
                         f"{exc}; the table opens in its lobby, its links as before")  # fmt: skip
            else:
                announce(f"hokm-sim play: the table saved in {path} resumes {table.resuming()}")
        if not self.tables:
            self.host_table(bots, choices, **kw)
        return self.tables

    async def _reopen(self, app: web.Application) -> None:
        """Play the matches brought back on, and save every table as it opens."""
        for table in self.tables:
            table.reopen()
            table.save()

    def _table_of(self, token: str) -> tuple[HostedTable, int] | None:
        """The table and the role ``token`` is the key of, or None."""
        found = None
        for table in self.tables:
            role = table.role(token)
            if role is not None:
                found = (table, role)
        return found

    async def table_page(self, request: web.Request) -> web.StreamResponse:
        """``/table/{token}``: a seat's, the spectators' or the host's page."""
        token = request.match_info["token"]
        found = self._table_of(token)
        if found is None:
            raise refused(404, "no such table link: ask the host for yours")
        return found[0].page(token)

    async def table_socket(self, request: web.Request) -> web.StreamResponse:
        """``/table/ws?token=T``: the socket of a page of a shared table."""
        token = given_secret(request) or request.query.get("token", "")
        found = self._table_of(token)
        if found is None:
            raise refused(403, "the table's token is missing or wrong: open your link again")
        return await found[0].websocket(request, found[1], token)

    async def index(self, request: web.Request) -> web.StreamResponse:
        if self.latest is None:
            self.new_game()
        raise web.HTTPFound(f"/play/{self.latest}")

    def _session(self, request: web.Request) -> Session:
        """The session of the path's game (else a 400 or 404)."""
        gid = fields.path_number(request.match_info["id"], "game")
        session = self.sessions.get(gid)
        if session is None:
            raise refused(404, f"no game {gid} at this table (see /games)")
        return session

    def _check_secret(self, request: web.Request, gid: int) -> None:
        """A 404 for no game ``gid``, a 403 unless ``request`` carries its secret."""
        secret = self.store.secret(gid)
        if secret is None:
            raise refused(404, f"no game {gid} (see /games)")
        if not same_secret(given_secret(request), secret):
            raise refused(
                403, f"game {gid}'s secret is missing or wrong: open it from its table or /games"
            )

    def seed_hidden(self, gid: int) -> bool:
        """Game ``gid`` is being played and the person has not asked to see its seed (a
        game not of this server's sessions is over or was left)."""
        session = self.sessions.get(gid)
        return session is not None and not session.game.seed_visible

    async def table(self, request: web.Request) -> web.StreamResponse:
        session = self._session(request)
        page = resources.files("hokm_sim.play") / "static" / "table.html"
        text = page.read_text(encoding="utf-8").replace("{{secret}}", session.secret)
        text = text.replace("{{socket_meta}}", "")
        return web.Response(
            text=text, content_type="text/html", headers={"Cache-Control": "no-store"}
        )

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        session = self._session(request)
        self._check_secret(request, session.id)
        ws = web.WebSocketResponse(heartbeat=30)
        await ws.prepare(request)
        await session.join(ws, 0)
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                try:
                    data = loads(msg.data)
                except ValueError:
                    data = None
                if not isinstance(data, dict):
                    await ws.send_json({"type": "refused", "message": "not a JSON object"})
                    continue
                await session.message(ws, data)
        finally:
            session.leave(ws)
        return ws

    async def api_new(self, request: web.Request) -> web.Response:
        given = given_secret(request)
        if not any(same_secret(given, s.secret) for s in self.sessions.values()):
            raise refused(403, "a new game is asked for by the page of a game at this table")
        if request.content_type != "application/json":
            raise refused(400, "send the body as application/json")
        session = self.new_game(**fields.new_game(await request.read()))
        return web.json_response({"id": session.id, "url": f"/play/{session.id}"})

    async def api_hands(self, request: web.Request) -> web.Response:
        gid = fields.path_number(request.match_info["id"], "game")
        self._check_secret(request, gid)
        records = [h["record"] for h in self.store.hands(gid)]
        if self.seed_hidden(gid):
            records = [{k: v for k, v in r.items() if k != "seed"} for r in records]
        return web.json_response(records)

    async def games_page(self, request: web.Request) -> web.Response:
        games = self.store.games()
        graded = {g["id"]: [h["graded"] for h in self.store.hands(g["id"]) if h["graded"]]
                  for g in games}  # fmt: skip
        secrets = {g["id"]: self.store.secret(g["id"]) or "" for g in games}
        hidden = {g["id"] for g in games if self.seed_hidden(g["id"])}
        return web.Response(
            text=pages.games_page(games, graded, secrets, hidden), content_type="text/html",
            headers={"Cache-Control": "no-store"},
        )  # fmt: skip

    async def hand_viewer(self, request: web.Request) -> web.Response:
        gid = fields.path_number(request.match_info["id"], "game")
        h = fields.path_number(request.match_info["hand"], "hand")
        self._check_secret(request, gid)
        hands = {x["hand"]: x for x in self.store.hands(gid)}
        if h not in hands:
            raise refused(404, f"game {gid} has no finished hand {h}")
        graded = hands[h]["graded"]
        if graded is None:
            if "fault" in hands[h]["record"]:
                raise refused(404, "that hand was stopped by a bot's fault")
            game = self.store.game(gid)
            teams = review.teams(game["partner"], game["opponents"])
            graded = await self.grader.run(self.settings.analyse, hands[h]["record"], teams)
            self.store.add_grading(gid, h, graded)
        title = f"hokm-sim game {gid}, hand {h + 1}"
        if self.seed_hidden(gid):
            graded = {k: v for k, v in graded.items() if k != "seed"}
        else:
            title += f" (seed {hands[h]['record']['seed']})"
        return web.Response(text=hand_page(graded, title), content_type="text/html")

    async def _on_shutdown(self, app: web.Application) -> None:
        for table in self.tables:
            table.close()
        for session in self.sessions.values():
            session.close()

    def close(self) -> None:
        """Stop the worker threads and close the database (after the app has shut down)."""
        self.bots.stop()
        self.grader.stop()
        self.keeper.stop(wait=30)
        self.saver.close()
        self.store.close()


def _free_port(wanted: int | None, host: str = HOST) -> int:
    """``wanted``, or the default port if it is free at ``host``, else any free port."""
    if wanted is not None:
        return wanted
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as s:
        try:
            s.bind((host, DEFAULT_PORT))
            return DEFAULT_PORT
        except OSError:
            s.bind((host, 0))
            return int(s.getsockname()[1])


_HOST_NAME = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*")


def bind_address(text: str) -> str:
    """An address given to ``--bind``: an IP address of this machine (or a name) that
    the links will carry; not a wildcard, which no link can name."""
    text = text.strip().strip("[]")
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        if not _HOST_NAME.fullmatch(text):
            raise InputError(
                f"{text[:60]!r} is not an IP address or a host name", "--bind"
            ) from None
        return text.lower()
    if ip.is_unspecified:
        raise InputError(
            f"{text} listens everywhere and no link can name it: give this machine's address "
            "on the network, such as 192.168.1.5",
            "--bind",
        )
    return str(ip)


def _origin(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


@contextlib.contextmanager
def stopped_by_signals(stop: asyncio.Event) -> Iterator[None]:
    """Within the block, Ctrl-C and ``SIGTERM`` set ``stop`` (the running loop's handlers,
    where the platform has them) rather than raise in whatever task is running."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
    try:
        yield
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(sig)


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
    runner = web.AppRunner(server.app(), handle_signals=False)
    try:
        await runner.setup()
        bind = settings.bind
        port = _free_port(settings.port, bind)
        site = web.TCPSite(runner, bind, port)
        try:
            await site.start()
        except OSError as exc:
            where = "--port" if bind == HOST else "--bind or --port"
            raise InputError(f"{where}: cannot listen on {bind}:{port}: {exc.strerror}") from None
        base = _origin(bind, port)
        if bind != HOST:
            server.doors.allowed += (base,)
        if server.tables:
            announce(f"hokm-sim play: a shared table at {base} (Ctrl-C stops the server)")
            for table in server.tables:
                for who, link in table.links(base):
                    announce(f"  {who}: {link}")
            url = server.tables[0].links(base)[-1][1]
        else:
            session = server.new_game(seed, daily)
            url = f"{base}/play/{session.id}"
            announce(f"hokm-sim play: the table is at {url} (Ctrl-C stops the server)")
        announce(f"games are saved in {server.store.path}")
        if settings.open_browser:
            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
        with stopped_by_signals(stop):
            await stop.wait()
    finally:
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
    allow_origins: Sequence[str] = (),
    announce: Callable[[str], None] = print,
    host: bool = False,
    bind: str = HOST,
    timer: int = DEFAULT_TIMER,
    bots: Sequence[str] = (),
) -> None:
    """Serve a table on 127.0.0.1 until Ctrl-C: you and ``partner`` against two
    ``opponents``, matches to ``target`` whose first Hakem is found by house rule
    ``first_hakem``, every game saved (see :mod:`.store`). Only pages of the table
    itself (and of ``allow_origins``, such as a tunnel's address) may use it
    (:mod:`.doors`).

    With ``host``, a shared table (:mod:`.hosted`) instead: a link per seat, one
    for spectators and one for the host's lobby, printed; the lobby offers the
    built-in bots, ``partner``, ``opponents`` and ``bots``; decisions have ``timer``
    seconds. ``bind``: the address to listen on and the links' (not 127.0.0.1 only
    when asked)."""
    if target not in TARGETS:
        raise InputError(f"--target: a game is played to {', '.join(map(str, TARGETS))}")
    if seed is not None and daily:
        raise InputError("give --daily or --seed N, not both")
    if isinstance(pause, bool) or not isinstance(pause, Real) or not 0 <= pause <= MAX_PAUSE:
        raise InputError(f"{pause!r} is not a number of seconds from 0 to {MAX_PAUSE:g}", "--pause")
    first_hakem_code(first_hakem)
    if timer not in TIMERS:
        raise InputError(
            f"{timer!r} is not one of {', '.join(map(str, TIMERS))} seconds", "--timer"
        )
    if bind != HOST and not host:
        raise InputError("--bind is for a shared table: give --host too", "--bind")
    bind = bind_address(bind)
    allowed = tuple(allowed_origin(o) for o in allow_origins)
    settings = Settings(
        partner=strategy(partner, "--partner"), opponents=strategy(opponents, "--opponents"),
        target=target, pause=float(pause), data=Path(data) if data else None,
        open_browser=open_browser, port=port, first_hakem=first_hakem, allow_origins=allowed,
        bind=bind,
    )  # fmt: skip
    results_store.Store().close()  # where finished games go too: a bad one stops us here
    server = Server(settings)
    if host:
        choices = {name: name for name in builtin_names()}
        for spec in (partner, opponents, *bots):
            choices[strategy(spec, "--bot").name] = spec
        p, o = settings.partner.name, settings.opponents.name
        server.open_tables([p, o, p, o], choices, target=target, timer=timer, announce=announce)
    asyncio.run(serve(server, seed=seed, daily=daily, announce=announce))
