"""A toy for the tuner's test: plays as ``longest``, but a random legal card with a chance
that grows with the distance of its two parameters from their known best setting, (3, 7).

Against ``longest`` its pair score is highest exactly there: the tuner must find it.
"""

from hokm_sim.strategies import longest

from hokm_sim.bots.botkit import V_LEGAL, kth_card, njit, popcount, rand_below, rand_float

PARAMS = {"x": 5.0, "y": 5.0}
BEST = (3.0, 7.0)
"""The setting at which the toy never plays a random card."""


@njit
def choose_trump(view, params, mem, rng):
    """The longest suit, as ``longest``."""
    return longest.choose_trump(view, params, mem, rng)


@njit
def play_card(view, params, mem, rng):
    """``longest``'s card, or with chance ``(|x - 3| + |y - 7|) / 10`` a random legal one."""
    miss = (abs(params[0] - 3.0) + abs(params[1] - 7.0)) / 10.0
    if rand_float(rng) < miss:
        legal = view[V_LEGAL]
        return kth_card(legal, rand_below(rng, popcount(legal)))
    return longest.play_card(view, params, mem, rng)
