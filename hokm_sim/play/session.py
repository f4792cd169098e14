"""One game being played: its pages, its bots' turns, its saving and its analysis.

A :class:`Session` owns a :class:`~hokm_sim.play.game.Game` and everything
that happens to it on the event loop: pages connect for a seat and get that
seat's state after every change; a person's decision comes in as a message
and is checked by the game; when a bot's turn is due the session waits a
short visible pause and asks the bot in a worker thread (never on the event
loop: ``pimc`` takes ~20 ms a decision and its first call compiles for a
minute). One lock serialises everything that touches the game's table, so a
second tab, a hint and a bot's turn never interleave. Each finished hand is
saved and graded double dummy in another worker; the page gets a link to it.
The game's seed stays out of every message until the match is over, unless
the person asks to see it (``show_seed``, recorded with the game).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import shlex
import sys
import threading
from collections.abc import Callable
from typing import Any

from hokm_sim.bots.faults import raised
from hokm_sim.play import review
from hokm_sim.play.game import SEAT_NAMES, Game
from hokm_sim.play.seats import BotSeat
from hokm_sim.play.store import Store
from hokm_sim.store import keep
from hokm_sim.version import __version__

BOT_TIMEOUT = 120.0
"""Seconds a bot's decision may take (after its warm-up) before it is a fault."""


class Worker:
    """A daemon thread that runs blocking calls one at a time for the event loop.

    Daemon, so that Ctrl-C never waits for a bot that is still compiling.
    """

    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            loop, future, fn, args = job
            try:
                outcome = (fn(*args), None)
            except BaseException as exc:  # handed to the awaiting coroutine
                outcome = (None, exc)
            with contextlib.suppress(RuntimeError):  # the loop closed: nobody awaits it
                loop.call_soon_threadsafe(_settle, future, *outcome)

    def run(self, fn: Callable, *args: Any) -> asyncio.Future:
        """``fn(*args)`` in the worker thread, as a future of the running loop."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._jobs.put((loop, future, fn, args))
        return future

    def stop(self, wait: float = 0.0) -> None:
        """Stop once the jobs handed over are done; wait up to ``wait`` seconds for that."""
        self._jobs.put(None)
        if wait:
            self._thread.join(wait)


def _settle(future: asyncio.Future, result: Any, exc: BaseException | None) -> None:
    if future.cancelled():
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(result)


class Session:
    """A game on the event loop: connected pages, bots' turns, saving, grading."""

    def __init__(
        self,
        game: Game,
        game_id: int,
        store: Store,
        bots: Worker,
        grader: Worker,
        keeper: Worker,
        *,
        adviser: BotSeat,
        ready: asyncio.Future,
        pause: float,
        analyse: Callable[[dict, list[str]], dict],
        teams: list[str],
        secret: str,
    ) -> None:
        self.game = game
        self.id = game_id
        self.store = store
        self.bots = bots
        self.grader = grader
        self.keeper = keeper
        """Adds the finished game to the results store, off the event loop."""
        self.adviser = adviser
        self.ready = ready
        """Done once the bots of this table are compiled (their warm-up)."""
        self.pause = pause
        self._analyse = analyse
        self.teams = teams
        """The names by team a graded hand carries."""
        self.secret = secret
        """The game's secret: its page shows it, its socket and API calls carry it."""
        self._lock = asyncio.Lock()
        self._clients: dict[Any, int] = {}
        self._driver: asyncio.Task | None = None
        self._saved = 0
        self._kept = False
        """Whether the finished game is in the results store (once, at its end)."""
        self._stored: tuple | None = None
        """The game's row as last written (a decision that changes none of it writes nothing)."""
        self._accuracy: tuple[int, list[dict]] = (-1, [])
        """The review's accuracy per seat and how many graded hands it sums."""
        self._grading: set[asyncio.Task] = set()
        self._flush_due = False
        """Every page's state is to be sent at the end of this turn of the event loop."""
        ready.add_done_callback(lambda _f: self._changed())

    # --- pages --------------------------------------------------------------------------

    def state_for(self, seat: int) -> dict:
        """The state message of ``seat``: the game's, and the session's own fields."""
        state = self.game.state_for(seat)
        state["game"] = self.id
        state["pause"] = self.pause
        state["ready"] = self.ready.done() and self.ready.exception() is None
        if self.ready.done() and self.ready.exception() is not None:
            state["message"] = f"The bots could not get ready: {self.ready.exception()}"
        if self._accuracy[0] != len(self.game.analyses):
            analysed = [a for _h, a in sorted(self.game.analyses.items()) if "error" not in a]
            self._accuracy = (len(self.game.analyses), review.seat_accuracy(analysed))
        state["review"] = {
            "seats": self._accuracy[1],
            "pending": sum("fault" not in r for r in self.game.records) - len(self.game.analyses),
        }
        return state

    async def join(self, ws, seat: int) -> None:
        """A page for ``seat`` connected: it gets the state now and after every change."""
        self._clients[ws] = seat
        await self._send(ws, self.state_for(seat))

    def leave(self, ws) -> None:
        self._clients.pop(ws, None)

    async def _send(self, ws, message: dict | str) -> None:
        """``message`` to one page (a dict, or the text of one already encoded)."""
        text = message if isinstance(message, str) else json.dumps(message)
        with contextlib.suppress(ConnectionError, RuntimeError):
            await ws.send_str(text)

    def _changed(self) -> None:
        """Send every page its state, once the changes made in this turn of the event loop
        are all made (callers need not await): one state for them all, built and encoded
        once for all the pages of the same seat."""
        if not self._flush_due:
            self._flush_due = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        texts: dict[int, str] = {}
        for ws, seat in list(self._clients.items()):
            if seat not in texts:
                texts[seat] = json.dumps(self.state_for(seat))
            asyncio.ensure_future(self._send(ws, texts[seat]))

    # --- messages from a page -----------------------------------------------------------

    async def message(self, ws, msg: dict) -> None:
        """A message from a page: ``card``, ``trump``, ``hint``, ``next`` or ``show_seed``."""
        seat = self._clients.get(ws)
        if seat is None:
            return
        kind = msg.get("type")
        step = msg.get("step")
        step = step if isinstance(step, int) and not isinstance(step, bool) else None
        if kind in ("card", "trump"):
            async with self._lock:
                value = msg.get("card" if kind == "card" else "suit")
                refused = self.game.submit(seat, kind, str(value), step)
            if refused:
                await self._send(ws, {"type": "refused", "message": refused})
                await self._send(ws, self.state_for(seat))
                return
            self._after_change()
        elif kind == "hint":
            await self.ready
            async with self._lock:
                if step is not None and step != self.game.step:
                    hint: dict | str = "That was for an earlier position."
                else:
                    try:
                        hint = await self.bots.run(self.game.hint, seat, self.adviser)
                    except (Exception, SystemExit) as exc:  # the adviser's: no hint
                        hint = f"{self.adviser.label} {raised(exc)}: no hint."
            if isinstance(hint, str):
                await self._send(ws, {"type": "refused", "message": hint})
            else:
                await self._send(ws, {"type": "hint", **hint})
            self._changed()
        elif kind == "next":
            async with self._lock:
                self.game.go_on()
            self._after_change()
        elif kind == "show_seed":
            async with self._lock:
                self.game.show_seed()
            self._save()
            self._changed()
        else:
            await self._send(ws, {"type": "refused", "message": f"unknown message {kind!r}"})

    # --- the table moves on -------------------------------------------------------------

    def _after_change(self) -> None:
        self._save()
        self._changed()
        if self._driver is None or self._driver.done():
            self._driver = asyncio.ensure_future(self._drive())

    def start(self) -> None:
        """Let the bots play their turns (call once the session is registered)."""
        self._after_change()

    def resumed(self, stored: list[dict]) -> None:
        """The game was brought back (:mod:`.resume`) with its finished hands ``stored``
        already (:meth:`~hokm_sim.play.store.Store.hands`): their gradings are taken as
        they are; a hand not stored or not graded yet is stored and graded as ever."""
        graded = {h["hand"]: h["graded"] for h in stored if h["graded"] is not None}
        self.game.analyses.update(graded)
        kept = {h["hand"] for h in stored}
        self._saved = 0
        while self._saved < len(self.game.records) and self._saved in kept:
            if self._saved not in graded:
                self._grade_later(self.game.records[self._saved])
            self._saved += 1

    async def _drive(self) -> None:
        """Play the bots' turns until a person's decision is due or the table waits."""
        await asyncio.wait([self.ready])
        if self.ready.exception() is not None:
            return
        while self.game.bot_due() is not None:
            full = self.game.trick is not None and self.game.trick.winner is not None
            await asyncio.sleep(self.pause * (2 if full else 1))
            async with self._lock:
                bot = self.game.bot_due()
                if bot is None:
                    break
                await self._bot_decides(bot)
            self._save()
            self._changed()

    async def _bot_decides(self, bot: BotSeat) -> None:
        """``bot`` makes the decision due (the caller holds the lock); a fault stops the game."""
        seat = self.game.due()
        try:
            raw = await asyncio.wait_for(self.bots.run(bot.decide, self.game.table), BOT_TIMEOUT)
        except TimeoutError:
            self.game.fail(seat, f"took longer than {BOT_TIMEOUT:g} s to decide")
        except (Exception, SystemExit) as exc:  # a bot's sys.exit() ends no table
            self.game.fail(seat, raised(exc))
        else:
            answer = self.game.bot_answer(raw)
            if isinstance(answer, str):
                self.game.fail(seat, answer)
            else:
                self.game.act(answer)

    def _save(self) -> None:
        """Store the hands finished since the last call, grade them, and the game's result."""
        game = self.game
        for rec in game.records[self._saved :]:
            self.store.add_hand(self.id, rec)
            self._grade_later(rec)
        self._saved = len(game.records)
        result = game.result()
        rec = self.record(result) if result != "playing" and not self._kept else None
        if rec is not None:
            self._kept = True
            self.keeper.run(self._keep, rec)
        row = {
            "result": result,
            "scores": game.final_scores(),
            "hints": [h.to_dict() for h in game.hints],
            "message": game.fault,
            "seed_shown": game.seed_shown,
        }
        stored = tuple(repr(v) for v in row.values())
        if stored != self._stored:
            self.store.update(self.id, **row)
            self._stored = stored

    def _keep(self, rec: dict[str, Any]) -> None:
        """Add the finished game ``rec`` to the results store (in the keeper's thread). No
        failure of the store loses or stops the game: it is in the games database all the
        same, and the failure is one line on stderr."""
        try:
            keep(rec, headline=self.headline(rec))
        except Exception as exc:  # whatever the store's backend raises
            print(f"hokm-sim play: game {self.id} not in the results store: {exc}",
                  file=sys.stderr)  # fmt: skip

    def headline(self, rec: dict[str, Any]) -> str:
        """The results store's headline of the finished game ``rec``."""
        bots, scores = rec["strategies"], rec["scores"]
        return (f"you and {bots['partner']['name']} against {bots['opponents']['name']}: "
                f"{rec['result']} {scores[0]}-{scores[1]}, game {self.id}")  # fmt: skip

    def record(self, result: str) -> dict[str, Any]:
        """The finished game as the results store keeps it (``kind`` ``game``): the
        person's team's result and score, the bots by seat, the seed, the target, and the
        ``hokm-sim play`` command that deals the same game again."""
        game = self.game
        bots = {seat.name: seat.strategy for seat in game.seats if isinstance(seat, BotSeat)}
        partner, opponents = bots[SEAT_NAMES[2]], bots[SEAT_NAMES[1]]
        words = ["hokm-sim", "play", "--partner", partner.name, "--opponents", opponents.name,
                 "--target", str(game.target), "--seed", str(game.seed)]  # fmt: skip
        if game.first_hakem:
            words += ["--first-hakem", game.first_hakem]
        command = shlex.join(words)
        return {
            "kind": "game",
            "game": self.id,
            "result": result,
            "scores": game.final_scores(),
            "hands": len(game.records),
            "seed": game.seed,
            "target": game.target,
            "strategies": {"partner": partner.to_dict(), "opponents": opponents.to_dict()},
            "command": command,
            "version": __version__,
        }

    def _grade_later(self, rec: dict) -> None:
        """Grade the finished hand ``rec`` in the grader's thread (not one a fault stopped)."""
        if "fault" not in rec:
            task = asyncio.ensure_future(self._grade(rec))
            self._grading.add(task)
            task.add_done_callback(self._grading.discard)

    async def _grade(self, rec: dict) -> None:
        try:
            graded = await self.grader.run(self._analyse, rec, self.teams)
        except Exception as exc:  # the page says so; the game goes on
            graded = {"error": f"{type(exc).__name__}: {exc}"}
        self.game.analyses[int(rec["hand"])] = graded
        if "error" not in graded:
            self.store.add_grading(self.id, int(rec["hand"]), graded)
        self._changed()

    def close(self) -> None:
        """The server stops: a game not over is booked as unfinished."""
        if self.game.result() == "playing":
            self.store.update(
                self.id, result="unfinished", scores=self.game.final_scores(),
                hints=[h.to_dict() for h in self.game.hints], seed_shown=self.game.seed_shown,
            )  # fmt: skip
