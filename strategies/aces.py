"""``basic`` plus one tip: cash your off-trump aces early, before the opponents run out of the suit.

Leading, the bot leads an off-trump ace if it holds one in a suit no
opponent has shown void in; with several, the ace of the suit with the most
unseen cards (so both opponents are likeliest to still follow). Everything
else is ``basic``. Why: an ace is a sure trick only while both opponents can
still follow its suit; each round of the suit played makes a void (and a
ruff) likelier, and ``basic`` would hold the ace until it is led into.
"""

from hokm_sim.bots.botkit import V_HAND, njit
from hokm_sim.strategies._tips import basic_play, longest_trump, tip_aces

DESCRIPTION = "basic + cash off-trump aces early (lead them while opponents still follow)"


@njit
def choose_trump(view, params, mem, rng):
    """The longest suit among the five, as basic."""
    return longest_trump(view[V_HAND])


@njit
def play_card(view, params, mem, rng):
    """The tip when it applies, else the basic baseline."""
    card = tip_aces(view)
    if card >= 0:
        return card
    return basic_play(view)
