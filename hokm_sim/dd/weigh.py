"""PIMC whose sampled deals are weighed by a policy's likelihood of the play, for numba.

``pimc``'s inference (:mod:`hokm_sim.dd.infer`) keeps a sampled deal when a
model bot would have played as the other seats did, and passes it over
otherwise: yes or no. Here a policy that gives each legal choice a
probability (a learned network's softmax, ``strategies/_pimcnet.py``) weighs
every deal instead: its weight is the product, over the judged seats' past
decisions, of the policy's probability of the choice actually made, each
seen from the cards the deal gives that seat, and each decision a judge bot
(``pimc``'s model) would not have made divides it by ``e ** miss``, so that
with a large ``miss`` the policy orders the deals the judge explains. Each
decision draws deals consistent with the seat's view
(:func:`hokm_sim.dd.sample.sample_view`) and weighs them until they are worth
``k`` deals of equal weight (or ``tries`` are drawn: ``pimc``, too, looks
longer for deals when few explain the play), and resamples ``k`` of them by
weight (systematic resampling: sampling importance resampling); each
distinct deal kept is solved once, as ``pimc`` solves its samples
(``score_deal`` of :func:`hokm_sim.dd.pimc.make_pimc`), and counts as often
as it was drawn.

The library names no policy: :func:`make_weighted_pimc` binds one in at
compile time, as :func:`~hokm_sim.dd.pimc.make_pimc` binds a model. The
policy's own arrays (a network's weights, its scratch) travel in one opaque
argument, ``aux``, which the kernels pass through to it.

The parameters are ``pimc``'s (:data:`PARAM_NAMES`), its tie-break margin
replaced by the policy's temperature, in the same slot, so every other slot
is the one :mod:`hokm_sim.dd.pimc` reads.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit
from numba.core.dispatcher import Dispatcher

from hokm_sim.dd.infer import (
    judge_of,
    judged_seats,
    make_cost_replay,
    new_scratch,
    play_order,
    record,
)
from hokm_sim.dd.model import Model
from hokm_sim.dd.pimc import (
    MODEL_OFF,
    MODEL_TT_BITS,
    P_DEPARTS,
    P_INFER,
    P_K,
    P_MARGIN,
    P_MODEL,
    P_NODES,
    P_TRIES,
    PIMC_TT_BITS,
    _add,
    _deadline,
    _out_of_time,
    choose_among,
    make_pimc,
    trick_and_moves,
)
from hokm_sim.dd.respond import new_model_scratch, new_model_table
from hokm_sim.dd.sample import sample_view
from hokm_sim.dd.search import S_NODES, new_stats
from hokm_sim.dd.table import new_table
from hokm_sim.engine.bits import popcount
from hokm_sim.engine.rng import rand_float
from hokm_sim.engine.view import V_SEAT

PARAM_NAMES = ("k", "nodes", "ms", "temp", "infer", "tries", "model", "departs", "miss")
"""The parameters' order in ``params``: :data:`hokm_sim.dd.pimc.PARAM_NAMES` with
``temp`` in ``margin``'s slot, then ``miss``."""
P_TEMP = P_MARGIN
"""``params`` slot: the policy's temperature (its scores are divided by it before the
softmax: lower trusts the policy's best choice more)."""
P_MISS = PARAM_NAMES.index("miss")
"""``params`` slot: what a decision the model would not have made costs a deal's
log-weight (0: the policy alone weighs)."""
CUTOFF = 9.0
"""A deal whose log-likelihood is this far below the best one drawn (a weight under
1/8,000 of it) weighs nothing: its replay stops there, so most deals cost a few of the
policy's decisions."""


def make_deal_cost(log_policy: Dispatcher, judge: Model) -> Dispatcher:
    """``deal_cost``, with ``log_policy`` and ``judge`` bound in at compile time: a
    sampled deal's negative log-weight.

    ``log_policy(view, mem, rng, choice, aux) -> float`` is the log-probability that
    the seat seeing ``view`` makes ``choice`` (a trump suit when ``view``'s trump is
    not called yet, else a card); ``aux`` is the caller's, passed through. Each
    decision that ``judge`` would not have made costs the deal ``miss`` more (a
    log-likelihood, in nats): with a large ``miss`` the deals the judge explains
    entirely are the only ones weighed when there are any, as ``pimc``'s inference
    keeps them, and the policy weighs them against one another.

    ``deal_cost(view, hands, seats, cards, n, judged, rng, scratch, cap, aux)``
    replays the judged seats' decisions on the deal ``hands`` (a judged Hakem's
    call on five of its cards drawn from ``rng``; the other arguments as for
    ``misses`` of :func:`hokm_sim.dd.infer.make_replay`) and sums their costs, up
    to ``cap`` (the replay stops there); ``aux`` is ``(miss, the policy's aux)``.
    A bot compiles it once, in a cached function of its own, and passes that to
    :func:`make_weighted_pimc`, so that its card and its tests share the machine
    code.
    """
    judge_calls, judge_plays = judge_of((judge,))

    @njit(inline="always")
    def call_cost(view, mem, rng, trump, aux):
        miss = 0.0 if judge_calls(view, mem, rng, trump) else aux[0]
        return miss - log_policy(view, mem, rng, trump, aux[1])

    @njit(inline="always")
    def play_cost(view, mem, rng, card, aux):
        miss = 0.0 if judge_plays(view, mem, rng, card) else aux[0]
        return miss - log_policy(view, mem, rng, card, aux[1])

    return make_cost_replay(call_cost, play_cost)


class WeightedPimc(NamedTuple):
    """The kernels :func:`make_weighted_pimc` binds a model and a deal's cost into."""

    weighted_deals: Dispatcher
    """Deals drawn, weighed and resampled by weight."""
    pimc_scores: Dispatcher
    """Each card's points summed over the resampled deals."""
    pimc_card: Dispatcher
    """The card the bot plays."""


def make_weighted_pimc(model: Model, deal_cost: Dispatcher) -> WeightedPimc:
    """Kernels of a ``pimc`` whose deals are weighed by ``deal_cost``
    (:func:`make_deal_cost`: a policy's likelihood of the play and the misses of
    ``model``, ``params[P_MISS]`` a miss) and whose search plays the opponents as
    ``model`` does.

    As with :func:`hokm_sim.dd.pimc.make_pimc`, the kernels are closures that
    numba cannot keep on disk: a bot calls them through ``cache=True`` functions
    of its own (``strategies/_pimcnet.py``).
    """
    score_deal = make_pimc(model).score_deal

    @njit(inline="always")
    def weighted_deals(
        view, rng, seats, cards, n, judged, tries, k, deadline, aux, scratch, pool, cost, deals,
        counts,
    ):  # fmt: skip
        """Draw deals into ``pool`` (``int64[tries, 4]``) and weigh each
        (``deal_cost``, ``aux`` as there) until their effective number (Kish's
        ``(sum w) ** 2 / sum w ** 2``) reaches ``k`` or ``tries`` are drawn, then
        resample ``k`` of them by weight; with misses counted (``aux[0] > 0``) it
        draws on until the best deal is one the judge explains entirely (a
        log-weight above ``-miss``: the policy's own costs are taken to stay below
        a miss). The distinct deals drawn go to ``deals``, how often each was drawn
        to ``counts``; returns how many. Stops drawing when the time is up."""
        miss = aux[0]
        best = np.inf
        drawn = 0
        s1 = 0.0  # sum of the weights so far, each relative to the best deal's
        s2 = 0.0  # sum of their squares
        for i in range(tries):
            if i > 0 and _out_of_time(deadline):
                break
            sample_view(view, rng, pool[i])
            c = deal_cost(view, pool[i], seats, cards, n, judged, rng, scratch, best + CUTOFF, aux)
            cost[i] = c
            drawn += 1
            if c < best:
                if best < np.inf:
                    f = math.exp(c - best)
                    s1 *= f
                    s2 *= f * f
                best = c
            if c < best + CUTOFF:
                w = math.exp(best - c)
                s1 += w
                s2 += w * w
                # Enough once they are worth k deals, and (with misses counted) the
                # best is one the judge explains: until then pimc would look on.
                if s1 * s1 >= k * s2 and (miss <= 0.0 or best < miss):
                    break
        total = 0.0
        for i in range(drawn):
            cost[i] = math.exp(best - cost[i]) if cost[i] < best + CUTOFF else 0.0
            total += cost[i]
        # Systematic resampling: k evenly spaced points, one random offset.
        step = total / k
        u = rand_float(rng) * step
        acc = 0.0
        taken = 0
        out = 0
        for i in range(drawn):
            acc += cost[i]
            hits = 0
            while taken < k and u < acc:
                hits += 1
                taken += 1
                u += step
            if hits > 0:
                deals[out, :] = pool[i]
                counts[out] = hits
                out += 1
        return out

    @njit
    def pimc_scores(view, params, mem, rng, totals, aux):
        """Sum of hand points per card over ``params[P_K]`` deals, into ``totals``.

        With ``params[P_INFER]`` set and cards played by judged seats, the deals
        are resampled from ``params[P_TRIES]`` by the policy's likelihood of the
        play (``aux`` passed to it); else each is a deal consistent with the view.
        Each card is scored on a deal as ``pimc`` scores it (``score_deal``).

        Returns ``(moves, used)`` as ``pimc_scores`` of
        :func:`hokm_sim.dd.pimc.make_pimc`: the cards scored (one per run of
        equivalent cards) and how many of the ``k`` draws finished within the node
        and time budgets (a deal drawn twice counts twice).
        """
        deadline = _deadline(params)
        seat = view[V_SEAT]
        trick, moves = trick_and_moves(view)
        totals[:] = 0.0
        if popcount(moves) == 1:
            return moves, 0
        k_samples = max(1, int(params[P_K]))
        budget = int(params[P_NODES])
        judged = judged_seats(seat, int(params[P_INFER]))
        seats = np.zeros(52, np.int64)
        cards = np.zeros(52, np.int64)
        n = play_order(view, mem, seats, cards) if judged != 0 else 0
        deals = np.zeros((k_samples, 4), np.int64)
        counts = np.ones(k_samples, np.int64)
        if n > 0:
            tries = max(1, int(params[P_TRIES]))
            pool = np.zeros((tries, 4), np.int64)
            cost = np.zeros(tries, np.float64)
            m = weighted_deals(
                view, rng, seats, cards, n, judged, tries, k_samples, deadline,
                (float(params[P_MISS]), aux), new_scratch(), pool, cost, deals, counts,
            )  # fmt: skip
        else:
            m = k_samples
            for i in range(m):
                sample_view(view, rng, deals[i])
        model = int(params[P_MODEL])
        departs = int(params[P_DEPARTS])
        keys, vals = new_table(np.int64(PIMC_TT_BITS))
        stats = new_stats(budget, deadline)
        mkeys, manswers = new_model_table(MODEL_TT_BITS if model != MODEL_OFF else 0)
        mscratch = new_model_scratch()
        values = np.zeros(52, np.float64)
        used = 0
        for i in range(m):
            if _out_of_time(deadline):
                break
            stats[S_NODES] = 0
            if score_deal(
                view, deals[i], moves, model, departs, trick, keys, vals, mkeys, manswers,
                mscratch, stats, budget, deadline, values,
            ):  # fmt: skip
                used += counts[i]
                _add(totals, moves, values, float(counts[i]))
        return moves, used

    @njit(_nrt=True)
    def pimc_card(view, params, mem, rng, fallback, aux):
        """The card to play: the best total over the deals (``pimc_scores``);
        ``fallback`` among equal best or when no deal finished. Notes the history
        in ``mem`` first (:func:`hokm_sim.dd.infer.record`)."""
        record(view, mem)
        totals = np.zeros(52)
        moves, used = pimc_scores(view, params, mem, rng, totals, aux)
        if used == 0:
            return fallback
        return choose_among(moves, totals, fallback)

    return WeightedPimc(weighted_deals, pimc_scores, pimc_card)
