"""Hands in flight, for numba: the card loop that can stop for a decision made in Python.

:mod:`hokm_sim.engine.play` plays a hand from its first card to its last in
one call, asking bots that are compiled into it. A bot written in plain
Python (a neural network, a search in Python, a table lookup) cannot be
called from there. Here a *batch* of hands is kept open in arrays, one
*slot* per hand, and :func:`make_stepper`'s ``step`` advances every slot
until it needs a decision from a Python bot (or has no work left); the
caller makes those decisions for all waiting slots at once, writes the
answers into the slots, and calls ``step`` again. Compiled bots at the same
table are still inlined and decide inside ``step``.

What a slot plays is a *job*, numbered like the compiled kernels'
(:mod:`hokm_sim.engine.kernels`) deals and matches, with the same streams,
Hakems, duplicate copies and counts, so a Python port of a compiled bot gets
bit-identical results:

- ``M_HANDS``: deal ``j``, both copies in duplicate, counted;
- ``M_MATCHES``: match ``j`` to ``arg`` points, both copies, counted;
- ``M_STUDY``: deal ``j`` with the Hakem's choice, then each trump forced
  (``arg`` true), into ``out[j - start]`` as ``kernels.study_chunk``;
- ``M_TRACE_HANDS``: deal ``j`` in copy ``arg`` with trump ``arg2`` (-1:
  chosen), its trace row into ``out[j - start]``;
- ``M_TRACE_MATCH``: match ``j`` in copy ``arg`` to ``arg2`` points, a trace
  row per hand into ``out[h]`` (a match to ``t`` has fewer than ``2 t``
  hands).

A strategy error stops no other slot, but no job after the earliest failed
one is started and the error kept in ``err`` is the earliest by job, so the
outcome does not depend on the number of slots.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from hokm_sim.engine.boundary import E_CODE, E_MATCH
from hokm_sim.engine.kernels import note_error, trace_row
from hokm_sim.engine.play import (
    CHOOSE_ONLY,
    Work,
    advance_match,
    bad_card,
    bad_trump,
    deal_hand,
    draw_first_hakem,
    end_hand,
    end_trick,
    engine_jit,
    open_hand,
    play_one,
    set_trump,
    show_five,
    show_turn,
)
from hokm_sim.engine.records import (
    C_MATCH_PAIR,
    R_CHOICE,
    R_ERROR,
    R_TRICKS,
    RES_SIZE,
    add_finished_match,
    add_hand,
    add_pair,
    point_index,
    signed_points,
)
from hokm_sim.engine.rng import FIRST_HAKEM_INDEX, match_base, strategy_base
from hokm_sim.engine.rules import TRICKS_TO_WIN
from hokm_sim.engine.view import (
    MEM_SIZE,
    V_SEAT,
    VIEW_SIZE,
)
from hokm_sim.inlining import HELPERS

# --- modes ---------------------------------------------------------------------
M_HANDS = 0
M_STUDY = 1
M_TRACE_HANDS = 2
M_MATCHES = 3  # the modes from here on play matches
M_TRACE_MATCH = 4

# --- what a slot waits for: wait[i] --------------------------------------------
W_NONE = 0
W_TRUMP_A = 1
W_CARD_A = 2
W_TRUMP_B = 3
W_CARD_B = 4

# --- a slot's control fields: ctl[i, K_*] ---------------------------------------
K_STATE = 0  # S_IDLE, S_TRUMP (trump next), S_PLAY (a card next)
K_HAVE = 1  # 1: K_ANSWER holds the Python bot's decision for the waiting seat
K_ANSWER = 2
K_HAKEM = 3
K_FORCED = 4
K_ATEAM = 5
K_SCORE0 = 6
K_SCORE1 = 7
K_TARGET = 8
K_TRUMP = 9
K_LEADER = 10
K_POS = 11  # cards already in the current trick
K_LED = 12
K_BEST = 13
K_BEST_SEAT = 14
K_N = 15  # cards played
K_TRICK_NO = 16
K_T0 = 17
K_T1 = 18
K_JOB = 19  # deal or match index
K_COPY = 20
K_H = 21  # hand of the match
K_FIRST_HAKEM = 22
K_W0 = 23  # copy 0 of a duplicate match: 1 if A won
K_STAGE = 24  # study: -1 the choice, then trump 0..3
K_PY_SEATS = 25  # bit s: seat s decides in Python whatever its side's flags (an agent's seats)
CTL_SIZE = 32

S_IDLE = 0
S_TRUMP = 1
S_PLAY = 2

# --- the job counter: jobs[J_*] ------------------------------------------------
J_NEXT = 0  # next job to start
J_END = 1  # one past the last job
J_START = 2  # the first job (row 0 of ``out``/``codes``)
J_LIMIT = 3  # no job after this one starts: the earliest failed job so far
J_METHOD = 4  # matches: the house rule of the first Hakem (``hokm_sim.house.FIRST_HAKEM_METHODS``)
JOBS_SIZE = 5

NEED = 1
"""What ``resume`` returns when a decision is due in Python."""
DONE = 0
"""What ``resume`` returns when the hand is over (played out, or stopped by a fault)."""


class Slots(NamedTuple):
    """Arrays for hands in flight, one row per slot (see :func:`new_slots`).

    The first ten fields are a :class:`~hokm_sim.engine.play.Work`'s with a
    leading slot axis (:func:`slot_work` is slot ``i``'s); the others are
    the stepper's own. Fields are resolved at compile time, as in ``Work``.
    """

    bot_view: np.ndarray
    """``int64[n, VIEW_SIZE]``: what each slot's deciding seat sees."""
    mem: np.ndarray
    """``int64[n, 4, MEM_SIZE]``: each seat's bot memory."""
    srng: np.ndarray
    """``uint64[n, 4, 4]``: each seat's bot stream."""
    dstate: np.ndarray
    """``uint64[n, 4]``: the cards' stream."""
    deck: np.ndarray
    """``int64[n, 52]``: the shuffled deck, top first."""
    hands: np.ndarray
    """``int64[n, 4]``: the dealt hands (masks by seat)."""
    plays: np.ndarray
    """``int64[n, 52]``: the cards played, in order."""
    winners: np.ndarray
    """``int64[n, 13]``: the trick winners."""
    res: np.ndarray
    """``int64[n, RES_SIZE]``: the hand's result."""
    held: np.ndarray
    """``int64[n, 4]``: the cards each seat still holds."""
    first: np.ndarray
    """``int64[n, RES_SIZE]``: copy 0's result of a duplicate deal."""
    ctl: np.ndarray
    """``int64[n, CTL_SIZE]``: the ``K_*`` control fields."""
    bases: np.ndarray
    """``uint64[n, 2]``: a match's card and strategy stream bases."""
    wait: np.ndarray
    """``int64[n]``: the ``W_*`` code of what each slot waits for."""


@njit(cache=True)
def new_slots(n):
    """:class:`Slots` for ``n`` hands in flight."""
    return Slots(
        np.zeros((n, VIEW_SIZE), np.int64),
        np.zeros((n, 4, MEM_SIZE), np.int64),
        np.zeros((n, 4, 4), np.uint64),
        np.zeros((n, 4), np.uint64),
        np.zeros((n, 52), np.int64),
        np.zeros((n, 4), np.int64),
        np.full((n, 52), -1, np.int64),
        np.full((n, 13), -1, np.int64),
        np.zeros((n, RES_SIZE), np.int64),
        np.zeros((n, 4), np.int64),
        np.zeros((n, RES_SIZE), np.int64),
        np.zeros((n, CTL_SIZE), np.int64),
        np.zeros((n, 2), np.uint64),
        np.zeros(n, np.int64),
    )


@njit(cache=True)
def new_jobs(start, count, method):
    """The job counter for jobs ``start .. start + count - 1`` (matches: the first Hakem by
    house rule ``method``)."""
    jobs = np.zeros(JOBS_SIZE, np.int64)
    jobs[J_METHOD] = method
    jobs[J_NEXT] = start
    jobs[J_END] = start + count
    jobs[J_START] = start
    jobs[J_LIMIT] = start + count
    return jobs


class Step(NamedTuple):
    """What one call of ``step`` (:func:`make_stepper`) plays: the jobs of mode ``mode``
    (``M_*``) under ``seed``, played twice in ``dup`` (teams swapped), with the mode's
    arguments ``arg`` and ``arg2`` (see :func:`start_job` and :func:`finish_hand`). The
    fields are cast to their annotated types by :func:`~hokm_sim.engine.boundary.exact`,
    so ``step`` is compiled once."""

    mode: int
    seed: np.uint64
    dup: bool
    arg: int
    arg2: int


class StepState(NamedTuple):
    """The arrays one table's ``step`` (:func:`make_stepper`) reads and writes: its
    :class:`Slots` and job counter (:func:`new_jobs`), the row of counts its finished
    hands are added into, its error row (``E_*`` of :mod:`hokm_sim.engine.boundary`),
    the pair codes of a duplicate run (empty for none) and the rows a study or trace
    writes (``int64[0, 1]`` for none). Built once per table: the arrays persist between
    calls."""

    slots: Slots
    jobs: np.ndarray
    counts: np.ndarray
    err: np.ndarray
    codes: np.ndarray
    out: np.ndarray


@njit(inline=HELPERS)
def slot_work(slots, i):
    """Slot ``i``'s :class:`~hokm_sim.engine.play.Work`: views of its rows of ``slots``."""
    return Work(
        slots.bot_view[i],
        slots.mem[i],
        slots.srng[i],
        slots.dstate[i],
        slots.deck[i],
        slots.hands[i],
        slots.plays[i],
        slots.winners[i],
        slots.res[i],
        slots.held[i],
    )


# The stepper's bookkeeping calls these rather than inlining them: a hand is
# opened and dealt once, and each inlined copy would cost compile time.


@njit(cache=True)
def _deal(work, base, index, hakem):
    """:func:`~hokm_sim.engine.play.deal_hand`, as a function of its own."""
    deal_hand(work, base, index, hakem)


@njit(cache=True)
def _trace(row, work, match, hand, score0, score1):
    """:func:`~hokm_sim.engine.kernels.trace_row`, as a function of its own."""
    trace_row(row, work, match, hand, score0, score1)


@njit(cache=True)
def _open_hand(work, c, hakem, forced, sbase, sindex, a_team, score0, score1, target):
    """Start the hand dealt in ``work`` (:func:`~hokm_sim.engine.play.open_hand`); trump next."""
    open_hand(work, hakem, sbase, sindex, score0, score1, target)
    c[K_STATE] = S_TRUMP
    c[K_HAVE] = 0
    c[K_HAKEM] = hakem
    c[K_FORCED] = forced
    c[K_ATEAM] = a_team
    c[K_SCORE0] = score0
    c[K_SCORE1] = score1
    c[K_TARGET] = target


@njit(cache=True)
def start_job(mode, seed, arg, arg2, work, c, bases, j, out, start, method):
    """Deal job ``j``'s first hand into the slot and open it (a match's first Hakem by
    house rule ``method``)."""
    zero, unset = np.int64(0), np.int64(-1)  # typed: numba compiles a call again per constant
    if mode >= M_MATCHES:
        mbase = match_base(seed, j)
        bases[0] = mbase
        bases[1] = strategy_base(mbase)
        first = draw_first_hakem(work, mbase, FIRST_HAKEM_INDEX, method)
        copy = arg if mode == M_TRACE_MATCH else zero
        target = arg2 if mode == M_TRACE_MATCH else arg
        c[K_FIRST_HAKEM] = first
        c[K_COPY] = copy
        c[K_H] = 0
        _deal(work, mbase, zero, first)
        _open_hand(work, c, first, unset, bases[1], copy, copy, zero, zero, target)
    else:
        hakem = j & 3
        _deal(work, seed, j, hakem)
        bases[1] = strategy_base(seed)
        copy = arg if mode == M_TRACE_HANDS else zero
        c[K_COPY] = copy
        forced = unset
        if mode == M_HANDS:
            forced = arg
        elif mode == M_TRACE_HANDS:
            forced = arg2
        elif mode == M_STUDY:
            forced = CHOOSE_ONLY
            c[K_STAGE] = -1
            row = out[j - start]
            row[0] = 0
            for i in range(5):
                row[0] |= 1 << work.deck[i]
            row[1] = work.hands[hakem]
        _open_hand(work, c, hakem, forced, bases[1], 2 * j + copy, copy, zero, zero, zero)
    c[K_JOB] = j


@njit(cache=True)
def finish_hand(mode, seed, dup, arg, work, c, first, bases, jobs, counts, err, codes, out):
    """Book the slot's finished hand; open the job's next hand or leave the slot idle."""
    res = work.res
    zero, one, unset = np.int64(0), np.int64(1), np.int64(-1)  # typed, as in start_job
    j = c[K_JOB]
    copy = c[K_COPY]
    start = jobs[J_START]
    c[K_STATE] = S_IDLE
    h = c[K_H] if mode >= M_MATCHES else zero
    if res[R_ERROR] != 0:
        if err[E_CODE] == 0 or j < err[E_MATCH]:
            note_error(err, res, j, h, copy)
        jobs[J_LIMIT] = min(jobs[J_LIMIT], j)
        if mode == M_TRACE_HANDS:
            _trace(out[j - start], work, zero, j, zero, zero)
        elif mode == M_TRACE_MATCH:
            _trace(out[h], work, j, h, c[K_SCORE0], c[K_SCORE1])
        return
    if mode == M_HANDS:
        add_hand(counts, res, copy)
        if copy == 0 and dup:
            for i in range(RES_SIZE):  # not first[:] = res: its shape check compiles
                first[i] = res[i]  # string formatting, a third of the stepper's build time
            c[K_COPY] = 1
            _open_hand(work, c, c[K_HAKEM], arg, bases[1], 2 * j + 1, one, zero, zero, zero)
        elif copy == 1:
            add_pair(counts, first, res)
            if codes.shape[0] > 0:
                x0 = point_index(signed_points(first, 0))
                codes[j - start] = x0 * 6 + point_index(signed_points(res, 1))
    elif mode == M_STUDY:
        row = out[j - start]
        stage = c[K_STAGE]
        hakem = c[K_HAKEM]
        team = hakem & 1
        if stage == -1:
            row[2] = res[R_CHOICE]
        else:
            row[3 + stage] = signed_points(res, team)
            row[7 + stage] = res[R_TRICKS + team]
        if arg and stage < 3:
            c[K_STAGE] = stage + 1
            _open_hand(work, c, hakem, stage + 1, bases[1], 2 * j, zero, zero, zero, zero)
    elif mode == M_TRACE_HANDS:
        _trace(out[j - start], work, zero, j, zero, zero)
    else:
        a_team = copy
        if mode == M_MATCHES:
            add_hand(counts, res, a_team)
        hakem, score0, score1 = advance_match(res, c[K_HAKEM], c[K_SCORE0], c[K_SCORE1])
        if mode == M_TRACE_MATCH:
            _trace(out[h], work, j, h, score0, score1)
        target = c[K_TARGET]
        h += 1
        c[K_H] = h
        if score0 < target and score1 < target:
            _deal(work, bases[0], h, hakem)
            _open_hand(work, c, hakem, unset, bases[1], 2 * h + copy, copy, score0, score1, target)
            return
        if mode == M_TRACE_MATCH:
            return
        a_won = add_finished_match(counts, a_team, score0, score1, target, h)
        if copy == 0 and dup:
            c[K_W0] = a_won
            c[K_COPY] = 1
            c[K_H] = 0
            fh = c[K_FIRST_HAKEM]
            _deal(work, bases[0], zero, fh)
            _open_hand(work, c, fh, unset, bases[1], one, one, zero, zero, target)
        elif copy == 1:
            w0 = c[K_W0]
            counts[C_MATCH_PAIR + w0 * 2 + a_won] += 1
            if codes.shape[0] > 0:
                codes[j - start] = w0 * 2 + a_won


def make_resume(ta, pa, tb, pb, py, owner: str):
    """Jitted ``resume(params_a, params_b, work, c)`` with A's and B's deciders bound in
    (:func:`hokm_sim.engine.play.bound_deciders`, whose ``params`` are a strategy's
    parameters, or the pointer deciders, whose ``params`` are a strategy's tuple of
    parameters and bot functions): play slot ``c``'s hand on until a Python decision is
    due (returns 1) or the hand is over (returns 0).

    ``py`` is four flags: whether A's trump choice, A's card play, B's trump
    choice and B's card play are made in Python (the function bound for such
    a part is never called). A seat whose bit is set in ``c[K_PY_SEATS]``
    decides in Python too, whatever its side's flags: an agent at the table
    (:mod:`hokm_sim.engine.vector`). The decision due is then in
    ``work.bot_view``; the caller writes it into ``c[K_ANSWER]``, sets
    ``c[K_HAVE]`` and calls ``resume`` again.
    """
    py_ta, py_pa, py_tb, py_pb = (bool(x) for x in py)

    @engine_jit(owner, _nrt=False)
    def resume(params_a, params_b, work, c):
        """Play slot's hand on until a Python decision is due (``NEED``) or it ends."""
        view = work.bot_view
        mem = work.mem
        srng = work.srng
        res = work.res
        held = work.held
        hakem = c[K_HAKEM]
        a_team = c[K_ATEAM]
        py_seats = c[K_PY_SEATS]
        if c[K_STATE] == S_TRUMP:
            five = show_five(view, work.deck, hakem)
            a_side = (hakem & 1) == a_team
            if c[K_HAVE]:
                trump = c[K_ANSWER]
                c[K_HAVE] = 0
            elif (a_side and py_ta) or (not a_side and py_tb) or (py_seats >> hakem) & 1:
                return NEED
            elif a_side:
                trump = ta(params_a, view, mem[hakem], srng[hakem])
            else:
                trump = tb(params_b, view, mem[hakem], srng[hakem])
            if trump < 0 or trump > 3:
                bad_trump(res, hakem, trump)
                return DONE
            res[R_CHOICE] = trump
            if c[K_FORCED] == CHOOSE_ONLY:
                return DONE
            if c[K_FORCED] >= 0:
                trump = c[K_FORCED]
            set_trump(view, res, work.hands, held, hakem, five, trump)
            c[K_STATE] = S_PLAY
            c[K_TRUMP] = trump
            c[K_LEADER] = hakem
            c[K_POS] = 0
            c[K_LED] = -1
            c[K_BEST] = -1
            c[K_BEST_SEAT] = -1
            c[K_N] = 0
            c[K_TRICK_NO] = 0
            c[K_T0] = 0
            c[K_T1] = 0
        trump = c[K_TRUMP]
        leader = c[K_LEADER]
        k = c[K_POS]
        led = c[K_LED]
        best = c[K_BEST]
        best_seat = c[K_BEST_SEAT]
        n = c[K_N]
        trick_no = c[K_TRICK_NO]
        tricks0 = c[K_T0]
        tricks1 = c[K_T1]
        while tricks0 < TRICKS_TO_WIN and tricks1 < TRICKS_TO_WIN:
            seat = (leader + k) & 3
            hand = held[seat]
            legal = show_turn(view, hand, seat, led)
            a_side = (seat & 1) == a_team
            if c[K_HAVE]:
                card = c[K_ANSWER]
                c[K_HAVE] = 0
            elif (a_side and py_pa) or (not a_side and py_pb) or (py_seats >> seat) & 1:
                c[K_LEADER] = leader
                c[K_POS] = k
                c[K_LED] = led
                c[K_BEST] = best
                c[K_BEST_SEAT] = best_seat
                c[K_N] = n
                c[K_TRICK_NO] = trick_no
                c[K_T0] = tricks0
                c[K_T1] = tricks1
                return NEED
            elif a_side:
                card = pa(params_a, view, mem[seat], srng[seat])
            else:
                card = pb(params_b, view, mem[seat], srng[seat])
            if card < 0 or card > 51 or (legal >> card) & 1 == 0:
                bad_card(res, seat, trick_no, card, n)
                return DONE
            led, best, best_seat = play_one(
                view, held, work.plays, seat, hand, card, k, n, led, best, best_seat, trump
            )
            n += 1
            k += 1
            if k == 4:
                trick_no, tricks0, tricks1 = end_trick(
                    view, work.winners, trick_no, best_seat, tricks0, tricks1
                )
                leader = best_seat
                k = 0
                led = -1
                best = -1
                best_seat = -1
        end_hand(res, hakem, tricks0, tricks1, n)
        c[K_STATE] = S_IDLE
        return DONE

    return resume


def make_stepper(ta, pa, tb, pb, py, owner: str):
    """Jitted ``step`` with A's and B's deciders bound in (as for :func:`make_resume`).

    ``py`` is four flags: whether A's trump choice, A's card play, B's trump
    choice and B's card play are made in Python (see :func:`make_resume`).
    Returns ``step(mode, params_a, params_b, seed, dup, arg, arg2, slots, jobs,
    counts, err, codes, out) -> waiting``: the number of slots left waiting for a
    Python decision (0 when all jobs are done). A generated module's entry point
    takes these by name (:class:`~hokm_sim.engine.boundary.Params`, :class:`Step`,
    :class:`StepState`) and binds them to locals before calling it.
    """
    resume = make_resume(ta, pa, tb, pb, py, owner)

    @engine_jit(owner, nogil=True)
    def step(mode, params_a, params_b, seed, dup, arg, arg2, slots, jobs, counts, err, codes, out):
        """Advance every slot until it waits for a Python decision or no job is left."""
        first = slots.first
        ctl = slots.ctl
        bases = slots.bases
        wait = slots.wait
        waiting = 0
        for i in range(ctl.shape[0]):
            c = ctl[i]
            work = slot_work(slots, i)
            wait[i] = W_NONE
            while True:
                if c[K_STATE] != S_IDLE and c[K_JOB] > jobs[J_LIMIT]:
                    c[K_STATE] = S_IDLE  # after a failed job: its outcome cannot matter
                if c[K_STATE] == S_IDLE:
                    j = jobs[J_NEXT]
                    if j >= jobs[J_END] or j > jobs[J_LIMIT]:
                        break
                    jobs[J_NEXT] = j + 1
                    start_job(mode, seed, arg, arg2, work, c, bases[i], j, out, jobs[J_START],
                              jobs[J_METHOD])  # fmt: skip
                if resume(params_a, params_b, work, c) == NEED:
                    a_side = (work.bot_view[V_SEAT] & 1) == c[K_ATEAM]
                    if c[K_STATE] == S_TRUMP:
                        wait[i] = W_TRUMP_A if a_side else W_TRUMP_B
                    else:
                        wait[i] = W_CARD_A if a_side else W_CARD_B
                    waiting += 1
                    break
                finish_hand(
                    mode, seed, dup, arg, work, c, first[i], bases[i], jobs, counts, err, codes, out
                )
        return waiting

    return step


@njit
def never(view, params, mem, rng):
    """Stands for a part played in Python: ``step`` never calls it."""
    return -1
