"""Trump = the suit with the most high-card strength among the five; plays like ``basic``.

Strength counts A = 4, K = 3, Q = 2, J = 1 (the usual honour points); ties go
to the suit with more cards, then to the lower suit (C D H S). Why: a suit
headed by top honours gives sure trump tricks and control even when short,
which the length rule ignores. Card play is the neutral ``basic`` baseline,
so a duplicate run against ``basic`` measures the trump rule alone.
"""

from hokm_sim.bots.botkit import V_HAND, njit
from hokm_sim.strategies._tips import basic_play, points_trump

DESCRIPTION = "trump = most honour points (A4 K3 Q2 J1) among the five; play as basic"


@njit
def choose_trump(view, params, mem, rng):
    """The suit with the most honour points; ties by length, then lower suit."""
    return points_trump(view[V_HAND])


@njit
def play_card(view, params, mem, rng):
    """The ``basic`` baseline."""
    return basic_play(view)
