"""pimc whose sampled deals are weighed by how likely neural's policy makes the play.

``pimc`` keeps a sampled deal when ``expert`` would have played as the
opponents did (yes or no). ``pimcnet`` draws deals consistent with what its
seat has seen (until they are worth ``k`` deals of equal weight, or
``tries`` are drawn) and weighs each by the likelihood of the opponents'
cards (and an opponent Hakem's call) under ``neural``'s network: at every
past decision of theirs, seen from the cards the deal gives them, the
softmax at temperature ``temp`` of the network's scores (``sharp``'s action
raised by ``prior``, as ``neural`` raises it by its ``margin``: the default
is ``neural``'s policy), at the card they played, all multiplied; each of
those decisions that ``expert`` would not have made divides the weight by
``e ** miss``. The default ``miss``, 1,000, keeps ``pimc``'s filter: when the
draws hold deals ``expert`` explains, only they weigh, and the network orders
them (``miss=0``: the network alone). It resamples ``k`` deals by weight
and scores its cards on them as ``pimc`` does (double dummy and the search
against ``expert``'s defence, ``model`` and ``departs``); ``nodes`` and
``ms`` are ``pimc``'s budgets, ``infer`` whose plays are weighed (0 nobody,
1 the opponents, 2 the partner too). It calls trump as ``pimc`` does and
falls back on ``expert``'s card. The work lives in :mod:`hokm_sim.dd.weigh`,
the policy in ``_pimcnet.py``; docs/dd.md gives strength and cost.
"""

from hokm_sim.bots.botkit import njit
from hokm_sim.strategies import expert
from hokm_sim.strategies._pimc import EXPERT_PARAMS
from hokm_sim.strategies._pimcnet import pimcnet_card
from hokm_sim.strategies.neural import ALPHA, B1, B2, B3, W1, W2T, W3
from hokm_sim.strategies.pimc import choose_trump  # noqa: F401  (pimc's call: no inference)

PARAMS = {
    "k": 26,
    "nodes": 200000,
    "ms": 0,
    "temp": 0.03,
    "infer": 1,
    "tries": 10000,
    "model": 1,
    "departs": 1,
    "miss": 1000,
    "prior": 0.05,
}
PARAM_LIMITS = {
    "k": (1, 10_000, True),
    "nodes": (1, 2**40, True),
    "ms": (0, 3_600_000, False),
    "temp": (0.001, 100, False),
    "infer": (0, 2, True),
    "tries": (1, 10_000, True),
    "model": (0, 2, True),
    "departs": (0, 99, True),
    "miss": (0, 100_000, False),
    "prior": (0, 10, False),
}


@njit
def play_card(view, params, mem, rng):
    """The card with the best average hand points over the deals resampled by weight."""
    fallback = expert.play_card(view, EXPERT_PARAMS, mem, rng)
    return pimcnet_card(view, params, mem, rng, fallback, W1, B1, W2T, B2, W3, B3, ALPHA)
