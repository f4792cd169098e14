"""The double-dummy search: can a team take a number of the tricks still to play?

A true/false search against a target, cut off as soon as the target is made
or out of reach, built as in Bo Haglund's DDS for bridge (bo-haglund/dds):

- a position at a trick boundary is first put to the sure-trick bounds
  (:mod:`hokm_sim.dd.bounds`) and then to the transposition table
  (:mod:`hokm_sim.dd.table`); a second hand whose side needs only the
  current trick is put to its own bound;
- moves are generated and ordered by DDS's weights (:mod:`hokm_sim.dd.order`),
  the lead that last cut the search off at the same depth preferred;
- partition search ("winning ranks"): every node returns the cards its
  result rests on: winners of tricks won by rank (not the only card of
  their suit in the trick), the top cards behind a sure-trick bound, the
  cards a table entry was matched on, and, for a card that failed, its
  whole run of equivalent cards when any of it counts (a card that succeeds
  is there to be played in every position that agrees down to the cards it
  rests on). Such a result holds for every position that agrees on each
  suit's alive cards down to the lowest card it rests on and on every
  hand's suit lengths: the cards below are interchangeable small cards, and
  the table stores it so;
- small cards: once a card fails and is lower than every card of its suit
  the failure rested on, the hand's other cards of that suit below those
  are not tried (they would fail the same way).

The search keeps its own stack (numba's on-disk cache cannot hold recursive
functions). Its counters and budget are the ``stats`` array (``S_*``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from hokm_sim.dd.bits import pdep, pext
from hokm_sim.dd.bounds import alive_cards, lead_bound, second_hand_trick
from hokm_sim.dd.clock import now_ns
from hokm_sim.dd.order import equivalents, follow_order, lead_order, second_hand_first, void_order
from hokm_sim.dd.table import down_to_lowest, holder_pattern, signature, tt_lookup, tt_store
from hokm_sim.engine.bits import bit_length, ctz, highest, popcount, suit_mask
from hokm_sim.engine.rules import beats, legal_mask
from hokm_sim.inlining import HELPERS

S_NODES = 0
"""``stats`` slot: the nodes entered, added to by every search."""
S_LIMIT = 1
"""``stats`` slot (when the array has it): a positive node limit, past which the search
gives up and returns False (``stats[S_NODES] > stats[S_LIMIT]`` tells the caller)."""
S_DEADLINE = 2
"""``stats`` slot (when the array has it): a positive deadline on
:func:`hokm_sim.dd.clock.now_ns`, looked at every 1,024 nodes, past which the search
gives up the same way (the clock past it tells)."""
STATS_SIZE = 3
"""Slots of a ``stats`` array with both budgets."""


@njit(inline=HELPERS)
def new_stats(limit, deadline):
    """A ``stats`` array: no nodes yet, the node limit and the deadline (0: none)."""
    stats = np.zeros(STATS_SIZE, np.int64)
    stats[S_LIMIT] = limit
    stats[S_DEADLINE] = deadline
    return stats


class TrickState(NamedTuple):
    """The trick in progress where a search starts (:func:`trick_state`)."""

    leader: int
    """The seat that led it (or leads it, with no card yet)."""
    pos: int
    """Cards played to it, 0..3."""
    led: int
    """The led suit, -1 with no card yet."""
    best: int
    """The card winning it so far, -1 with no card yet."""
    best_seat: int
    """The seat that played that card, -1 with no card yet."""
    tcards: int
    """The mask of its cards."""


@njit(inline=HELPERS)
def trick_state(trump, leader, trick, ntrick):
    """The :class:`TrickState` of a trick with ``ntrick`` cards played, ``trick[:ntrick]``.

    Its fields are typed values, never literals: numba compiles a copy of the
    search for each constant a caller passes (a full deal's 0 cards in the
    trick), each as costly to compile as the first and no faster.
    """
    pos = np.int64(ntrick)
    if ntrick == 0:
        return TrickState(leader, pos, np.int64(-1), np.int64(-1), np.int64(-1), np.int64(0))
    led = trick[0] // 13
    best = trick[0]
    best_seat = leader
    tcards = 1 << trick[0]
    for k in range(1, ntrick):
        c = trick[k]
        tcards |= 1 << c
        if beats(c, best, trump):
            best = c
            best_seat = (leader + k) & 3
    return TrickState(leader, pos, led, best, best_seat, tcards)


# --- the search's stack: st[depth, _F_*], depth = cards played since the root ----
# The trick at this depth:
_F_LEADER = 0
_F_POS = 1  # cards already in it
_F_LED = 2
_F_BEST = 3
_F_BSEAT = 4
_F_TCARDS = 5
_F_NEED = 6  # tricks the question's team still needs
# The moves left to try: either a list in weight order, lst[depth, _F_NEXT:_F_NLIST]
# (_F_LISTED 1), or three masks tried in turn, the first from its top (_F_LISTED 0):
_F_LISTED = 7
_F_NLIST = 8
_F_NEXT = 9
_F_M0 = 10
_F_M1 = 11
_F_M2 = 12
_F_CARD = 13  # the card being tried, -1 before the first
_F_TW = 14  # the card tried, when it completes a trick: the winner's bit if it won by rank
_F_W = 15  # cards the result rests on, gathered over the moves tried
_F_SKIP = 16  # cards not worth trying: below every card a failed move rested on
# The table entry the result goes to:
_F_SLOT = 17  # 1 when the result goes to the table, -1 when not
_F_K1 = 18  # the position's holder pattern (two planes) and signature
_F_K2 = 19
_F_SIG = 20
_F_TARGET = 21  # the tricks the leader's team must take, the entry's question
_NF = 22
DEPTH = 53
"""Stack rows: one per card still to play, and the root's."""


@njit(inline=HELPERS)
def _set_trick(st, d, leader, pos, led, best, best_seat, tcards):
    st[d, _F_LEADER] = leader
    st[d, _F_POS] = pos
    st[d, _F_LED] = led
    st[d, _F_BEST] = best
    st[d, _F_BSEAT] = best_seat
    st[d, _F_TCARDS] = tcards


@njit(inline=HELPERS)
def _probe_table(st, d, h, trump, leader, team, kot, wl, tt_keys, tt_vals):
    """Whether the table decides the trick-boundary node at depth ``d``: ``(decided,
    answer, cards it rests on)``; if not, the node's entry is noted for the result."""
    sig = signature(h, trump, leader, kot)
    alive = alive_cards(h)
    p1, p2 = holder_pattern(h, leader, alive)
    r, m = tt_lookup(tt_keys, tt_vals, sig, p1, p2, wl)
    if r != 0:
        return True, (r > 0) == ((leader & 1) == team), pdep(m, alive)
    st[d, _F_SLOT] = 1
    st[d, _F_K1] = p1
    st[d, _F_K2] = p2
    st[d, _F_SIG] = sig
    st[d, _F_TARGET] = wl
    return False, False, 0


@njit(inline=HELPERS)
def _evaluate(st, d, h, trump, team, kot, tt_keys, tt_vals):
    """Whether a bound or the table decides the node at depth ``d``: ``(decided,
    answer, cards it rests on)``."""
    leader = st[d, _F_LEADER]
    pos = st[d, _F_POS]
    need = st[d, _F_NEED]
    st[d, _F_SLOT] = -1
    st[d, _F_W] = 0
    st[d, _F_SKIP] = 0
    if pos == 0:
        decided, ret, retw, wl = lead_bound(h, trump, leader, team, need, kot)
        if not decided and tt_keys.shape[0] > 0 and (not kot or (leader & 1) == team):
            return _probe_table(st, d, h, trump, leader, team, kot, wl, tt_keys, tt_vals)
        return decided, ret, retw
    if pos == 1 and d > 0:
        # A second hand whose side needs only this trick: does it win it surely?
        seat = (leader + 1) & 3
        side = seat & 1
        if side == team:
            want = need
        elif kot:
            want = 1
        else:
            want = popcount(h[seat]) - need + 1
        if want <= 1:
            sure, rests = second_hand_trick(h, trump, seat, st[d, _F_LED], st[d, _F_BEST])
            if sure:
                return True, side == team, rests
    return False, False, 0


@njit(inline=HELPERS)
def _set_moves(st, d, h, trump, killer, lst, wts):
    """The moves of the undecided node at depth ``d``, in the order to try them."""
    leader = st[d, _F_LEADER]
    pos = st[d, _F_POS]
    led = st[d, _F_LED]
    seat = (leader + pos) & 3
    legal = legal_mask(h[seat], led)
    moves = equivalents(legal, alive_cards(h) | st[d, _F_TCARDS])
    st[d, _F_CARD] = -1
    st[d, _F_LISTED] = 0
    if pos == 0:
        st[d, _F_LISTED] = 1
        st[d, _F_NLIST] = lead_order(h, moves, seat, trump, killer[d], lst, d, wts)
        st[d, _F_NEXT] = 0
    elif pos == 1 and (h[seat] & suit_mask(led)) != 0:
        first = second_hand_first(h, moves, seat, trump, ctz(st[d, _F_TCARDS]))
        st[d, _F_M0] = first
        st[d, _F_M1] = moves ^ first
        st[d, _F_M2] = 0
    elif (h[seat] & suit_mask(led)) == 0:
        st[d, _F_LISTED] = 1
        st[d, _F_NLIST] = void_order(
            h, moves, pos, seat, led, st[d, _F_BEST], st[d, _F_BSEAT], trump, lst, d, wts
        )
        st[d, _F_NEXT] = 0
    else:
        m0, m1, m2 = follow_order(
            h[(seat + 1) & 3], moves, pos, seat, led, st[d, _F_BEST], st[d, _F_BSEAT], trump,
            alive_cards(h) | st[d, _F_TCARDS],
        )  # fmt: skip
        st[d, _F_M0] = m0
        st[d, _F_M1] = m1
        st[d, _F_M2] = m2


@njit(inline=HELPERS)
def _next_move(st, d, lst):
    """The next card to try at depth ``d``, or -1 when none is left."""
    if st[d, _F_LISTED]:
        k = st[d, _F_NEXT]
        while k < st[d, _F_NLIST] and (st[d, _F_SKIP] >> lst[d, k]) & 1:
            k += 1
        if k < st[d, _F_NLIST]:
            st[d, _F_NEXT] = k + 1
            return lst[d, k]
        return -1
    mm = st[d, _F_M0]
    if mm != 0:
        c = highest(mm)
        st[d, _F_M0] = mm ^ (1 << c)
        return c
    mm = st[d, _F_M1]
    if mm != 0:
        c = ctz(mm)
        st[d, _F_M1] = mm ^ (1 << c)
        return c
    mm = st[d, _F_M2]
    if mm != 0:
        c = ctz(mm)
        st[d, _F_M2] = mm ^ (1 << c)
        return c
    return -1


@njit(inline=HELPERS)
def _rests_on(st, d, h, seat, c, failed, wm):
    """The cards the result of card ``c`` rests on, ``wm``, with its run counted in:
    the card stood for its run of equivalent cards, so a failure that rests on any
    card of the run rests on all of it."""
    sm = suit_mask(c // 13)
    if failed and wm & sm:
        a = (alive_cards(h) | st[d, _F_TCARDS]) & sm
        cp = pext(h[seat] & sm, a)
        pc = popcount(a & ((1 << c) - 1))
        low = bit_length(~cp & ((1 << pc) - 1))
        if low < pc and wm & pdep(((2 << pc) - 1) & ~((1 << low) - 1), a):
            wm |= pdep(1 << low, a)
    return wm


@njit(inline=HELPERS)
def _note_failure(st, d, c, wm):
    """Card ``c`` failed, resting on ``wm``: the node's result rests on those cards too,
    and a failed card below every card of its suit its result rested on stands for
    the hand's other such cards (as in DDS): they are small cards all the same, and
    fail too, so they are not tried."""
    st[d, _F_W] |= wm
    sm = suit_mask(c // 13)
    wsuit = wm & sm
    lowest = wsuit & -wsuit
    if (lowest == 0 or (1 << c) < lowest) and (st[d, _F_SKIP] & sm) == 0:
        skip = sm & ((lowest - 1) if lowest else -1)
        st[d, _F_SKIP] |= skip
        if not st[d, _F_LISTED]:
            st[d, _F_M0] &= ~skip
            st[d, _F_M1] &= ~skip
            st[d, _F_M2] &= ~skip


@njit(inline=HELPERS)
def _store(st, d, h, reached, wnode, tt_keys, tt_vals):
    """The result of the node at depth ``d`` into its table entry: whether the leader's
    team reached the entry's target, for every position that agrees down to ``wnode``."""
    alive = alive_cards(h)
    mask = pext(down_to_lowest(wnode, alive), alive)
    tt_store(
        tt_keys, tt_vals, st[d, _F_SIG], st[d, _F_K1], st[d, _F_K2], mask,
        popcount(h[st[d, _F_LEADER]]), reached, st[d, _F_TARGET],
    )  # fmt: skip


@njit(inline=HELPERS)
def _play(st, d, h, trump, team, kot, seat, c):
    """``seat`` plays ``c`` at depth ``d``: the child position at ``d + 1``. False when
    the card breaks a Kot run (the other team wins the trick): nothing to search."""
    st[d, _F_CARD] = c
    st[d, _F_TW] = 0
    h[seat] ^= 1 << c
    leader = st[d, _F_LEADER]
    pos = st[d, _F_POS]
    need = st[d, _F_NEED]
    if pos == 0:
        nled = c // 13
        nbest = c
        nseat = seat
    else:
        nled = st[d, _F_LED]
        best = st[d, _F_BEST]
        if beats(c, best, trump):
            nbest = c
            nseat = seat
        else:
            nbest = best
            nseat = st[d, _F_BSEAT]
    e = d + 1
    if pos == 3:
        four = st[d, _F_TCARDS] | (1 << c)
        if popcount(four & suit_mask(nbest // 13)) > 1:
            st[d, _F_TW] = 1 << nbest
        if (nseat & 1) == team:
            need -= 1
        elif kot:
            return False
        unset = np.int64(-1)  # typed values, as in search
        _set_trick(st, e, nseat, np.int64(0), unset, unset, unset, np.int64(0))
    else:
        _set_trick(st, e, leader, pos + 1, nled, nbest, nseat, st[d, _F_TCARDS] | (1 << c))
    st[e, _F_NEED] = need
    return True


class SearchStack(NamedTuple):
    """The arrays a search works in (:func:`new_stack`); any number of searches, one
    after the other, can use one."""

    st: np.ndarray
    """``int64[DEPTH, _NF]``: the nodes on the path, their ``_F_*`` fields."""
    lst: np.ndarray
    """``int64[DEPTH, 13]``: each node's moves, when they are a list in weight order."""
    wts: np.ndarray
    """``int64[13]``: the weights of the list being ordered."""
    killer: np.ndarray
    """``int64[DEPTH]``: the lead that last cut the search off at each depth (-1: none)."""


@njit(inline=HELPERS)
def new_stack():
    """A :class:`SearchStack`."""
    return SearchStack(
        np.empty((DEPTH, _NF), np.int64),
        np.empty((DEPTH, 13), np.int64),
        np.empty(13, np.int64),
        np.empty(DEPTH, np.int64),
    )


@njit(cache=True, _nrt=False)
def search(h, trump, root, team, need, kot, tt_keys, tt_vals, stats, stack):
    """Whether ``team`` can take ``need`` of the remaining tricks (in a row with ``kot``)
    from the position of hands ``h`` (int64[4], changed during the search and restored)
    with the trick ``root`` (:class:`TrickState`) in progress.

    An explicit-stack depth-first search: entering a node, a bound or the table
    may decide it (:func:`_evaluate`), else its moves are ordered
    (:func:`_set_moves`); back at a node with a child's answer, a card that
    reaches the node's goal decides it, a failed one adds the cards it rested
    on (:func:`_rests_on`, :func:`_note_failure`), and the next card is played
    (:func:`_next_move`, :func:`_play`) until none is left. A decided node
    returns the cards its result rests on (``retw``): the winners of tricks
    won by rank, the top cards behind a sure-trick bound, the cards a table
    entry was matched on; a node with a table entry stores its result there
    (:func:`_store`).

    ``stats[S_NODES]`` counts the nodes entered; a positive ``stats[S_LIMIT]``
    and ``stats[S_DEADLINE]`` (when the array has them) end the search early
    with False (the caller must check, see :data:`S_LIMIT`). ``stack`` is a
    :class:`SearchStack` (its killer moves are reset).

    Compiled without numba's reference counting (``_nrt=False``), as the
    engine's card loop is: the search allocates nothing (its caller makes the
    stack), and the counting would cost an atomic increment and decrement
    each time a helper below is handed an array.
    """
    st = stack.st
    lst = stack.lst
    wts = stack.wts
    killer = stack.killer
    for i in range(DEPTH):
        killer[i] = -1
    limit = stats[S_LIMIT] if stats.shape[0] > S_LIMIT else 0
    deadline = stats[S_DEADLINE] if stats.shape[0] > S_DEADLINE else 0
    d = np.int64(0)  # typed, not a literal: numba would compile each helper for d == 0 too
    _set_trick(st, d, root.leader, root.pos, root.led, root.best, root.best_seat, root.tcards)
    st[0, _F_NEED] = need
    entering = True
    ret = False
    retw = 0
    while True:
        if entering:
            stats[S_NODES] += 1
            if limit > 0 and stats[S_NODES] > limit:
                return False  # over budget: the caller sees stats[S_NODES] > stats[S_LIMIT]
            if deadline > 0 and (stats[S_NODES] & 1023) == 0 and now_ns() >= deadline:
                return False  # out of time: the caller sees the clock past stats[S_DEADLINE]
            entering = False
            decided, ret, retw = _evaluate(st, d, h, trump, team, kot, tt_keys, tt_vals)
            if decided:
                if d == 0:
                    return ret
                d -= 1
            else:
                _set_moves(st, d, h, trump, killer, lst, wts)
            continue
        # Back at depth d with ``ret`` and ``retw``, the value of the child just
        # searched and the cards it rests on (right after entering: no child, CARD -1).
        leader = st[d, _F_LEADER]
        seat = (leader + st[d, _F_POS]) & 3
        maximize = (seat & 1) == team
        c = st[d, _F_CARD]
        done = False
        wnode = 0
        if c >= 0:
            h[seat] |= 1 << c
            wm = _rests_on(st, d, h, seat, c, ret != maximize, retw | st[d, _F_TW])
            if ret == maximize:
                done = True
                wnode = wm
                if st[d, _F_POS] == 0:
                    killer[d] = c
            else:
                _note_failure(st, d, c, wm)
        if not done:
            c = _next_move(st, d, lst)
            if c < 0:
                ret = not maximize
                done = True
                wnode = st[d, _F_W]
        if done:
            if st[d, _F_SLOT] >= 0:
                _store(st, d, h, ret == ((leader & 1) == team), wnode, tt_keys, tt_vals)
            retw = wnode
            if d == 0:
                return ret
            d -= 1
        elif _play(st, d, h, trump, team, kot, seat, c):
            d += 1
            entering = True
        else:
            ret = False  # the run is broken: no need to look further
            retw = 0
