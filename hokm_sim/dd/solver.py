"""Double-dummy questions for Hokm, for numba: every hand open, best play by all four.

A position is the four hands (``int64[4]`` card masks, equal lengths at a
trick boundary), the trump suit, the seat on lead and the cards already in
the current trick (``trick``, ``ntrick``). The questions all reduce to one
zero-window search, :func:`reach_nb`: can team ``team`` take at least
``need`` of the tricks still to play (the current one included)? With
``kot`` set the question is whether it can take the next ``need`` tricks in
a row, which is how a Kot is forced.

Trick counts here are over *all* remaining tricks, as if the hand were
played out to the end. A Hokm hand stops when a team reaches 7, which never
changes who gets there first: a team reaches 7 first exactly when its
double-dummy total (tricks taken plus tricks still to come) is 7 or more.

The search is :mod:`hokm_sim.dd.search`, after Bo Haglund's DDS for bridge,
with its sure-trick bounds in :mod:`hokm_sim.dd.bounds`, its move order in
:mod:`hokm_sim.dd.order` and its transposition table in
:mod:`hokm_sim.dd.table`. Each of their techniques cuts the nodes a
question needs, the tail most: the partition table, the lead weights, the
small-card skip and the third-hand and void orderings each took the 99th
percentile down by a large factor (figures, with the command that measures
them, in docs/performance.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from hokm_sim.dd.bounds import alive_cards
from hokm_sim.dd.order import equivalents
from hokm_sim.dd.search import S_NODES, new_stack, search, trick_state
from hokm_sim.dd.table import new_table
from hokm_sim.engine.bits import highest, popcount, suit_mask
from hokm_sim.engine.rules import beats, legal_mask


@njit(cache=True)
def reach_nb(hands, trump, leader, trick, ntrick, team, need, kot, tt_keys, tt_vals, stats):
    """Whether ``team`` can take ``need`` of the remaining tricks, double dummy.

    Parameters
    ----------
    hands : int64[4]
        Cards each seat still holds (masks); not changed.
    trump, leader : int
        Trump suit 0..3 and the seat that led (or leads) the current trick.
    trick : int64[>=3]
        The cards already in the current trick, in play order, ``ntrick`` of them
        (0..3); the seat to move is ``(leader + ntrick) % 4``.
    team, need : int
        The question: can team ``team`` (0 or 1) win ``need`` tricks from here,
        the current trick included?
    kot : bool
        Ask instead whether it can win the next ``need`` tricks in a row.
    tt_keys, tt_vals : arrays from :func:`new_table`
        Transposition table, kept between calls.
    stats : int64[>=1]
        ``stats[S_NODES]`` is increased by the number of search nodes visited; with a
        second slot, a positive ``stats[S_LIMIT]`` is a node limit: past it the
        search gives up and returns False (``stats[S_NODES] > stats[S_LIMIT]`` tells);
        with a third, a positive ``stats[S_DEADLINE]`` is a deadline in
        :func:`hokm_sim.dd.clock.now_ns` nanoseconds, treated the same way
        (the clock past it tells).
    """
    h = hands.copy()
    # Typed values, never literals (see trick_state): the 7 tricks, the Kot question.
    root = trick_state(trump, leader, trick, ntrick)
    return search(
        h, trump, root, team, np.int64(need), np.bool_(kot), tt_keys, tt_vals, stats, new_stack()
    )


@njit(cache=True)
def tricks_nb(hands, trump, leader, trick, ntrick, team, tt_keys, tt_vals, stats):
    """Double-dummy number of the remaining tricks (current one included) ``team`` takes.

    A binary search over zero-window searches; the table's bounds make the
    repeated searches cheap.
    """
    root = trick_state(trump, leader, trick, ntrick)
    h = hands.copy()
    stack = new_stack()
    nrem = popcount(h[(leader + ntrick) & 3])
    lo = 0
    hi = nrem
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if search(h, trump, root, team, mid, np.bool_(False), tt_keys, tt_vals, stats, stack):
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit(cache=True)
def analyse_nb(hands, trump, leader, full, tt_keys, tt_vals, stats, out):
    """The ``hokm-sim dd`` questions for one deal at a trick boundary, into ``out``.

    ``out`` (int64[5]) gets team 0's and team 1's double-dummy tricks, whether
    the leader's team reaches 7, and with ``full`` (13 cards each) whether the
    leader's team can take the first 7 tricks in a row (Kot) and whether the
    other team can (Hakem Kot when the leader is the Hakem); -1 otherwise.
    """
    trick = np.zeros(3, np.int64)
    # Typed values, never literals: numba would compile the search again for each constant.
    none, seven, kot = np.int64(0), np.int64(7), np.bool_(True)
    lt = leader & 1
    n = popcount(hands[leader])
    t = tricks_nb(hands, trump, leader, trick, none, lt, tt_keys, tt_vals, stats)
    out[lt] = t
    out[1 - lt] = n - t
    out[2] = 1 if t >= 7 else 0
    out[3] = -1
    out[4] = -1
    if full:
        out[3] = (
            1
            if reach_nb(hands, trump, leader, trick, none, lt, seven, kot, tt_keys, tt_vals, stats)
            else 0
        )
        out[4] = (
            1
            if reach_nb(
                hands, trump, leader, trick, none, 1 - lt, seven, kot, tt_keys, tt_vals, stats
            )
            else 0
        )


@njit(cache=True, parallel=True)
def analyse_many_nb(hands, trump, leader, full, chunks, tt_bits, out, nodes):
    """:func:`analyse_nb` for every deal, ``chunks`` blocks of deals in parallel.

    ``hands`` int64[n, 4], ``trump``/``leader``/``full`` int64[n]; ``out``
    int64[n, 5]; ``nodes`` int64[chunks] gets each block's node count. Each
    block owns its transposition table of ``2**tt_bits`` slots.
    """
    n = hands.shape[0]
    size = -(-n // chunks)
    for b in prange(chunks):
        tt_keys, tt_vals = new_table(tt_bits)
        stats = np.zeros(1, np.int64)
        for i in range(b * size, min(n, (b + 1) * size)):
            analyse_nb(hands[i], trump[i], leader[i], full[i] != 0, tt_keys, tt_vals, stats, out[i])
        nodes[b] = stats[S_NODES]


@njit(cache=True)
def play_nb(hands, trump, leader, trick, ntrick, card):
    """Play ``card`` for the seat to move: ``(hands, leader, trick, ntrick, winner)``.

    Returns new arrays (the inputs are not changed). When the card completes
    the trick, the trick is cleared, its winner leads and ``winner`` is that
    seat; otherwise ``winner`` is -1.
    """
    seat = (leader + ntrick) & 3
    h = hands.copy()
    h[seat] ^= 1 << card
    t = np.zeros(3, np.int64)
    for k in range(ntrick):
        t[k] = trick[k]
    if ntrick < 3:
        t[ntrick] = card
        return h, leader, t, ntrick + 1, -1
    best = trick[0]
    best_seat = leader
    for k in range(1, 4):
        c = trick[k] if k < 3 else card
        if beats(c, best, trump):
            best = c
            best_seat = (leader + k) & 3
    return h, best_seat, np.zeros(3, np.int64), 0, best_seat


@njit(cache=True)
def card_values_nb(hands, trump, leader, trick, ntrick, tt_keys, tt_vals, stats, out):
    """Double-dummy value of every legal card of the seat to move, into ``out`` (int64[52]).

    ``out[c]`` is the number of the remaining tricks (the current one
    included) the mover's team takes after playing ``c`` with best play
    from then on; -1 for cards it may not play. Equivalent cards are solved
    once.
    """
    seat = (leader + ntrick) & 3
    team = seat & 1
    led = trick[0] // 13 if ntrick > 0 else -1
    legal = legal_mask(hands[seat], led)
    tcards = 0
    for k in range(ntrick):
        tcards |= 1 << trick[k]
    reps = equivalents(legal, alive_cards(hands) | tcards)
    out[:] = -1
    m = reps
    while m != 0:
        c = highest(m)
        m ^= 1 << c
        h, nl, t, nt, w = play_nb(hands, trump, leader, trick, ntrick, c)
        won = 1 if w >= 0 and (w & 1) == team else 0
        out[c] = won + tricks_nb(h, trump, nl, t, nt, team, tt_keys, tt_vals, stats)
    # Every card takes the value of the run it belongs to (runs are topped by reps).
    for s in range(4):
        sm = suit_mask(s)
        a = (alive_cards(hands) | tcards) & sm
        v = -1
        x = a
        while x != 0:
            c = highest(x)
            x ^= 1 << c
            if (legal >> c) & 1:
                if (reps >> c) & 1:
                    v = out[c]
                out[c] = v
            else:
                v = -1


@njit(cache=True, parallel=True)
def trump_study_nb(hands, hakem, chunks, tt_bits, out, nodes):
    """For each deal and each trump suit, whether the Hakem's team can force 7.

    ``hands`` int64[n, 4], ``hakem`` int64[n] (the Hakem leads); ``out``
    int64[n, 4] gets 1 or 0 per trump C, D, H, S; ``nodes`` int64[chunks] each
    block's node count. Blocks of deals run in parallel, each with its own
    table of ``2**tt_bits`` slots.
    """
    n = hands.shape[0]
    size = -(-n // chunks)
    for b in prange(chunks):
        tt_keys, tt_vals = new_table(tt_bits)
        stats = np.zeros(1, np.int64)
        trick = np.zeros(3, np.int64)
        none, seven, kot = np.int64(0), np.int64(7), np.bool_(False)  # typed, as in analyse_nb
        for i in range(b * size, min(n, (b + 1) * size)):
            for s in range(4):
                ok = reach_nb(
                    hands[i], s, hakem[i], trick, none, hakem[i] & 1, seven, kot, tt_keys, tt_vals,
                    stats,
                )  # fmt: skip
                out[i, s] = 1 if ok else 0
        nodes[b] = stats[S_NODES]
