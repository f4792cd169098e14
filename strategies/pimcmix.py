"""pimc whose inference trusts a mixture of the field, not expert alone.

A sampled deal explains a play when any of six rule-playing bots would have
made it (``strategies/_pimcmix.py``), not ``expert`` alone. Otherwise
``pimc`` exactly: its parameters, its search against ``expert``'s defence,
its fallback on ``expert``'s card and call.
"""

from hokm_sim.bots.botkit import njit
from hokm_sim.dd.pimc import pimc_trump
from hokm_sim.strategies import expert
from hokm_sim.strategies._pimc import EXPERT_PARAMS
from hokm_sim.strategies._pimcmix import pimc_card
from hokm_sim.strategies.pimc import PARAM_LIMITS, PARAMS  # noqa: F401


@njit
def choose_trump(view, params, mem, rng):
    """The suit whose sampled deals score best for the Hakem's team (ties: expert's call)."""
    return pimc_trump(view, params, rng, expert.choose_trump(view, EXPERT_PARAMS, mem, rng))


@njit
def play_card(view, params, mem, rng):
    """The card with the best average double-dummy hand points over the samples."""
    return pimc_card(view, params, mem, rng, expert.play_card(view, EXPERT_PARAMS, mem, rng))
