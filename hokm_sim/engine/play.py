"""Playing hands and matches, for numba: the loop that asks strategies for cards.

A strategy is two jitted functions bound into the loop by
:func:`make_play_hand`, never a branch in here:

- ``choose_trump(view, params, mem, rng) -> suit`` sees the Hakem's first five
  cards in ``view[V_HAND]`` (and the seat fields), nothing else;
- ``play_card(view, params, mem, rng) -> card`` sees what its seat may see
  (:mod:`hokm_sim.engine.view`).

``params`` is the strategy's ``float64[PARAM_SIZE]`` (a strategy's
parameters come as ``float64[2, PARAM_SIZE]``: row 0 for its trump choice,
row 1 for its card play, so composed strategies keep their own), ``mem`` the seat's
``int64[MEM_SIZE]`` zeroed every hand, ``rng`` the seat's ``uint64[4]`` stream
for this hand (see :mod:`hokm_sim.engine.rng`). Strategy A's pair of
functions plays for team ``a_team`` (seats ``a_team`` and ``a_team + 2``), B's
for the other team, so one compiled card loop serves both halves of a
duplicate pair.

The loop asks a strategy through two *deciders*,
``decide(strategy, view, mem, rng) -> suit or card``, where ``strategy`` is what
the kernels pass along for A or for B:

- :func:`bound_deciders`: the bot functions bound as closure constants and
  ``strategy`` the parameters. numba inlines constants (``inline="always"``
  works on constants, not on arguments) and caches the caller on disk; passing
  the functions as arguments cost a function call with ~30 scalar arguments per card.
- :func:`pointer_trump`, :func:`pointer_play`: ``strategy`` is ``(params,
  choose_trump, play_card)``, the functions passed as numba function pointers,
  so one compiled loop serves every pair of strategies (the engine that calls its
  bots, :func:`hokm_sim.inlining.inlining`).

Every card is checked against the legal mask; a strategy that returns an
illegal card or a bad suit stops the hand with an error code in the result.
"""

from __future__ import annotations

import sys
from typing import NamedTuple

import numpy as np
from numba import njit

from hokm_sim.engine.address import address, call_bot
from hokm_sim.engine.bits import popcount, suit_mask, suit_of
from hokm_sim.engine.deal import deal, draw_order, first_five, first_hakem, shuffle
from hokm_sim.engine.records import (
    ERR_BAD_TRUMP,
    ERR_ILLEGAL_CARD,
    ERR_NONE,
    R_CHOICE,
    R_ERR_CARD,
    R_ERR_SEAT,
    R_ERR_TRICK,
    R_ERROR,
    R_FIVE_LEN,
    R_HAKEM,
    R_KIND,
    R_NCARDS,
    R_POINTS,
    R_TRICKS,
    R_TRUMP,
    R_TRUMP_LEN,
    R_WINNER,
    RES_SIZE,
)
from hokm_sim.engine.rng import FIRST_HAKEM_INDEX, match_base, seed_counter_stream, seed_stream
from hokm_sim.engine.rules import TRICKS_TO_WIN, beats, hand_score, legal_mask, next_hakem
from hokm_sim.engine.view import (
    MEM_SIZE,
    V_HAKEM,
    V_HAND,
    V_LEADER,
    V_LED,
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
    V_WIN_CARD,
    V_WIN_SEAT,
    VIEW_SIZE,
)
from hokm_sim.inlining import HELPERS

NO_FORCED_TRUMP = -1
"""``forced_trump`` value: the Hakem's strategy chooses and the hand is played."""
CHOOSE_ONLY = -2
"""``forced_trump`` value: only ask the Hakem's strategy for trump (``res[R_CHOICE]``)."""


_PAD = 8
"""64 bytes of 8-byte slots: the padding that keeps a work array on cache lines of its own."""


class Work(NamedTuple):
    """One worker's scratch arrays, reused for every hand it plays (see :func:`new_work`).

    numba compiles a named tuple as a plain tuple and resolves each field to
    its position at compile time: a field read is a constant offset, as an index would be.
    """

    bot_view: np.ndarray
    """What the deciding seat sees, ``int64[VIEW_SIZE]`` (:mod:`hokm_sim.engine.view`).

    Not called ``view``: numba reads ``x.view`` as numpy's ``ndarray.view``
    and refuses it on anything but an array."""
    mem: np.ndarray
    """Each seat's bot memory, ``int64[4, MEM_SIZE]``, zeroed every hand."""
    srng: np.ndarray
    """Each seat's bot stream for this hand, ``uint64[4, 4]``."""
    dstate: np.ndarray
    """The cards' stream, ``uint64[4]``."""
    deck: np.ndarray
    """The shuffled deck, ``int64[52]``, top first."""
    hands: np.ndarray
    """The dealt hands, ``int64[4]``: a card mask per seat."""
    plays: np.ndarray
    """The cards played, in order, ``int64[52]``."""
    winners: np.ndarray
    """The seat that won each trick, ``int64[13]``."""
    res: np.ndarray
    """The hand's result, ``int64[RES_SIZE]`` (:mod:`hokm_sim.engine.records`)."""
    held: np.ndarray
    """The cards each seat still holds during play, ``int64[4]`` (indexed by seat:
    a four-way branch on the seat instead mispredicted; ``longest`` ran 12-24%
    slower with it, in alternating runs)."""


@njit
def new_work():
    """A :class:`Work` for one worker.

    Each array is cut from one ``_PAD`` slots longer at each end, so no other
    allocation (another thread's work arrays) shares its cache lines.
    """
    p = _PAD
    return Work(
        np.zeros(VIEW_SIZE + 2 * p, np.int64)[p:-p],
        np.zeros((4 + 2, MEM_SIZE), np.int64)[1:-1],
        np.zeros((4 + 4, 4), np.uint64)[2:-2],
        np.zeros(4 + 2 * p, np.uint64)[p:-p],
        np.zeros(52 + 2 * p, np.int64)[p:-p],
        np.zeros(4 + 2 * p, np.int64)[p:-p],
        np.full(52 + 2 * p, -1, np.int64)[p:-p],
        np.full(13 + 2 * p, -1, np.int64)[p:-p],
        np.zeros(RES_SIZE + 2 * p, np.int64)[p:-p],
        np.zeros(4 + 2 * p, np.int64)[p:-p],
    )


@njit(inline="always")
def clear_trick(view):
    """The view of a trick with no card yet."""
    view[V_NTRICK] = 0
    for k in range(4):
        view[V_TRICK + k] = -1
    view[V_LED] = -1
    view[V_WIN_CARD] = -1
    view[V_WIN_SEAT] = -1


@njit(inline=HELPERS)
def open_hand(work, hakem, sbase, sindex, score0, score1, target):
    """Start the hand dealt in ``work``: the seats' streams and memory, the result, the view."""
    view = work.bot_view
    mem = work.mem
    srng = work.srng
    res = work.res
    for s in range(4):
        seed_counter_stream(srng[s], sbase, sindex * 4 + s)
        for i in range(MEM_SIZE):
            mem[s, i] = 0
    res[:] = 0
    res[R_HAKEM] = hakem
    view[V_HAKEM] = hakem
    view[V_SCORES] = score0
    view[V_SCORES + 1] = score1
    view[V_TARGET] = target
    view[V_PLAYED] = 0
    for s in range(4):
        view[V_PLAYED_BY + s] = 0
    view[V_VOIDS] = 0
    view[V_TRICKS] = 0
    view[V_TRICKS + 1] = 0
    view[V_TRICK_NO] = 0
    view[V_LEADER] = hakem
    clear_trick(view)


@njit(inline=HELPERS)
def show_five(view, deck, hakem):
    """Set the view for the trump call (the Hakem's first five cards); the five's mask."""
    five = first_five(deck)
    view[V_TRUMP] = -1
    view[V_HAND] = five
    view[V_SEAT] = hakem
    view[V_LEGAL] = 0
    return five


@njit(inline=HELPERS)
def bad_trump(res, hakem, trump):
    """Stop the hand: the Hakem's strategy named no suit."""
    res[R_ERROR] = ERR_BAD_TRUMP
    res[R_ERR_SEAT] = hakem
    res[R_ERR_TRICK] = -1
    res[R_ERR_CARD] = trump


@njit(inline=HELPERS)
def set_trump(view, res, hands, held, hakem, five, trump):
    """Trump is ``trump``: record it and its lengths, and give the seats their 13 cards."""
    view[V_TRUMP] = trump
    res[R_TRUMP] = trump
    res[R_TRUMP_LEN] = popcount(hands[hakem] & suit_mask(trump))
    res[R_FIVE_LEN] = popcount(five & suit_mask(trump))
    for s in range(4):
        held[s] = hands[s]


@njit(inline="always")
def show_turn(view, hand, seat, led):
    """Set the view for ``seat``'s card; its legal cards."""
    legal = legal_mask(hand, led)
    view[V_HAND] = hand
    view[V_SEAT] = seat
    view[V_LEGAL] = legal
    return legal


@njit(inline=HELPERS)
def bad_card(res, seat, trick_no, card, n):
    """Stop the hand: ``seat``'s strategy returned a card it may not play."""
    res[R_ERROR] = ERR_ILLEGAL_CARD
    res[R_ERR_SEAT] = seat
    res[R_ERR_TRICK] = trick_no
    res[R_ERR_CARD] = card
    res[R_NCARDS] = n


@njit(inline="always")
def play_one(view, held, plays, seat, hand, card, k, n, led, best, best_seat, trump):
    """``seat`` plays ``card`` as the trick's ``k``-th card and the ``n``-th of the hand;
    the trick's ``(led, best, best_seat)`` after it."""
    bit = 1 << card
    held[seat] = hand ^ bit
    plays[n] = card
    view[V_TRICK + k] = card
    view[V_NTRICK] = k + 1
    view[V_PLAYED] |= bit
    view[V_PLAYED_BY + seat] |= bit
    if k == 0:
        led = suit_of(card)
        best = card
        best_seat = seat
        view[V_LED] = led
    else:
        if suit_of(card) != led:
            view[V_VOIDS] |= 1 << (seat * 4 + led)
        if beats(card, best, trump):
            best = card
            best_seat = seat
    view[V_WIN_CARD] = best
    view[V_WIN_SEAT] = best_seat
    return led, best, best_seat


@njit(inline="always")
def end_trick(view, winners, trick_no, best_seat, tricks0, tricks1):
    """The trick goes to ``best_seat``, who leads next; ``(trick_no, tricks0, tricks1)`` after."""
    winners[trick_no] = best_seat
    trick_no += 1
    if best_seat & 1:
        tricks1 += 1
    else:
        tricks0 += 1
    view[V_TRICKS] = tricks0
    view[V_TRICKS + 1] = tricks1
    view[V_TRICK_NO] = trick_no
    view[V_LEADER] = best_seat
    clear_trick(view)
    return trick_no, tricks0, tricks1


@njit(inline=HELPERS)
def end_hand(res, hakem, tricks0, tricks1, n):
    """Score the finished hand into ``res``."""
    winner, points, kind = hand_score(hakem, tricks0, tricks1)
    res[R_TRICKS] = tricks0
    res[R_TRICKS + 1] = tricks1
    res[R_WINNER] = winner
    res[R_POINTS] = points
    res[R_KIND] = kind
    res[R_NCARDS] = n
    res[R_ERROR] = ERR_NONE


def engine_jit(owner: str, **options):
    """``njit`` for a closure whose code depends on the bots bound into it.

    numba names a compiled function by its module, qualified name and a
    counter that starts again in every process, and links code loaded from
    its disk cache by those names. Two engines compiled in different
    processes can both define ``make_play_hand.<locals>.play_hand$7``; once
    both were loaded into one process, the second engine called the first
    one's card loop, with the first one's bots. Naming each closure under its
    own engine module (``owner``, whose name hashes the bots) keeps the names
    apart. ``owner`` must be in ``sys.modules`` when numba compiles.

    An owner module whose ``BOUNDSCHECK`` is true (the checking mode of
    :mod:`hokm_sim.bots.compiled`) gets numba's bounds checks in every
    closure, and so in every bot inlined into one: an index out of range
    raises ``IndexError`` instead of reading or writing past the array.
    """
    if getattr(sys.modules.get(owner), "BOUNDSCHECK", False):
        options = {**options, "boundscheck": True}

    def wrap(fn):
        fn.__module__ = owner
        return njit(**options)(fn)

    return wrap


def make_play_hand(trump_a, play_a, trump_b, play_b, owner: str):
    """Jitted ``play_hand`` functions with A's and B's deciders bound in (see the
    module's docstring: ``params_a`` and ``params_b`` are what the deciders take).

    Returns ``(play_hand, play_hand_inline)``: the same code as a function of
    its own (traces and studies call it) and marked ``inline="always"`` for
    the NRT-free loops that play most hands: inlined there, a hand skips a call
    that passes the :class:`Work` arrays field by field, and LLVM sees the constant
    arguments (``longest``: 6,725 machine instructions a hand instead of
    7,624, counted as in ``benchmarks/engine_instructions.py``). ``owner`` is
    the engine module that the functions are named under (see
    :func:`engine_jit`).

    It is compiled without numba's reference counting (``_nrt=False``): every
    decision hands the bots slices of the work arrays, and counting those
    references cost an atomic increment and decrement per decision that
    LLVM could not prune, about a third of a hand's time with ``longest``.
    Nothing here allocates; the price is that the bots inlined into it may
    not allocate either (numba then refuses to compile, and the CLI says so
    in one line, see :func:`hokm_sim.bots.compiled.describe_compile_error`).
    """

    @engine_jit(owner, _nrt=False)
    def play_hand(
        params_a, params_b, work, hakem, forced_trump, sbase, sindex, a_team, score0, score1, target
    ):
        """Play the hand already dealt in ``work`` (deck and hands) to its end.

        A plays for team ``a_team`` (0 or 1), B for the other.

        ``sbase``/``sindex`` seed the four seats' strategy streams (seat ``s``
        uses stream ``sindex * 4 + s``). ``forced_trump`` >= 0 overrides the
        Hakem's choice (counterfactual studies; the strategy is still asked,
        so every stream stays as in the real hand); ``CHOOSE_ONLY`` stops
        after the choice. ``score0``, ``score1`` and
        ``target`` are shown to strategies in a match (0 for single hands).
        The outcome goes to ``work``'s result array; ``res[R_ERROR]`` is
        non-zero if a strategy erred, and then the hand stops there.
        """
        view = work.bot_view
        mem = work.mem
        srng = work.srng
        res = work.res
        held = work.held
        plays = work.plays
        open_hand(work, hakem, sbase, sindex, score0, score1, target)

        # Trump: the Hakem sees its first five cards only.
        five = show_five(view, work.deck, hakem)
        if (hakem & 1) == a_team:
            trump = trump_a(params_a, view, mem[hakem], srng[hakem])
        else:
            trump = trump_b(params_b, view, mem[hakem], srng[hakem])
        if trump < 0 or trump > 3:
            bad_trump(res, hakem, trump)
            return
        res[R_CHOICE] = trump
        if forced_trump == CHOOSE_ONLY:
            return
        if forced_trump >= 0:
            trump = forced_trump
        set_trump(view, res, work.hands, held, hakem, five, trump)

        tricks0 = 0
        tricks1 = 0
        leader = hakem
        n = 0
        trick_no = 0
        while tricks0 < TRICKS_TO_WIN and tricks1 < TRICKS_TO_WIN:
            led = -1
            best = -1
            best_seat = -1
            for k in range(4):
                seat = (leader + k) & 3
                hand = held[seat]
                legal = show_turn(view, hand, seat, led)
                if (seat & 1) == a_team:
                    card = play_a(params_a, view, mem[seat], srng[seat])
                else:
                    card = play_b(params_b, view, mem[seat], srng[seat])
                if card < 0 or card > 51 or (legal >> card) & 1 == 0:
                    bad_card(res, seat, trick_no, card, n)
                    return
                led, best, best_seat = play_one(
                    view, held, plays, seat, hand, card, k, n, led, best, best_seat, trump
                )
                n += 1
            trick_no, tricks0, tricks1 = end_trick(
                view, work.winners, trick_no, best_seat, tricks0, tricks1
            )
            leader = best_seat
        end_hand(res, hakem, tricks0, tricks1, n)

    return play_hand, engine_jit(owner, _nrt=False, inline="always")(play_hand.py_func)


def bound_deciders(choose_trump, play_card):
    """A strategy's deciders with its two bot functions bound in as constants; the
    strategy the kernels pass along is its ``float64[2, PARAM_SIZE]`` parameters."""

    @njit(inline="always")
    def decide_trump(params, view, mem, rng):
        return choose_trump(view, params[0], mem, rng)

    @njit(inline="always")
    def decide_card(params, view, mem, rng):
        return play_card(view, params[1], mem, rng)

    return decide_trump, decide_card


@njit(inline="always")
def pointer_trump(strategy, view, mem, rng):
    """The trump decider of a strategy passed as ``(params, choose_trump, play_card)``,
    its functions as numba function pointers that take the arrays' :func:`address`
    (:func:`bound_deciders` binds the bot's functions instead)."""
    return strategy[1](address(view), address(strategy[0][0]), address(mem), address(rng))


@njit(inline="always")
def pointer_play(strategy, view, mem, rng):
    """The card decider of a strategy passed as in :func:`pointer_trump`."""
    return strategy[2](address(view), address(strategy[0][1]), address(mem), address(rng))


@njit(inline="always")
def address_trump(strategy, view, mem, rng):
    """The trump decider of a strategy passed as ``(params, trump_at, play_at)``, the
    bot functions as the addresses of their machine code (:func:`call_bot`)."""
    return call_bot(strategy[1], address(view), address(strategy[0][0]), address(mem), address(rng))


@njit(inline="always")
def address_play(strategy, view, mem, rng):
    """The card decider of a strategy passed as in :func:`address_trump`."""
    return call_bot(strategy[2], address(view), address(strategy[0][1]), address(mem), address(rng))


@njit(inline=HELPERS)
def deal_hand(work, base, index, hakem):
    """Shuffle and deal hand ``index`` of the streams under ``base`` into ``work``."""
    seed_stream(work.dstate, base, index)
    shuffle(work.dstate, work.deck)
    deal(work.deck, hakem, work.hands)


@njit(inline=HELPERS)
def draw_first_hakem(work, base, index, method):
    """First Hakem of a match by house rule ``method``, from stream ``index`` under ``base``."""
    seed_stream(work.dstate, base, index)
    return first_hakem(work.dstate, work.deck, method)


@njit(cache=True)
def first_hakem_deck(seed, match, deck):
    """The cards of match ``match``'s first-Hakem draw into ``deck`` (top first); the seat
    they start from. The draw :func:`draw_first_hakem` makes, for showing it to people."""
    state = np.zeros(4, np.uint64)
    seed_stream(state, match_base(seed, match), FIRST_HAKEM_INDEX)
    return draw_order(state, deck)


@njit(inline=HELPERS)
def advance_match(res, hakem, score0, score1):
    """Scores and Hakem after a finished hand: ``(hakem, score0, score1)``."""
    if res[R_WINNER] == 0:
        score0 += res[R_POINTS]
    else:
        score1 += res[R_POINTS]
    return next_hakem(hakem, res[R_WINNER]), score0, score1
