"""Every built-in bot but ``pimc`` in one bot file, for the legality tests, and the tuner's toy.

Parameter ``bot`` (the last slot) picks the built-in bot (an index into
``BOTS``) whose own ``choose_trump`` and ``play_card`` make each decision;
``p0`` .. ``p14`` are handed to it as its parameters, in its own order
(``expert`` and ``weighted`` take ``length`` and ``strength``, ``kots``
four). One compiled engine then plays every built-in bot against any
partner: the engine checks each card and suit, as it does for the bot
alone, and compiling one engine instead of one per bot keeps the test suite
fast. ``pimc`` searches at every card and is tested on its own
(tests/test_pimc.py). ``bot=TOY`` is tests/bots/toy.py with ``x``, ``y`` in
``p0``, ``p1``: the tuner's test tunes it on this engine too.
"""

import toy

from hokm_sim.bots.botkit import njit
from hokm_sim.strategies import (
    aces,
    basic,
    cautious,
    drawer,
    eager,
    early,
    expert,
    kotfight,
    kots,
    longest,
    partner,
    points,
    random,
    ruff,
    sharp,
    signal,
    table,
    trumps,
    weighted,
)

DESCRIPTION = "every built-in bot but pimc, picked by a parameter (tests only)"
PARAMS = {**{f"p{i}": 0.0 for i in range(15)}, "bot": 0}
BOT = 15
"""The ``params`` slot of ``bot``."""
BOTS = (
    "aces",
    "basic",
    "cautious",
    "drawer",
    "eager",
    "early",
    "expert",
    "kotfight",
    "kots",
    "longest",
    "partner",
    "points",
    "random",
    "ruff",
    "sharp",
    "signal",
    "table",
    "trumps",
    "weighted",
)
TOY = len(BOTS)
"""``bot`` of tests/bots/toy.py, after the built-in bots."""


@njit
def choose_trump(view, params, mem, rng):
    """The trump of bot number ``params[BOT]``."""
    b = int(params[BOT])
    if b == 0:
        return aces.choose_trump(view, params, mem, rng)
    if b == 1:
        return basic.choose_trump(view, params, mem, rng)
    if b == 2:
        return cautious.choose_trump(view, params, mem, rng)
    if b == 3:
        return drawer.choose_trump(view, params, mem, rng)
    if b == 4:
        return eager.choose_trump(view, params, mem, rng)
    if b == 5:
        return early.choose_trump(view, params, mem, rng)
    if b == 6:
        return expert.choose_trump(view, params, mem, rng)
    if b == 7:
        return kotfight.choose_trump(view, params, mem, rng)
    if b == 8:
        return kots.choose_trump(view, params, mem, rng)
    if b == 9:
        return longest.choose_trump(view, params, mem, rng)
    if b == 10:
        return partner.choose_trump(view, params, mem, rng)
    if b == 11:
        return points.choose_trump(view, params, mem, rng)
    if b == 12:
        return random.choose_trump(view, params, mem, rng)
    if b == 13:
        return ruff.choose_trump(view, params, mem, rng)
    if b == 14:
        return sharp.choose_trump(view, params, mem, rng)
    if b == 15:
        return signal.choose_trump(view, params, mem, rng)
    if b == 16:
        return table.choose_trump(view, params, mem, rng)
    if b == 17:
        return trumps.choose_trump(view, params, mem, rng)
    if b == 18:
        return weighted.choose_trump(view, params, mem, rng)
    if b == TOY:
        return toy.choose_trump(view, params, mem, rng)
    return -1


@njit
def play_card(view, params, mem, rng):
    """The card of bot number ``params[BOT]``."""
    b = int(params[BOT])
    if b == 0:
        return aces.play_card(view, params, mem, rng)
    if b == 1:
        return basic.play_card(view, params, mem, rng)
    if b == 2:
        return cautious.play_card(view, params, mem, rng)
    if b == 3:
        return drawer.play_card(view, params, mem, rng)
    if b == 4:
        return eager.play_card(view, params, mem, rng)
    if b == 5:
        return early.play_card(view, params, mem, rng)
    if b == 6:
        return expert.play_card(view, params, mem, rng)
    if b == 7:
        return kotfight.play_card(view, params, mem, rng)
    if b == 8:
        return kots.play_card(view, params, mem, rng)
    if b == 9:
        return longest.play_card(view, params, mem, rng)
    if b == 10:
        return partner.play_card(view, params, mem, rng)
    if b == 11:
        return points.play_card(view, params, mem, rng)
    if b == 12:
        return random.play_card(view, params, mem, rng)
    if b == 13:
        return ruff.play_card(view, params, mem, rng)
    if b == 14:
        return sharp.play_card(view, params, mem, rng)
    if b == 15:
        return signal.play_card(view, params, mem, rng)
    if b == 16:
        return table.play_card(view, params, mem, rng)
    if b == 17:
        return trumps.play_card(view, params, mem, rng)
    if b == 18:
        return weighted.play_card(view, params, mem, rng)
    if b == TOY:
        return toy.play_card(view, params, mem, rng)
    return -1
