"""Second hand high, honours cashed at once, every ruff taken: the trick grabber.

Trump (the Hakem sees five cards): the most honour points (A4 K3 Q2 J1),
ties to the longer suit (``points``): strength before length.

A player who takes a trick whenever it can, and plays its honours before
the opponents can ruff them:

- Leading: a sure side-suit winner, the highest first (the suit with most
  of them first), in a suit no opponent may ruff; on the Hakem's team the
  master trump while an opponent may hold a trump; holding trumps, a side
  singleton (to ruff the suit's next round); else the top of a two-card
  sequence headed by a queen or better, or the lowest of the longest side
  suit.
- Following suit: second hand high (the cheapest card as good as its
  highest, when that beats the trick); third hand the same, unless partner
  holds the trick with a sure winner; fourth hand wins as cheaply as it can;
  otherwise low.
- Void: ruffs every opponent's card it can, second hand too, with the
  cheapest trump that wins; discards the lowest card of its shortest side
  suit (the next void, the next ruff).

Why: second hand high wins the tricks that a low second card gives the
third hand for nothing, and an honour cashed early cannot be ruffed later;
the price is honours spent where ducking would have kept them (see the
field's table in docs/bots.md).
"""

from hokm_sim.bots.botkit import (
    FULL_DECK,
    V_HAKEM,
    V_HAND,
    V_LED,
    V_NTRICK,
    V_PLAYED,
    V_SEAT,
    V_TRUMP,
    V_VOIDS,
    V_WIN_CARD,
    V_WIN_SEAT,
    above,
    highest,
    lowest,
    lowest_by_rank,
    njit,
    popcount,
    suit_cards,
    suit_mask,
    suit_of,
)
from hokm_sim.strategies._tips import (
    cheap_top,
    follow_by_seat,
    is_master,
    longest_of,
    master_trump_lead,
    points_trump,
    ruff_threats,
    sequence_top,
    side_masters,
    suits_held,
    winning_trumps,
)

DESCRIPTION = "second hand high, honours cashed at once, every ruff taken"

QUEEN = 10
"""Rank of the queen: the lowest top of a sequence worth leading from."""


@njit
def choose_trump(view, params, mem, rng):
    """The most honour points among the five; ties to more cards, then the lower suit."""
    return points_trump(view[V_HAND])


@njit
def _lead(hand, trump, out, me, hakem, voids):
    lho = (me + 1) & 3
    rho = (me + 3) & 3
    t_out = suit_cards(out, trump)
    danger = ruff_threats(voids, lho, t_out, trump) | ruff_threats(voids, rho, t_out, trump)
    masters = side_masters(hand, out, trump)
    s = longest_of(masters, suits_held(masters) & ~danger)
    if s >= 0:
        return highest(suit_cards(masters, s))
    if (me & 1) == (hakem & 1):
        c = master_trump_lead(hand, trump, out, voids, me)
        if c >= 0:
            return c
    mine = suit_cards(hand, trump)
    side = hand & ~suit_mask(trump)
    if side == 0:
        return lowest(hand)
    ok = suits_held(side) & ~danger
    if ok == 0:
        return lowest(mine) if mine != 0 else lowest_by_rank(side)
    if mine != 0:
        for s in range(4):
            cards = suit_cards(side, s)
            if (ok >> s) & 1 and popcount(cards) == 1:
                return lowest(cards)
    cards = suit_cards(side, longest_of(side, ok))
    c = sequence_top(cards, QUEEN)
    return c if c >= 0 else lowest(cards)


@njit
def _discard(hand, trump):
    """The lowest card of the shortest side suit; the lowest trump with no side card."""
    side = hand & ~suit_mask(trump)
    if side == 0:
        return lowest(hand)
    best = -1
    best_n = 99
    for s in range(4):
        n = popcount(suit_cards(side, s))
        if 0 < n < best_n:
            best = s
            best_n = n
    return lowest(suit_cards(side, best))


@njit
def play_card(view, params, mem, rng):
    """Cash honours, second and third hand high, fourth hand cheapest win, ruff it all."""
    hand = view[V_HAND]
    trump = view[V_TRUMP]
    led = view[V_LED]
    me = view[V_SEAT]
    out = FULL_DECK & ~view[V_PLAYED] & ~hand
    if led < 0:
        return _lead(hand, trump, out, me, view[V_HAKEM], view[V_VOIDS])
    win = view[V_WIN_CARD]
    pos = view[V_NTRICK]
    mine = view[V_WIN_SEAT] == ((me + 2) & 3)
    follow = suit_cards(hand, led)
    if follow != 0:
        out_led = suit_cards(out, led)
        higher = follow & above(win)
        # Partner's card may still be beaten: take over with a better one.
        if mine and pos < 3 and suit_of(win) == led and higher != 0 and not is_master(win, out_led):
            return cheap_top(higher, out_led)
        return follow_by_seat(follow, led, win, pos, mine, out, True)
    trumps = suit_cards(hand, trump)
    if trumps != 0 and not mine:
        need = winning_trumps(trumps, win, trump)
        if need != 0:
            return lowest(need)
    return _discard(hand, trump)
