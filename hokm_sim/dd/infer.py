"""What the other seats' cards say about their hands: sampled deals that explain the play.

A seat that samples the cards it cannot see (:mod:`hokm_sim.dd.pimc`) learns
more from the play than the voids shown. An opponent who kept its ace
under a king led by partner probably has no ace; a defender who led a low
heart probably holds no sure winner elsewhere. Here every sampled deal is
judged by replaying the hand so far on it: at each card another seat played,
the model (a bot, :class:`~hokm_sim.dd.model.Model`; ``pimc`` passes
``expert``, the strongest heuristic bot, with its default parameters) is
asked what it would have played holding the cards the deal gives that seat.
A deal on which the model plays every observed card is consistent with the
play; one on which it would have played otherwise somewhere is less likely.
``explained_deal`` keeps, for each sample, the first of up to ``tries``
deals the model explains entirely, else the one with the fewest misses;
:func:`make_replay` makes it (and ``misses``, the count it keeps by) for a
model.

The replay needs the order of the cards played, which the view does not
keep: :func:`record` notes in the seat's own memory in which trick each card
fell (``mem[HISTORY:]``), at every one of the seat's decisions; the order
within a trick follows from its leader, and each leader from the trick
before.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from hokm_sim.dd.model import Model, once_per_model
from hokm_sim.dd.sample import sample_view
from hokm_sim.engine.bits import ctz
from hokm_sim.engine.play import clear_trick, end_trick, play_one, show_turn
from hokm_sim.engine.rng import rand_below
from hokm_sim.engine.rules import beats
from hokm_sim.engine.view import (
    MEM_SIZE,
    V_HAKEM,
    V_HAND,
    V_LEADER,
    V_LEGAL,
    V_NTRICK,
    V_PLAYED,
    V_PLAYED_BY,
    V_SCORES,
    V_SEAT,
    V_TARGET,
    V_TRICK,
    V_TRICK_NO,
    V_TRICKS,
    V_TRUMP,
    V_VOIDS,
    VIEW_SIZE,
)
from hokm_sim.inlining import HELPERS

HISTORY = MEM_SIZE - 5
"""First of the last five memory slots, which the history takes: ``mem[HISTORY]``
is the mask of cards recorded, ``mem[HISTORY + 1 + suit]`` holds, four bits a
rank, the trick each card of the suit fell in plus one."""
JUDGE_OPPONENTS = 1
"""``judge`` value: weigh deals by the opponents' plays."""
JUDGE_ALL = 2
"""``judge`` value: by the partner's plays too."""


@njit(inline=HELPERS)
def record(view, mem):
    """Note the trick of every card played since the seat's last decision.

    Cards in the current trick fell in it; any other card new since then was
    played after this seat's card in the trick before (the seat plays every
    trick, so at most one trick ended in between).
    """
    known = mem[HISTORY]
    new = view[V_PLAYED] & ~known
    if new == 0:
        return
    t = view[V_TRICK_NO]
    current = 0
    for k in range(view[V_NTRICK]):
        current |= 1 << view[V_TRICK + k]
    m = new
    while m != 0:
        c = ctz(m)
        m &= m - 1
        trick = t if (current >> c) & 1 else t - 1
        mem[HISTORY + 1 + c // 13] |= (trick + 1) << (4 * (c % 13))
    mem[HISTORY] = known | new


@njit(cache=True)
def play_order(view, mem, seats, cards):
    """The cards played this hand before this decision, in order, into ``cards``
    and who played them into ``seats``; returns how many.

    Needs :func:`record` to have seen this decision's view. Trick ``t`` is
    ``cards[4 t : 4 t + 4]``, starting with its leader.
    """
    by_trick = np.full(52, -1, np.int64)  # by_trick[4 t + seat]: seat's card in trick t
    m = view[V_PLAYED]
    while m != 0:
        c = ctz(m)
        m &= m - 1
        trick = ((mem[HISTORY + 1 + c // 13] >> (4 * (c % 13))) & 15) - 1
        for s in range(4):
            if (view[V_PLAYED_BY + s] >> c) & 1:
                by_trick[4 * trick + s] = c
    n = 0
    leader = view[V_HAKEM]
    trump = view[V_TRUMP]
    for t in range(view[V_TRICK_NO]):
        best = -1
        best_seat = -1
        for k in range(4):
            s = (leader + k) & 3
            c = by_trick[4 * t + s]
            seats[n] = s
            cards[n] = c
            n += 1
            if best < 0 or beats(c, best, trump):
                best = c
                best_seat = s
        leader = best_seat
    for k in range(view[V_NTRICK]):
        seats[n] = (view[V_LEADER] + k) & 3
        cards[n] = view[V_TRICK + k]
        n += 1
    return n


@njit(inline=HELPERS)
def _five_of(hand, rng):
    """Five cards of ``hand`` drawn at random: the Hakem's first five, which
    the deal makes any five of its thirteen alike."""
    out = 0
    rest = hand
    for k in range(5):
        r = rand_below(rng, 13 - k)
        m = rest
        for _ in range(r):
            m &= m - 1
        bit = m & -m
        out |= bit
        rest ^= bit
    return out


class ReplayScratch(NamedTuple):
    """The arrays a replay works in (:func:`new_scratch`)."""

    bot_view: np.ndarray
    """``int64[VIEW_SIZE]``: what the model sees at the decision replayed."""
    held: np.ndarray
    """``int64[4]``: each seat's cards at that point of the deal."""
    plays: np.ndarray
    """``int64[52]``: the cards replayed, in order."""
    winners: np.ndarray
    """``int64[13]``: the replayed tricks' winners."""
    mem: np.ndarray
    """``int64[MEM_SIZE]``: the model's memory (never reset, see
    :class:`~hokm_sim.dd.model.Model`)."""
    rng: np.ndarray
    """``uint64[4]``: the model's stream (likewise)."""
    kept: np.ndarray
    """``int64[4]``: the best deal found so far."""


@njit(inline=HELPERS)
def new_scratch():
    """A :class:`ReplayScratch`."""
    return ReplayScratch(
        np.zeros(VIEW_SIZE, np.int64),
        np.zeros(4, np.int64),
        np.zeros(52, np.int64),
        np.zeros(13, np.int64),
        np.zeros(MEM_SIZE, np.int64),
        np.zeros(4, np.uint64),
        np.zeros(4, np.int64),
    )


@njit(inline=HELPERS)
def judged_seats(seat, judge):
    """Bit ``s`` set for each seat whose plays a deal must explain: none for
    ``judge`` 0, the opponents for :data:`JUDGE_OPPONENTS`, the partner too for
    :data:`JUDGE_ALL`."""
    if judge <= 0:
        return 0
    judged = (1 << ((seat + 1) & 3)) | (1 << ((seat + 3) & 3))
    if judge >= JUDGE_ALL:
        judged |= 1 << ((seat + 2) & 3)
    return judged


def judge_of(models: tuple[Model, ...]):
    """``(calls, plays)``: whether any of ``models`` calls ``trump`` from the view, or
    plays ``card`` from it, each model with its own parameters, asked in turn until one
    does. A chain of closures, one model each, so that numba binds every model in as a
    constant."""
    if not models:

        @njit(inline="always")
        def none_calls(view, mem, rng, trump):
            return False

        @njit(inline="always")
        def none_plays(view, mem, rng, card):
            return False

        return none_calls, none_plays
    rest_calls, rest_plays = judge_of(models[1:])
    trump_of = models[0].choose_trump
    card_of = models[0].play_card
    params = models[0].params

    @njit(inline="always")
    def calls(view, mem, rng, trump):
        return trump_of(view, params, mem, rng) == trump or rest_calls(view, mem, rng, trump)

    @njit(inline="always")
    def plays(view, mem, rng, card):
        return card_of(view, params, mem, rng) == card or rest_plays(view, mem, rng, card)

    return calls, plays


def make_cost_replay(call_cost, play_cost):
    """``replay``: the hand so far replayed on a sampled deal, summing a cost over the
    judged seats' decisions, with ``call_cost`` and ``play_cost`` bound in at compile
    time (``inline="always"``).

    Each cost is ``f(view, mem, rng, choice, aux) -> float``: what it costs the deal
    that the seat, seeing ``view`` (its cards in the deal), made ``choice`` (a trump
    suit for ``call_cost``, a card for ``play_cost``); ``aux`` is the caller's, passed
    through. :func:`make_replay` counts the model's misses with it; a learned policy's
    likelihood of the play sums its negative log-probabilities."""

    @njit(inline="always")
    def replay(view, hands, seats, cards, n, judged, rng, scratch, cap, aux):
        """The judged seats' decisions' summed cost on this deal, summed up to ``cap``
        (the replay stops once the sum reaches it).

        ``hands`` are the seats' current cards in the deal; ``judged`` has bit
        ``seat`` set for each seat whose decisions count. ``scratch`` is a
        :class:`ReplayScratch`. A judged Hakem's trump call counts too: it
        was made on five cards nobody else saw, so it is judged on five of the
        Hakem's thirteen drawn from ``rng`` (for a model's misses, a test a deal
        passes as often as the model would call that trump from it).
        """
        rview = scratch.bot_view
        held = scratch.held
        mem = scratch.mem
        mrng = scratch.rng
        for s in range(4):
            held[s] = hands[s] | view[V_PLAYED_BY + s]
            rview[V_PLAYED_BY + s] = 0
        hakem = view[V_HAKEM]
        rview[V_HAKEM] = hakem
        out = 0.0
        if (judged >> hakem) & 1:
            rview[V_TRUMP] = -1
            rview[V_HAND] = _five_of(held[hakem], rng)
            rview[V_SEAT] = hakem
            rview[V_LEGAL] = 0
            out += call_cost(rview, mem, mrng, view[V_TRUMP], aux)
            if out >= cap:
                return out
        rview[V_TRUMP] = view[V_TRUMP]
        rview[V_SCORES] = view[V_SCORES]
        rview[V_SCORES + 1] = view[V_SCORES + 1]
        rview[V_TARGET] = view[V_TARGET]
        rview[V_PLAYED] = 0
        rview[V_VOIDS] = 0
        rview[V_TRICKS] = 0
        rview[V_TRICKS + 1] = 0
        rview[V_TRICK_NO] = 0
        rview[V_LEADER] = view[V_HAKEM]
        clear_trick(rview)
        trump = view[V_TRUMP]
        trick_no = 0
        tricks0 = 0
        tricks1 = 0
        led = -1
        best = -1
        best_seat = -1
        for i in range(n):
            seat = seats[i]
            card = cards[i]
            k = i & 3
            hand = held[seat]
            if (judged >> seat) & 1:
                show_turn(rview, hand, seat, led)
                out += play_cost(rview, mem, mrng, card, aux)
                if out >= cap:
                    return out
            led, best, best_seat = play_one(
                rview, held, scratch.plays, seat, hand, card, k, i, led, best, best_seat, trump
            )
            if k == 3:
                trick_no, tricks0, tricks1 = end_trick(
                    rview, scratch.winners, trick_no, best_seat, tricks0, tricks1
                )
                led = -1
                best = -1
                best_seat = -1
        return out

    return replay


@once_per_model
def make_replay(judges: Model | tuple[Model, ...]):
    """``(misses, explained_deal)``: the replay's kernels with ``judges`` as the judge of
    the play, bound in at compile time (``inline="always"``, as the kernels that call
    them inline them).

    ``judges`` is one model, or several: a decision is then explained when any of
    them makes it (a mixture of players whose plays count as likely alike), so a
    deal is judged by no single bot's style."""
    model_calls, model_plays = judge_of((judges,) if isinstance(judges, Model) else judges)

    @njit(inline="always")
    def call_missed(view, mem, rng, trump, aux):
        return 0.0 if model_calls(view, mem, rng, trump) else 1.0

    @njit(inline="always")
    def play_missed(view, mem, rng, card, aux):
        return 0.0 if model_plays(view, mem, rng, card) else 1.0

    replay = make_cost_replay(call_missed, play_missed)

    @njit(inline="always")
    def misses(view, hands, seats, cards, n, judged, rng, scratch, cap):
        """How many of the judged seats' decisions the model would not have made on this
        deal, counted up to ``cap`` (the replay stops there; see ``replay`` of
        :func:`make_cost_replay`, whose five-card test of a judged Hakem's call a deal
        passes as often as the model would call that trump from it)."""
        return int(replay(view, hands, seats, cards, n, judged, rng, scratch, cap, 0))

    @njit(inline="always")
    def explained_deal(view, rng, seats, cards, n, judged, tries, scratch, hands):
        """Deal the unseen cards into ``hands``: the first of up to ``tries`` deals
        (:func:`hokm_sim.dd.sample.sample_view`) on which the model plays every
        judged card of the ``n`` in ``seats``/``cards`` as observed, or else the
        one with the fewest misses. Returns its misses.

        A deal's replay stops as soon as it has as many misses as the best deal
        so far (it can no longer be kept), so most deals cost a few of the
        model's decisions and many tries are cheap; the deal kept is the one a
        full count would keep."""
        kept = scratch.kept
        fewest = 1 << 30
        for _ in range(tries):
            sample_view(view, rng, hands)
            miss = misses(view, hands, seats, cards, n, judged, rng, scratch, fewest)
            if miss < fewest:
                fewest = miss
                kept[:] = hands
                if miss == 0:
                    break
        hands[:] = kept
        return fewest

    return misses, explained_deal
