"""Longest suit as trump, then win cheaply or play low: the players' first tip.

Trump: the suit with the most cards among the Hakem's five; ties go to the
higher rank sum (2 counts 0 ... A counts 12), then to the lower suit (C D H S).
Play (the same simple heuristic as the C reference program of docs/performance.md):

- lead an off-trump ace if holding one; holding only trumps, the lowest
  trump; otherwise the lowest card of the longest side suit;
- following suit: play low if partner is winning; else the cheapest card
  that beats the winner (unless the trick is already trumped); else low;
- void: if partner is not winning, trump with the cheapest trump that wins;
  otherwise discard the lowest-ranked side card.
"""

from hokm_sim.bots.botkit import (
    ACES,
    V_HAND,
    V_LED,
    V_TRUMP,
    V_WIN_CARD,
    above,
    lowest,
    lowest_by_rank,
    njit,
    partner_winning,
    popcount,
    suit_cards,
    suit_counts_rank_sums,
    suit_mask,
    suit_of,
)

DESCRIPTION = "trump = longest of the five cards; win cheaply when possible, else play low"


@njit
def choose_trump(view, params, mem, rng):
    """The longest suit among the five; ties by higher rank sum, then lower suit."""
    suit, _ = suit_counts_rank_sums(view[V_HAND])
    return suit


@njit
def _lead(hand, trump):
    side = hand & ~suit_mask(trump)
    aces = side & ACES
    if aces != 0:
        return lowest(aces)
    if side == 0:
        return lowest(hand)
    best = -1
    best_len = 0
    for s in range(4):
        if s != trump:
            n = popcount(suit_cards(hand, s))
            if n > best_len:
                best_len = n
                best = s
    return lowest(suit_cards(hand, best))


@njit
def play_card(view, params, mem, rng):
    """Lead aces or from length; follow cheaply to win; ruff cheaply when void."""
    hand = view[V_HAND]
    trump = view[V_TRUMP]
    led = view[V_LED]
    if led < 0:
        return _lead(hand, trump)
    win = view[V_WIN_CARD]
    mine = partner_winning(view)
    follow = suit_cards(hand, led)
    if follow != 0:
        if mine:
            return lowest(follow)
        if suit_of(win) == led:
            higher = follow & above(win)
            if higher != 0:
                return lowest(higher)
        return lowest(follow)
    if not mine:
        trumps = suit_cards(hand, trump)
        if trumps != 0:
            cand = trumps & above(win) if suit_of(win) == trump else trumps
            if cand != 0:
                return lowest(cand)
    side = hand & ~suit_mask(trump)
    if side != 0:
        return lowest_by_rank(side)
    return lowest_by_rank(hand)
