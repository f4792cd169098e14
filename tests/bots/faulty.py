"""A bot that breaks the rules on purpose, for the strategy-fault and bot-error tests.

``mode`` (a parameter, so that one compiled engine serves every fault):

- 0: plays the highest card of its hand, whatever suit was led;
- 1: from the third trick on, plays the lowest card it does not hold;
- 2: names suit 7 as trump (and plays random legal cards);
- 3: plays random legal cards, but one time in 25 a card it does not hold;
- 4: plays the lowest legal card, but raises ``ValueError`` in seat 0 on the
  fourth trick (an exception inside the engine, not an illegal card);
- 5: plays by the rules, the lowest legal card: the opponent of the faulty
  modes, so that one engine (this file on both sides) serves every seating.

Trump is clubs in modes 0, 1, 4 and 5, random in mode 3.
"""

from hokm_sim.bots.botkit import (
    FULL_DECK,
    V_HAND,
    V_LEGAL,
    V_SEAT,
    V_TRICK_NO,
    highest,
    kth_card,
    lowest,
    njit,
    popcount,
    rand_below,
)

DESCRIPTION = "breaks the rules on purpose (tests only)"
PARAMS = {"mode": 0}


@njit
def choose_trump(view, params, mem, rng):
    """Clubs; suit 7 in mode 2; a random suit in mode 3."""
    mode = params[0]
    if mode == 2:
        return 7
    if mode == 3:
        return rand_below(rng, 4)
    return 0


@njit
def _not_held(hand):
    return lowest(FULL_DECK & ~hand)


@njit
def play_card(view, params, mem, rng):
    """The card the mode asks for."""
    mode = params[0]
    hand = view[V_HAND]
    legal = view[V_LEGAL]
    if mode == 0:
        return highest(hand)
    if mode == 1:
        if view[V_TRICK_NO] >= 2:
            return _not_held(hand)
        return lowest(legal)
    if mode == 3 and rand_below(rng, 25) == 0:
        return _not_held(hand)
    if mode == 4:
        if view[V_TRICK_NO] == 3 and view[V_SEAT] == 0:
            raise ValueError("boom")
        return lowest(legal)
    if mode == 5:
        return lowest(legal)
    return kth_card(legal, rand_below(rng, popcount(legal)))
