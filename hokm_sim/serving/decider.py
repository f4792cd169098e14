"""A hokm-sim strategy deciding requests: view and memory rebuilt, then the bot asked.

Inside hokm-sim a bot keeps state for a hand in ``mem`` and draws from its
seat's stream; a request is all a served bot gets. So for each request the
seat's earlier decisions of the hand are replayed (:func:`~.replay.seat_views`
gives the views) from a zeroed ``mem``, and the bot then decides the one
asked for: it plays exactly the card it would play inside hokm-sim.

Replaying costs a decision per earlier decision, which a slow bot (``pimc``,
about 20 ms a card) cannot afford on every request. A host sends a hand's
requests in order to one process, so the state after each decision is kept
in a bounded cache keyed by all the seat knew then (its cards, the Hakem's
five, the plays so far, scores, target, stream): the next request of the
hand finds the state after the previous decision and replays nothing. The
cache changes no answer, only the time: a request is always answered as if
replayed from the start.

Random draws: with the optional ``stream`` field (docs/protocol.md) the seat
draws from its own stream exactly as inside hokm-sim (counter 0 at the
hand's start, every replayed draw included), so two hokm-sims agree card
for card. Without it the decision asked for draws from a stream keyed by
the request's ``seed``, and each replayed one from a stream keyed by a
digest of what the seat knew at that decision, so the answer is still a
function of the request alone.
"""

from __future__ import annotations

import hashlib
import struct
import threading
from collections import OrderedDict

import numpy as np
from numba.core.errors import NumbaError

from hokm_sim.bots.compiled import describe_compile_error
from hokm_sim.bots.compiling import compiling
from hokm_sim.bots.faults import raised
from hokm_sim.bots.registry import Strategy
from hokm_sim.bots.seat import SeatBot
from hokm_sim.cards import SUITS
from hokm_sim.engine import stepper as st
from hokm_sim.engine.view import MEM_SIZE, V_LEGAL, V_TRICKS, VIEW_SIZE
from hokm_sim.protocol.request import Request, RequestError, read_decide
from hokm_sim.protocol.wire import CARD_TEXTS, PROTOCOL, STREAM, mask_text
from hokm_sim.serving.replay import MAX_DECISIONS, PROBLEMS, seat_views
from hokm_sim.version import __version__

_CLUBS = [f"{r}C" for r in "23456789TJQKA"]
READY = {
    "type": "decide",
    "requests": [
        {"id": 0, "kind": "trump", "seat": 0, "hakem": 0, "trump": None, "hand": _CLUBS[:5],
         "legal": [], "first_five": _CLUBS[:5], "plays": [], "tricks": [0, 0],
         "scores": [0, 0], "target": 0, "seed": 1},
        {"id": 1, "kind": "card", "seat": 0, "hakem": 0, "trump": "C", "hand": _CLUBS,
         "legal": _CLUBS, "first_five": _CLUBS[:5], "plays": [], "tricks": [0, 0],
         "scores": [0, 0], "target": 0, "seed": 2},
    ],
}  # fmt: skip
"""What :meth:`Served.ready` decides: the Hakem's trump call, then its lead, holding every
club (a hand any strategy can play)."""

CACHE = 1 << 16
"""States kept: a few per hand in flight (a host keeps up to a few thousand hands open)."""


class ServedFault(ValueError):
    """The served strategy broke the rules (an illegal card, no suit) or raised.

    Its text is the answer's ``error`` message, which the host puts after the name
    of the bot it ran (``exec:hokm-sim serve NAME`` names the strategy already), so it
    says "the strategy", not the strategy's name again."""


class Served:
    """A strategy answering requests one by one (see the module doc)."""

    def __init__(self, strategy: Strategy, cache: int = CACHE) -> None:
        self.strategy = strategy
        self._bot: SeatBot | None = None
        self._loading = threading.Lock()
        self._exec = "exec" in (strategy.trump.kind, strategy.play.kind)
        self.slots = st.new_slots(1)
        self.views = np.zeros((MAX_DECISIONS, VIEW_SIZE), np.int64)
        self.ns = np.zeros(MAX_DECISIONS, np.int64)
        self.limit = cache
        self.cache: OrderedDict[bytes, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self.replayed = 0
        """Decisions replayed so far (the cache's misses cost one each)."""

    @property
    def bot(self) -> SeatBot:
        """The strategy's seat, loaded (compiled, or read from the disk cache) on first use."""
        with self._loading:
            if self._bot is None:
                self._bot = SeatBot(self.strategy)
            return self._bot

    def ready(self) -> None:
        """Load and compile the strategy, as a host's ``hello`` asks: it answers a fixed
        trump call and a fixed card (:data:`READY`) and keeps nothing of them, so that
        its first real decision is as quick as the others. A protocol bot is started
        only (its own ``hello`` is answered then). A strategy that cannot decide raises
        :class:`ServedFault`, the answer to the ``hello``. The first decision compiles the
        strategy or loads it from the disk cache: said to whoever listens
        (:func:`~hokm_sim.bots.compiling.compiling`)."""
        if self._exec:
            self.bot  # noqa: B018 - the property starts the bot
            return
        with compiling(f"{self.strategy.name} (once per version of its files)"):
            for r in read_decide(READY):
                self.decide(r)
        self.cache.clear()
        self.replayed = 0

    def answer(self, r: Request) -> dict:
        """The answer to one request: ``{"id": ID, "suit": S}`` or ``{"id": ID, "card": C}``."""
        value = self.decide(r)
        if r.trump_call:
            return {"id": r.id, "suit": SUITS[value]}
        return {"id": r.id, "card": CARD_TEXTS[value]}

    def decide(self, r: Request) -> int:
        """The strategy's suit or card for request ``r``."""
        plays = np.array(r.plays, np.int64)
        count = seat_views(r.seat, r.hakem, r.trump, r.first_five, r.hand, plays,
                           r.scores[0], r.scores[1], r.target, self.views, self.ns)  # fmt: skip
        if count < 0:
            raise RequestError(f"request id {r.id}: {PROBLEMS[count]}")
        now = self.views[count - 1]
        if not r.trump_call:
            if int(now[V_LEGAL]) != r.legal:
                raise RequestError(
                    f"request id {r.id}: 'legal' is not the cards the rules allow "
                    f"({' '.join(mask_text(int(now[V_LEGAL])))})"
                )
            if (int(now[V_TRICKS]), int(now[V_TRICKS + 1])) != r.tricks:
                raise RequestError(f"request id {r.id}: 'tricks' do not match 'plays'")
        ns = self.ns[:count].tolist()
        key = _Keys(r, plays, ns)
        mem = np.zeros(MEM_SIZE, np.int64)
        rng = np.array([r.stream or 0, 0, 0, 0], np.uint64)
        first = 0
        for j in range(count - 2, -1, -1):
            hit = self.cache.get(key(j))
            if hit is not None:
                self.cache.move_to_end(key(j))
                mem[:], rng[:] = hit
                first = j + 1
                break
        for j in range(first, count - 1):  # the seat's earlier decisions, replayed
            if r.stream is None:
                rng[:] = (_digest_key(key(j)), 0, 0, 0)
            self._ask(j, r, mem, rng)
            self._keep(key(j), mem, rng)
            self.replayed += 1
        if r.stream is None:
            rng[:] = (r.seed, 0, 0, 0)
        value = self._ask(count - 1, r, mem, rng)
        if r.stream is not None or rng[1] == 0:  # no draw: the same state as a replay's
            self._keep(key(count - 1), mem, rng)
        return value

    def _ask(self, j: int, r: Request, mem: np.ndarray, rng: np.ndarray) -> int:
        """The bot's decision ``j`` of the hand, with ``mem`` and ``rng`` carried."""
        view, smem, srng = self.slots.bot_view, self.slots.mem, self.slots.srng
        view[0] = self.views[j]
        smem[0, r.seat] = mem
        srng[0, r.seat] = rng
        trump = j == 0 and r.seat == r.hakem
        if self._exec:
            deck = self.slots.deck[0]  # what a protocol bot's request is written from
            deck[:5] = [c for c in range(52) if (r.first_five >> c) & 1] or [0] * 5
            self.slots.plays[0, : len(r.plays)] = r.plays
        try:
            value = (self._bot or self.bot).decide_slot(self.slots, 0, trump)
        except NumbaError as exc:  # the bot does not compile: numba's pages, in one line
            what = describe_compile_error(exc)
            raise ServedFault(what) from exc
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - the bot's error is one line
            raise ServedFault(f"the strategy {raised(exc)}") from exc
        mem[:] = smem[0, r.seat]
        rng[:] = srng[0, r.seat]
        if trump and not 0 <= value <= 3:
            raise ServedFault(f"the strategy named trump {value}, not a suit")
        if not trump and not (0 <= value < 52 and (int(self.views[j][V_LEGAL]) >> value) & 1):
            card = CARD_TEXTS[value] if 0 <= value < 52 else value
            raise ServedFault(f"the strategy played {card}, not a legal card")
        return int(value)

    def _keep(self, key: bytes, mem: np.ndarray, rng: np.ndarray) -> None:
        self.cache[key] = (mem.copy(), rng.copy())
        self.cache.move_to_end(key)
        if len(self.cache) > self.limit:
            self.cache.popitem(last=False)


class _Keys:
    """The cache key of the state after each of a request's decisions: all the seat
    knew at that decision (the trump call's, before the trump and the rest of the
    hand were known; each card's, with them and the plays before it)."""

    def __init__(self, r: Request, plays: np.ndarray, ns: list[int]) -> None:
        self.plays, self.ns = plays, ns
        stream = (r.stream or 0, r.stream is not None)
        self.call = struct.pack("<6qQ?", r.seat, r.hakem, r.first_five, *r.scores, r.target,
                                *stream)  # fmt: skip
        start = r.hand
        for n in ns[:-1]:
            if n >= 0:
                start |= 1 << r.plays[n]  # the seat's own earlier cards
        self.cards = self.call + struct.pack("<2q", r.trump, start)

    def __call__(self, j: int) -> bytes:
        n = self.ns[j]
        if n < 0:
            return self.call
        return self.cards + self.plays[:n].tobytes()


def _digest_key(key: bytes) -> int:
    """A stream key from what the seat knew (no ``stream`` field: see the module doc)."""
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "little")


def reply(served: Served, msg: object) -> tuple[dict, bool]:
    """The answer to one message of the protocol, and whether it was ``bye``. Raises
    :class:`RequestError` for a message or request that is not valid and
    :class:`ServedFault` when the served strategy fails."""
    if not isinstance(msg, dict):
        raise RequestError("a message must be a JSON object")
    kind = msg.get("type")
    if kind == "hello":
        served.ready()
        return {"type": "hello", "protocol": PROTOCOL, "name": served.strategy.name,
                "version": __version__, "extensions": [STREAM]}, False  # fmt: skip
    if kind == "decide":
        answers = [served.answer(r) for r in read_decide(msg)]
        return {"type": "answers", "answers": answers}, False
    if kind == "bye":
        return {"type": "bye"}, True
    raise RequestError(f"unknown message type {kind!r:.30}: expected hello, decide or bye")


def error(text: str) -> dict:
    """The protocol's error message, on one line."""
    return {"type": "error", "message": " ".join(text.split())}
