"""A batched plain-Python bot: random trump and a random legal card from each hand's own stream.

``mode`` 1 raises, 2 returns one answer too few, 3 returns floats; 0 plays.
A per-decision twin is ``pyrandom.py``: both draw the same numbers, so they
play the same cards.
"""

import numpy as np

from hokm_sim.bots.pyrules import batched

DESCRIPTION = "batched plain Python: random trump, random legal card (tests)"
PARAMS = {"mode": 0.0}


@batched
def choose_trump(obs):
    """A uniformly drawn suit."""
    return np.minimum((obs.rng.random() * 4).astype(np.int64), 3)


@batched
def play_card(obs):
    """A uniformly drawn legal card; memory counts the seat's decisions this hand."""
    mode = obs.params["mode"]
    if mode == 1:
        raise RuntimeError("batch boom")
    legal = obs.legal_mask
    n = legal.sum(axis=1)
    k = np.minimum((obs.rng.random() * n).astype(np.int64), n - 1)
    order = np.cumsum(legal, axis=1) - 1
    cards = np.argmax(legal & (order == k[:, None]), axis=1)
    obs.mem[:, 0] += 1
    if mode == 2:
        return cards[:-1]
    if mode == 3:
        return cards.astype(float)
    return cards
