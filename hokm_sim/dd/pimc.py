"""Perfect-information Monte Carlo for a bot, for numba: sample what the seat cannot see.

At a decision the seat deals the cards it cannot see consistently with what
it has seen (:mod:`hokm_sim.dd.sample`), and, with inference on
(``params[P_INFER]``), with how the other seats played
(:mod:`hokm_sim.dd.infer`); ``pimc_scores`` solves each such deal double
dummy for every card the seat may play (and, with ``params[P_MODEL]`` set,
searches it against opponents who play as a model does,
:mod:`hokm_sim.dd.respond`) and sums each card's score for the hand, and
:func:`choose_among` picks the card; :func:`pimc_trump_scores` judges each
trump over completions of the Hakem's five cards. Inference and the search
need a model of the other seats' play (:class:`~hokm_sim.dd.model.Model`),
which the bot passes in: :func:`make_pimc` binds it into the kernels that
use it. ``strategies/pimc.py`` puts them together with ``expert`` as the
model (``strategies/_pimc.py``).

Scores are the hand's points from the seat's team's side, as the rules give
them: win 1, lose -1; a Kot made 2 (3 when the defenders make it, the Hakem
Kot) and a Kot suffered -2 (-3). A search that runs past the node budget
drops its sample, so the cost of a decision is bounded; the bot decides by
other means when every sample was dropped. A time budget (``params[P_MS]``)
stops a decision's sampling when the time is up: the sample in progress is
dropped and the decision uses the samples already finished. Decisions made
under a time budget depend on the machine's speed and load, so they are not
reproducible from the seed; node budgets are.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numba.core.dispatcher import Dispatcher

from hokm_sim.dd.clock import now_ns
from hokm_sim.dd.infer import judged_seats, make_replay, new_scratch, play_order, record
from hokm_sim.dd.model import Model, once_per_model
from hokm_sim.dd.order import equivalents
from hokm_sim.dd.respond import make_model_search, new_model_scratch, new_model_table
from hokm_sim.dd.sample import sample_hands, sample_view
from hokm_sim.dd.search import S_NODES, new_stats
from hokm_sim.dd.solver import play_nb, reach_nb, tricks_nb
from hokm_sim.dd.table import new_table
from hokm_sim.engine.bits import FULL_DECK, ctz, popcount, suit_mask
from hokm_sim.engine.rules import TRICKS_TO_WIN
from hokm_sim.engine.view import (
    V_HAKEM,
    V_HAND,
    V_LEADER,
    V_LEGAL,
    V_NTRICK,
    V_PLAYED,
    V_SEAT,
    V_TRICK,
    V_TRICKS,
    V_TRUMP,
)
from hokm_sim.inlining import HELPERS

PARAM_NAMES = ("k", "nodes", "ms", "margin", "infer", "tries", "model", "departs")
"""The ``pimc`` bot's parameters in the order of their ``params`` slots (``P_*``):
``PARAMS`` of ``strategies/pimc.py`` lists them in this order (``tests/test_pimc.py``
checks it), which is the order the engine fills the slots in."""
P_K = PARAM_NAMES.index("k")
"""``params`` slot: samples per decision."""
P_NODES = PARAM_NAMES.index("nodes")
"""``params`` slot: node budget of one sample's searches (0: no limit)."""
P_MS = PARAM_NAMES.index("ms")
"""``params`` slot: time budget of one decision in milliseconds (0: no limit)."""
P_MARGIN = PARAM_NAMES.index("margin")
"""``params`` slot: non-zero to break ties between cards by double-dummy tricks."""
P_INFER = PARAM_NAMES.index("infer")
"""``params`` slot: whose plays the sampled deals must explain (:mod:`hokm_sim.dd.infer`):
0 nobody, 1 the opponents, 2 the partner too."""
P_TRIES = PARAM_NAMES.index("tries")
"""``params`` slot: deals drawn per sample at most while looking for one the play explains."""
P_MODEL = PARAM_NAMES.index("model")
"""``params`` slot: how the opponents are taken to play (:mod:`hokm_sim.dd.respond`):
:data:`MODEL_OFF`, :data:`MODEL_BETTER` or :data:`MODEL_ONLY`."""
P_DEPARTS = PARAM_NAMES.index("departs")
"""``params`` slot: how often the seat's team may depart from the model's card in a model
search (0: the team plays the hand out as the model would)."""
MODEL_OFF = 0
"""``P_MODEL`` value: double dummy only (the opponents see every card and play their best)."""
MODEL_BETTER = 1
"""``P_MODEL`` value: the better of double dummy and the search against the model.

Both are reached against the model (a best answer to one way of defending
scores at least the answer to the best defence), so the better of the two
is the nearer to what the team can make against it."""
MODEL_ONLY = 2
"""``P_MODEL`` value: the search against the model only."""
MODEL_TT_BITS = 15
"""Answer table of one decision's model searches (2**15 entries, about 1.3 MB)."""
PIMC_TT_BITS = 16
"""Table size of one decision (2**16 slots, about 2.1 MB), shared by its samples."""


@njit(inline=HELPERS)
def _deadline(params):
    """The monotonic-clock time (ns) a decision must stop sampling by, 0 for none."""
    ms = params[P_MS]
    if ms <= 0:
        return 0
    return now_ns() + max(1, int(ms * 1e6))


@njit(inline=HELPERS)
def _out_of_time(deadline):
    return deadline > 0 and now_ns() >= deadline


@njit(inline=HELPERS)
def _over(stats, budget, deadline):
    """Whether the searches since ``stats[S_NODES]`` was zeroed ran past the node or time budget."""
    return (budget > 0 and stats[S_NODES] > budget) or _out_of_time(deadline)


@njit(inline=HELPERS)
def _add(totals, cards, values, scale):
    """``totals[c] += scale * values[c]`` for each card ``c`` of the mask ``cards``."""
    m = cards
    while m != 0:
        c = ctz(m)
        m &= m - 1
        totals[c] += scale * values[c]


@njit(inline=HELPERS)
def _best_of(moves, totals):
    """The cards of ``moves`` whose total is the best among them (a mask)."""
    best = -1.0e300
    m = moves
    while m != 0:
        c = ctz(m)
        m &= m - 1
        best = max(best, totals[c])
    out = 0
    m = moves
    while m != 0:
        c = ctz(m)
        m &= m - 1
        if totals[c] == best:
            out |= 1 << c
    return out


@njit(inline=HELPERS)
def trick_and_moves(view):
    """The cards of the trick so far (``int64[3]``, in order) and the cards worth scoring
    at ``view``: the seat's legal cards, one per run of cards equivalent from its point
    of view (the cards it cannot see still alive)."""
    hand = view[V_HAND]
    ntrick = view[V_NTRICK]
    tcards = 0
    trick = np.zeros(3, np.int64)
    for k in range(ntrick):
        trick[k] = view[V_TRICK + k]
        tcards |= 1 << trick[k]
    unseen = FULL_DECK & ~hand & ~view[V_PLAYED]
    return trick, equivalents(view[V_LEGAL], unseen | hand | tcards)


@njit(inline=HELPERS)
def _hand_points(ours, theirs, kot_made, kot_lost, we_are_hakem):
    """Points for the seat's team of a hand decided as given (double dummy)."""
    if ours >= TRICKS_TO_WIN:
        if kot_made:
            return 2.0 if we_are_hakem else 3.0
        return 1.0
    if kot_lost:
        return -3.0 if we_are_hakem else -2.0
    return -1.0


@njit(cache=True)
def _value_after(
    hands, trump, leader, trick, ntrick, card, team, ours, theirs, we_are_hakem, keys, vals, stats
):
    """Hand points for ``team`` after the mover plays ``card``, best play from then on."""
    h, nl, t, nt, w = play_nb(hands, trump, leader, trick, ntrick, card)
    if w >= 0:
        if (w & 1) == team:
            ours += 1
        else:
            theirs += 1
    if ours >= TRICKS_TO_WIN:
        return _hand_points(ours, theirs, theirs == 0, False, we_are_hakem)
    if theirs >= TRICKS_TO_WIN:
        return _hand_points(ours, theirs, False, ours == 0, we_are_hakem)
    win = reach_nb(
        h, trump, nl, t, nt, team, TRICKS_TO_WIN - ours, np.bool_(False), keys, vals, stats
    )
    kot = False
    if win and theirs == 0:
        kot = reach_nb(
            h, trump, nl, t, nt, team, TRICKS_TO_WIN - ours, np.bool_(True), keys, vals, stats
        )
    elif not win and ours == 0:
        kot = reach_nb(
            h, trump, nl, t, nt, 1 - team, TRICKS_TO_WIN - theirs, np.bool_(True), keys, vals, stats
        )
    return _hand_points(
        TRICKS_TO_WIN if win else 0, theirs, win and kot, (not win) and kot, we_are_hakem
    )


@njit(cache=True)
def _tricks_after(hands, trump, leader, trick, ntrick, card, team, ours, theirs, keys, vals, stats):
    """The tricks ``team`` ends the hand with after the mover plays ``card`` (taken
    and still to take, double dummy; the hand ends when a team has 7)."""
    h, nl, t, nt, w = play_nb(hands, trump, leader, trick, ntrick, card)
    if w >= 0:
        if (w & 1) == team:
            ours += 1
        else:
            theirs += 1
    if ours >= TRICKS_TO_WIN or theirs >= TRICKS_TO_WIN:
        return ours
    return ours + tricks_nb(h, trump, nl, t, nt, team, keys, vals, stats)


@njit(cache=True)
def choose_among(moves, totals, preferred):
    """The card to play: the best total; among equal best, ``preferred``'s run if it is
    one of them, else the lowest-ranked (keep the high cards)."""
    best = _best_of(moves, totals)
    # The run of ``preferred`` is scored at its top card: the lowest move above it.
    x = moves & suit_mask(preferred // 13) & ~((1 << preferred) - 1)
    if x != 0 and (best >> ctz(x)) & 1:
        return preferred
    pick = -1
    m = best
    while m != 0:
        c = ctz(m)
        m &= m - 1
        if pick < 0 or c % 13 < pick % 13:
            pick = c
    return pick


@njit(cache=True)
def pimc_trump_scores(view, params, rng, totals):
    """Sum of the Hakem's team's hand points per trump suit over sampled deals.

    Each of ``params[P_K]`` samples completes the Hakem's hand from its five
    cards and deals the other seats; every suit is tried as trump on it (the
    Hakem leads). ``totals`` (float64[4]) gets the sums over the samples that
    completed within the node and time budgets; returns how many did.
    """
    deadline = _deadline(params)
    seat = view[V_SEAT]
    five = view[V_HAND]
    k_samples = max(1, int(params[P_K]))
    budget = int(params[P_NODES])
    team = seat & 1
    counts = np.full(4, 13, np.int64)
    counts[seat] = 8
    hands = np.zeros(4, np.int64)
    keys, vals = new_table(np.int64(PIMC_TT_BITS))
    stats = new_stats(budget, deadline)  # the search gives up when the time is spent, too
    trick = np.zeros(3, np.int64)
    # Typed values, never literals: numba would compile the callees again for each constant.
    nobody, none = np.int64(-1), np.int64(0)
    values = np.zeros(4, np.float64)
    unseen = FULL_DECK & ~five
    totals[:] = 0.0
    used = 0
    for _ in range(k_samples):
        if _out_of_time(deadline):
            break
        # The 47 unseen cards go to all four seats (seat -1: nobody is left
        # out), 8 of them to the Hakem beside its five.
        sample_hands(rng, nobody, none, unseen, counts, none, hands)
        hands[seat] |= five
        stats[S_NODES] = 0
        complete = True
        for s in range(4):
            values[s] = _value_after_lead(hands, s, seat, team, keys, vals, stats, trick)
            if _over(stats, budget, deadline):
                complete = False
                break
        if complete:
            used += 1
            for s in range(4):
                totals[s] += values[s]
    return used


@njit(inline=HELPERS)
def _value_after_lead(hands, trump, hakem, team, keys, vals, stats, trick):
    """Hand points for the Hakem's team of a whole deal with this trump (the Hakem leads)."""
    # Typed values, never literals (numba compiles a call again for each constant).
    none, seven, yes, no = np.int64(0), np.int64(TRICKS_TO_WIN), np.bool_(True), np.bool_(False)
    win = reach_nb(hands, trump, hakem, trick, none, team, seven, no, keys, vals, stats)
    if win:
        kot = reach_nb(hands, trump, hakem, trick, none, team, seven, yes, keys, vals, stats)
        return 2.0 if kot else 1.0
    kot = reach_nb(hands, trump, hakem, trick, none, 1 - team, seven, yes, keys, vals, stats)
    return -3.0 if kot else -1.0


# The entry points a bot calls (``pimc_trump`` here, ``pimc_card`` of
# :func:`make_pimc`, and the bot's cached functions over them) are compiled
# with reference counting on purpose (``_nrt=True``): a function called from
# the engine's card loop, which runs without it, inherits that setting unless
# it sets its own, and then could not make its scratch arrays.


@njit(cache=True, _nrt=True)
def pimc_trump(view, params, rng, fallback):
    """The suit ``pimc`` calls: the best sampled total (:func:`pimc_trump_scores`);
    ``fallback`` (``expert``'s call) on ties or when no sample finished."""
    totals = np.zeros(4)
    if pimc_trump_scores(view, params, rng, totals) == 0:
        return fallback
    best = fallback
    for s in range(4):
        if totals[s] > totals[best]:
            best = s
    return best


class Pimc(NamedTuple):
    """The kernels :func:`make_pimc` binds a model into (each a numba dispatcher)."""

    misses: Dispatcher
    """Inference's count of the model's misses on a deal (:func:`hokm_sim.dd.infer.make_replay`)."""
    explained_deal: Dispatcher
    """Inference's sampled deal that the play explains (likewise)."""
    model_value_after: Dispatcher
    """The search against the model (:func:`hokm_sim.dd.respond.make_model_search`)."""
    score_deal: Dispatcher
    """Every card's points on one deal (inlined into the kernels that sample deals)."""
    pimc_scores: Dispatcher
    """Each card's points summed over the samples."""
    pimc_card: Dispatcher
    """The card ``pimc`` plays."""


@once_per_model
def make_pimc(model: Model, judges: tuple[Model, ...] | None = None) -> Pimc:
    """pimc's kernels with ``model`` as its model of the other seats, bound in at
    compile time: the search plays the opponents as ``model`` does, and inference
    keeps deals on which ``judges`` (default: ``model`` alone) explain the play, a
    decision counting as explained when any of them makes it
    (:func:`hokm_sim.dd.infer.make_replay`).

    The kernels are closures, which numba cannot keep in its disk cache: a bot
    calls them through ``cache=True`` functions of its own (as
    ``strategies/_pimc.py`` does), whose cache is keyed by their file's
    imports, the model's file among them.
    """
    misses, explained_deal = make_replay(model if judges is None else judges)
    model_value_after = make_model_search(model)

    @njit(inline="always")
    def score_deal(
        view, hands, moves, model, departs, trick, keys, vals, mkeys, manswers, mscratch, stats,
        budget, deadline, values,
    ):  # fmt: skip
        """Score each card of ``moves`` on the deal ``hands`` into ``values``: its
        double-dummy hand points, with ``model`` at :data:`MODEL_BETTER` the better of
        that and the search against the model with ``departs`` departures, at
        :data:`MODEL_ONLY` the latter alone. ``trick`` holds the view's current trick.
        Returns False when the searches ran past the node or time budget (the deal's
        scores are then incomplete and must be dropped)."""
        seat = view[V_SEAT]
        team = seat & 1
        trump = view[V_TRUMP]
        leader = view[V_LEADER]
        ntrick = view[V_NTRICK]
        ours = view[V_TRICKS + team]
        theirs = view[V_TRICKS + 1 - team]
        we_are_hakem = (view[V_HAKEM] & 1) == team
        m = moves
        while m != 0:
            c = ctz(m)
            m &= m - 1
            if model == MODEL_ONLY:
                v = model_value_after(
                    view, hands, c, team, we_are_hakem, departs, mkeys, manswers, mscratch, stats
                )
            else:
                v = _value_after(
                    hands, trump, leader, trick, ntrick, c, team, ours, theirs, we_are_hakem,
                    keys, vals, stats,
                )  # fmt: skip
                # Search against the model unless double dummy already makes
                # all there is: a Kot, or a win once a Kot is out of reach.
                if model == MODEL_BETTER and v < 2.0 and not (v == 1.0 and theirs > 0):
                    v = max(v, model_value_after(
                        view, hands, c, team, we_are_hakem, departs, mkeys, manswers, mscratch,
                        stats,
                    ))  # fmt: skip
            values[c] = v
            if _over(stats, budget, deadline):
                return False  # over a budget: drop the sample
        return True

    @njit
    def pimc_scores(view, params, mem, rng, totals):
        """Sum of hand points per card over ``params[P_K]`` sampled deals, into ``totals``.

        With ``params[P_INFER]`` set, each deal is one the play so far explains
        (``explained_deal`` of :mod:`hokm_sim.dd.infer`, from the history
        :func:`hokm_sim.dd.infer.record` kept in ``mem``).

        A card's score on a deal is its double-dummy hand points; with
        ``params[P_MODEL]`` at :data:`MODEL_BETTER` the better of that and the
        points of the search against the model with ``params[P_DEPARTS]``
        departures (``model_value_after`` of :mod:`hokm_sim.dd.respond`), at
        :data:`MODEL_ONLY` the latter alone.

        With ``params[P_MARGIN]`` set, the cards level on the best total then
        gain ``1 / (14 k)`` per double-dummy trick they end the hand with, on the
        same deals: less than a point in all, so it orders only those cards.

        Returns ``(moves, used)``: the mask of cards scored (one per run of
        equivalent cards, the run's top card) and how many samples completed
        within the node and time budgets (``totals`` sums over those only). With
        one sensible move there is nothing to sample: ``used`` is 0.
        """
        deadline = _deadline(params)
        seat = view[V_SEAT]
        ntrick = view[V_NTRICK]
        trick, moves = trick_and_moves(view)
        totals[:] = 0.0
        if popcount(moves) == 1:
            return moves, 0
        k_samples = max(1, int(params[P_K]))
        budget = int(params[P_NODES])
        # Below the smallest difference in points between two cards' totals (1):
        # at most 13 tricks per sample over k samples.
        margin = 1.0 / (14.0 * k_samples) if params[P_MARGIN] != 0 else 0.0
        team = seat & 1
        trump = view[V_TRUMP]
        leader = view[V_LEADER]
        ours = view[V_TRICKS + team]
        theirs = view[V_TRICKS + 1 - team]
        hands = np.zeros(4, np.int64)
        keys, vals = new_table(np.int64(PIMC_TT_BITS))
        stats = new_stats(budget, deadline)  # the search gives up when the time is spent, too
        values = np.zeros(52, np.float64)
        samples = np.zeros((k_samples, 4), np.int64)  # the deals of the samples that finished
        judged = judged_seats(seat, int(params[P_INFER]))
        tries = max(1, int(params[P_TRIES]))
        seats = np.zeros(52, np.int64)
        cards = np.zeros(52, np.int64)
        n = play_order(view, mem, seats, cards) if judged != 0 else 0
        scratch = new_scratch()
        model = int(params[P_MODEL])
        departs = int(params[P_DEPARTS])
        mkeys, manswers = new_model_table(MODEL_TT_BITS if model != MODEL_OFF else 0)
        mscratch = new_model_scratch()
        used = 0
        for _ in range(k_samples):
            if _out_of_time(deadline):
                break
            if n > 0:
                explained_deal(view, rng, seats, cards, n, judged, tries, scratch, hands)
            else:
                sample_view(view, rng, hands)
            stats[S_NODES] = 0
            complete = score_deal(
                view, hands, moves, model, departs, trick, keys, vals, mkeys, manswers, mscratch,
                stats, budget, deadline, values,
            )  # fmt: skip
            if complete:
                samples[used, :] = hands
                used += 1
                _add(totals, moves, values, 1.0)
        if margin > 0 and used > 0:
            # The margin can only reorder cards level on the best points total
            # (it adds less than a point in all), so only those are counted, on
            # the same deals.
            tied = _best_of(moves, totals)
            if popcount(tied) > 1:
                for i in range(used):
                    if _out_of_time(deadline):
                        break
                    stats[S_NODES] = 0
                    complete = True
                    m = tied
                    while m != 0:
                        c = ctz(m)
                        m &= m - 1
                        values[c] = _tricks_after(
                            samples[i], trump, leader, trick, ntrick, c, team, ours, theirs,
                            keys, vals, stats,
                        )  # fmt: skip
                        if _over(stats, budget, deadline):
                            complete = False  # over a budget: no margin from this deal
                            break
                    if complete:
                        _add(totals, tied, values, margin)
        return moves, used

    @njit(_nrt=True)
    def pimc_card(view, params, mem, rng, fallback):
        """The card ``pimc`` plays: the best average over the samples (``pimc_scores``);
        ``fallback`` (the bot's card without a search: ``expert``'s for ``pimc``) among
        equal best, or when no sample finished.

        Every call first notes the cards played since the seat's last one in
        ``mem`` (:func:`hokm_sim.dd.infer.record`), which inference reads.

        The scratch arrays are made here, not in the bot: the bot's decision is
        inlined into the engine's card loop, which runs without reference
        counting and so may not allocate.
        """
        record(view, mem)
        totals = np.zeros(52)
        moves, used = pimc_scores(view, params, mem, rng, totals)
        if used == 0:
            return fallback
        return choose_among(moves, totals, fallback)

    return Pimc(misses, explained_deal, model_value_after, score_deal, pimc_scores, pimc_card)
