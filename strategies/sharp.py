"""``expert``'s game with trump control first and honours covered: the strongest heuristic bot.

It plays as ``expert`` does (see that file) but for three things, each a
point of the game that ``expert`` plays otherwise:

1. **Trumps first.** On the Hakem's team, while an opponent may still hold
   a trump, it leads trumps before it cashes its side-suit winners: the
   master trump, else the lowest trump when holding more trumps than are
   unseen or at least ``draw`` of them (default 3). A side winner cashed
   while the opponents hold trumps is a winner they can ruff on the next
   round of the suit; trumps drawn first keep every later winner safe.
   (``expert`` cashes first, and draws only with the master or more trumps
   than are unseen.)
2. **Cover an honour.** Second hand, over a lead of rank ``cover`` or more
   (default 8, the ten), it plays the cheapest card as good as its highest
   when that beats the led card: an honour led is covered with a higher one,
   so that the opponents' high cards fall on one trick instead of taking
   two. (``expert`` plays second hand low without a sure winner.)
3. **Ruff second hand from the nine.** Void second hand, it ruffs a lead of
   rank ``ruff2`` or more (default 7, the nine), as a third hand ruffs:
   high enough to be sure when the left-hand opponent may overruff.
   (``expert`` from the jack.)

Trump (the Hakem sees five cards): the highest ``length x cards + strength
x honour points`` (A4 K3 Q2 J1), defaults 5.64 and 0.78: length counts a
little more than in ``expert`` (4 and 1).

The three rules were measured one by one against ``expert``; the defaults
were then tuned by SPSA against the field, from ``length=4, strength=1,
draw=3, cover=9, ruff2=7``. docs/bots.md gives a ``hokm-sim tune`` run that
moves the same way (and how little the weights gain) and the field's table.
"""

from hokm_sim.bots.botkit import (
    FULL_DECK,
    V_HAKEM,
    V_HAND,
    V_LED,
    V_NTRICK,
    V_PLAYED,
    V_SEAT,
    V_TRICKS,
    V_TRUMP,
    V_VOIDS,
    V_WIN_CARD,
    V_WIN_SEAT,
    above,
    lowest,
    njit,
    popcount,
    rank_of,
    suit_cards,
    suit_of,
)
from hokm_sim.strategies import expert
from hokm_sim.strategies._tips import cheap_top, seat_voids, weighted_trump

DESCRIPTION = "expert's game with trumps drawn first and honours covered (the strongest heuristic)"
PARAMS = {"length": 5.64, "strength": 0.78, "draw": 3.0, "cover": 8.0, "ruff2": 7.0}
PARAM_LIMITS = {
    "draw": (1, 13, True),
    "cover": (0, 13, True),
    "ruff2": (0, 13, True),
}


@njit
def choose_trump(view, params, mem, rng):
    """Highest ``length * cards + strength * honour points`` among the five (as ``expert``)."""
    return weighted_trump(view[V_HAND], params[0], params[1])


@njit
def _draw_first(hand, trump, out, me, voids, draw):
    """On the Hakem's team, the trump to lead before anything else, or -1."""
    lho = (me + 1) & 3
    rho = (me + 3) & 3
    c = expert._draw(voids, hand, trump, out, lho, rho)
    if c >= 0:
        return c
    mine = suit_cards(hand, trump)
    both = (seat_voids(voids, lho) & seat_voids(voids, rho)) >> trump & 1
    if suit_cards(out, trump) != 0 and not both and mine != 0 and popcount(mine) >= draw:
        return lowest(mine)
    return -1


@njit
def play_card(view, params, mem, rng):
    """Trumps first on the Hakem's team, honours covered, ruffs from the nine; else expert."""
    hand = view[V_HAND]
    trump = view[V_TRUMP]
    led = view[V_LED]
    me = view[V_SEAT]
    voids = view[V_VOIDS]
    out = FULL_DECK & ~view[V_PLAYED] & ~hand
    if led < 0:
        hakem = view[V_HAKEM]
        if (me & 1) == (hakem & 1):
            c = _draw_first(hand, trump, out, me, voids, params[2])
            if c >= 0:
                return c
        return expert._lead(hand, trump, out, me, hakem, voids)
    win = view[V_WIN_CARD]
    pos = view[V_NTRICK]
    mine = view[V_WIN_SEAT] == ((me + 2) & 3)
    kot = view[V_TRICKS + (me & 1)] == 0 and view[V_TRICKS + 1 - (me & 1)] >= expert.KOT_THREAT
    lho = (me + 1) & 3
    follow = suit_cards(hand, led)
    if follow != 0:
        higher = follow & above(win)
        if pos == 1 and suit_of(win) == led and rank_of(win) >= params[3] and higher != 0:
            return cheap_top(higher, suit_cards(out, led))
        return expert._follow(follow, led, win, pos, mine, trump, out, lho, voids, kot)
    if pos == 1 and params[4] <= rank_of(win) < expert.RUFF_SECOND:
        pos = 2  # ruff as third hand does: expert's second hand waits for the jack
    c = expert._ruff(hand, led, win, pos, mine, trump, out, lho, voids, kot)
    if c >= 0:
        return c
    return expert._discard(hand, trump, out)
