"""Trump = the best mix of length and strength among the five, with weights you set; play as basic.

Score of a suit = ``length`` x (cards held) + ``strength`` x (honour points,
A = 4, K = 3, Q = 2, J = 1); the highest score is trump, ties to more cards,
then higher rank sum, then the lower suit. Why: length wins trump tricks by
ruffing and drawing, honours win them by rank; the weights let a user explore
the trade-off, e.g. ``weighted(length=2,strength=1)``; ``weighted(length=1,
strength=0)`` is the longest-suit rule and ``length=0`` the points rule.
Card play is the neutral ``basic`` baseline.
"""

from hokm_sim.bots.botkit import V_HAND, njit
from hokm_sim.strategies._tips import basic_play, weighted_trump

DESCRIPTION = "trump = max length*cards + strength*honour points among the five; play as basic"
PARAMS = {"length": 2.0, "strength": 1.0}


@njit
def choose_trump(view, params, mem, rng):
    """The suit with the highest ``length * cards + strength * honour points``."""
    return weighted_trump(view[V_HAND], params[0], params[1])


@njit
def play_card(view, params, mem, rng):
    """The ``basic`` baseline."""
    return basic_play(view)
