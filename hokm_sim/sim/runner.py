"""From a configuration to counts: batches of chunks on every core, errors caught.

The runner turns (strategies, seed, size) into calls of the pair's engine, through
its named interface (:class:`~hokm_sim.engine.boundary.Engine`).
Work is cut into chunks of a fixed number of deals (or matches) that do not
depend on the thread count; a batch is as many chunks as keep every core
busy for a moment. Counts are integers merged by addition, so the result is
bit-identical whatever the threads, batches or chunk size.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from copy import copy as copy_of
from dataclasses import dataclass

import numba
import numpy as np

from hokm_sim.bots import compiled
from hokm_sim.bots.called import CalledEngine
from hokm_sim.bots.compiling import compiling
from hokm_sim.bots.faults import replay_command
from hokm_sim.bots.host import given_timeout
from hokm_sim.bots.registry import Strategy, portable_spec
from hokm_sim.bots.stepped import SteppedEngine
from hokm_sim.cards import SUITS, card_str
from hokm_sim.engine import kernels as k
from hokm_sim.engine.boundary import (
    Engine,
    Fault,
    Hands,
    Matches,
    Params,
    Study,
    StudyRows,
    Tally,
    TraceHands,
    TraceMatch,
    first_fault,
)
from hokm_sim.engine.play import NO_FORCED_TRUMP
from hokm_sim.engine.records import ERR_BAD_TRUMP, N_COUNTS
from hokm_sim.errors import InputError, StoppedError
from hokm_sim.sim.interrupt import off_main
from hokm_sim.sim.specialise import Specialiser, specialise_after

HAND_CHUNK = 8192
"""Deals per chunk: small enough to spread over cores, big enough to hide overhead."""
MATCH_CHUNK = 256
"""Matches per chunk (a match is about 8-12 hands to target 7)."""
BATCH_SECONDS = 0.5
"""Batches grow (doubling) until one takes about this long.

A batch is the unit of progress, checkpoints and interruption, so it must
stay short; but every batch ends with the threads waiting for the slowest
one, and with fast bots a batch of a few chunks is so short that this wait
becomes a large share of it.
"""


def default_chunk(matches: bool, total: int, threads: int) -> int:
    """Deals (or matches) per chunk: the usual size, smaller for small runs.

    A run of slow bots is often small (150 matches of ``pimc``); in chunks of
    the usual size it would be one or two chunks and keep one core busy. At
    least four chunks a thread spread it. Results do not depend on the chunk.
    """
    usual = MATCH_CHUNK if matches else HAND_CHUNK
    return max(1, min(usual, -(-total // (4 * max(1, threads)))))


class StrategyFault(StoppedError):
    """A strategy returned an illegal card, a card it does not hold, or a bad suit."""

    def __init__(
        self,
        strategy: str,
        seed: int,
        match: int | None,
        hand: int,
        trick: int,
        card: int,
        seat: int,
        replay: str,
    ) -> None:
        self.strategy, self.seed, self.match, self.hand = strategy, seed, match, hand
        self.trick, self.card, self.seat, self.replay = trick, card, seat, replay
        if trick < 0:
            what = f"returned bad trump suit {card} (expected 0..3 for {', '.join(SUITS)})"
            where = "at trump choice"
        else:
            shown = card_str(card) if 0 <= card < 52 else str(card)
            what = f"played illegal card {shown}"
            where = f"trick {trick + 1}"
        place = f"match {match}, hand {hand}" if match is not None else f"hand {hand}"
        super().__init__(
            f"strategy {strategy!r} {what} (seat {seat}) at seed {seed}, {place}, {where}; "
            f"replay it with: {replay}"
        )

    def __reduce__(self):
        """Pickle by the constructor's arguments, so a fault crosses process boundaries."""
        args = (self.strategy, self.seed, self.match, self.hand, self.trick, self.card)
        return (StrategyFault, (*args, self.seat, self.replay))


class BotError(StoppedError):
    """A bot raised an exception (or the engine failed) while playing a deal or match."""

    def __init__(
        self,
        a: str,
        b: str,
        seed: int,
        index: int,
        matches: bool,
        copy: int,
        error: BaseException | str | None,
    ) -> None:
        self.a, self.b, self.seed, self.index, self.matches, self.copy = (
            a,
            b,
            seed,
            index,
            matches,
            copy,
        )
        if isinstance(error, BaseException):
            error = f"{type(error).__name__}: {' '.join(str(error).split())}".rstrip(": ")
        self.error = error
        who = f"strategy {a!r}" if a == b else f"strategy {a!r} or {b!r}"
        where = f"match {index}" if matches else f"hand {index}"
        teams = f"{a} on team {copy}, {b} on team {1 - copy}"
        what = f"raised {error}" if error else "raised an exception"
        if error and error.startswith("IndexError"):  # caught by the checking mode
            what += " (an array index past its end: mem and params have 16 slots)"
        super().__init__(
            f"{who} {what} at seed {seed}, {where} ({teams}); trick unknown: the engine "
            "stops at the exception"
        )

    def __reduce__(self):
        """Pickle by the constructor's arguments, so the error crosses process boundaries."""
        args = (self.a, self.b, self.seed, self.index, self.matches, self.copy, self.error)
        return (BotError, args)


def default_threads() -> int:
    """Threads used when none are asked for: every core numba may use."""
    return numba.config.NUMBA_NUM_THREADS


def check_threads(threads: int | None) -> int:
    """The thread count to use; raises ValueError naming the valid range."""
    limit = default_threads()
    if threads is None:
        return limit
    if not 1 <= threads <= limit:
        raise InputError(f"bad thread count {threads}: expected 1..{limit} on this machine")
    return threads


@contextmanager
def numba_threads(threads: int | None) -> Iterator[int]:
    """Within the block numba's parallel loops use ``threads`` (checked; None: every
    core); afterwards the count the calling thread had before, so a notebook that
    asked for one thread once is not left on one thread."""
    n = check_threads(threads)
    before = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        yield n
    finally:
        numba.set_num_threads(before)


@dataclass
class Batch:
    """Counts of one batch of finished work (and per-pair codes when asked for)."""

    start: int
    count: int
    counts: np.ndarray
    codes: np.ndarray | None = None


class Runner:
    """Plays A (team 0 first) against B with the pair's engine.

    ``checked`` asks for the engine of the checking mode (bounds checked), or
    not; None leaves it to :func:`~hokm_sim.bots.compiled.checking` (on for the
    first run of a new or edited bot file). ``engine`` is one of
    :data:`~hokm_sim.inlining.ENGINES` (None: ``$HOKM_SIM_ENGINE``, else ``auto``).
    The counts are the same either way.

    Building one finds the engine (hashing the bot files, deciding the checking
    mode), so a command builds it once and hands it to what prepares and plays the
    run; another process (a Dask worker) builds its own.
    """

    def __init__(
        self, a: Strategy, b: Strategy, checked: bool | None = None, engine: str | None = None
    ) -> None:
        self.a, self.b = a, b
        self.kind = compiled.engine_kind(engine)
        self.engine: Engine = compiled.engine_for(a, b, checked, self.kind)
        self.params = Params(a.params_array(), b.params_array())
        self._specialiser: Specialiser | None = None

    def playing(self, a: Strategy) -> Runner:
        """This runner with ``a`` in A's place: a strategy of the same bot files with
        other parameters, played by this engine, which is neither looked up nor hashed
        again (``tune`` moves A's parameters at every evaluation)."""
        if (a.trump, a.play) != (self.a.trump, self.a.play):
            raise ValueError(f"{a.name} is not made of {self.a.name}'s bot files")
        other = copy_of(self)
        other.a, other._specialiser = a, None
        other.params = Params(a.params_array(), self.params.b)
        return other

    def _specialise(self, seconds_left: float, matches: bool) -> None:
        """Between two batches of ``auto``: start compiling the specialised engine in the
        background when the run has more than :func:`specialise_after` seconds left, and
        move to it once it is compiled (:mod:`hokm_sim.sim.specialise`)."""
        if self.kind != "auto" or not isinstance(self.engine, CalledEngine):
            return
        if self.engine.checked:  # a new bot's checked run: the next one is fast
            return
        if self._specialiser is None:
            if seconds_left > specialise_after():
                a, b = portable_spec(self.a), portable_spec(self.b)
                self._specialiser = Specialiser(a, b, matches)
            return
        done = self._specialiser.done()
        if done is None:
            return
        self._specialiser.close()
        self.kind = "specialised" if done else "generic"
        if done:
            self.engine = compiled.engine_for(self.a, self.b, False, "specialised")

    @property
    def engine_key(self) -> str:
        """The engine's name without its mode: what a checkpoint records."""
        return compiled.engine_key(self.engine)

    def _fault(
        self, fault: Fault, seed: int, matches: bool, target: int, first_hakem: int = 0
    ) -> StrategyFault:
        team_a = fault.copy  # A plays team 0 in copy 0, team 1 in copy 1
        strat = self.a if (fault.seat & 1) == team_a else self.b
        match = fault.match if matches else None
        hand = fault.hand if matches else fault.match
        replay = replay_command(
            seed,
            self.a.name,
            self.b.name,
            fault.copy,
            match,
            hand,
            target,
            first_hakem,
            given_timeout(),
        )
        trick = -1 if fault.code == ERR_BAD_TRUMP else fault.trick
        return StrategyFault(strat.name, seed, match, hand, trick, fault.card, fault.seat, replay)

    def call(self, method: Callable, *args):
        """``method`` of the engine called with ``args``, off the main thread
        (:func:`~hokm_sim.sim.interrupt.off_main`): Ctrl-C is heard whatever the bots do,
        and ends the protocol bots of a call it leaves running."""
        try:
            return off_main(method, *args)
        except KeyboardInterrupt:
            self.engine.abort()
            raise

    def _play(self, seed: int, start: int, total: int, chunk: int, duplicate: bool, *,
              matches: bool, target: int, first_hakem: int, tally: Tally) -> None:  # fmt: skip
        """Play deals (or matches to ``target``) ``start .. start + total - 1`` into
        ``tally``, in chunks of ``chunk``."""
        if matches:
            job = Matches(seed, start, total, chunk, duplicate, target, first_hakem)
            self.call(self.engine.matches, self.params, job, tally)
        else:
            job = Hands(seed, start, total, chunk, duplicate, NO_FORCED_TRUMP)
            self.call(self.engine.hands, self.params, job, tally)

    def prepare(self, matches: bool = False) -> None:
        """Compile (or load from the disk cache) the entry point a run will call, by
        playing an empty range. Called inside the run's stop handler
        (:func:`~hokm_sim.sim.interrupt.graceful_interrupt`): a Ctrl-C or ``SIGTERM``
        while it compiles is heard, and the run then plays nothing."""
        what = (
            f"the specialised engine of {self.a.name} against {self.b.name} (once per pair)"
            if isinstance(self.engine, compiled.SpecialisedEngine)
            else f"a table of {self.a.name} against {self.b.name} (once per set of bots)"
            if isinstance(self.engine, SteppedEngine)
            else None  # the generic engine says what it compiles itself
        )
        with compiling(what) if what else nullcontext():
            self._play(0, 0, 0, 1, True, matches=matches, target=7, first_hakem=0,
                       tally=Tally.zeros(1))  # fmt: skip

    def _locate_raise(
        self,
        seed: int,
        start: int,
        count: int,
        matches: bool,
        target: int,
        duplicate: bool,
        first_hakem: int = 0,
    ) -> BotError:
        """The first deal (or match) of a range at which a bot raised, found by halving
        the range with the counting kernel on one thread, then traced for the error."""

        def raises(s: int, n: int) -> bool:
            try:
                self._play(seed, s, n, max(n, 1), duplicate, matches=matches, target=target,
                           first_hakem=first_hakem, tally=Tally.zeros(1))  # fmt: skip
            except Exception:
                return True
            return False

        lo, n = start, count
        with numba_threads(1):
            while n > 1:
                half = n // 2
                if raises(lo, half):
                    n = half
                else:
                    lo, n = lo + half, n - half
        for copy in (0, 1) if duplicate else (0,):
            try:
                if matches:
                    self.trace_match(seed, lo, target, copy, check=False, first_hakem=first_hakem)
                else:
                    self.trace_hands(seed, lo, 1, copy, check=False)
            except Exception as exc:
                return BotError(self.a.name, self.b.name, seed, lo, matches, copy, exc)
        return BotError(self.a.name, self.b.name, seed, lo, matches, 0, None)

    def batches(
        self,
        seed: int,
        total: int,
        *,
        matches: bool = False,
        target: int = 7,
        duplicate: bool = True,
        threads: int | None = None,
        start: int = 0,
        chunk: int | None = None,
        codes: bool = False,
        per_batch: int | None = None,
        first_hakem: int = 0,
    ) -> Iterator[Batch]:
        """Play deals (or matches) ``start .. start + total - 1``, yielding each batch.

        A match's first Hakem is found by house rule ``first_hakem`` (a code of
        ``hokm_sim.house.FIRST_HAKEM_METHODS``; 0, first ace, by default).

        With ``codes`` (duplicate only) each batch also carries every pair's
        outcome code in deal order (see ``hands_chunk``/``matches_chunk``).
        ``per_batch`` fixes the batch size (deals or matches); by default the
        first batch holds a few chunks per thread and later ones double until
        one takes about :data:`BATCH_SECONDS`.

        Raises :class:`StrategyFault` at the first strategy error (the
        earliest by deal or match index, whatever the threads).
        """
        threads = check_threads(threads)
        chunk = chunk or default_chunk(matches, total, threads)
        grow = per_batch is None
        per_batch = per_batch or chunk * max(4 * threads, 8)
        done = 0
        while done < total:
            n = min(per_batch, total - done)
            t0 = time.perf_counter()
            tally = Tally.zeros(-(-n // chunk), n if codes else 0)
            s = start + done
            # Chunks go to threads one at a time as they come free (dynamic
            # scheduling): this machine's cores change speed from moment to moment.
            previous = numba.set_parallel_chunksize(1)
            try:
                with numba_threads(threads):
                    self._play(seed, s, n, chunk, duplicate, matches=matches, target=target,
                               first_hakem=first_hakem, tally=tally)  # fmt: skip
            except StoppedError:
                self._unsound()
                raise  # a plain-Python bot's fault, already located
            except Exception as exc:  # a bot raised inside the engine
                self._unsound()
                raise self._locate_raise(
                    seed, s, n, matches, target, duplicate, first_hakem
                ) from exc
            finally:
                numba.set_parallel_chunksize(previous)
            fault = first_fault(tally.errs)
            if fault is not None:
                self._unsound()
                raise self._fault(fault, seed, matches, target, first_hakem)
            took = time.perf_counter() - t0
            if grow and took < BATCH_SECONDS / 2:
                per_batch *= 2
            yield Batch(s, n, tally.counts.sum(axis=0), tally.codes if codes else None)
            done += n
            self._specialise(took * (total - done) / n, matches)

    def _unsound(self) -> None:
        """A bot stopped the run: in the checking mode, its next run is checked again."""
        if self.engine.checked:
            compiled.forget_seen()

    def counts(
        self, seed: int, total: int, *, progress: Callable[[int], None] | None = None, **kw
    ) -> np.ndarray:
        """All counts of a run, summed; ``progress(n)`` is told of each finished batch."""
        out = np.zeros(N_COUNTS, np.int64)
        for b in self.batches(seed, total, **kw):
            out += b.counts
            if progress:
                progress(b.count)
        return out

    def trace_hands(
        self, seed: int, start: int, count: int, copy: int = 0, check: bool = True
    ) -> np.ndarray:
        """Trace rows of deals ``start .. start + count - 1``.

        Raises :class:`StrategyFault` at a strategy error, unless ``check`` is
        false: then the rows end with the faulty hand, played up to the fault.
        """
        job = TraceHands(seed, start, count, copy, NO_FORCED_TRUMP)
        rows = self.call(self.engine.trace_hands, self.params, job)
        if check:
            self._raise_row_error(rows, seed, False, 7, copy)
        return rows

    def trace_match(
        self,
        seed: int,
        match: int,
        target: int,
        copy: int = 0,
        check: bool = True,
        first_hakem: int = 0,
    ) -> np.ndarray:
        """Trace rows of every hand of one match (``check`` as for :meth:`trace_hands`;
        the first Hakem by house rule ``first_hakem``)."""
        job = TraceMatch(seed, match, copy, target, first_hakem)
        rows = self.call(self.engine.trace_match, self.params, job)
        if check:
            self._raise_row_error(rows, seed, True, target, copy, first_hakem)
        return rows

    def study(self, seed: int, start: int, count: int, suits: bool) -> np.ndarray:
        """The trump study's rows of deals ``start .. start + count - 1`` (``study_chunk``
        in :mod:`hokm_sim.engine.kernels`), every suit played as trump when ``suits``, on
        the threads numba is set to; raises :class:`StrategyFault` at a strategy error."""
        out = StudyRows.zeros(count, -(-count // HAND_CHUNK))
        job = Study(seed, start, count, HAND_CHUNK, suits)
        self.call(self.engine.study, self.params, job, out)
        fault = first_fault(out.errs)
        if fault is not None:
            raise self._fault(fault, seed, False, 7)
        return out.rows

    def _raise_row_error(self, rows, seed, matches, target, copy, first_hakem=0) -> None:
        if rows.shape[0] and rows[-1, k.T_ERROR] != 0:
            r = [int(x) for x in rows[-1]]
            fault = Fault(
                code=r[k.T_ERROR],
                match=r[k.T_MATCH] if matches else r[k.T_HAND],
                hand=r[k.T_HAND] if matches else 0,
                copy=copy,
                seat=r[k.T_ERR_SEAT],
                trick=r[k.T_ERR_TRICK],
                card=r[k.T_ERR_CARD],
            )
            raise self._fault(fault, seed, matches, target, first_hakem)


def measure(
    runner: Runner, hands: int, threads: int | None, seed: int = 1, repeat: int = 1
) -> dict:
    """Hands per second of ``runner`` after compilation (independent hands, no duplicate).

    The same ``hands`` are timed ``repeat`` times in a row. ``hands_per_sec``
    is the best run, as :mod:`timeit` reports the fastest: interference from
    other work only ever slows a run, so the fastest is the closest to what
    the code can do (``benchmarks/steadiness.py`` shows how unsteady a machine
    can be). The median and every run are reported beside it.
    """
    threads = check_threads(threads)
    t0 = time.perf_counter()
    runner.counts(seed, 2 * HAND_CHUNK, duplicate=False, threads=threads)  # compile or load
    ready = time.perf_counter() - t0
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        runner.counts(seed, hands, duplicate=False, threads=threads)
        runs.append(hands / (time.perf_counter() - t0))
    return {
        "hands_per_sec": max(runs),
        "median_hands_per_sec": float(np.median(runs)),
        "runs": runs,
        "hands": hands,
        "seconds": hands / max(runs),
        "threads": threads,
        "warmup_seconds": ready,
        "a": runner.a.name,
        "b": runner.b.name,
        "cpu_count": os.cpu_count(),
    }
