"""A shared table saved as it changes, and brought back when its server starts again.

Each table of ``hokm-sim play --host`` has a file, ``tables/N.json`` in the data
folder, written whole or not at all (:func:`hokm_sim.writing.atomic_text`) after
every change, in a thread of its own (:class:`Saver`) so that the event loop only
hands over the text; the folder is the user's only (mode 0700: the tokens are the
seats' keys). It holds the links' tokens, the lobby (each seat's bot and
person, the target, the timer) and, once a match has started, the match: its game
in the games database, the seed, each seat's bot (its spec and the digest of its
files) and whether a person plays it, every decision's answer in order, which of the
people's decisions their bots made, the hints, and whether the table waits between
hands.

The engine's match follows from the seed and the decisions, so a server that
starts again deals the same match and replays the decisions (:func:`replay`): the
bots' decisions, the stand-ins' for people among them, are asked of the bots again,
which brings their memories and random streams back as they were, and must come out
the same; the people's are made as saved. The same cards are in the same hands, the
same cards on the table, the same links open the same seats. A table that cannot be
brought back says why in one line (:class:`CannotResume`: the file cannot be read,
it is of a newer format, a bot cannot be loaded, its files changed, or it decides
otherwise than it did) and opens afresh: in its lobby with the same links where the
file could be read, else as a new table.
"""

from __future__ import annotations

import hashlib
import json
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hokm_sim.api import strategy
from hokm_sim.bots.registry import Strategy
from hokm_sim.errors import InputError, OutputError
from hokm_sim.play.game import TARGETS, Game, Hint
from hokm_sim.play.seats import BotSeat, HumanSeat
from hokm_sim.sources import digest_files, in_package, package_digest, source_closure
from hokm_sim.writing import atomic_text

if TYPE_CHECKING:
    from hokm_sim.play.hosted import HostedTable

FORMAT = 1
"""The format of a table's file this version writes and reads (a newer one is refused)."""
FOLDER = "tables"
"""The folder of the tables' files, in the data folder."""


class CannotResume(Exception):
    """A saved table (or its match) that cannot be brought back, and why."""


def digest(strat: Strategy) -> str:
    """A hash of what ``strat`` decides with: its record (parts, parameters, an ``exec:``
    bot's command and the digests of its files) and the files of each part with what
    they import (a built-in bot's as this process imported them, hashed once)."""
    record = strat.to_dict()
    h = hashlib.sha256(json.dumps(record, sort_keys=True).encode())
    for part in (record["trump"], record["play"]):
        path = Path(part.get("path") or "").resolve()
        if in_package(path):
            h.update(package_digest(path).encode())
        elif path.is_file():
            h.update(digest_files(source_closure(path, (path.parent,))).encode())
    return h.hexdigest()


def table_files(folder: Path) -> list[Path]:
    """The saved tables' files in ``folder``, by number."""
    found = [p for p in folder.glob("*.json") if p.stem.isdigit()] if folder.is_dir() else []
    return sorted(found, key=lambda p: int(p.stem))


def next_file(folder: Path, taken: set[Path]) -> Path:
    """The file of a new table: the next number after those saved and ``taken``."""
    used = [int(p.stem) for p in [*table_files(folder), *taken]]
    return folder / f"{max(used, default=0) + 1}.json"


# --- writing ------------------------------------------------------------------------------


def snapshot(table: HostedTable) -> dict[str, Any]:
    """What ``table``'s file holds now."""
    out: dict[str, Any] = {
        "format": FORMAT,
        "host": table.host,
        "spectators": table.spectators,
        "target": table.target,
        "timer": table.timer,
        "chairs": [{"token": c.token, "bot": c.bot, "person": c.person} for c in table.chairs],
        "match": None,
    }
    session = table.session
    if session is not None:
        game = session.game
        out["match"] = {
            "game": session.id,
            "seed": str(game.seed),
            "target": game.target,
            "first_hakem": game.first_hakem,
            "names": list(game.names),
            "bots": table.match_bots,
            "people": [isinstance(p, HumanSeat) for p in game.seats],
            "away": [c.away for c in table.chairs],
            "moves": game.moves,
            "stand_ins": session.stand_ins,
            "hints": [h.to_dict() for h in game.hints],
            "seed_shown": game.seed_shown,
            "hold": game.hold,
            "over": game.over,
        }
    return out


class Saver:
    """Writes the tables' files in a thread of its own, each whole or not at all; of the
    texts handed over for one file while it was busy, only the newest is written. A
    file that cannot be written is said once on stderr (until it can be again): the game
    goes on, kept in the games database as ever."""

    def __init__(self) -> None:
        self._latest: dict[Path, str] = {}
        self._failed: dict[Path, str] = {}
        self._cond = threading.Condition()
        self._stopping = False
        self._thread = threading.Thread(target=self._loop, name="hokm-sim-tables", daemon=True)
        self._thread.start()

    def save(self, path: Path, state: dict[str, Any]) -> None:
        text = json.dumps(state, separators=(",", ":"))
        with self._cond:
            self._latest[path] = text
            self._cond.notify()

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._latest and not self._stopping:
                    self._cond.wait()
                if not self._latest:
                    return
                path, text = next(iter(self._latest.items()))
                del self._latest[path]
            try:
                path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # tokens: yours only
                atomic_text(path, text)
            except (OSError, OutputError) as exc:
                if self._failed.get(path) != str(exc):
                    print(f"hokm-sim play: cannot save the table to {path}: {exc}; it plays on "
                          "but cannot resume from there", file=sys.stderr)  # fmt: skip
                self._failed[path] = str(exc)
            else:
                self._failed.pop(path, None)

    def close(self) -> None:
        """Write what is waiting, then stop."""
        with self._cond:
            self._stopping = True
            self._cond.notify()
        self._thread.join(timeout=30)


# --- reading ------------------------------------------------------------------------------


def read(path: Path) -> dict[str, Any]:
    """A table's file, checked (:class:`CannotResume` says what is wrong with it)."""
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise CannotResume(f"its file cannot be read ({exc})") from None
    if not isinstance(state, dict) or type(state.get("format")) is not int:
        raise CannotResume("its file is not a hokm-sim table")
    if state["format"] > FORMAT:
        raise CannotResume(
            f"it was saved by a newer hokm-sim (format {state['format']}; this one reads {FORMAT})"
        )
    try:
        tokens = [state["host"], state["spectators"], *(c["token"] for c in state["chairs"])]
        ok = (all(isinstance(t, str) and len(t) >= 32 for t in tokens)
              and len(state["chairs"]) == 4 and state["target"] in TARGETS
              and isinstance(state["timer"], int | float) and state["timer"] > 0
              and all(isinstance(c["bot"], str) and isinstance(c["person"], str | None)
                      for c in state["chairs"])
              and isinstance(state["match"], dict | None))  # fmt: skip
    except (KeyError, TypeError):
        ok = False
    if not ok:
        raise CannotResume("its file is damaged (a token, seat, target or timer is missing)")
    return state


@dataclass
class Resumed:
    """A match brought back: the game as it was, its bots by seat, and the table's parts."""

    game: Game
    game_id: int
    bots: list[BotSeat]
    people: list[bool]
    away: list[str | None]
    stand_ins: list[dict]
    match_bots: list[dict]


def match(saved: dict[str, Any]) -> Resumed:
    """The saved match dealt again and its decisions replayed (:class:`CannotResume`)."""
    try:
        names = tuple(str(n) for n in saved["names"])
        people = [bool(p) for p in saved["people"]]
        stand_ins = list(saved["stand_ins"])
        hints = [Hint(**h) for h in saved["hints"]]
        bots = []
        for s, b in enumerate(saved["bots"]):
            try:
                strat = strategy(b["spec"], "bot")
            except InputError as exc:
                raise CannotResume(f"the bot {b['name']!r} cannot be loaded: {exc}") from None
            if digest(strat) != b["digest"]:
                raise CannotResume(f"the files of the bot {b['name']!r} changed since it was saved")
            bots.append(BotSeat(names[s], strat))
        seats = [HumanSeat(n, stand_in=b) if p else b
                 for n, b, p in zip(names, bots, people, strict=True)]  # fmt: skip
        game = Game(seats, int(saved["seed"]), saved["target"], None, saved["first_hakem"], names)
        replay(game, [int(m) for m in saved["moves"]], {int(x["step"]) for x in stand_ins})
        if saved["hold"] is None:
            game.go_on()
        game.hints = hints
        game.seed_shown = bool(saved["seed_shown"])
        return Resumed(game, int(saved["game"]), bots, people, list(saved["away"]), stand_ins,
                       list(saved["bots"]))  # fmt: skip
    except CannotResume:
        raise
    except (KeyError, TypeError, ValueError, IndexError, InputError) as exc:
        raise CannotResume(f"its match is damaged ({type(exc).__name__}: {exc})") from None


def replay(game: Game, moves: list[int], by_stand_in: set[int]) -> None:
    """Make ``moves`` at ``game`` in order: each bot's decision (and each of a person's
    that its stand-in made, steps ``by_stand_in``) asked of the bot again and checked."""
    for step, answer in enumerate(moves):
        if game.hold is not None:
            game.go_on()
        seat = game.due()
        if seat is None:
            raise CannotResume(f"its match is over before decision {step}")
        player = game.seats[seat]
        bot = player if isinstance(player, BotSeat) else None
        if isinstance(player, HumanSeat) and step in by_stand_in:
            bot = player.stand_in
        if bot is not None:
            try:
                got = game.bot_answer(bot.decide(game.table))
            except (Exception, SystemExit) as exc:  # a bot that faults now: not the same bot
                got = f"{type(exc).__name__}: {exc}"
            if got != answer:
                raise CannotResume(
                    f"the bot {bot.strategy.name!r} (seat {seat}) decides otherwise than it "
                    f"did at decision {step}"
                )
        game.act(answer)  # a person's answer that is not legal: ValueError, a damaged file
