"""Shuffling and dealing, for numba: Fisher-Yates, 5-4-4 from the Hakem, first ace.

The deck is an ``int64[52]`` array of card indices, top first. Dealing starts
with the Hakem and goes in play order (seat ``s`` to ``(s + 1) % 4``): five
cards each, then four, then four. The Hakem's first five cards are
``deck[0:5]``, the only cards trump is chosen from.
"""

from __future__ import annotations

from numba import njit

from hokm_sim.engine.rng import below_step, bounded


@njit(inline="always")
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


@njit(inline="always")
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


@njit(inline="always")
def first_five(deck):
    """Mask of the Hakem's first five cards, ``deck[0:5]``."""
    m = 0
    for c in range(5):
        m |= 1 << deck[c]
    return m


@njit(inline="always")
def first_ace_hakem(state, deck):
    """The first Hakem of a match by first ace, drawn from stream ``state``.

    A starting seat is drawn uniformly; a shuffled deck is turned up one card
    at a time to seats in play order from it; the first seat to receive an
    ace is Hakem. ``deck`` is scratch space (these cards are not the hand).
    """
    start = bounded(state, 4)
    shuffle(state, deck)
    for i in range(52):
        if deck[i] % 13 == 12:
            return (start + i) & 3
    return start  # unreachable: the deck holds four aces
