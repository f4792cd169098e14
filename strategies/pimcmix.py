"""pimc whose inference trusts a mixture of the field, not expert alone.

A sampled deal explains a play when any of six rule-playing bots would have
made it (``strategies/_pimcmix.py``), not ``expert`` alone. Otherwise
``pimc`` exactly: its parameters, its search against ``expert``'s defence,
its trump call, its fallback on ``expert``'s card.
"""

from hokm_sim.bots.botkit import njit
from hokm_sim.strategies import expert
from hokm_sim.strategies._pimc import EXPERT_PARAMS
from hokm_sim.strategies._pimcmix import pimc_card
from hokm_sim.strategies.pimc import choose_trump  # noqa: F401  (pimc's call: no inference)

PARAMS = {
    "k": 26,
    "nodes": 200000,
    "ms": 0,
    "margin": 0,
    "infer": 1,
    "tries": 1000,
    "model": 1,
    "departs": 1,
}
PARAM_LIMITS = {
    "k": (1, 10_000, True),
    "nodes": (1, 2**40, True),
    "ms": (0, 3_600_000, False),
    "margin": (0, 1, True),
    "infer": (0, 2, True),
    "tries": (1, 10_000, True),
    "model": (0, 2, True),
    "departs": (0, 99, True),
}
"""``pimc``'s, written out so that ``hokm-sim strategies`` reads them without importing
the bot (a test holds the two equal)."""


@njit
def play_card(view, params, mem, rng):
    """The card with the best average double-dummy hand points over the samples."""
    return pimc_card(view, params, mem, rng, expert.play_card(view, EXPERT_PARAMS, mem, rng))
