"""``basic`` plus one tip: play with your partner, not against them.

What it adds over ``basic``, exactly: when following suit and the partner is
*not* winning the trick, play the cheapest card of the led suit that beats
the card winning so far (when the trick is not already trumped); otherwise
the lowest card. When the partner is winning it plays its lowest card of the
led suit and, void, discards (never trumps the partner's trick) -- which
``basic`` already does, since ``basic`` never tries to win. Why: a trick your
partner already holds needs no help (a high card there is wasted), while a
trick the opponents hold is only taken back by beating their card, and the
cheapest card that does so keeps the higher ones for later.
"""

from hokm_sim.bots.botkit import V_HAND, njit
from hokm_sim.strategies._tips import basic_play, longest_trump, tip_partner

DESCRIPTION = "basic + cover: follow low when partner wins, else with the cheapest winning card"


@njit
def choose_trump(view, params, mem, rng):
    """The longest suit among the five, as basic."""
    return longest_trump(view[V_HAND])


@njit
def play_card(view, params, mem, rng):
    """The tip when it applies, else the basic baseline."""
    card = tip_partner(view)
    if card >= 0:
        return card
    return basic_play(view)
