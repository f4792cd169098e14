"""The engine for a table where some part is played by plain-Python bots.

It is an :class:`~hokm_sim.engine.boundary.Engine` as a compiled engine is (the
same methods, jobs and results), so the runner, backends, checkpoints and
reports work as they do for compiled bots. Underneath, each chunk of deals (or matches)
is a batch of hands in flight (:mod:`hokm_sim.engine.stepper`): one numba
call advances every hand to its next Python decision, then the Python bot
decides for all of them — one call per decision, or one call for the whole
batch if it is :func:`~hokm_sim.bots.pyrules.batched` — and so on until the
chunk is done. A protocol bot (``exec:``) is asked for all of them in one
message (:mod:`hokm_sim.bots.host`). Compiled bots at the table still decide
inside numba.

Chunks run on as many threads as numba is set to; the numba steps release
the GIL, and the Python bots are called under one lock, so a bot need not
be thread-safe; each thread has its own process of a protocol bot. Results
are the same for any thread count or batch size.

While the bots decide, BLAS libraries (OpenBLAS, MKL, through numpy or a
neural network's library) run on one thread: a decision is small, and a
pool of BLAS threads started and stopped in every one of them made a
batched numpy bot ten times slower (docs/python-bots.md).
"""

from __future__ import annotations

import threading
import weakref
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from types import ModuleType

import numba
import numpy as np
from threadpoolctl import threadpool_limits

from hokm_sim.bots.compiled import CHECKED
from hokm_sim.bots.faults import (
    PythonBotError,
    check_answer,
    check_batch,
    raised,
    replay_command,
    shown,
)
from hokm_sim.bots.host import ExecHost, given_timeout
from hokm_sim.bots.observation import Observation, Observations
from hokm_sim.bots.pyrules import is_batched
from hokm_sim.bots.registry import Strategy
from hokm_sim.engine import kernels as k
from hokm_sim.engine import stepper as st
from hokm_sim.engine.boundary import (
    ERR_SIZE,
    Hands,
    Matches,
    Params,
    Study,
    StudyRows,
    Tally,
    TraceHands,
    TraceMatch,
    exact,
    fault_in,
    first_fault,
)
from hokm_sim.engine.records import R_NCARDS, R_TRICKS
from hokm_sim.engine.view import V_SEAT, V_TRICK_NO

SLOTS = 2048
"""Hands in flight per chunk: a batched bot gets up to this many decisions per call."""

_WAIT_CODES = (st.W_TRUMP_A, st.W_CARD_A, st.W_TRUMP_B, st.W_CARD_B)


@dataclass(frozen=True)
class _Part:
    """A part (trump call or card play) of a strategy that is played in Python."""

    fn: object
    batched: bool
    strategy: str
    names: tuple[str, ...]
    row: int  # 0: trump parameters, 1: play parameters
    side: int  # 0: A, 1: B


@dataclass
class _Failure:
    """The earliest Python bot failure of a chunk, by job."""

    job: int
    hand: int
    copy: int
    trick: int
    seat: int
    strategy: str
    what: str
    slot: int = -1


STOPPED_OUTSIDE = -1
"""A trace row's error code (``T_ERROR``) for a hand a plain-Python or protocol bot
stopped: the row holds the hand up to the fault, and the fault is the exception's."""


def python_parts(a: Strategy | None, b: Strategy | None) -> dict[int, _Part]:
    """The parts of A and B played in Python, by the stepper's wait code (None: a side
    with no strategy, whose seats are an agent's)."""
    out = {}
    for side, s in enumerate((a, b)):
        if s is None:
            continue
        for row, (bot, fname) in enumerate(((s.trump, "choose_trump"), (s.play, "play_card"))):
            if bot.kind == "python":
                fn = getattr(bot.module(), fname)
                out[_WAIT_CODES[2 * side + row]] = _Part(
                    fn, is_batched(fn), s.name, tuple(bot.params), row, side
                )
    return out


def exec_parts(a: Strategy | None, b: Strategy | None) -> dict[int, _Part]:
    """The parts of A and B played by protocol bots, by the stepper's wait code (None: as
    for :func:`python_parts`)."""
    out = {}
    for side, s in enumerate((a, b)):
        if s is None:
            continue
        for row, bot in enumerate((s.trump, s.play)):
            if bot.kind == "exec":
                out[_WAIT_CODES[2 * side + row]] = _Part(bot, True, s.name, (), row, side)
    return out


class SteppedEngine:
    """The :class:`~hokm_sim.engine.boundary.Engine` of a table with plain-Python or
    protocol parts (see the module doc), named ``name``, stepping ``module``'s ``step``."""

    def __init__(self, a: Strategy, b: Strategy, module: ModuleType, name: str) -> None:
        self.name = name
        self.checked = name.endswith(CHECKED)
        self.a, self.b = a, b
        self._step = module.step
        self._parts = python_parts(a, b)
        self._exec = exec_parts(a, b)
        self._host = ExecHost({c: p.fn for c, p in self._exec.items()}) if self._exec else None
        if self._host is not None:  # bye to the bots when the engine goes
            weakref.finalize(self, self._host.close)
        self._lock = threading.Lock()
        self.slots = SLOTS

    # --- the engine's methods -------------------------------------------------------

    def hands(self, params: Params, job: Hands, tally: Tally) -> None:
        """Play deals into ``tally``, as ``hands_chunk``."""
        seed, start, total, chunk, duplicate, forced = exact(job)
        self._chunks(st.M_HANDS, params, seed, start, total, chunk, duplicate, forced, 0, 7,
                     tally.counts, tally.errs, tally.codes, None)  # fmt: skip

    def matches(self, params: Params, job: Matches, tally: Tally) -> None:
        """Play matches into ``tally``, as ``matches_chunk``."""
        seed, start, total, chunk, duplicate, target, method = exact(job)
        self._chunks(st.M_MATCHES, params, seed, start, total, chunk, duplicate, target, 0,
                     target, tally.counts, tally.errs, tally.codes, None, method)  # fmt: skip

    def study(self, params: Params, job: Study, out: StudyRows) -> None:
        """Counterfactual-trump rows of deals into ``out``, as ``study_chunk``."""
        seed, start, total, chunk, suits = exact(job)
        counts = np.zeros((out.errs.shape[0], 1), np.int64)
        self._chunks(st.M_STUDY, params, seed, start, total, chunk, False, int(suits), 0, 7,
                     counts, out.errs, np.zeros(0, np.int8), out.rows)  # fmt: skip

    def trace_hands(self, params: Params, job: TraceHands) -> np.ndarray:
        """Trace rows of deals, stopping at a fault."""
        seed, start, count, copy, forced = exact(job)
        rows = np.full((count, k.TRACE_SIZE), -1, np.int64)
        err = np.zeros(ERR_SIZE, np.int64)
        self._one(st.M_TRACE_HANDS, params, seed, start, count, copy, forced, 7, err, rows)
        fault = fault_in(err)
        return rows if fault is None else rows[: fault.match - start + 1]

    def trace_match(self, params: Params, job: TraceMatch) -> np.ndarray:
        """Trace rows of every hand of one match, stopping at a fault."""
        seed, match, copy, target, method = exact(job)
        rows = np.full((2 * target, k.TRACE_SIZE), -1, np.int64)
        err = np.zeros(ERR_SIZE, np.int64)
        self._one(st.M_TRACE_MATCH, params, seed, match, 1, copy, target, target, err, rows,
                  method)  # fmt: skip
        fault = fault_in(err)
        if fault is not None:
            return rows[: fault.hand + 1]
        return rows[: int((rows[:, k.T_MATCH] >= 0).sum())]

    # --- driving the stepper ---------------------------------------------------

    def _one(self, mode, params, seed, start, count, arg, arg2, target, err, out, method=0):
        counts = np.zeros(1, np.int64)
        with one_blas_thread():
            fail = self._drive(mode, params, seed, False, arg, arg2, start, count, counts,
                               err, np.zeros(0, np.int8), out, method)  # fmt: skip
        self._end_bots_at_fault(fail, [err])
        self._raise_if_first(fail, [err], seed, mode, target, method, (out, start))

    def _chunks(self, mode, params, seed, start, total, chunk, dup, arg, arg2, target, counts,
                errs, codes, out, method=0):  # fmt: skip
        stop = [np.iinfo(np.int64).max]  # the earliest failed job of any chunk so far

        def one(i: int) -> _Failure | None:
            s = start + i * chunk
            if s > stop[0]:
                return None  # every job of it comes after a failure: it cannot matter
            n = min(chunk, start + total - s)
            c = codes[s - start : s - start + n] if codes.shape[0] > 0 else codes
            o = out[s - start : s - start + n] if out is not None else np.zeros((0, 1), np.int64)
            return self._drive(mode, params, seed, dup, arg, arg2, s, n, counts[i], errs[i], c, o,
                               method, stop)  # fmt: skip

        n_chunks = counts.shape[0]
        threads = min(numba.get_num_threads(), n_chunks)
        if total <= 0:
            self._warm(mode, params, seed)
            return
        try:
            with one_blas_thread():
                if threads <= 1:
                    fails = [one(i) for i in range(n_chunks)]
                else:
                    with ThreadPoolExecutor(threads) as pool:
                        fails = list(pool.map(one, range(n_chunks)))
        except BaseException:
            self.abort()  # Ctrl-C or an error: no bot waits for the threads
            raise
        found = [f for f in fails if f is not None]
        self._end_bots_at_fault(found, errs)
        self._raise_if_first(min(found, key=lambda f: (f.job, f.hand)) if found else None,
                             list(errs), seed, mode, target, method)  # fmt: skip

    def abort(self) -> None:
        """End the protocol bots now, from any thread: a call left running after Ctrl-C
        (:func:`~hokm_sim.sim.interrupt.off_main`) must not leave a bot behind; the
        next call starts new ones."""
        if self._host is not None:
            self._host.abort()

    def _end_bots_at_fault(self, failed, errs) -> None:
        """A fault stops the run: its protocol bots are sent bye now (new ones start if
        the engine plays again)."""
        if self._host is not None and (failed or first_fault(errs) is not None):
            self._host.close()

    def _warm(self, mode, params, seed) -> None:
        """Compile (or load) the step function: one slot, no jobs."""
        state = st.StepState(st.new_slots(1), st.new_jobs(0, 0, 0), np.zeros(1, np.int64),
                             np.zeros(ERR_SIZE, np.int64), np.zeros(0, np.int8),
                             np.zeros((0, 1), np.int64))  # fmt: skip
        self._step(params, exact(st.Step(mode, seed, False, 0, 0)), state)

    def _raise_if_first(self, fail, errs, seed, mode, target, method=0, traced=None) -> None:
        """Raise a Python bot's failure unless the engine found an earlier fault. The
        rows of a trace (``traced``: the rows and their first job) go with it as its
        ``stopped``: ``(rows, what)``, the rows up to the hand it stopped, that one
        played up to the fault (``show``)."""
        if fail is None:
            return
        fault = first_fault(errs)
        if fault is not None and (fault.match, fault.hand) < (fail.job, fail.hand):
            return  # the runner reports the engine's earlier fault
        matches = mode in (st.M_MATCHES, st.M_TRACE_MATCH)
        match = fail.job if matches else None
        hand = fail.hand if matches else fail.job
        place = f"match {match}, hand {hand}" if matches else f"hand {hand}"
        where = "at trump choice" if fail.trick < 0 else f"trick {fail.trick + 1}"
        replay = replay_command(seed, self.a.name, self.b.name, fail.copy, match, hand, target,
                                method, given_timeout())  # fmt: skip
        exc = PythonBotError(
            f"strategy {fail.strategy!r} {fail.what} (seat {fail.seat}) at seed {seed}, "
            f"{place}, {where}; replay it with: {replay}"
        )
        if traced is not None:
            rows, start = traced
            exc.stopped = (rows[: (fail.hand if matches else fail.job - start) + 1], fail.what)
        raise exc

    def _drive(self, mode, params, seed, dup, arg, arg2, start, count, counts, err, codes, out,
               method=0, stop=None):  # fmt: skip
        """Play jobs ``start .. start + count - 1`` in one batch of slots (matches: the first
        Hakem by house rule ``method``); the earliest Python failure, if any (the engine's
        own faults are in ``err``). ``stop``, shared by the chunks of one call, holds the
        earliest failed job of any: no job after it is started, and this chunk's failures
        lower it."""
        slots = st.new_slots(max(1, min(count, self.slots)))
        jobs = st.new_jobs(start, count, method)
        job = exact(st.Step(mode, seed, dup, arg, arg2))
        state = st.StepState(slots, jobs, counts, err, codes, out)
        named = {code: dict(zip(p.names, params[p.side][p.row], strict=False))
                 for code, p in self._parts.items()}  # fmt: skip
        failure: list[_Failure | None] = [None]
        with self._host.lease() if self._host is not None else nullcontext() as lease:
            while self._step(params, job, state):
                wait = slots.wait
                with self._lock:
                    for code, part in self._parts.items():
                        idx = np.flatnonzero(wait == code)
                        if idx.size:
                            self._decide(part, named[code], idx, slots, jobs, failure)
                if lease is not None:
                    for i, code, what in lease.decide(slots, wait):
                        self._fail(self._exec[code], i, what, slots, jobs, failure)
                if stop is not None:
                    fault = fault_in(err)
                    if fault is not None:
                        stop[0] = min(stop[0], fault.match)
                    if failure[0] is not None:
                        stop[0] = min(stop[0], failure[0].job)
                    jobs[st.J_LIMIT] = min(jobs[st.J_LIMIT], stop[0])
        if failure[0] is not None and mode in (st.M_TRACE_HANDS, st.M_TRACE_MATCH):
            _trace_stopped(mode, slots, failure[0], start, out)
        return failure[0]

    def _decide(self, part: _Part, params, idx, slots, jobs, failure) -> None:
        """Ask ``part`` for the decisions of slots ``idx``; record its failures and stop
        their jobs (a failed batch stops every slot of it)."""
        failed = decide(part, params, idx, slots)
        for i, what in failed:
            self._fail(part, i, what, slots, jobs, failure)
        if failed and part.batched:
            slots.ctl[idx, st.K_STATE] = st.S_IDLE

    def _fail(self, part: _Part, i: int, what: str, slots, jobs, failure) -> None:
        """Record slot ``i``'s failure if it is the earliest, and stop its job."""
        ctl = slots.ctl
        matchlike = int(ctl[i, st.K_H])
        job = int(ctl[i, st.K_JOB])
        trick = -1 if ctl[i, st.K_STATE] == st.S_TRUMP else int(slots.bot_view[i, V_TRICK_NO])
        f = _Failure(job, matchlike, int(ctl[i, st.K_COPY]), trick, int(slots.bot_view[i, V_SEAT]),
                     part.strategy, what, i)  # fmt: skip
        if failure[0] is None or (f.job, f.hand) < (failure[0].job, failure[0].hand):
            failure[0] = f
        jobs[st.J_LIMIT] = min(jobs[st.J_LIMIT], job)
        ctl[i, st.K_STATE] = st.S_IDLE


def _trace_stopped(mode: int, slots: st.Slots, f: _Failure, start: int, out: np.ndarray) -> None:
    """Write the trace row of the hand ``f`` stopped, up to the fault (the cards played so
    far, marked :data:`STOPPED_OUTSIDE`), as the engine writes one its own fault stopped."""
    c = slots.ctl[f.slot]
    res = slots.res[f.slot].copy()  # the hand's totals are written when it ends: so far
    res[R_NCARDS] = 0 if f.trick < 0 else c[st.K_N]
    res[R_TRICKS], res[R_TRICKS + 1] = c[st.K_T0], c[st.K_T1]
    work = st.slot_work.py_func(slots, f.slot)._replace(res=res)
    if mode == st.M_TRACE_HANDS:
        row, match, hand, score = out[f.job - start], 0, f.job, (0, 0)
    else:
        row, match, hand, score = out[f.hand], f.job, f.hand, (c[st.K_SCORE0], c[st.K_SCORE1])
    k.trace_row.py_func(row, work, match, hand, *score)
    row[k.T_ERROR], row[k.T_ERR_SEAT] = STOPPED_OUTSIDE, f.seat
    row[k.T_ERR_TRICK], row[k.T_ERR_CARD] = f.trick, -1


def decide(part: _Part, params: dict, idx: np.ndarray, slots: st.Slots) -> list[tuple[int, str]]:
    """Ask ``part`` for the decisions of slots ``idx`` and write the answers into the slots;
    the slots it failed at, each with what went wrong (a batched part that fails, fails
    once: at the slot of the earliest job of the batch)."""
    ctl = slots.ctl
    if part.batched:
        view = slots.bot_view[idx]
        seats = view[:, V_SEAT]
        obs = Observations(view, slots.mem[idx, seats], slots.srng[idx, seats], params)
        try:
            answers, why = check_batch(part.fn(obs), idx.size)
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - a bot's fault to report
            answers, why = None, raised(exc)
        if answers is None:
            first = int(idx[np.argmin(ctl[idx, st.K_JOB])])
            return [(first, f"{why} (in a batch of {idx.size})")]
        slots.mem[idx, seats] = obs.mem
        slots.srng[idx, seats] = obs.rng.state
        ctl[idx, st.K_ANSWER] = answers
        ctl[idx, st.K_HAVE] = 1
        return []
    view = slots.bot_view
    fn = part.fn
    failed = []
    for i in idx.tolist():
        try:
            value = fn(Observation(view[i].tolist(), slots, i, params))
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - a bot's fault to report
            failed.append((i, raised(exc)))
            continue
        answer = check_answer(value)
        if answer is None:
            failed.append((i, f"returned {shown(value)}, not an integer"))
            continue
        ctl[i, st.K_ANSWER] = answer
        ctl[i, st.K_HAVE] = 1
    return failed


@contextmanager
def one_blas_thread():
    """BLAS on one thread within the block (the bots' decisions, see the module doc);
    the libraries are looked up each time, so one a bot loaded late is limited too."""
    with threadpool_limits(limits=1, user_api="blas"):
        yield
