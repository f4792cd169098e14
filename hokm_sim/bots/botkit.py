"""What a bot file imports: the view layout, bit helpers and table-talk helpers.

A strategy is a file with two jitted functions (see ``strategies/`` and the
docs/bots.md)::

    @njit
    def choose_trump(view, params, mem, rng) -> int   # a suit 0..3
    @njit
    def play_card(view, params, mem, rng) -> int      # a card 0..51

Everything a bot needs is re-exported here, so a bot file needs one import
line. The helpers below read only the ``view`` (what the seat may see).
Decisions may not allocate (the engine's card loop runs without reference
counting): keep state in ``mem``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hokm_sim.engine.bits import (
    ACES,
    FULL_DECK,
    RANK_COLUMN,
    SUIT_MASK,
    above,
    ctz,
    highest,
    highest_by_rank,
    highest_in_suit,
    kth_card,
    lowest,
    lowest_by_rank,
    lowest_in_suit,
    popcount,
    rank_of,
    suit_cards,
    suit_mask,
    suit_of,
)
from hokm_sim.engine.rng import rand_below, rand_float
from hokm_sim.engine.view import (
    MEM_SIZE,
    PARAM_SIZE,
    V_HAKEM,
    V_HAND,
    V_LEADER,
    V_LED,
    V_LEGAL,
    V_NTRICK,
    V_PLAYED,
    V_PLAYED_BY,
    V_SCORES,
    V_SEAT,
    V_TARGET,
    V_TRICK,
    V_TRICK_NO,
    V_TRICKS,
    V_TRUMP,
    V_VOIDS,
    V_WIN_CARD,
    V_WIN_SEAT,
)

__all__ = [
    "ACES",
    "FULL_DECK",
    "MEM_SIZE",
    "PARAM_SIZE",
    "RANK_COLUMN",
    "SUIT_MASK",
    "V_HAKEM",
    "V_HAND",
    "V_LED",
    "V_LEADER",
    "V_LEGAL",
    "V_NTRICK",
    "V_PLAYED",
    "V_PLAYED_BY",
    "V_SCORES",
    "V_SEAT",
    "V_TARGET",
    "V_TRICK",
    "V_TRICK_NO",
    "V_TRICKS",
    "V_TRUMP",
    "V_VOIDS",
    "V_WIN_CARD",
    "V_WIN_SEAT",
    "above",
    "ctz",
    "default_params",
    "highest",
    "highest_by_rank",
    "highest_in_suit",
    "kth_card",
    "lowest",
    "lowest_by_rank",
    "lowest_in_suit",
    "njit",
    "partner_winning",
    "popcount",
    "rand_below",
    "rand_float",
    "rank_of",
    "suit_cards",
    "suit_counts_rank_sums",
    "suit_mask",
    "suit_of",
]


@njit(inline="always")
def partner_winning(view):
    """Whether the deciding seat's partner is winning the current trick."""
    return view[V_WIN_SEAT] >= 0 and view[V_WIN_SEAT] == ((view[V_SEAT] + 2) & 3)


@njit(inline="always")
def suit_counts_rank_sums(five):
    """Longest suit of a card mask: ``(suit, count)``, ties by higher rank sum.

    Rank sum counts 2 as 0 up to A as 12; a remaining tie goes to the lower
    suit index (C < D < H < S).
    """
    best = 0
    best_n = -1
    best_sum = -1
    for s in range(4):
        m = (five >> (13 * s)) & SUIT_MASK
        n = popcount(m)
        # Sum of set-bit indices: each bit of the index weighs one popcount.
        total = (
            popcount(m & 0xAAAA)
            + 2 * popcount(m & 0xCCCC)
            + 4 * popcount(m & 0xF0F0)
            + 8 * popcount(m & 0xFF00)
        )
        if n > best_n or (n == best_n and total > best_sum):
            best = s
            best_n = n
            best_sum = total
    return best, best_n


def default_params(params: dict[str, float]) -> np.ndarray:
    """The ``float64[PARAM_SIZE]`` array of a bot's ``PARAMS`` at their defaults, as the
    engine passes them when no spec changes them: for a bot that calls another bot's
    decisions (``pimc`` falls back on ``expert``'s)."""
    out = np.zeros(PARAM_SIZE)
    out[: len(params)] = list(params.values())
    return out
