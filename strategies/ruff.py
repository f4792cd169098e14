"""``basic`` plus one tip: ruff when void and your partner is not winning.

Void in the led suit with the partner not winning the trick, the bot plays
the cheapest trump that wins: any trump when the trick holds none, else the
cheapest trump above the trump winning it (overtrump only to win; with no
such trump it discards like ``basic`` rather than waste one). Everything else
is ``basic``. Why: a void turns small trumps into tricks, the main source of
tricks for the trump holder; ``basic`` never ruffs and throws those tricks away.
"""

from hokm_sim.bots.botkit import V_HAND, njit
from hokm_sim.strategies._tips import basic_play, longest_trump, tip_ruff

DESCRIPTION = "basic + ruff: void and partner not winning, trump with the cheapest trump that wins"


@njit
def choose_trump(view, params, mem, rng):
    """The longest suit among the five, as basic."""
    return longest_trump(view[V_HAND])


@njit
def play_card(view, params, mem, rng):
    """The tip when it applies, else the basic baseline."""
    card = tip_ruff(view)
    if card >= 0:
        return card
    return basic_play(view)
