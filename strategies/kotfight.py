"""``basic`` plus one tip: when a Kot threatens, fight for one trick now.

When our team has no trick and the other team has at least 4 (see
``_tips.KOT_THREAT``), the bot plays for a trick at once: leading, a
side-suit master (the highest unplayed card of its suit, in a suit no
opponent has shown void in), else the master trump; following suit with the
partner not winning, its highest card if it beats the winner; void, its
highest trump if that wins. Everything else is ``basic``. Why: one trick is
enough to turn a Kot (2 points, or 3 when the Kot is against the Hakem's
team) into a normal loss (1 point); the highest cards give the best chance to
get that trick before it is too late.
"""

from hokm_sim.bots.botkit import V_HAND, njit
from hokm_sim.strategies._tips import basic_play, longest_trump, tip_kotfight

DESCRIPTION = "basic + facing a Kot (them >= 4 tricks, us 0), play the highest cards to get one"


@njit
def choose_trump(view, params, mem, rng):
    """The longest suit among the five, as basic."""
    return longest_trump(view[V_HAND])


@njit
def play_card(view, params, mem, rng):
    """The tip when it applies, else the basic baseline."""
    card = tip_kotfight(view)
    if card >= 0:
        return card
    return basic_play(view)
