"""A bot that raises an exception on purpose, for the bot-error tests.

Calls clubs and plays the lowest legal card; in seat 0 it raises in
``play_card`` on the fourth trick.
"""

from hokm_sim.bots.botkit import V_LEGAL, V_SEAT, V_TRICK_NO, lowest, njit

DESCRIPTION = "raises inside play_card on purpose (tests only)"


@njit
def choose_trump(view, params, mem, rng):
    """Clubs."""
    return 0


@njit
def play_card(view, params, mem, rng):
    """The lowest legal card, or an exception."""
    if view[V_TRICK_NO] == 3 and view[V_SEAT] == 0:
        raise ValueError("boom")
    return lowest(view[V_LEGAL])
