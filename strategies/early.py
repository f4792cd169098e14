"""``basic`` plus one tip: take your sure tricks early, before they stop being sure.

Leading, the bot leads a side-suit master (the highest unplayed card of its
suit) in a suit no opponent has shown void in. Following suit with the
partner not winning and the trick not trumped, it plays its cheapest card
that is sure to win: no unseen card of the suit above it and, if the
left-hand opponent still plays, that opponent has not shown void with trumps
possibly left. Everything else is ``basic``. Why: the hand stops as soon as a
team has 7 tricks, and a master held back can later be ruffed once an
opponent runs out of the suit, or be squeezed out by discards; a sure trick
now is worth more than a likely one later.
"""

from hokm_sim.bots.botkit import V_HAND, njit
from hokm_sim.strategies._tips import basic_play, longest_trump, tip_early

DESCRIPTION = "basic + take sure winners early (masters) instead of holding them"


@njit
def choose_trump(view, params, mem, rng):
    """The longest suit among the five, as basic."""
    return longest_trump(view[V_HAND])


@njit
def play_card(view, params, mem, rng):
    """The tip when it applies, else the basic baseline."""
    card = tip_early(view)
    if card >= 0:
        return card
    return basic_play(view)
