"""Chunk kernels: play a range of deals or matches and add them into counts.

:func:`make_kernels` binds two strategies (A's pair of functions, then B's)
into a set of jitted kernels. Each plays deal (or match) indices
``start .. start + count - 1`` with its own scratch arrays and adds the
outcomes into the ``counts`` row it was given, so chunks share nothing and
can run on any thread in any order. A compiled entry point per strategy pair
(see :mod:`hokm_sim.bots.compiled`) runs the chunks with ``prange``.

Deals: independent hands; deal ``d`` is stream ``d`` under the run seed and
its Hakem is seat ``d % 4``. Matches: match ``m`` has its own stream base;
its first Hakem is drawn by a house rule (first ace by default); hand ``h``
of it is stream ``h``.
In duplicate, every deal or match is played a second time with the same
cards and the same Hakem seat, teams swapped (A on team 1).

The loops that play most hands (``_deals`` under ``hands_chunk``,
``_play_match`` under ``matches_chunk``) are compiled without reference
counting and inline the card loop; the kernels around them allocate the
scratch arrays. Traces and the trump study call the card loop as a function.

Errors: a strategy error stops the chunk; its row of ``err`` gets the fault
(:mod:`hokm_sim.engine.boundary`).

A kernel passes ``int64`` values to the jitted functions it calls, never
literal constants: numba compiles a callee once for each distinct tuple of
argument types, and a literal ``0`` or ``1`` is a type of its own, so
literals compiled the match loop once per copy and the card loop once per
caller.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from numba import njit

from hokm_sim.engine.boundary import (
    E_CARD,
    E_CODE,
    E_COPY,
    E_HAND,
    E_MATCH,
    E_SEAT,
    E_TRICK,
)
from hokm_sim.engine.play import (
    CHOOSE_ONLY,
    NO_FORCED_TRUMP,
    advance_match,
    deal_hand,
    draw_first_hakem,
    engine_jit,
    make_play_hand,
    new_work,
)
from hokm_sim.engine.records import (
    C_MATCH_PAIR,
    R_CHOICE,
    R_ERR_CARD,
    R_ERR_SEAT,
    R_ERR_TRICK,
    R_ERROR,
    R_HAKEM,
    R_KIND,
    R_NCARDS,
    R_POINTS,
    R_TRICKS,
    R_TRUMP,
    R_WINNER,
    RES_SIZE,
    add_finished_match,
    add_hand,
    add_pair,
    point_index,
    signed_points,
)
from hokm_sim.engine.rng import FIRST_HAKEM_INDEX, match_base, strategy_base
from hokm_sim.inlining import HELPERS

# --- trace rows: int64[TRACE_SIZE] per hand ------------------------------------
T_MATCH = 0
T_HAND = 1
T_HAKEM = 2
T_TRUMP = 3
T_TRICKS = 4  # 4, 5
T_WINNER = 6
T_POINTS = 7
T_KIND = 8
T_SCORES = 9  # 9, 10: match scores after this hand
T_ERROR = 11  # the error code (ERR_*), 0 when the hand was played out
T_ERR_SEAT = 12  # seat whose strategy erred
T_ERR_TRICK = 13  # trick index (0-based) of the error; -1 for trump choice
T_ERR_CARD = 14  # the card (or suit) the strategy returned
T_DECK = 16  # 16..67: the deck, top first
T_PLAYS = 68  # 68..119: cards in play order, -1 after the last
T_WINNERS = 120  # 120..132: trick winners, -1 after the last
TRACE_SIZE = 136


@njit(inline=HELPERS)
def note_error(err, res, match, hand, copy):
    err[E_CODE] = res[R_ERROR]
    err[E_MATCH] = match
    err[E_HAND] = hand
    err[E_COPY] = copy
    err[E_SEAT] = res[R_ERR_SEAT]
    err[E_TRICK] = res[R_ERR_TRICK]
    err[E_CARD] = res[R_ERR_CARD]


@njit(inline=HELPERS)
def trace_row(row, work, match, hand, score0, score1):
    res = work.res
    deck = work.deck
    plays = work.plays
    winners = work.winners
    row[T_MATCH] = match
    row[T_HAND] = hand
    row[T_HAKEM] = res[R_HAKEM]
    row[T_TRUMP] = res[R_TRUMP]
    row[T_TRICKS] = res[R_TRICKS]
    row[T_TRICKS + 1] = res[R_TRICKS + 1]
    row[T_WINNER] = res[R_WINNER]
    row[T_POINTS] = res[R_POINTS]
    row[T_KIND] = res[R_KIND]
    row[T_SCORES] = score0
    row[T_SCORES + 1] = score1
    row[T_ERROR] = res[R_ERROR]
    row[T_ERR_SEAT] = res[R_ERR_SEAT]
    row[T_ERR_TRICK] = res[R_ERR_TRICK]
    row[T_ERR_CARD] = res[R_ERR_CARD]
    n = res[R_NCARDS]  # plays and winners beyond the hand's end are left from earlier hands
    for i in range(52):
        row[T_DECK + i] = deck[i]
        row[T_PLAYS + i] = plays[i] if i < n else -1
    for i in range(13):
        row[T_WINNERS + i] = winners[i] if i < n // 4 else -1


def make_kernels(ta, pa, tb, pb, owner: str):
    """Jitted chunk and trace kernels with A's and B's deciders bound in
    (:mod:`hokm_sim.engine.play`: ``params_a``/``params_b`` are what they take).

    Returns a namespace with ``hands_chunk``, ``matches_chunk``,
    ``trace_hands``, ``trace_match`` and ``study_chunk``. ``owner`` is the
    engine module they are named under (see :func:`engine_jit`).
    """
    play, play_inline = make_play_hand(ta, pa, tb, pb, owner)

    @engine_jit(owner, _nrt=False)
    def _deals(
        params_a, params_b, work, first, seed, start, count, dup, forced, counts, err, codes
    ):
        """The loop of :func:`hands_chunk`, without reference counting (see ``make_play_hand``)."""
        res = work.res
        sbase = strategy_base(seed)
        for d in range(start, start + count):
            hakem = d & 3
            deal_hand(work, seed, d, hakem)
            for copy in range(2 if dup else 1):
                index = 2 * d + copy
                play_inline(params_a, params_b, work, hakem, forced, sbase, index, copy, 0, 0, 0)
                if res[R_ERROR] != 0:
                    note_error(err, res, d, 0, copy)
                    return
                add_hand(counts, res, copy)
                if copy == 0:
                    for i in range(RES_SIZE):
                        first[i] = res[i]
                else:
                    add_pair(counts, first, res)
                    if codes.shape[0] > 0:
                        x0 = point_index(signed_points(first, 0))
                        codes[d - start] = x0 * 6 + point_index(signed_points(res, 1))

    @engine_jit(owner)
    def hands_chunk(
        params_a, params_b, seed, start, count, duplicate, forced_trump, counts, err, codes
    ):
        """Play deals ``start .. start + count - 1`` and add them into ``counts``.

        ``forced_trump`` >= 0 makes every hand use that trump (counterfactual
        play); -1 lets the Hakem's strategy choose. In duplicate, when
        ``codes`` is not empty, ``codes[d - start]`` gets deal ``d``'s pair
        outcome ``point_index(x0) * 6 + point_index(x1)`` (A's signed points in
        copy 0 and copy 1), for tests that consume pairs in deal order.
        """
        work = new_work()
        first = np.zeros(RES_SIZE, np.int64)
        args = (seed, start, count, duplicate, forced_trump, counts, err, codes)
        _deals(params_a, params_b, work, first, *args)

    @engine_jit(owner, _nrt=False)
    def _play_match(
        params_a, params_b, work, mbase, sbase, first_hakem, copy, target, counts, err, m
    ):
        """Play one copy of a match to the target; returns 1 if A won, -1 on error."""
        res = work.res
        a_team = copy
        hakem = first_hakem
        score0 = 0
        score1 = 0
        h = 0
        while score0 < target and score1 < target:
            deal_hand(work, mbase, h, hakem)
            index = 2 * h + copy
            play_inline(
                params_a, params_b, work, hakem, -1, sbase, index, copy, score0, score1, target
            )
            if res[R_ERROR] != 0:
                note_error(err, res, m, h, copy)
                return -1
            add_hand(counts, res, a_team)
            hakem, score0, score1 = advance_match(res, hakem, score0, score1)
            h += 1
        return add_finished_match(counts, a_team, score0, score1, target, h)

    @engine_jit(owner)
    def matches_chunk(
        params_a, params_b, seed, start, count, duplicate, target, method, counts, err, codes
    ):
        """Play matches ``start .. start + count - 1`` to ``target`` into ``counts``, the
        first Hakem of each found by house rule ``method`` (``hokm_sim.house.FIRST_HAKEM_METHODS``).

        In duplicate, when ``codes`` is not empty, ``codes[m - start]`` gets
        match ``m``'s pair outcome ``a_won_copy0 * 2 + a_won_copy1``.
        """
        work = new_work()
        for m in range(start, start + count):
            mbase = match_base(seed, m)
            sbase = strategy_base(mbase)
            first_hakem = draw_first_hakem(work, mbase, FIRST_HAKEM_INDEX, method)
            match = (params_a, params_b, work, mbase, sbase, first_hakem)
            w0 = _play_match(*match, np.int64(0), target, counts, err, m)
            if w0 < 0:
                return
            if duplicate:
                w1 = _play_match(*match, np.int64(1), target, counts, err, m)
                if w1 < 0:
                    return
                counts[C_MATCH_PAIR + w0 * 2 + w1] += 1
                if codes.shape[0] > 0:
                    codes[m - start] = w0 * 2 + w1

    @engine_jit(owner)
    def trace_hands(params_a, params_b, seed, start, count, copy, forced_trump):
        """Every card of deals ``start .. start + count - 1``: ``int64[count, TRACE_SIZE]``.

        ``copy`` 0 plays A on team 0, 1 the swapped copy of a duplicate pair.
        Stops after a strategy error; that row carries the error fields.
        """
        rows = np.full((count, TRACE_SIZE), -1, np.int64)
        work = new_work()
        res = work.res
        sbase = strategy_base(seed)
        alone = (np.int64(0), np.int64(0), np.int64(0))  # scores and target: not in a match
        for i in range(count):
            d = start + i
            hakem = d & 3
            deal_hand(work, seed, d, hakem)
            play(params_a, params_b, work, hakem, forced_trump, sbase, 2 * d + copy, copy, *alone)
            trace_row(rows[i], work, 0, d, 0, 0)
            if res[R_ERROR] != 0:
                return rows[: i + 1]
        return rows

    @engine_jit(owner)
    def trace_match(params_a, params_b, seed, m, copy, target, method):
        """Every hand of match ``m``, card by card: ``int64[hands, TRACE_SIZE]``."""
        rows = np.full((16, TRACE_SIZE), -1, np.int64)
        work = new_work()
        res = work.res
        mbase = match_base(seed, m)
        sbase = strategy_base(mbase)
        hakem = draw_first_hakem(work, mbase, FIRST_HAKEM_INDEX, method)
        score0 = np.int64(0)
        score1 = np.int64(0)
        h = 0
        while score0 < target and score1 < target:
            if h == rows.shape[0]:
                bigger = np.full((2 * h, TRACE_SIZE), -1, np.int64)
                for j in range(h):  # not bigger[:h] = rows: its shape check compiles slowly
                    for c in range(TRACE_SIZE):
                        bigger[j, c] = rows[j, c]
                rows = bigger
            deal_hand(work, mbase, h, hakem)
            play(
                params_a,
                params_b,
                work,
                hakem,
                np.int64(NO_FORCED_TRUMP),
                sbase,
                2 * h + copy,
                copy,
                score0,
                score1,
                target,
            )
            if res[R_ERROR] != 0:
                trace_row(rows[h], work, m, h, score0, score1)
                return rows[: h + 1]
            hakem, score0, score1 = advance_match(res, hakem, score0, score1)
            trace_row(rows[h], work, m, h, score0, score1)
            h += 1
        return rows[:h]

    @engine_jit(owner)
    def study_chunk(params_a, params_b, seed, start, count, suits, out, err):
        """Counterfactual trump: each deal played with every suit as trump.

        Deals are those of ``hands_chunk`` (same streams, Hakem ``d % 4``), A
        in the Hakem's seat and its partner's, B in the others (the study
        passes the same strategy twice). With ``suits`` False only the Hakem's
        own choice is asked (a heuristic's call, no play). ``out[i]`` holds
        deal ``start + i``: ``[first five (mask), the Hakem's 13 cards (mask),
        the strategy's choice, the Hakem team's signed points with trump C,
        D, H, S, its tricks with trump C, D, H, S]``.
        """
        work = new_work()
        res = work.res
        deck = work.deck
        hands = work.hands
        sbase = strategy_base(seed)
        choose = np.int64(CHOOSE_ONLY)
        alone = (np.int64(0), np.int64(0), np.int64(0), np.int64(0))  # copy 0, not in a match
        for i in range(count):
            d = start + i
            hakem = d & 3
            team = hakem & 1
            deal_hand(work, seed, d, hakem)
            five = 0
            for c in range(5):
                five |= 1 << deck[c]
            out[i, 0] = five
            out[i, 1] = hands[hakem]
            play(params_a, params_b, work, hakem, choose, sbase, 2 * d, *alone)
            if res[R_ERROR] != 0:
                note_error(err, res, d, 0, 0)
                return
            out[i, 2] = res[R_CHOICE]
            if suits:
                for s in range(4):
                    play(params_a, params_b, work, hakem, s, sbase, 2 * d, *alone)
                    if res[R_ERROR] != 0:
                        note_error(err, res, d, 0, 0)
                        return
                    out[i, 3 + s] = signed_points(res, team)
                    out[i, 7 + s] = res[R_TRICKS + team]

    return SimpleNamespace(
        study_chunk=study_chunk,
        hands_chunk=hands_chunk,
        matches_chunk=matches_chunk,
        trace_hands=trace_hands,
        trace_match=trace_match,
    )
