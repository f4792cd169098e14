"""Every built-in bot but ``pimc`` in one bot file, for the legality tests, and the tuner's toy.

Parameter ``bot`` (the last slot) picks the built-in bot (an index into
``BOTS``) whose own ``choose_trump`` and ``play_card`` make each decision;
``p0`` .. ``p14`` are handed to it as its parameters, in its own order
(``expert`` and ``weighted`` take ``length`` and ``strength``, ``kots``
four). One compiled engine then plays every built-in bot against any
partner: the engine checks each card and suit, as it does for the bot
alone, and compiling one engine instead of one per bot keeps the test suite
fast. ``pimc`` searches at every card and is tested on its own
(tests/test_pimc.py). ``bot=TOY`` is the tuner's toy (:func:`toy_card`),
which tests/test_tune.py tunes on this same engine.
"""

from hokm_sim.bots.botkit import V_LEGAL, kth_card, njit, popcount, rand_below, rand_float
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
"""``bot`` of the tuner's toy, after the built-in bots."""


@njit
def toy_card(view, params, mem, rng):
    """The toy: ``longest``'s card, but with chance ``(|p0 - 3| + |p1 - 7|) / 10`` a random
    legal one. Against ``longest`` its pair score is highest exactly at its known best
    setting, ``p0=3, p1=7``, where it plays as ``longest``: the tuner must find it."""
    miss = (abs(params[0] - 3.0) + abs(params[1] - 7.0)) / 10.0
    if rand_float(rng) < miss:
        legal = view[V_LEGAL]
        return kth_card(legal, rand_below(rng, popcount(legal)))
    return longest.play_card(view, params, mem, rng)


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
        return longest.choose_trump(view, params, mem, rng)
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
        return toy_card(view, params, mem, rng)
    return -1
