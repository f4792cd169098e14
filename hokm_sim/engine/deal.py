"""Shuffling and dealing, for numba: Fisher-Yates, 5-4-4 from the Hakem, the first Hakem.

The deck is an ``int64[52]`` array of card indices, top first. Dealing starts
with the Hakem and goes in play order (seat ``s`` to ``(s + 1) % 4``): five
cards each, then four, then four. The Hakem's first five cards are
``deck[0:5]``, the only cards trump is chosen from.

The first Hakem of a match is found by one of the house rules of
docs/rules.md (:data:`hokm_sim.house.FIRST_HAKEM_METHODS`): first ace (the default), highest
single card, highest two cards.
"""

from __future__ import annotations

from numba import njit

from hokm_sim.engine.rng import below_step, bounded
from hokm_sim.inlining import HELPERS

FIRST_ACE, HIGHEST_CARD, HIGHEST_TWO = range(3)
"""The house rules for the first Hakem: codes, the indices of ``FIRST_HAKEM_METHODS``."""


@njit(inline=HELPERS)
def shuffle(state, deck):
    """Fill ``deck`` with 0..51 and shuffle it unbiasedly from stream ``state``.

    Fisher-Yates from the end: for ``i = 51 .. 1`` swap ``deck[i]`` with
    ``deck[bounded(i + 1)]``, as the C yardstick does. The stream's state
    stays in locals through the loop (see :func:`~hokm_sim.engine.rng.xoshiro_step`).
    """
    for i in range(52):
        deck[i] = i
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for i in range(51, 0, -1):
        j, s0, s1, s2, s3 = below_step(i + 1, s0, s1, s2, s3, False)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3


@njit(inline=HELPERS)
def deal(deck, hakem, hands):
    """Deal ``deck`` 5-4-4 starting with the Hakem; ``hands[seat]`` gets a mask."""
    for k in range(4):
        m = 0
        for c in range(5):
            m |= 1 << deck[5 * k + c]
        for c in range(4):
            m |= 1 << deck[20 + 4 * k + c]
        for c in range(4):
            m |= 1 << deck[36 + 4 * k + c]
        hands[(hakem + k) & 3] = m


@njit(inline=HELPERS)
def first_five(deck):
    """Mask of the Hakem's first five cards, ``deck[0:5]``."""
    m = 0
    for c in range(5):
        m |= 1 << deck[c]
    return m


@njit(inline=HELPERS)
def draw_order(state, deck):
    """The draw for the first Hakem: a starting seat drawn uniformly from stream ``state``,
    then ``deck`` shuffled from it (these cards are not the hand); the starting seat."""
    start = bounded(state, 4)
    shuffle(state, deck)
    return start


@njit(inline=HELPERS)
def first_ace(deck, start):
    """First ace: cards are turned up one at a time to seats in play order from
    ``start``; the first seat to receive an ace is Hakem."""
    for i in range(52):
        if deck[i] % 13 == 12:
            return (start + i) & 3
    return start  # unreachable: the deck holds four aces


@njit(inline=HELPERS)
def highest(deck, start, cards):
    """Highest ``cards`` cards: each seat in play order from ``start`` is dealt ``cards``
    cards face up (a round at a time); the highest total of ranks is Hakem. Seats tied
    for it are each dealt one more card, in the same order, and the highest of those
    wins, again and again while a tie remains (should the deck run out, the first tied
    seat in play order wins). Scores are packed 8 bits a seat; ``tied`` is a seat mask."""
    pos = 0
    score = 0
    for _r in range(cards):
        for k in range(4):
            seat = (start + k) & 3
            score += (deck[pos] % 13) << (8 * seat)
            pos += 1
    tied = 15
    while True:
        best = -1
        for s in range(4):
            if (tied >> s) & 1:
                best = max(best, (score >> (8 * s)) & 255)
        keep = 0
        for s in range(4):
            if (tied >> s) & 1 and (score >> (8 * s)) & 255 == best:
                keep |= 1 << s
        tied = keep
        n = (tied & 1) + ((tied >> 1) & 1) + ((tied >> 2) & 1) + (tied >> 3)
        if n == 1 or pos + n > 52:
            break
        score = 0
        for k in range(4):
            seat = (start + k) & 3
            if (tied >> seat) & 1:
                score |= (deck[pos] % 13) << (8 * seat)
                pos += 1
    for k in range(4):
        seat = (start + k) & 3
        if (tied >> seat) & 1:
            return seat
    return start  # unreachable: a tie holds a seat


@njit(inline=HELPERS)
def first_hakem(state, deck, method):
    """The first Hakem of a match by house rule ``method`` (``FIRST_ACE``, ``HIGHEST_CARD``,
    ``HIGHEST_TWO``), drawn from stream ``state``; ``deck`` is scratch space."""
    start = draw_order(state, deck)
    if method == HIGHEST_CARD:
        return highest(deck, start, 1)
    if method == HIGHEST_TWO:
        return highest(deck, start, 2)
    return first_ace(deck, start)
