"""Every built-in bot but ``pimc`` in one bot file, for the legality tests.

Parameter ``bot`` picks the built-in bot (an index into ``BOTS``) whose own
``choose_trump`` and ``play_card`` make each decision; ``p0`` and ``p1``
are handed to it as its first two parameters (``expert`` and ``weighted``
take ``length`` and ``strength``). One compiled engine then plays every
built-in bot against any partner: the engine checks each card and suit, as
it does for the bot alone, and compiling one engine instead of one per bot
keeps the test suite fast. ``pimc`` searches at every card and is tested on
its own (tests/test_pimc.py).
"""

from hokm_sim.bots.botkit import njit
from hokm_sim.strategies import (
    aces,
    basic,
    early,
    expert,
    kotfight,
    longest,
    partner,
    points,
    random,
    ruff,
    table,
    trumps,
    weighted,
)

DESCRIPTION = "every built-in bot but pimc, picked by a parameter (tests only)"
PARAMS = {"p0": 0.0, "p1": 0.0, "bot": 0}
BOTS = (
    "aces",
    "basic",
    "early",
    "expert",
    "kotfight",
    "longest",
    "partner",
    "points",
    "random",
    "ruff",
    "table",
    "trumps",
    "weighted",
)


@njit
def choose_trump(view, params, mem, rng):
    """The trump of bot number ``params[2]``."""
    b = int(params[2])
    if b == 0:
        return aces.choose_trump(view, params, mem, rng)
    if b == 1:
        return basic.choose_trump(view, params, mem, rng)
    if b == 2:
        return early.choose_trump(view, params, mem, rng)
    if b == 3:
        return expert.choose_trump(view, params, mem, rng)
    if b == 4:
        return kotfight.choose_trump(view, params, mem, rng)
    if b == 5:
        return longest.choose_trump(view, params, mem, rng)
    if b == 6:
        return partner.choose_trump(view, params, mem, rng)
    if b == 7:
        return points.choose_trump(view, params, mem, rng)
    if b == 8:
        return random.choose_trump(view, params, mem, rng)
    if b == 9:
        return ruff.choose_trump(view, params, mem, rng)
    if b == 10:
        return table.choose_trump(view, params, mem, rng)
    if b == 11:
        return trumps.choose_trump(view, params, mem, rng)
    if b == 12:
        return weighted.choose_trump(view, params, mem, rng)
    return -1


@njit
def play_card(view, params, mem, rng):
    """The card of bot number ``params[2]``."""
    b = int(params[2])
    if b == 0:
        return aces.play_card(view, params, mem, rng)
    if b == 1:
        return basic.play_card(view, params, mem, rng)
    if b == 2:
        return early.play_card(view, params, mem, rng)
    if b == 3:
        return expert.play_card(view, params, mem, rng)
    if b == 4:
        return kotfight.play_card(view, params, mem, rng)
    if b == 5:
        return longest.play_card(view, params, mem, rng)
    if b == 6:
        return partner.play_card(view, params, mem, rng)
    if b == 7:
        return points.play_card(view, params, mem, rng)
    if b == 8:
        return random.play_card(view, params, mem, rng)
    if b == 9:
        return ruff.play_card(view, params, mem, rng)
    if b == 10:
        return table.play_card(view, params, mem, rng)
    if b == 11:
        return trumps.play_card(view, params, mem, rng)
    if b == 12:
        return weighted.play_card(view, params, mem, rng)
    return -1
