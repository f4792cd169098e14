"""The views a seat had during a hand, rebuilt from one request: what a served bot replays.

A request carries everything its seat knows (docs/protocol.md): its cards,
the Hakem's first five when it is the Hakem, and every card played in order.
:func:`seat_views` plays those cards again with the engine's own view
bookkeeping (:mod:`hokm_sim.engine.play`), so each view is the array the
seat's bot got inside hokm-sim at that decision, byte for byte: the trump
call first when the seat is the Hakem, then each of its cards, the decision
asked for last. It also checks that the request is a hand that could be
played: the seat to play is the one asking, its cards and plays make 13,
its own earlier cards were legal, and the hand is not over.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hokm_sim.engine.bits import popcount
from hokm_sim.engine.play import end_trick, new_work, open_hand, play_one, show_five, show_turn
from hokm_sim.engine.rules import TRICKS_TO_WIN, beats
from hokm_sim.engine.view import (
    V_TRUMP,
)
from hokm_sim.inlining import HELPERS

MAX_DECISIONS = 14
"""A seat decides at most 14 times a hand: the trump call and 13 cards."""

NOT_ITS_TURN = -1
NOT_THIRTEEN = -2
FIVE_NOT_HELD = -3
OWN_CARD_ELSEWHERE = -4
OWN_CARD_ILLEGAL = -5
HAND_OVER = -6

PROBLEMS = {
    NOT_ITS_TURN: "by 'plays' and 'hakem' it is another seat's turn",
    NOT_THIRTEEN: "'hand' and the seat's own 'plays' are not 13 cards",
    FIVE_NOT_HELD: "'first_five' is not among the seat's cards",
    OWN_CARD_ELSEWHERE: "a card of the seat's is played by another seat in 'plays'",
    OWN_CARD_ILLEGAL: "one of the seat's own cards in 'plays' broke the rules",
    HAND_OVER: "a team has 7 tricks: the hand is over",
}
"""What each negative result of :func:`seat_views` means, for the error line."""


@njit(inline=HELPERS)
def _players(hakem, trump, plays, n, who):
    """Who played each of the first ``n`` cards (into ``who``); -1 if a team got 7
    tricks before the last of them."""
    leader = hakem
    t0 = 0
    t1 = 0
    for start in range(0, n, 4):
        if t0 >= TRICKS_TO_WIN or t1 >= TRICKS_TO_WIN:
            return -1
        best = start
        for k in range(start, min(start + 4, n)):
            who[k] = (leader + k - start) & 3
            if k > start and beats(plays[k], plays[best], trump):
                best = k
        if start + 4 <= n:
            leader = who[best]
            if leader & 1:
                t1 += 1
            else:
                t0 += 1
    if t0 >= TRICKS_TO_WIN or t1 >= TRICKS_TO_WIN:
        return -1
    return 0


@njit(cache=True)
def seat_views(seat, hakem, trump, five, hand, plays, score0, score1, target, views, ns):
    """Fill ``views[j]`` (``int64[MAX_DECISIONS, VIEW_SIZE]``) with the seat's view at its
    ``j``-th decision of the hand and ``ns[j]`` with the cards played before it (-1 for
    the trump call); the last is the decision asked for. ``trump`` -1 asks for the trump
    call. Returns the number of decisions, or one of the negative codes of ``PROBLEMS``."""
    n = plays.shape[0]
    who = np.zeros(max(n, 1), np.int64)
    if trump >= 0 and _players(hakem, trump, plays, n, who) < 0:
        return HAND_OVER
    start = hand
    for k in range(n):
        bit = 1 << plays[k]
        if who[k] == seat:
            start |= bit
        elif start & bit:
            return OWN_CARD_ELSEWHERE
    if trump >= 0 and popcount(start) != 13:
        return NOT_THIRTEEN
    if seat == hakem and five & ~start:
        return FIVE_NOT_HELD
    work = new_work()  # the engine's own bookkeeping, so each view is its byte for byte
    open_hand(work, hakem, 0, 0, score0, score1, target)
    view = work.bot_view
    count = 0
    if seat == hakem:  # the trump call: the Hakem's five on top of the deck
        k = 0
        for c in range(52):
            if (five >> c) & 1:
                work.deck[k] = c
                k += 1
        show_five(view, work.deck, hakem)
        views[0, :] = view
        ns[0] = -1
        count = 1
    if trump < 0:
        return count
    view[V_TRUMP] = trump
    held = work.held
    held[seat] = start
    leader = hakem
    k = 0
    led = -1
    best = -1
    best_seat = -1
    trick_no = 0
    t0 = 0
    t1 = 0
    for i in range(n):
        player = (leader + k) & 3
        card = plays[i]
        if player == seat:
            legal = show_turn(view, held[seat], seat, led)
            if (legal >> card) & 1 == 0:
                return OWN_CARD_ILLEGAL
            views[count, :] = view
            ns[count] = i
            count += 1
        led, best, best_seat = play_one(
            view, held, work.plays, player, held[player], card, k, i, led, best, best_seat, trump
        )
        k += 1
        if k == 4:
            trick_no, t0, t1 = end_trick(view, work.winners, trick_no, best_seat, t0, t1)
            leader = best_seat
            k = 0
            led = -1
            best = -1
            best_seat = -1
    if (leader + k) & 3 != seat:
        return NOT_ITS_TURN
    show_turn(view, held[seat], seat, led)  # held[seat] is ``hand`` by now
    views[count, :] = view
    ns[count] = n
    return count + 1
