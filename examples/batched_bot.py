"""A batched bot: one numpy call decides for every hand in flight, as a neural network would.

With ``@batched`` a bot function gets ``Observations`` (arrays with one row
per hand waiting for this bot) and returns one answer per row. Here a small
linear "policy" scores every card from the ready-made features
(``obs.features()``, the encoding ``hokm_sim.env`` uses too) and plays the
best legal one; a real network would replace ``_scores``.

    hokm-sim run examples/batched_bot.py random --hands 20k --seed 1
"""

import numpy as np

from hokm_sim.bots.observation import FEATURES
from hokm_sim.bots.pyrules import batched

DESCRIPTION = "batched numpy policy: longest suit as trump; play high to win, else low"

# Weights of the linear policy: card logits = features @ W + rank preference.
_W = np.zeros((FEATURES, 52), np.float32)
_RANK = np.tile(np.arange(13, dtype=np.float32), 4)


def _scores(obs):
    """Card scores: lead and ruff high when nobody on our side is winning, else throw low."""
    f = obs.features()
    partner_or_me = (obs.winning_seat == (obs.seat + 2) % 4)[:, None]
    high = np.where(partner_or_me, -_RANK, _RANK)
    return f @ _W + high


@batched
def choose_trump(obs):
    """The suit with most cards among each Hakem's five (the lower suit on a tie)."""
    five = obs.hand[:, None] >> np.arange(52)
    counts = (five & 1).reshape(-1, 4, 13).sum(axis=2)
    return counts.argmax(axis=1)


@batched
def play_card(obs):
    """The legal card with the best score."""
    scores = np.where(obs.legal_mask, _scores(obs), -np.inf)
    return scores.argmax(axis=1)
