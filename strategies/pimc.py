"""PIMC: samples the hands it cannot see, solves each double dummy, plays the best card on average.

At every card it deals the unseen cards ``k`` times consistently with what
its seat knows (its hand, every card played and by whom, the voids shown,
how many cards each seat holds), solves each deal double dummy for every
card it may play (:mod:`hokm_sim.dd.solver`) and plays the card with the
best average hand points (win 1, Kot 2, Hakem Kot 3, losses negative). As
Hakem it completes its five cards ``k`` times and calls the suit whose deals
score best. ``nodes`` bounds one sample's search (samples over it are
dropped; with none left it wins the trick cheaply or plays low), so a
decision costs at most about ``k * nodes`` search nodes. The work lives in
:mod:`hokm_sim.dd.pimc`; see the README for strength and cost against
``expert``.
"""

from hokm_sim.botkit import njit
from hokm_sim.dd.pimc import pimc_card, pimc_trump

PARAMS = {"k": 10, "nodes": 200000}


@njit
def choose_trump(view, params, mem, rng):
    """The suit whose sampled deals score best for the Hakem's team."""
    return pimc_trump(view, params, rng)


@njit
def play_card(view, params, mem, rng):
    """The card with the best average double-dummy hand points over the samples."""
    return pimc_card(view, params, rng)
