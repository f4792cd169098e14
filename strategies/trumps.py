"""``basic`` plus one tip: count trumps and draw the opponents' trumps when you are on top.

Trumps are counted as they fall (``V_PLAYED``): the unseen ones are those
neither played nor held. Leading, if trumps are still unseen and not both
opponents have shown void in trumps, the bot leads its top trump when it is
the highest unplayed trump, or its lowest trump when it holds more trumps
than are unseen. Everything else is ``basic``. Why: each trump the opponents
keep can ruff one of your side-suit winners; drawing them while you hold
the top trumps (or the length) makes your high side cards safe.
"""

from hokm_sim.bots.botkit import V_HAND, njit
from hokm_sim.strategies._tips import basic_play, longest_trump, tip_trumps

DESCRIPTION = "basic + count trumps and lead them to draw the opponents' trumps when on top"


@njit
def choose_trump(view, params, mem, rng):
    """The longest suit among the five, as basic."""
    return longest_trump(view[V_HAND])


@njit
def play_card(view, params, mem, rng):
    """The tip when it applies, else the basic baseline."""
    card = tip_trumps(view)
    if card >= 0:
        return card
    return basic_play(view)
