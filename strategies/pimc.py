"""PIMC: samples the hands it cannot see, solves each double dummy, plays the best card on average.

At every card it deals the unseen cards ``k`` times consistently with what
its seat knows (its hand, every card played and by whom, the voids shown,
how many cards each seat holds), solves each deal double dummy for every
card it may play (:mod:`hokm_sim.dd.solver`) and plays the card with the
best average hand points (win 1, Kot 2, Hakem Kot 3, losses negative). With
``margin`` (on by default) cards level on points are told apart by the
double-dummy tricks they keep (tricks taken plus tricks still to take,
averaged over the samples), which the points alone often cannot do; among
cards still level it plays ``expert``'s card when that is one of them. As
Hakem it completes its five cards ``k`` times and calls the suit whose deals
score best. ``nodes`` bounds one sample's search: samples over it are
dropped, and when none is left (early in a hand, where deals are hardest)
it plays and calls as ``expert`` does. ``ms`` (0: none) is a time budget
per decision in milliseconds: sampling stops when it is spent, and the
decision uses the samples finished by then. Runs with ``ms`` set depend on
the machine's speed and load and are not reproducible from the seed. The work lives in
:mod:`hokm_sim.dd.pimc`; docs/dd.md gives strength and cost against
``expert``.
"""

import numpy as np
from hokm_sim.strategies import expert

from hokm_sim.bots.botkit import PARAM_SIZE, njit
from hokm_sim.dd.pimc import pimc_card, pimc_trump

PARAMS = {"k": 13, "nodes": 200000, "ms": 0, "margin": 1, "infer": 1, "tries": 60}
PARAM_LIMITS = {
    "k": (1, 10_000, True),
    "nodes": (1, 2**40, True),
    "ms": (0, 3_600_000, False),
    "margin": (0, 1, True),
    "infer": (0, 2, True),
    "tries": (1, 10_000, True),
}

EXPERT_PARAMS = np.zeros(PARAM_SIZE)
EXPERT_PARAMS[: len(expert.PARAMS)] = list(expert.PARAMS.values())


@njit
def choose_trump(view, params, mem, rng):
    """The suit whose sampled deals score best for the Hakem's team (ties: expert's call)."""
    return pimc_trump(view, params, rng, expert.choose_trump(view, EXPERT_PARAMS, mem, rng))


@njit
def play_card(view, params, mem, rng):
    """The card with the best average double-dummy hand points over the samples."""
    return pimc_card(view, params, mem, rng, expert.play_card(view, EXPERT_PARAMS, mem, rng))
