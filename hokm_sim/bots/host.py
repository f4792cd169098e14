"""The host side of ``hokm-bot/1``: protocol bots' decisions at a table of the stepper.

A table with an ``exec:`` part runs on the stepper (:mod:`hokm_sim.bots.stepped`)
as one with a plain-Python part does: numba advances every hand in flight
until it waits for a decision made outside it. Here the decisions a protocol
bot owes are asked in one ``decide`` message per step, written straight
from the slot arrays (:mod:`hokm_sim.protocol.encode`), and the answers read
back (:mod:`hokm_sim.protocol.answers`), checked, and written into the slots.

Each thread that plays chunks leases one process per bot for its chunk, so a
hand's requests reach one process in order (``hokm-sim serve`` relies on it
to skip replaying the hand); processes are started on first use, once per
run and thread, and kept by the :class:`ExecHost` until it is closed, when
each is sent ``bye``. Anything that goes wrong with a process or a line
(:class:`~hokm_sim.protocol.child.ChildFault`,
:class:`~hokm_sim.protocol.answers.AnswerError`) fails the message's first
hand by deal or match; a bad suit or an illegal card fails its own request;
the stepper turns either into the one-line fault of the run.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
from numba import njit

from hokm_sim.bots import execspec
from hokm_sim.bots.registry import BotFile
from hokm_sim.engine import stepper as st
from hokm_sim.engine.view import V_HAND, V_LEGAL, V_TRUMP
from hokm_sim.errors import InputError
from hokm_sim.protocol.answers import AnswerError, bad_answer, read_answers
from hokm_sim.protocol.child import BotProcess, ChildFault
from hokm_sim.protocol.encode import buffer_for, encode_decide
from hokm_sim.protocol.wire import STREAM


@dataclass(frozen=True)
class Limits:
    """How long a protocol bot may take: to answer ``hello``, and a ``decide`` message
    (``per_message`` plus ``per_request`` for each of its requests)."""

    startup: float = 60.0
    """For ``hello``: a bot may load and compile itself first, as ``hokm-sim serve`` does
    (a new bot file's unit, or ``pimc``'s solver, takes seconds to a minute of CPU), so
    start-up has a limit of its own, longer than a decision's (UCI's ``isready`` is the
    same idea)."""
    per_message: float = 10.0
    per_request: float = 0.01

    def message(self, n: int) -> float:
        """The limit for a message of ``n`` requests, in seconds."""
        return self.per_message + self.per_request * n


_limits = Limits()


def limits() -> Limits:
    """The limits protocol bots are held to now."""
    return _limits


def set_limits(new: Limits) -> Limits:
    """Hold protocol bots to ``new`` from now on; the limits before."""
    global _limits
    old, _limits = _limits, new
    return old


def timeout_limits(seconds: float | None) -> Limits:
    """The limits of ``--bot-timeout SECONDS``: ``seconds`` to start and ``seconds`` plus
    10 ms per request for each message (None: the limits now). Given, it holds start-up
    to the same limit as a decision: whoever sets one limit gets what they set."""
    if seconds is None:
        return _limits
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not 0 < seconds < math.inf
    ):
        raise InputError(
            f"bad bot timeout {seconds!r}: expected a number of seconds > 0", "bot_timeout"
        )
    return Limits(startup=float(seconds), per_message=float(seconds))


def given_timeout() -> float | None:
    """The seconds of ``--bot-timeout`` (``bot_timeout=``) in force, None for the default
    limits: what a recorded command must give again to play as this one did."""
    return None if _limits == Limits() else _limits.per_message


@contextmanager
def bot_timeout(seconds: float | None) -> Iterator[Limits]:
    """Within the block, bots are held to :func:`timeout_limits` of ``seconds``."""
    old = set_limits(timeout_limits(seconds))
    try:
        yield _limits
    finally:
        set_limits(old)


@njit(cache=True)
def _waiting(wait, codes, view):
    """The slots waiting for one of ``codes``, and whether each asks for a card (1) or
    a trump call (0)."""
    n = 0
    for i in range(wait.shape[0]):
        for c in codes:
            if wait[i] == c:
                n += 1
    idx = np.empty(n, np.int64)
    cards = np.empty(n, np.int64)
    n = 0
    for i in range(wait.shape[0]):
        for c in codes:
            if wait[i] == c:
                idx[n] = i
                cards[n] = 1 if view[i, V_TRUMP] >= 0 else 0
                n += 1
    return idx, cards


@njit(cache=True)
def _take(idx, cards, values, view, ctl):
    """Write the answers that are a suit or a legal card into the slots; the positions
    (in ``idx``) of the others."""
    bad = np.empty(idx.shape[0], np.int64)
    n = 0
    for r in range(idx.shape[0]):
        i = idx[r]
        v = values[r]
        card_ok = v >= 0 and (view[i, V_LEGAL] >> v) & 1 == 1
        if card_ok if cards[r] == 1 else 0 <= v <= 3:
            ctl[i, st.K_ANSWER] = v
            ctl[i, st.K_HAVE] = 1
        else:
            bad[n] = r
            n += 1
    return bad[:n]


def write_decide(slots: st.Slots, idx: np.ndarray, stream: bool, buf: np.ndarray) -> int:
    """Write the ``decide`` message for slots ``idx`` into ``buf``
    (:func:`~hokm_sim.protocol.encode.encode_decide`); its length."""
    return encode_decide(idx, slots.bot_view, slots.srng, slots.deck, slots.plays, stream, buf)


class _Bot:
    """One protocol bot at the table (one command and files), and its idle processes."""

    def __init__(self, bot: BotFile, codes: tuple[int, ...]) -> None:
        self.bot = bot
        self.codes = np.array(codes, np.int64)
        self.idle: list[BotProcess] = []


class ExecHost:
    """The protocol bots of a table: who answers which wait code, and their processes."""

    def __init__(self, parts: dict[int, BotFile]) -> None:
        groups: dict[str, list] = {}
        for code, bot in parts.items():
            key = execspec.identity(bot.command, bot.files)
            groups.setdefault(key, [bot, []])[1].append(code)
        self.bots = [_Bot(bot, tuple(codes)) for bot, codes in groups.values()]
        self._lock = threading.Lock()
        self._all: list[BotProcess] = []

    @contextmanager
    def lease(self) -> Iterator[Lease]:
        """Processes for one chunk on one thread, given back when the chunk is done."""
        lease = Lease(self)
        try:
            yield lease
        finally:
            lease.release()

    def _checkout(self, bot: _Bot) -> BotProcess:
        with self._lock:
            while bot.idle:
                proc = bot.idle.pop()
                if proc.alive:
                    return proc
        proc = BotProcess(bot.bot.command)
        with self._lock:
            self._all.append(proc)
        proc.hello(limits().startup)
        return proc

    def _checkin(self, bot: _Bot, proc: BotProcess) -> None:
        with self._lock:
            if proc.alive:
                bot.idle.append(proc)

    def _take_all(self) -> list[BotProcess]:
        """Every process, forgotten by the host (the next use starts new ones)."""
        with self._lock:
            procs, self._all = self._all, []
            for bot in self.bots:
                bot.idle.clear()
        return procs

    def abort(self) -> None:
        """Kill every process at once (Ctrl-C, an error elsewhere), from any thread
        (:meth:`~hokm_sim.protocol.child.BotProcess.stop`)."""
        for proc in self._take_all():
            proc.stop()

    def close(self) -> None:
        """Say ``bye`` to every process and wait for it to go (killed if it does not)."""
        for proc in self._take_all():
            if proc.alive:
                proc.bye(min(limits().per_message, 5.0))
            else:
                proc.kill()


class Lease:
    """One chunk's processes (at most one per bot), asked for the chunk's decisions."""

    def __init__(self, host: ExecHost) -> None:
        self.host = host
        self._procs: dict[int, BotProcess] = {}
        self._failed: set[int] = set()
        self._buf: np.ndarray | None = None

    def release(self) -> None:
        for i, proc in self._procs.items():
            self.host._checkin(self.host.bots[i], proc)
        self._procs.clear()

    def decide(self, slots: tuple, wait: np.ndarray) -> list[tuple[int, int, str]]:
        """Ask each bot for the decisions of the slots waiting for it and write its
        answers in; ``(slot, wait code, what went wrong)`` of each failed request."""
        failures: list[tuple[int, int, str]] = []
        for b, bot in enumerate(self.host.bots):
            idx, cards = _waiting(wait, bot.codes, slots.bot_view)
            if idx.size == 0:
                continue
            ctl = slots.ctl
            if b in self._failed:  # its process failed: nothing more is asked of it
                ctl[idx, st.K_STATE] = st.S_IDLE
                continue
            proc = None
            try:
                proc = self._process(b, bot)
                failures += self._ask(proc, idx, cards, slots, wait)
            except (ChildFault, AnswerError) as fault:
                self._failed.add(b)
                first = idx[np.argmin(ctl[idx, st.K_JOB])]
                what = fault.what
                if proc is not None and idx.size > 1:  # the message failed, not the hello
                    what += f" (first of {idx.size} requests in the message)"
                failures.append((int(first), int(wait[first]), what))
                # the others stop here; the first's state still says what it was asked
                # (a trump call or a card), for the fault's line, until the stepper stops it
                ctl[idx[idx != first], st.K_STATE] = st.S_IDLE
        return failures

    def _process(self, b: int, bot: _Bot) -> BotProcess:
        """The lease's process of bot ``b``, started (and greeted) if it has none yet."""
        proc = self._procs.get(b)
        if proc is None:
            proc = self._procs[b] = self.host._checkout(bot)
        return proc

    def _ask(self, proc: BotProcess, idx, cards, slots: tuple, wait: np.ndarray):
        view = slots.bot_view
        self._buf = buffer_for(idx.size, self._buf)
        n = write_decide(slots, idx, STREAM in proc.extensions, self._buf)
        line = proc.exchange(memoryview(self._buf)[:n], limits().message(idx.size), "decide")
        values = read_answers(line, cards)
        out = []
        for r in _take(idx, cards, values, view, slots.ctl).tolist():
            i = int(idx[r])
            what = bad_answer(line, r, bool(cards[r]), int(values[r]), int(view[i, V_LEGAL]),
                              int(view[i, V_HAND]))  # fmt: skip
            out.append((i, int(wait[i]), what))
        return out
