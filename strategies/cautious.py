"""Gives nothing away: safe leads, cheap winners, trumps kept for control, honours guarded.

Trump (the Hakem sees five cards): the highest ``length x cards + strength
x honour points`` (A4 K3 Q2 J1), defaults 2 and 2: a suit with honours in
it, so the trumps it keeps can take tricks late.

A defender's defence, played on both sides of the table:

- Leading: a sure side-suit winner (nothing unseen above it) where no
  opponent may ruff; on the Hakem's team the master trump while an
  opponent may hold one; else a *safe* lead: the top of a side-suit
  sequence (K Q, Q J, J T: it costs nothing), or the lowest card of a side
  suit without honours, longest first. Never away from a lone honour (a
  king or queen that the next round could set up for the opponents) while
  another lead is safe.
- Following suit: partner winning, low; second hand low, unless it holds a
  sure winner; third hand its cheapest sure winner when it has one, else
  the cheapest card that beats the trick (forcing the fourth hand out);
  fourth hand the cheapest winner.
- Void: ruffs only where the ruff is sure: fourth hand, or with a trump the
  left-hand opponent cannot overruff; with the lowest such trump, and not
  second hand over a card below the queen (partner is still to play).
- Discards: never a sure winner, never the last guard of a king (K x) or
  a queen (Q x x); from the longest side suit that can spare a card, its
  lowest.

Why: defenders beat the Hakem's team mostly with the tricks the Hakem's
team cannot take away from them; a cautious defender keeps those and lets
the Hakem's side guess (see the field's table in docs/bots.md).
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
    rank_of,
    suit_cards,
    suit_mask,
    suit_of,
)
from hokm_sim.strategies._tips import (
    master_trump_lead,
    ruff_threats,
    safest_master,
    seat_voids,
    side_masters,
    suits_held,
    weighted_trump,
    winning_trumps,
)

DESCRIPTION = "safe leads, cheap winners, sure ruffs only, honours guarded: the cautious defender"
PARAMS = {"length": 2.0, "strength": 2.0}

QUEEN = 10
"""Rank of the queen: second hand ruffs only a queen or better."""
JACK = 9
"""Rank of the jack: a sequence worth leading from is headed by a jack or better."""


@njit
def choose_trump(view, params, mem, rng):
    """Highest ``length * cards + strength * honour points`` among the five."""
    return weighted_trump(view[V_HAND], params[0], params[1])


@njit
def _guard(cards):
    """Cards of one suit that guard an honour and should stay: the small cards
    under a king (one) or a queen (two) that has not yet won or fallen."""
    top = highest(cards)
    r = rank_of(top)
    n = popcount(cards)
    if r == 11 and n <= 2:
        return cards
    if r == 10 and n <= 3:
        return cards
    return 0


@njit
def _safe_lead(side, ok):
    """A lead that gives nothing: top of a sequence, else low from an honourless suit."""
    best = -1
    best_n = -1
    for s in range(4):
        cards = suit_cards(side, s)
        if not (ok >> s) & 1 or cards == 0:
            continue
        top = highest(cards)
        rest = cards & ~(1 << top)
        if rest != 0 and rank_of(top) >= JACK and highest(rest) == top - 1:
            return top
        n = popcount(cards)
        if rank_of(top) < JACK and n > best_n:
            best = s
            best_n = n
    if best >= 0:
        return lowest(suit_cards(side, best))
    return -1


@njit
def _lead(hand, trump, out, me, hakem, voids):
    lho = (me + 1) & 3
    rho = (me + 3) & 3
    t_out = suit_cards(out, trump)
    danger = ruff_threats(voids, lho, t_out, trump) | ruff_threats(voids, rho, t_out, trump)
    c = safest_master(side_masters(hand, out, trump), out, danger)
    if c >= 0:
        return c
    if (me & 1) == (hakem & 1):
        c = master_trump_lead(hand, trump, out, voids, me)
        if c >= 0:
            return c
    mine = suit_cards(hand, trump)
    side = hand & ~suit_mask(trump)
    if side == 0:
        return lowest(hand)
    ok = suits_held(side) & ~danger
    c = _safe_lead(side, ok)
    if c >= 0:
        return c
    # Every safe suit holds an honour: lead from the longest, keeping a lone
    # honour's guard for last.
    best = -1
    best_n = -1
    for s in range(4):
        cards = suit_cards(side, s)
        if (ok >> s) & 1 and cards != 0:
            n = popcount(cards) - (4 if _guard(cards) != 0 else 0)
            if n > best_n:
                best = s
                best_n = n
    if best < 0:
        return lowest(mine) if mine != 0 else lowest_by_rank(side)
    return lowest(suit_cards(side, best))


@njit
def _discard(hand, trump, out):
    side = hand & ~suit_mask(trump)
    if side == 0:
        return lowest(hand)
    masters = side_masters(hand, out, trump)
    best = -1
    best_n = -1
    for s in range(4):
        cards = suit_cards(side, s)
        spare = cards & ~masters & ~_guard(cards)
        n = popcount(cards)
        if spare != 0 and n > best_n:
            best = s
            best_n = n
    if best >= 0:
        return lowest(suit_cards(side, best))
    rest = side & ~masters
    return lowest_by_rank(rest if rest != 0 else side)


@njit
def play_card(view, params, mem, rng):
    """Safe leads; second hand low, third hand sure or forcing, fourth cheapest; sure ruffs."""
    hand = view[V_HAND]
    trump = view[V_TRUMP]
    led = view[V_LED]
    me = view[V_SEAT]
    voids = view[V_VOIDS]
    out = FULL_DECK & ~view[V_PLAYED] & ~hand
    if led < 0:
        return _lead(hand, trump, out, me, view[V_HAKEM], voids)
    win = view[V_WIN_CARD]
    pos = view[V_NTRICK]
    mine = view[V_WIN_SEAT] == ((me + 2) & 3)
    follow = suit_cards(hand, led)
    if follow != 0:
        low = lowest(follow)
        if mine or suit_of(win) != led:
            return low
        higher = follow & above(win)
        if higher == 0:
            return low
        if pos == 3:
            return lowest(higher)
        out_led = suit_cards(out, led)
        sure = higher & above(highest(out_led)) if out_led != 0 else higher
        if sure != 0:
            return lowest(sure)
        return low if pos == 1 else lowest(higher)
    trumps = suit_cards(hand, trump)
    if trumps == 0 or mine:
        return _discard(hand, trump, out)
    need = winning_trumps(trumps, win, trump)
    if need == 0 or (pos == 1 and rank_of(win) < QUEEN):
        return _discard(hand, trump, out)
    t_out = suit_cards(out, trump)
    lv = seat_voids(voids, (me + 1) & 3)
    if pos < 3 and t_out != 0 and (lv >> led) & 1 and not (lv >> trump) & 1:
        need &= above(highest(t_out))
        if need == 0:
            return _discard(hand, trump, out)
    return lowest(need)
