"""The built-in ``random`` bot as a batched plain-Python bot: the draws of ``pyrandom.py``.

``mode`` 1 raises, 2 returns one answer too few, 3 returns floats; 0 plays.
"""

import numpy as np

from hokm_sim.bots.pyrules import batched

DESCRIPTION = "batched plain Python: uniform random trump and legal card (tests)"
PARAMS = {"mode": 0.0}


@batched
def choose_trump(obs):
    """A uniformly drawn suit for every Hakem."""
    return obs.rng.below(4)


@batched
def play_card(obs):
    """A uniformly drawn legal card for every hand; memory counts the seat's cards."""
    mode = obs.params["mode"]
    if mode == 1:
        raise RuntimeError("batch boom")
    legal = obs.legal_mask
    k = obs.rng.below(legal.sum(axis=1))
    cards = np.argmax(np.cumsum(legal, axis=1) > k[:, None], axis=1)
    obs.mem[:, 0] += 1
    if mode == 2:
        return cards[:-1]
    if mode == 3:
        return cards.astype(float)
    return cards
