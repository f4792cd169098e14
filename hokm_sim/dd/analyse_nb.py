"""Numba kernels of the analysis of played hands: every card graded double dummy.

For every card of a hand the kernel solves the position the card was played
from for every legal card of the seat to move (cards that are adjacent in
rank among the cards still alive are solved once) and records, per legal
card:

- its **value**: the tricks the mover's team takes in the whole hand if that
  card is played and all four play perfectly from then on (tricks already
  taken plus every remaining trick, as ``hokm-sim dd`` counts them: a team
  reaches 7 first exactly when this is 7 or more);
- whether the mover's team can then still force a sweep (7 tricks to none,
  a Kot or a Hakem Kot) and whether the other team can.

The grades are defined in docs/analysis.md and in :mod:`hokm_sim.dd.analyse`;
the kernel applies them (:func:`grade`) so that every consumer shares them.
The trump call is graded from the four double-dummy outcomes of the whole
deal, one per trump suit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hokm_sim.dd.order import equivalents
from hokm_sim.dd.solver import play_nb, reach_nb
from hokm_sim.engine.bits import highest, popcount, suit_mask
from hokm_sim.engine.rules import legal_mask

LEAD, FOLLOW, DISCARD, RUFF = 0, 1, 2, 3
"""How a card was played: led, followed suit, discarded (void, no trump), trumped (void)."""
BEST, MISTAKE, BLUNDER = 0, 1, 2
"""Grades (docs/analysis.md)."""
WHY_LOSS, WHY_KOT_LOST, WHY_KOT_CONCEDED = 1, 2, 4
"""Reasons a card is a blunder (bits): a won hand lost, a Kot given up, a Kot conceded."""
K_FOR, K_AGAINST = 1, 2
"""Sweep bits of a card: the mover's team can still force 7-0; the other team can."""

# Columns of the per-card info rows.
I_SEAT, I_CLASS, I_CHOSEN, I_BEST, I_WORST, I_GRADE, I_WHY, I_LEGAL = range(8)
N_INFO = 8
# Columns of the trump rows: per suit, the Hakem team's tricks (the called suit only, -1 for
# the others), reach 7, Kot, Hakem Kot.
TR_TRICKS, TR_REACH, TR_KOT, TR_HAKEM_KOT = range(4)
# The trump call's grade row: chosen tricks, best tricks, grade, why.
TG_CHOSEN, TG_BEST, TG_GRADE, TG_WHY = range(4)


@njit(cache=True)
def _reach(h, trump, leader, trick, ntrick, team, need, kot, tt_keys, tt_vals, stats):
    return reach_nb(h, trump, leader, trick, ntrick, team, need, kot, tt_keys, tt_vals, stats)


@njit(cache=True)
def _tricks_from(h, trump, leader, trick, ntrick, team, top, tt_keys, tt_vals, stats):
    """Double-dummy tricks ``team`` takes from here, known to be at most ``top``.

    Searched by steps down from ``top``: most cards keep the value of the
    position or lose one trick, so this needs fewer zero-window searches than
    bisection, and never the failing search above the position's value.
    """
    v = min(top, popcount(h[(leader + ntrick) & 3]))
    while v > 0 and not _reach(
        h, trump, leader, trick, ntrick, team, v, np.bool_(False), tt_keys, tt_vals, stats
    ):
        v -= 1
    return max(v, 0)


@njit(cache=True)
def _tricks_around(h, trump, leader, trick, ntrick, team, guess, tt_keys, tt_vals, stats):
    """Double-dummy tricks ``team`` takes from here, searched by steps from ``guess``
    (for a position whose value is not known yet)."""
    nrem = popcount(h[(leader + ntrick) & 3])
    v = min(max(guess, 0), nrem)
    if v > 0 and not _reach(
        h, trump, leader, trick, ntrick, team, v, np.bool_(False), tt_keys, tt_vals, stats
    ):
        v -= 1
        while v > 0 and not _reach(
            h, trump, leader, trick, ntrick, team, v, np.bool_(False), tt_keys, tt_vals, stats
        ):
            v -= 1
        return v
    while v < nrem and _reach(
        h, trump, leader, trick, ntrick, team, v + 1, np.bool_(False), tt_keys, tt_vals, stats
    ):
        v += 1
    return v


@njit(cache=True)
def position_values(
    h, trump, leader, trick, ntrick, taken, value, sweep, tt_keys, tt_vals, stats, vals, kot
):
    """Value and sweep bits of every legal card of the seat to move, into ``vals``/``kot``.

    ``h`` the cards still held, ``trick``/``ntrick`` the current trick,
    ``taken`` (int64[2]) the tricks each team has won, ``value`` the
    position's double-dummy value for the mover's team (whole hand; when it is
    not known, ``-1 - guess``: each card is then searched by steps from the
    best value so far, starting at ``guess``), ``sweep``
    (int64[2]) whether each team can force a sweep from here. ``vals[c]``
    (int8[52]) gets the mover's team's tricks for the whole hand after ``c``,
    -1 for cards it may not play; ``kot[c]`` the ``K_FOR``/``K_AGAINST`` bits.
    No card is worth more than the position, gives a sweep the position does
    not, or avoids one the position concedes; those searches are skipped, and
    a forced card (one choice) takes the position's outcome without any.
    """
    seat = (leader + ntrick) & 3
    team = seat & 1
    opp = 1 - team
    led = trick[0] // 13 if ntrick > 0 else -1
    legal = legal_mask(h[seat], led)
    tcards = 0
    for k in range(ntrick):
        tcards |= 1 << trick[k]
    alive = h[0] | h[1] | h[2] | h[3] | tcards
    reps = equivalents(legal, alive)
    vals[:] = -1
    kot[:] = 0
    m = reps
    best = -value - 1  # with the value unknown (negative), a guess at it: -1 - value
    if value >= 0 and reps & (reps - 1) == 0:  # one choice: the position's outcome, no search
        m = 0
        vals[highest(reps)] = value
        kot[highest(reps)] = (K_FOR if sweep[team] else 0) | (K_AGAINST if sweep[opp] else 0)
    while m != 0:
        c = highest(m)
        m ^= 1 << c
        nh, nl, t, nt, w = play_nb(h, trump, leader, trick, ntrick, c)
        mine = taken[team]
        theirs = taken[opp]
        if w >= 0:
            if (w & 1) == team:
                mine += 1
            else:
                theirs += 1
        if value >= 0:
            v = mine + _tricks_from(
                nh, trump, nl, t, nt, team, value - mine, tt_keys, tt_vals, stats
            )
        else:
            v = mine + _tricks_around(
                nh, trump, nl, t, nt, team, best - mine, tt_keys, tt_vals, stats
            )
            best = max(best, v)
        vals[c] = v
        bits = 0
        if theirs == 0 and sweep[team] and v >= 7:
            need = 7 - mine
            if need <= 0 or _reach(
                nh, trump, nl, t, nt, team, need, np.bool_(True), tt_keys, tt_vals, stats
            ):
                bits |= K_FOR
        if mine == 0 and v <= 6:
            need = 7 - theirs
            if (
                sweep[opp]
                or need <= 0
                or _reach(nh, trump, nl, t, nt, opp, need, np.bool_(True), tt_keys, tt_vals, stats)
            ):
                bits |= K_AGAINST
        kot[c] = bits
    # Every legal card takes the outcome of the run it belongs to (runs are topped by reps).
    for s in range(4):
        a = alive & suit_mask(s)
        v = -1
        b = 0
        x = a
        while x != 0:
            c = highest(x)
            x ^= 1 << c
            if (legal >> c) & 1:
                if (reps >> c) & 1:
                    v = vals[c]
                    b = kot[c]
                vals[c] = v
                kot[c] = b
            else:
                v = -1


@njit(cache=True)
def grade(vals, kot, legal, card, info):
    """Grade ``card`` among the ``legal`` cards from their values and sweep bits, into ``info``.

    Blunder: the card turns a double-dummy win (some card reaches 7) into a
    loss, gives up a Kot some card keeps, or concedes a Kot some card avoids.
    Mistake: otherwise, a value below the best card's. Best: the best value.
    """
    best = -1
    worst = 99
    any_for = False
    any_safe = False
    n = 0
    x = legal
    while x != 0:
        c = highest(x)
        x ^= 1 << c
        n += 1
        best = max(best, vals[c])
        worst = min(worst, vals[c])
        if kot[c] & K_FOR:
            any_for = True
        if not kot[c] & K_AGAINST:
            any_safe = True
    chosen = vals[card]
    why = 0
    if best >= 7 and chosen < 7:
        why |= WHY_LOSS
    if any_for and not kot[card] & K_FOR:
        why |= WHY_KOT_LOST
    if any_safe and kot[card] & K_AGAINST:
        why |= WHY_KOT_CONCEDED
    info[I_CHOSEN] = chosen
    info[I_BEST] = best
    info[I_WORST] = worst
    info[I_WHY] = why
    info[I_LEGAL] = n
    if why != 0:
        info[I_GRADE] = BLUNDER
    elif chosen < best:
        info[I_GRADE] = MISTAKE
    else:
        info[I_GRADE] = BEST


@njit(cache=True)
def analyse_hand_nb(
    hands0, hakem, trump, plays, tt_keys, tt_vals, stats, vals, kot, info, trumps, tgrade
):
    """Analyse one played hand.

    ``hands0`` int64[4] the deal, ``hakem``, ``trump``, ``plays`` int64[52]
    the cards in play order (-1 after the last). Fills ``vals``/``kot``
    (int8[52, 52]: per card played, per legal card; -1/0 elsewhere), ``info``
    (int8[52, N_INFO], -1 after the last card), ``trumps`` (int8[4, 4]: per
    trump suit whether the Hakem's team reaches 7, makes a Kot, concedes a
    Hakem Kot, and for the called suit its tricks) and ``tgrade`` (int8[4]:
    the called suit's tricks twice, the call's grade and why). The call is
    graded on outcomes only (a trick count per suit would cost far more than
    the rest of the hand).
    """
    vals[:, :] = -1
    kot[:, :] = 0
    info[:, :] = -1
    ht = hakem & 1
    zero = np.zeros(3, np.int64)
    # Typed values, never literals: numba would compile the search again for each constant.
    none, seven, yes, no = np.int64(0), np.int64(7), np.bool_(True), np.bool_(False)
    for s in range(4):
        r7 = _reach(hands0, s, hakem, zero, none, ht, seven, no, tt_keys, tt_vals, stats)
        trumps[s, TR_TRICKS] = -1
        trumps[s, TR_REACH] = 1 if r7 else 0
        kot_ = r7 and _reach(hands0, s, hakem, zero, none, ht, seven, yes, tt_keys, tt_vals, stats)
        trumps[s, TR_KOT] = 1 if kot_ else 0
        hk = not r7 and _reach(
            hands0, s, hakem, zero, none, 1 - ht, seven, yes, tt_keys, tt_vals, stats
        )
        trumps[s, TR_HAKEM_KOT] = 1 if hk else 0
    # The trump call, graded like a card (the Hakem's team's view) on the outcomes only.
    tv = np.zeros(52, np.int8)
    tk = np.zeros(52, np.int8)
    for s in range(4):
        tv[s] = 7 if trumps[s, TR_REACH] else 6
        tk[s] = (K_FOR if trumps[s, TR_KOT] else 0) | (K_AGAINST if trumps[s, TR_HAKEM_KOT] else 0)
    trow = np.zeros(N_INFO, np.int8)
    grade(tv, tk, np.int64(15), trump, trow)
    tgrade[TG_GRADE] = trow[I_GRADE]
    tgrade[TG_WHY] = trow[I_WHY]

    h = hands0.copy()
    leader = hakem
    trick = np.zeros(3, np.int64)
    ntrick = np.int64(0)
    taken = np.zeros(2, np.int64)
    # The Hakem's team's value is not known yet: the first lead's cards give it.
    value = np.int64(-1 - (7 if trumps[trump, TR_REACH] else 6))
    sweep = np.zeros(2, np.int64)  # whether each team can force a sweep from here
    sweep[ht] = trumps[trump, TR_KOT]
    sweep[1 - ht] = trumps[trump, TR_HAKEM_KOT]
    for p in range(52):
        c = plays[p]
        if c < 0:
            break
        seat = (leader + ntrick) & 3
        team = seat & 1
        led = trick[0] // 13 if ntrick > 0 else -1
        legal = legal_mask(h[seat], led)
        position_values(
            h,
            trump,
            leader,
            trick,
            ntrick,
            taken,
            value,
            sweep,
            tt_keys,
            tt_vals,
            stats,
            vals[p],
            kot[p],
        )
        row = info[p]
        grade(vals[p], kot[p], legal, c, row)
        row[I_SEAT] = seat
        if ntrick == 0:
            row[I_CLASS] = LEAD
        elif c // 13 == led:
            row[I_CLASS] = FOLLOW
        elif c // 13 == trump:
            row[I_CLASS] = RUFF
        else:
            row[I_CLASS] = DISCARD
        if p == 0:
            trumps[trump, TR_TRICKS] = row[I_BEST]
            tgrade[TG_CHOSEN] = row[I_BEST]
            tgrade[TG_BEST] = row[I_BEST]
        v = np.int64(vals[p, c])
        s_for = (kot[p, c] & K_FOR) != 0
        s_against = (kot[p, c] & K_AGAINST) != 0
        sweep[team] = 1 if s_for else 0
        sweep[1 - team] = 1 if s_against else 0
        h, leader, trick, ntrick, w = play_nb(h, trump, leader, trick, ntrick, c)
        if w >= 0:
            taken[w & 1] += 1
        nxt = (leader + ntrick) & 3
        value = v if (nxt & 1) == team else 13 - v


@njit(cache=True, nogil=True)
def analyse_block_nb(
    hands, hakem, trump, plays, lo, hi, tt_keys, tt_vals, stats, vals, kot, info, trumps, tgrade
):
    """:func:`analyse_hand_nb` for hands ``lo .. hi - 1`` with one table, without the GIL.

    Threads take blocks of hands as they become free (hands differ a
    hundredfold in cost, so fixed shares would leave a thread idle); the
    answers are exact, so they do not depend on which thread or table
    solved a hand.
    """
    for i in range(lo, hi):
        analyse_hand_nb(
            hands[i],
            hakem[i],
            trump[i],
            plays[i],
            tt_keys,
            tt_vals,
            stats,
            vals[i],
            kot[i],
            info[i],
            trumps[i],
            tgrade[i],
        )
