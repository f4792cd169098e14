"""PIMC: samples the hands it cannot see, scores each card on each sample, plays the best average.

At every card it deals the unseen cards ``k`` times consistently with what
its seat knows (its hand, every card played and by whom, the voids shown,
how many cards each seat holds) and, with ``infer`` on, with the opponents'
play so far (of up to ``tries`` deals, one on which ``expert`` would have
played as they did). On each deal it scores every card it may play by the
hand's points (win 1, Kot 2, Hakem Kot 3, losses negative): double dummy
(:mod:`hokm_sim.dd.solver`), and with ``model`` on the better of that and
a search in which the opponents play as ``expert`` would from what they
see (a rule-playing opponent defends worse than double dummy assumes) and
its own team plays as ``expert`` too but for up to ``departs`` cards of its
choosing (``model=2``: that search alone, ``model=0``: double dummy alone).
It plays the card with the best average. With ``margin`` on, cards level on
points are told apart by the double-dummy tricks they keep; among cards
still level it plays ``expert``'s card when that is one of them. As Hakem
it completes its five cards ``k`` times and calls the suit whose deals
score best double dummy. ``nodes`` bounds one sample's search: samples
over it are dropped, and when none is left (early in a hand, where deals
are hardest) it plays and calls as ``expert`` does. ``ms`` (0: none) is a
time budget per decision in milliseconds: sampling stops when it is spent,
and the decision uses the samples finished by then. Runs with ``ms`` set
depend on the machine's speed and load and are not reproducible from the
seed. The work lives in :mod:`hokm_sim.dd.pimc`, with ``expert`` bound in as
the model of the other seats in ``_pimc.py``; docs/dd.md gives strength and
cost against ``expert``.
"""

from hokm_sim.bots.botkit import njit
from hokm_sim.dd.pimc import pimc_trump
from hokm_sim.strategies import expert
from hokm_sim.strategies._pimc import EXPERT_PARAMS, pimc_card

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


@njit
def choose_trump(view, params, mem, rng):
    """The suit whose sampled deals score best for the Hakem's team (ties: expert's call)."""
    return pimc_trump(view, params, rng, expert.choose_trump(view, EXPERT_PARAMS, mem, rng))


@njit
def play_card(view, params, mem, rng):
    """The card with the best average double-dummy hand points over the samples."""
    return pimc_card(view, params, mem, rng, expert.play_card(view, EXPERT_PARAMS, mem, rng))
