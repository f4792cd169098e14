"""The tuner's toy (tests/test_tune.py): ``longest``, with a miss chance set by two parameters.

With chance ``(|p0 - 3| + |p1 - 7|) / 10`` a card is a random legal one,
otherwise ``longest``'s. Against ``longest`` its pair score is highest exactly
at its known best setting, ``p0=3, p1=7``, where it plays as ``longest``: the
tuner must find it.
"""

from hokm_sim.bots.botkit import V_LEGAL, kth_card, njit, popcount, rand_below, rand_float
from hokm_sim.strategies import longest

DESCRIPTION = "longest with a miss chance that grows away from p0=3, p1=7 (tests only)"
PARAMS = {"p0": 5.0, "p1": 5.0}


@njit
def choose_trump(view, params, mem, rng):
    """``longest``'s trump."""
    return longest.choose_trump(view, params, mem, rng)


@njit
def play_card(view, params, mem, rng):
    """``longest``'s card, or with the miss chance a random legal one."""
    miss = (abs(params[0] - 3.0) + abs(params[1] - 7.0)) / 10.0
    if rand_float(rng) < miss:
        legal = view[V_LEGAL]
        return kth_card(legal, rand_below(rng, popcount(legal)))
    return longest.play_card(view, params, mem, rng)
