"""My bot: calls its longest suit; wins a trick as cheaply as it can, or throws its lowest card.

A bot file defines two numba functions with the same four arguments:

- ``choose_trump(view, params, mem, rng)``: as Hakem, a suit 0..3 (C, D, H, S)
  from the five cards in ``view[V_HAND]``;
- ``play_card(view, params, mem, rng)``: a card index (``suit * 13 + rank``)
  from the legal cards ``view[V_LEGAL]`` (a bit mask).

``PARAMS`` are numbers a user can set on the command line
(``my_bot.py(greed=0)``); they arrive in ``params`` in this order.
"""

from hokm_sim.bots.botkit import (
    V_HAND,
    V_LEGAL,
    V_TRUMP,
    V_WIN_CARD,
    above,
    lowest,
    njit,
    popcount,
    suit_cards,
    suit_mask,
    suit_of,
)

DESCRIPTION = "example: longest suit as trump; cheapest winning card, else the lowest"
PARAMS = {"greed": 1.0}


@njit
def choose_trump(view, params, mem, rng):
    """The suit with most cards among the five (the lowest suit on a tie)."""
    best, most = 0, -1
    for s in range(4):
        n = popcount(suit_cards(view[V_HAND], s))
        if n > most:
            best, most = s, n
    return best


@njit
def play_card(view, params, mem, rng):
    """With ``greed`` on, the cheapest legal card that beats the trick so far; else the
    lowest legal card."""
    legal = view[V_LEGAL]
    win = view[V_WIN_CARD]  # -1 when this seat leads
    trump = view[V_TRUMP]
    if params[0] > 0 and win >= 0:
        higher = legal & above(win) & suit_mask(suit_of(win))  # same suit, higher rank
        if higher != 0:
            return lowest(higher)
        trumps = suit_cards(legal, trump)
        if trumps != 0 and suit_of(win) != trump:
            return lowest(trumps)  # ruff
    return lowest(legal)
