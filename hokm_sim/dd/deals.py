"""The engine's seeded single deals, for double-dummy studies and benchmarks.

Deal ``d`` of seed ``s`` is exactly the deal ``hokm-sim run --hands`` plays
as deal ``d`` (same stream, Hakem ``d % 4``), so a double-dummy figure can be
set beside what bots made of the same cards.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hokm_sim.engine.deal import deal, shuffle
from hokm_sim.engine.rng import seed_stream


@njit(cache=True)
def engine_deals_nb(seed, start, count, hands, hakem, five):
    """Deals ``start .. start + count - 1`` of ``seed`` into ``hands`` (int64[count, 4]),
    ``hakem`` (int64[count]) and ``five`` (int64[count], the Hakem's first five cards)."""
    state = np.zeros(4, np.uint64)
    deck = np.zeros(52, np.int64)
    for i in range(count):
        d = start + i
        h = d & 3
        seed_stream(state, seed, d)
        shuffle(state, deck)
        deal(deck, h, hands[i])
        m = 0
        for c in range(5):
            m |= 1 << deck[c]
        hakem[i] = h
        five[i] = m


def engine_deals(seed: int, start: int, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(hands int64[count, 4], hakem int64[count], five int64[count])`` of the engine's deals."""
    hands = np.zeros((count, 4), np.int64)
    hakem = np.zeros(count, np.int64)
    five = np.zeros(count, np.int64)
    engine_deals_nb(np.uint64(seed), start, count, hands, hakem, five)
    return hands, hakem, five
