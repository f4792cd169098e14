"""A shared table (``hokm-sim play --host``): people and bots at one game, with a turn timer.

The host opens a table; every seat has a link of its own, and so do the
spectators and the host's lobby, each with an unguessable token
(:func:`secrets.token_urlsafe`, 192 bits). A token is the whole key: a page
opens its socket with it, and every message on that socket carries it again;
a seat's token acts for that seat only, a spectator's for nobody, the host's
for the lobby (bots, target, timer, start) and for giving a seat to its bot.

In the lobby a person sits by opening their seat's link. When the host
starts, the seats nobody sat in are played by the bots the host chose; each
person's seat keeps its bot as a stand-in. Every decision of a person (the
trump call too) has the chosen time; when it runs out, or when the person
has been gone longer than a short grace period, or the host gave the seat to
its bot, the stand-in decides and the game records it (``stand_ins``,
:meth:`hokm_sim.play.store.Store.seat_record`). A person who comes back by
the same link decides again from their next decision on. Spectators and the
host see what a spectator may (:data:`hokm_sim.play.game.SPECTATOR`: the
played cards, scores and trump, never a hand); nobody is ever sent a card
their seat may not see, and nobody gets the seed before the match is over.

The bots the lobby offers are the built-in strategies and those the host
named on the command line (``--partner``, ``--opponents``, ``--bot``, where
``exec:`` protocol bots and bot files are given): a page cannot name a
program to run.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from hokm_sim.api import fresh_seed, strategy
from hokm_sim.bots.registry import Strategy
from hokm_sim.cards import SUITS, card_str
from hokm_sim.env.table import TRUMP
from hokm_sim.errors import InputError
from hokm_sim.jsontext import loads
from hokm_sim.play import resume
from hokm_sim.play.doors import same_secret
from hokm_sim.play.game import SPECTATOR, TARGETS, Game
from hokm_sim.play.seats import BotSeat, HumanSeat
from hokm_sim.play.session import Session
from hokm_sim.version import __version__

if TYPE_CHECKING:
    from hokm_sim.play.server import Server

TIMERS = (15, 30, 45, 60)
"""The seconds a person has for a decision, as the lobby offers them."""
DEFAULT_TIMER = 30
GRACE = 10.0
"""Seconds a person's seat waits for a lost page to come back before its bot plays it."""
COMPASS = ("South", "East", "North", "West")
"""The seats' names until a person gives theirs."""
HOST = -2
"""The role of the host's page: a spectator's view, and the lobby's controls."""
MAX_MESSAGE = 4096
"""The largest message (bytes) a page may send; a larger one closes its socket."""
RATE = 20
"""Messages a page may send in one second; more are refused, changing nothing."""
MAX_NAME = 24


def new_token() -> str:
    """A link's token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


@dataclass
class Chair:
    """A seat of the table: its token, its bot, and its person once they have sat."""

    token: str
    bot: str
    """The lobby's name of the seat's bot (a key of :attr:`HostedTable.choices`)."""
    person: str | None = None
    """The name of the person who sat here (None: nobody has, or a bot plays it)."""
    pages: int = 0
    """Pages connected for this seat now."""
    away: str | None = None
    """Why the seat's bot plays for its person now: ``"left"`` or ``"host"`` (else None)."""
    playing: bool = False
    """A person plays this seat in the current match (a bot otherwise)."""
    grace: asyncio.Task | None = field(default=None, repr=False)


class Refusal(Exception):
    """A page's message that is refused with this reason, changing nothing."""


class HostedTable:
    """One shared table of a :class:`~hokm_sim.play.server.Server`: its links, its lobby,
    and its game once the host has started it."""

    def __init__(
        self,
        server: Server,
        bots: Sequence[str],
        choices: dict[str, str],
        *,
        target: int = 7,
        timer: float = DEFAULT_TIMER,
        grace: float = GRACE,
        rate: int = RATE,
        path: Path | None = None,
    ) -> None:
        """``bots``: the lobby's first bot of each seat, names of ``choices`` (each a
        strategy spec by the name the lobby shows). ``timer`` may be any positive number
        of seconds here (the lobby offers :data:`TIMERS`); ``rate``: the messages a page
        may send in a second; ``path``: the table's file (:mod:`.resume`), saved after
        every change."""
        if target not in TARGETS:
            raise InputError(f"a game is played to {', '.join(map(str, TARGETS))}", "--target")
        if not timer > 0 or not grace >= 0:
            raise InputError("the timer and the grace period are seconds above 0", "--timer")
        self.server = server
        self.choices = dict(choices)
        self.chairs = [Chair(new_token(), b) for b in bots]
        self.spectators = new_token()
        self.host = new_token()
        self.target = target
        self.timer = float(timer)
        self.grace = grace
        self.rate = rate
        self.session: TableSession | None = None
        self._pages: dict[Any, tuple[int, str]] = {}
        """Every open socket: its role (a seat, :data:`SPECTATOR` or :data:`HOST`), token."""
        self._strategies: dict[str, Strategy] = {}
        self._digests: dict[str, str] = {}
        self._starting = False
        """A match is being started (its bots are made in the bots' thread)."""
        self.path = path
        self.match_bots: list[dict] = []
        """The bots of the match by seat: the lobby's name, the spec, the files' digest."""
        self._resumed: resume.Resumed | None = None
        """A saved match brought back, played on once the server runs (:meth:`reopen`)."""

    # --- saved and brought back ---------------------------------------------------------

    def save(self) -> None:
        """Hand the table as it is now to the server's saver (when it has a file)."""
        if self.path is not None:
            self.server.saver.save(self.path, resume.snapshot(self))

    def restore(self, state: dict) -> None:
        """The links and the lobby of a saved table (:func:`.resume.read`); its match, if
        one is under way, dealt again and replayed (:class:`.resume.CannotResume` if it
        cannot be: the table stays in its lobby, with its links)."""
        self.host, self.spectators = state["host"], state["spectators"]
        self.target, self.timer = state["target"], float(state["timer"])
        for chair, saved in zip(self.chairs, state["chairs"], strict=True):
            chair.token, chair.person = saved["token"], saved["person"]
            chair.bot = saved["bot"] if saved["bot"] in self.choices else chair.bot
        saved = state["match"]
        if saved is None or saved.get("over"):
            return
        back = resume.match(saved)
        if self.server.store.secret(back.game_id) is None:
            raise resume.CannotResume(f"its game {back.game_id} is not in the games database")
        for chair, b, bot in zip(self.chairs, back.match_bots, back.bots, strict=True):
            self.choices.setdefault(b["name"], b["spec"])
            self._strategies.setdefault(b["name"], bot.strategy)
            chair.bot = b["name"]
        self._resumed = back

    def resuming(self) -> str:
        """Where the table resumes, in words."""
        back = self._resumed
        if back is None:
            return "in its lobby"
        game = back.game
        scores = game.final_scores()
        return (f"game {back.game_id} at hand {game.hand + 1}, decision {game.step}, "
                f"score {scores[0]}-{scores[1]}")  # fmt: skip

    def reopen(self) -> None:
        """Play a match brought back on (call on the running loop): the people's seats
        wait the grace period for their pages to come back, as after a lost page."""
        back, self._resumed = self._resumed, None
        if back is None:
            return
        self.match_bots = back.match_bots
        for chair, person, away in zip(self.chairs, back.people, back.away, strict=True):
            chair.playing, chair.away = person, away
            if person and away is None:
                chair.grace = asyncio.ensure_future(self._after_grace(chair))
        adviser = BotSeat("Hint", self.server.settings.partner)
        session = self._open(back.game, back.game_id, back.bots, adviser, back.stand_ins)
        session.resumed(self.server.store.hands(back.game_id))
        session.start()

    # --- links and roles ----------------------------------------------------------------

    def role(self, token: str) -> int | None:
        """The role ``token`` is the key of (a seat 0..3, :data:`SPECTATOR`, :data:`HOST`)."""
        found = None
        keys = [(s, c.token) for s, c in enumerate(self.chairs)]
        for role, key in [*keys, (SPECTATOR, self.spectators), (HOST, self.host)]:
            if same_secret(token, key):  # every key compared: the time says nothing
                found = role
        return found

    def links(self, base: str) -> list[tuple[str, str]]:
        """``(who, address)`` for each seat, the spectators and the host."""
        out = [(f"seat {s} ({COMPASS[s]})", f"{base}/table/{c.token}")
               for s, c in enumerate(self.chairs)]  # fmt: skip
        return [*out, ("spectators", f"{base}/table/{self.spectators}"),
                ("host (lobby)", f"{base}/table/{self.host}")]  # fmt: skip

    def names(self) -> tuple[str, ...]:
        return tuple(c.person or COMPASS[s] for s, c in enumerate(self.chairs))

    def view(self, role: int) -> int:
        """The seat whose state a page of ``role`` gets: its own seat if a person plays it
        in this match, else a spectator's."""
        if role >= 0 and self.session is not None and self.chairs[role].playing:
            return role
        return SPECTATOR

    # --- the lobby ----------------------------------------------------------------------

    def lobby(self, role: int) -> dict:
        """The lobby's state for a page of ``role``."""
        return {
            "type": "lobby",
            "role": "host" if role == HOST else "spectator" if role == SPECTATOR else "seat",
            "seat": role if role >= 0 else None,
            "seats": [
                {"name": self.names()[s], "person": c.pages > 0 or c.playing, "bot": c.bot}
                for s, c in enumerate(self.chairs)
            ],
            "target": self.target,
            "timer": self.timer,
            "targets": list(TARGETS),
            "timers": list(TIMERS),
            "bots": list(self.choices),
            "started": self.session is not None,
            "game": self.session.id if self.session else None,
        }

    def _lobby_changed(self) -> None:
        self.save()
        for ws, (role, _t) in list(self._pages.items()):
            asyncio.ensure_future(_send(ws, self.lobby(role)))

    def settings(self, msg: dict) -> None:
        """The host's choices: ``target``, ``timer``, ``bots`` (four names of the lobby's)."""
        target, timer, bots = msg.get("target", self.target), msg.get("timer"), msg.get("bots")
        if type(target) is not int or target not in TARGETS:
            raise Refusal(f"target: one of {', '.join(map(str, TARGETS))}")
        if timer is not None and (type(timer) is not int or timer not in TIMERS):
            raise Refusal(f"timer: one of {', '.join(map(str, TIMERS))} seconds")
        if bots is not None:
            if not isinstance(bots, list) or len(bots) != 4:
                raise Refusal("bots: a list of four bot names, one a seat")
            for b in bots:
                if not isinstance(b, str) or b not in self.choices:
                    raise Refusal(f"bots: {str(b)[:40]!r} is not one of {', '.join(self.choices)}")
            for c, b in zip(self.chairs, bots, strict=True):
                c.bot = b
        self.target = target
        if timer is not None:
            self.timer = float(timer)

    def _strategy(self, name: str) -> Strategy:
        if name not in self._strategies:
            self._strategies[name] = strategy(self.choices[name], "bot")
        return self._strategies[name]

    async def start(self, seed: int | None = None) -> TableSession:
        """Start a match: a person in every seat with a page open, bots in the others."""
        if self._starting or (self.session is not None and not self.session.game.over):
            raise Refusal("the match is under way")
        self._starting = True
        chosen = [c.bot for c in self.chairs]
        try:
            bots, adviser, digests = await self.server.bots.run(self._prepare, self.names(), chosen)
        except InputError as exc:
            raise Refusal(f"a bot cannot be used: {exc}") from None
        finally:
            self._starting = False
        server = self.server
        seats: list = []
        for c, bot in zip(self.chairs, bots, strict=True):
            c.playing = c.pages > 0
            c.away = None
            seats.append(HumanSeat(bot.name, stand_in=bot) if c.playing else bot)
        seed = fresh_seed() if seed is None else seed
        s = server.settings
        game = Game(seats, seed, self.target, None, s.first_hakem, names=self.names())
        label = [p.label for p in seats]
        gid = server.store.start(
            seed=seed, daily=None, partner=label[2], opponents=f"{label[1]}, {label[3]}",
            target=self.target, first_hakem=s.first_hakem, version=__version__,
        )  # fmt: skip
        self.match_bots = [{"name": b, "spec": self.choices[b], "digest": d}
                           for b, d in zip(chosen, digests, strict=True)]  # fmt: skip
        session = self._open(game, gid, bots, adviser)
        session.start()
        return session

    def _prepare(
        self, names: tuple[str, ...], chosen: list[str]
    ) -> tuple[list[BotSeat], BotSeat, list[str]]:
        """The bots ``chosen`` by seat, the hints' adviser and the bots' digests: blocking
        (a bot's compiled code is found by the digest of its files), so run in the bots'
        thread."""
        bots = [BotSeat(names[s], self._strategy(b)) for s, b in enumerate(chosen)]
        for b in chosen:
            if b not in self._digests:
                self._digests[b] = resume.digest(self._strategy(b))
        adviser = BotSeat("Hint", self.server.settings.partner)
        return bots, adviser, [self._digests[b] for b in chosen]

    def _open(
        self, game: Game, gid: int, bots: list[BotSeat], adviser: BotSeat,
        stand_ins: Sequence[dict] = (),
    ) -> TableSession:  # fmt: skip
        """The session of ``game`` (game ``gid`` of the database, its people's decisions
        that their bots made so far ``stand_ins``) at this table, its pages joined."""
        server, s = self.server, self.server.settings
        label = [p.label for p in game.seats]
        session = TableSession(
            game, gid, server.store, server.bots, server.grader, server.keeper,
            adviser=adviser, ready=server.ready_for(bots, adviser), pause=s.pause,
            analyse=s.analyse,
            teams=[f"{label[0]} + {label[2]}", f"{label[1]} + {label[3]}"],
            secret=server.store.secret(gid) or "", table=self,
        )  # fmt: skip
        session.stand_ins = list(stand_ins)
        server.sessions[gid] = session
        self.session = session
        for ws, (role, _t) in list(self._pages.items()):
            asyncio.ensure_future(session.join(ws, role))
        self._lobby_changed()
        return session

    def give_to_bot(self, seat: object) -> None:
        """The host gives ``seat`` to its bot: its pages are closed; the person may come
        back by their link."""
        if type(seat) is not int or not 0 <= seat < 4:
            raise Refusal("seat: 0, 1, 2 or 3")
        chair = self.chairs[seat]
        if self.session is None or not chair.playing:
            raise Refusal(f"no person plays seat {seat}")
        chair.away = "host"
        for ws, (role, _t) in list(self._pages.items()):
            if role == seat:
                asyncio.ensure_future(ws.close(message=b"the host gave your seat to its bot"))
        self.session.wake()

    # --- pages --------------------------------------------------------------------------

    def page(self, token: str) -> web.Response:
        """The page of ``token``: the lobby until the match starts, then the table."""
        name = "table.html" if self.session is not None else "lobby.html"
        text = (resources.files("hokm_sim.play") / "static" / name).read_text(encoding="utf-8")
        meta = '<meta name="hokm-socket" content="/table/ws">'
        text = text.replace("{{secret}}", token).replace("{{socket_meta}}", meta)
        return web.Response(
            text=text, content_type="text/html", headers={"Cache-Control": "no-store"}
        )

    async def websocket(self, request: web.Request, role: int, token: str) -> web.WebSocketResponse:
        """The socket of a page of ``role`` (its ``token``); every message carries it too."""
        ws = web.WebSocketResponse(heartbeat=30, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        self._arrive(ws, role, token)
        await _send(ws, self.lobby(role))
        if self.session is not None:
            await self.session.join(ws, role)
        sent: list[float] = []
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                now = time.monotonic()
                sent[:] = [t for t in sent if now - t < 1.0]
                if len(sent) >= self.rate:
                    await _send(ws, _refusal(f"more than {self.rate} messages a second"))
                    continue
                sent.append(now)
                await self.message(ws, role, token, msg.data)
        finally:
            self._gone(ws, role)
        return ws

    def _arrive(self, ws, role: int, token: str) -> None:
        self._pages[ws] = (role, token)
        if role >= 0:
            chair = self.chairs[role]
            chair.pages += 1
            if chair.grace is not None:
                chair.grace.cancel()
                chair.grace = None
            if chair.away is not None:  # every page was closed: this one is the person's return
                chair.away = None  # back: the person decides again from the next decision
                if self.session is not None:
                    self.session.wake()
        self._lobby_changed()

    def _gone(self, ws, role: int) -> None:
        self._pages.pop(ws, None)
        if self.session is not None:
            self.session.leave(ws)
        if role >= 0:
            chair = self.chairs[role]
            chair.pages -= 1
            if chair.pages == 0 and chair.playing and chair.away is None:
                chair.grace = asyncio.ensure_future(self._after_grace(chair))
        self._lobby_changed()

    async def _after_grace(self, chair: Chair) -> None:
        await asyncio.sleep(self.grace)
        chair.grace = None
        if chair.pages == 0 and chair.away is None:
            chair.away = "left"
            if self.session is not None:
                self.session.wake()

    async def message(self, ws, role: int, token: str, text: str) -> None:
        """A page's message: checked (JSON object, its token, its role's to send), then
        done; a refusal says why and changes nothing."""
        try:
            data = loads(text)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            await _send(ws, _refusal("not a JSON object"))
            return
        if not isinstance(data.get("token"), str) or not same_secret(data["token"], token):
            await _send(ws, _refusal("every message carries its page's token"))
            return
        kind = data.get("type")
        try:
            if kind == "name" and role >= 0 and self.session is None:
                name = data.get("name")
                if not isinstance(name, str) or not 0 < len(name.strip()) <= MAX_NAME:
                    raise Refusal(f"name: 1 to {MAX_NAME} characters")
                self.chairs[role].person = name.strip()
                self._lobby_changed()
            elif kind in ("settings", "start", "to_bot"):
                if role != HOST:
                    raise Refusal(f"only the host may {kind.replace('_', ' ')}")
                if kind == "settings":
                    if self.session is not None and not self.session.game.over:
                        raise Refusal("the match is under way")
                    self.settings(data)
                    self._lobby_changed()
                elif kind == "start":
                    await self.start()
                else:
                    self.give_to_bot(data.get("seat"))
            elif self.session is None:
                raise Refusal("the match has not started: the host starts it")
            elif kind in ("card", "trump", "hint", "next"):
                if role < 0 or not self.chairs[role].playing:
                    raise Refusal("only the people at the table decide")
                if self.chairs[role].away == "host":
                    raise Refusal("the host gave your seat to its bot")
                if self.session.deciding == role and kind != "next":
                    raise Refusal("your bot is deciding this turn: you decide from your next one")
                await self.session.message(ws, {k: v for k, v in data.items() if k != "token"})
            elif kind == "show_seed":
                raise Refusal("at a shared table the seed is shown when the match is over")
            else:
                raise Refusal(f"unknown message {str(kind)[:40]!r}")
        except Refusal as exc:
            await _send(ws, _refusal(str(exc)))

    def close(self) -> None:
        for c in self.chairs:
            if c.grace is not None:
                c.grace.cancel()


class TableSession(Session):
    """The game of a shared table: people's decisions on a clock, bots standing in."""

    def __init__(self, *args: Any, table: HostedTable, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.table = table
        self.timer = table.timer
        self.stand_ins: list[dict] = []
        """The people's decisions their bots made: hand, step, seat, kind, why."""
        self._moved = asyncio.Event()
        self._seats_saved = -1
        """How many stand-ins the stored game has (-1: its seats are not stored yet)."""
        self.deciding: int | None = None
        """The person's seat whose bot is deciding now (its page offers no turn)."""
        self._clock: tuple[tuple, float] = ((), 0.0)

    def wake(self) -> None:
        """Something the driver waits on changed (a decision, a page, a seat's bot)."""
        self._moved.set()
        self._changed()

    def state_for(self, seat: int) -> dict:
        state = super().state_for(self.table.view(seat))
        chairs = self.table.chairs
        left = self._deadline() - asyncio.get_running_loop().time()
        due = self.game.due()
        state["table"] = {
            "role": "host" if seat == HOST else "seat" if seat >= 0 else "spectator",
            "timer": self.timer,
            "clock": {"seat": due, "left": round(max(left, 0.0), 1)},
            "people": [c.playing for c in chairs],
            "away": [c.away for c in chairs],
            "stand_in": _said(self.stand_ins[-1]) if self.stand_ins else None,
            "deciding": self.deciding,
        }
        return state

    def _key(self) -> tuple:
        g = self.game
        return g.step, g.hand, g.phase

    def _deadline(self) -> float:
        """When the decision (or the pause between hands) due now runs out of time."""
        if self._clock[0] != self._key():
            self._clock = (self._key(), asyncio.get_running_loop().time() + self.timer)
        return self._clock[1]

    def _after_change(self) -> None:
        self._save()
        self.wake()
        if self._driver is None or self._driver.done():
            self._driver = asyncio.ensure_future(self._drive())

    async def _wait(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._moved.wait(), max(seconds, 0.0))

    async def _drive(self) -> None:
        """Play the table until the match is over: bots' turns after the pause, people's
        turns until they decide or their bot does (time out, gone, given to the bot)."""
        await asyncio.wait([self.ready])
        if self.ready.exception() is not None:
            return
        game, loop = self.game, asyncio.get_running_loop()
        while not game.over:
            self._moved.clear()
            key = self._key()
            if game.phase in ("first_hakem", "hand_over"):
                left = self._deadline() - loop.time()
                if left > 0:
                    await self._wait(left)
                    continue
                async with self._lock:
                    if self._key() == key:
                        game.go_on()
                self._save()
                self._changed()
                continue
            seat = game.due()
            player = game.seats[seat]
            why = None
            if isinstance(player, HumanSeat):
                why = self.table.chairs[seat].away
                left = self._deadline() - loop.time()
                if why is None and left > 0:
                    await self._wait(left)
                    continue
                why = why or "timer"
            full = game.trick is not None and game.trick.winner is not None
            await asyncio.sleep(self.pause * (2 if full else 1))
            if isinstance(player, HumanSeat) and why != "timer":
                why = self.table.chairs[seat].away  # back during the pause?
                if why is None:
                    continue
            async with self._lock:
                if self._key() != key:
                    continue
                kind, trick = game.where()
                bot = player if isinstance(player, BotSeat) else player.stand_in
                if isinstance(player, HumanSeat):  # told now: a page that comes back or
                    self.deciding = seat  # clicks meanwhile is not offered the turn
                    self._changed()
                try:
                    await self._bot_decides(bot)
                finally:
                    self.deciding = None
                if isinstance(player, HumanSeat) and game.fault is None:
                    answer = game.moves[-1]
                    decided = SUITS[answer] if kind == TRUMP else card_str(answer)
                    self.stand_ins.append({"hand": key[1], "step": key[0], "seat": seat,
                                           "kind": kind, "trick": trick, "decided": decided,
                                           "why": why})  # fmt: skip
            self._save()
            self._changed()

    def close(self) -> None:
        """The server stops: the table stops playing, and a game not over is booked as
        unfinished."""
        if self._driver is not None:
            self._driver.cancel()
        super().close()

    def record(self, result: str) -> dict[str, Any]:
        """The finished game as the results store keeps it (``kind`` ``game``): the result
        and score of South's team, who sat where (``seats``), the bots by the seat they
        played (their roles: ``south`` ... ``west``; a person's stand-in is no player of
        the game), how many decisions stand-ins made, and the command that shows the game
        (people's decisions deal no game again)."""
        game = self.game
        bots = {COMPASS[s].lower(): p.strategy.to_dict()
                for s, p in enumerate(game.seats) if isinstance(p, BotSeat)}  # fmt: skip
        return {
            "kind": "game",
            "game": self.id,
            "result": result,
            "scores": game.final_scores(),
            "hands": len(game.records),
            "seed": game.seed,
            "target": game.target,
            "strategies": bots,
            "seats": self._seats(),
            "stand_ins": len(self.stand_ins),
            "command": f"hokm-sim games --game {self.id} --format json",
            "version": __version__,
        }

    def headline(self, rec: dict[str, Any]) -> str:
        names, (s0, s1) = self.game.names, rec["scores"]
        return (f"{names[0]} and {names[2]} against {names[1]} and {names[3]}: "
                f"{rec['result']} {s0}-{s1}, game {self.id}")  # fmt: skip

    def _seats(self) -> list[dict]:
        """Who sat where: each seat's name, ``person`` or ``bot``, and its bot's strategy."""
        return [
            {"name": n, "kind": "person" if isinstance(p, HumanSeat) else "bot",
             "strategy": (p.stand_in if isinstance(p, HumanSeat) else p).strategy.name}
            for n, p in zip(self.game.names, self.game.seats, strict=True)
        ]  # fmt: skip

    def _save(self) -> None:
        """The game's hands and result, (when they changed) its seats and stand-ins, and
        the table's file."""
        super()._save()
        self.table.save()
        if self._seats_saved == len(self.stand_ins):
            return
        self._seats_saved = len(self.stand_ins)
        self.store.seat_record(self.id, self._seats(), self.stand_ins)


async def _send(ws, message: dict) -> None:
    with contextlib.suppress(ConnectionError, RuntimeError):
        await ws.send_json(message)


def _said(stand_in: dict) -> dict:
    """A stand-in's decision as pages are told of it: who, when and why, not what (the
    card is on the table for those who may see it; the state says no card twice)."""
    return {k: v for k, v in stand_in.items() if k != "decided"}


def _refusal(reason: str) -> dict:
    return {"type": "refused", "message": reason}
