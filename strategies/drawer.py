"""Draws trumps hard, then runs its long suit: the trump-control player.

Trump (the Hakem sees five cards): the highest ``length x cards + strength x
honour points`` (A4 K3 Q2 J1), defaults 3 and 1, so length counts for a
little less than in ``expert``.

The plan is the classic one of a suit contract: take the opponents' trumps
away first, so that they cannot ruff, then set up and cash the long side
suit. Leading, first that applies:

1. while an opponent may still hold a trump: the master trump; else, on
   the Hakem's team with two trumps or more, or defending with at least
   ``defend`` trumps (default 4, a long holding that can outlast the
   Hakem's), the lowest trump;
2. a sure side-suit winner (nothing unseen above it) of the suit where the
   team holds most cards, in a suit no opponent may ruff;
3. the longest safe side suit: its top card when it heads a sequence of
   two (K Q, Q J: knocks out the one card above), else its lowest.

Following suit: partner winning, low; second hand low unless it holds a sure
winner; third hand the cheapest card as good as its highest when that beats
the trick; fourth hand wins as cheaply as it can or plays low. Void: ruffs
an opponent's card with the cheapest trump that wins. Discards come from
the shortest side suit that holds no sure winner: the long suit is the
plan, and it is kept whole.

Why: with trumps drawn, every established card of the long suit is a trick
the opponents cannot ruff; measured against ``longest`` and ``expert`` in
docs/bots.md (the field).
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
    highest,
    lowest,
    lowest_by_rank,
    njit,
    popcount,
    suit_cards,
    suit_mask,
)
from hokm_sim.strategies._tips import (
    follow_by_seat,
    is_master,
    longest_of,
    ruff_threats,
    seat_voids,
    sequence_top,
    side_masters,
    suits_held,
    weighted_trump,
    winning_trumps,
)

DESCRIPTION = "draws trumps hard, then sets up and runs its long side suit"
PARAMS = {"length": 3.0, "strength": 1.0, "defend": 4.0}

QUEEN = 10
"""Rank of the queen: the lowest top of a sequence worth leading from."""


@njit
def choose_trump(view, params, mem, rng):
    """Highest ``length * cards + strength * honour points`` among the five."""
    return weighted_trump(view[V_HAND], params[0], params[1])


@njit
def _draw(hand, trump, out, voids, lho, rho, hakem_side, defend):
    """The trump to lead while an opponent may hold one, or -1."""
    mine = suit_cards(hand, trump)
    t_out = suit_cards(out, trump)
    if mine == 0 or t_out == 0:
        return -1
    if ((seat_voids(voids, lho) & seat_voids(voids, rho)) >> trump) & 1:
        return -1
    top = highest(mine)
    if is_master(top, t_out):
        return top
    n = popcount(mine)
    if (hakem_side and n >= 2) or (not hakem_side and n >= defend):
        return lowest(mine)
    return -1


@njit
def _lead(hand, trump, out, me, hakem, voids, defend):
    lho = (me + 1) & 3
    rho = (me + 3) & 3
    c = _draw(hand, trump, out, voids, lho, rho, (me & 1) == (hakem & 1), defend)
    if c >= 0:
        return c
    t_out = suit_cards(out, trump)
    danger = ruff_threats(voids, lho, t_out, trump) | ruff_threats(voids, rho, t_out, trump)
    masters = side_masters(hand, out, trump)
    s = longest_of(hand, suits_held(masters) & ~danger)
    if s >= 0:
        return lowest(suit_cards(masters, s))
    side = hand & ~suit_mask(trump)
    if side == 0:
        return lowest(hand)
    s = longest_of(side, suits_held(side) & ~danger)
    if s < 0:
        mine = suit_cards(hand, trump)
        return lowest(mine) if mine != 0 else lowest_by_rank(side)
    cards = suit_cards(side, s)
    c = sequence_top(cards, QUEEN)
    return c if c >= 0 else lowest(cards)


@njit
def _discard(hand, trump, out):
    """Lowest card of the shortest side suit without a sure winner (the long suit stays)."""
    side = hand & ~suit_mask(trump)
    if side == 0:
        return lowest(hand)
    rest = side & ~side_masters(hand, out, trump)
    if rest == 0:
        return lowest_by_rank(side)
    best = -1
    best_n = 99
    for s in range(4):
        n = popcount(suit_cards(rest, s))
        if n > 0 and popcount(suit_cards(hand, s)) < best_n:
            best = s
            best_n = popcount(suit_cards(hand, s))
    return lowest(suit_cards(rest, best))


@njit
def play_card(view, params, mem, rng):
    """Draw trumps, run the long suit; follow by seat; ruff cheaply; discard short."""
    hand = view[V_HAND]
    trump = view[V_TRUMP]
    led = view[V_LED]
    me = view[V_SEAT]
    out = FULL_DECK & ~view[V_PLAYED] & ~hand
    if led < 0:
        return _lead(hand, trump, out, me, view[V_HAKEM], view[V_VOIDS], params[2])
    win = view[V_WIN_CARD]
    pos = view[V_NTRICK]
    mine = view[V_WIN_SEAT] == ((me + 2) & 3)
    follow = suit_cards(hand, led)
    if follow != 0:
        return follow_by_seat(follow, led, win, pos, mine, out, False)
    trumps = suit_cards(hand, trump)
    if trumps != 0 and not mine:
        need = winning_trumps(trumps, win, trump)
        if need != 0:
            return lowest(need)
    return _discard(hand, trump, out)
