"""``pimcnet``'s kernels: ``pimc`` with its sampled deals weighed by ``neural``'s policy.

Not a bot (the name starts with ``_``). :func:`hokm_sim.dd.weigh.make_weighted_pimc`
binds in ``expert`` as the model of the opponents' defence and as the judge of
their play (``pimc``'s, ``_pimc.py``: each decision ``expert`` would not have
made costs a deal ``miss`` nats) and :func:`log_policy`: the log of a softmax, at temperature
``temp``, of the ``neural`` network's scores of the actions the seat could
take (:func:`hokm_sim.strategies._neural.action_scores`). The network was
trained to score what leaving ``sharp``'s action gains, in hand points, with
``sharp``'s action marked in its input and favoured by a learned bonus, so
its scores are advantages around ``sharp``'s choice and the softmax is a
Boltzmann policy over them: a card the network scores far below the best is
unlikely, in proportion to how much it would cost.

The network's arrays and the temperature are arguments, not globals (numba
would freeze them into the cached code, whose key is the source alone): the
bot passes the arrays ``neural.py`` loaded, and the entry point below packs
them with its scratch rows into the policy's ``aux``.
"""

import math

import numpy as np
from numba import njit

from hokm_sim.bots.botkit import V_LEGAL, V_TRUMP, ctz, popcount
from hokm_sim.dd.infer import new_scratch
from hokm_sim.dd.weigh import P_TEMP, make_deal_cost, make_weighted_pimc
from hokm_sim.dd.weigh import PARAM_NAMES as WEIGH_PARAMS
from hokm_sim.strategies._neural import ACTIONS, FEATURES, TRUMP_ACTION, action_scores
from hokm_sim.strategies._pimc import MODEL

IMPOSSIBLE = -1.0e6
"""The log-probability of a choice the seat could not have made: a card it could not
follow with on the deal (one that breaks a void the seat showed, in a deal dealt
without the voids when none was found with them)."""


@njit(inline="always")
def log_policy(view, mem, rng, choice, aux):
    """Log-probability that the seat seeing ``view`` makes ``choice`` (a trump suit
    when calling, else a card): the network's scores over the seat's legal actions,
    divided by the temperature, through a softmax. A forced card costs nothing, an
    impossible one :data:`IMPOSSIBLE`."""
    w1, b1, w2t, b2, w3, b3, alpha, temp, buf, out = aux
    calling = view[V_TRUMP] < 0
    if not calling and popcount(view[V_LEGAL]) == 1:
        return 0.0 if view[V_LEGAL] == np.int64(1) << choice else IMPOSSIBLE
    legal = action_scores(view, mem, rng, w1, b1, w2t, b2, w3, b3, alpha, buf, out)
    top = -np.inf
    m = legal
    while m != 0:
        top = max(top, float(out[ctz(m)]))
        m &= m - 1
    z = 0.0
    m = legal
    while m != 0:
        z += math.exp((float(out[ctz(m)]) - top) / temp)
        m &= m - 1
    a = choice + TRUMP_ACTION if calling else choice
    if not (legal >> a) & 1:
        return IMPOSSIBLE
    return (float(out[a]) - top) / temp - math.log(z)


_deal_cost = make_deal_cost(log_policy, MODEL)


@njit(cache=True, _nrt=True)
def deal_cost(view, hands, seats, cards, n, judged, rng, scratch, cap, aux):
    """``deal_cost`` of :func:`hokm_sim.dd.weigh.make_deal_cost` with the network's
    policy and ``expert`` as the judge: a deal's negative log-weight, compiled once
    for the bot's card and the functions below."""
    return _deal_cost(view, hands, seats, cards, n, judged, rng, scratch, cap, aux)


KERNELS = make_weighted_pimc(MODEL, deal_cost)
"""The kernels with ``expert`` and the deal's cost bound in (uncached)."""
_card = KERNELS.pimc_card
_weighted = KERNELS.weighted_deals


@njit(inline="always")
def _aux(w1, b1, w2t, b2, w3, b3, alpha, temp):
    """The policy's ``aux``: the network, the temperature and fresh scratch rows."""
    buf = np.empty(FEATURES + b1.shape[0] + b2.shape[0], np.float32)
    out = np.zeros(ACTIONS, np.float32)
    return (w1, b1, w2t, b2, w3, b3, alpha, max(float(temp), 1e-6), buf, out)


PARAM_NAMES = (*WEIGH_PARAMS, "prior")
"""``pimcnet``'s parameters in the order of their ``params`` slots: the weighted
search's (:data:`hokm_sim.dd.weigh.PARAM_NAMES`), then the policy's own."""
P_PRIOR = PARAM_NAMES.index("prior")
"""``params`` slot: added to the network's score of ``sharp``'s action (as ``neural``'s
``margin`` is when it plays: the policy is ``neural``'s at the same value)."""


@njit(cache=True, _nrt=True)
def pimcnet_card(view, params, mem, rng, fallback, w1, b1, w2t, b2, w3, b3, alpha):
    """The card ``pimcnet`` plays (``pimc_card`` of
    :func:`hokm_sim.dd.weigh.make_weighted_pimc`), the policy's temperature and prior
    from ``params``."""
    alpha = alpha + np.float32(params[P_PRIOR])
    aux = _aux(w1, b1, w2t, b2, w3, b3, alpha, params[P_TEMP])
    return _card(view, params, mem, rng, fallback, aux)


@njit(cache=True, _nrt=True)
def log_likelihood(
    view, hands, seats, cards, n, judged, rng, scratch, temp, miss, w1, b1, w2t, b2, w3, b3, alpha
):
    """A deal's log-weight: the policy's log-likelihood of the judged seats' play on
    the deal ``hands``, less ``miss`` for each decision ``expert`` would not have made
    (:func:`deal_cost`, negated)."""
    aux = (float(miss), _aux(w1, b1, w2t, b2, w3, b3, alpha, temp))
    return -deal_cost(view, hands, seats, cards, n, judged, rng, scratch, np.inf, aux)


@njit(cache=True, _nrt=True)
def weighted_deals(
    view, rng, seats, cards, n, judged, tries, k, temp, miss, pool, cost, deals, counts,
    w1, b1, w2t, b2, w3, b3, alpha,
):  # fmt: skip
    """Deals resampled by weight (``weighted_deals`` of
    :func:`hokm_sim.dd.weigh.make_weighted_pimc`, no time budget); returns how many."""
    aux = (float(miss), _aux(w1, b1, w2t, b2, w3, b3, alpha, temp))
    return _weighted(
        view, rng, seats, cards, n, judged, tries, k, 0, aux, new_scratch(), pool, cost, deals,
        counts,
    )  # fmt: skip
