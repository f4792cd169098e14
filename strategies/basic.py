"""The neutral baseline every tip bot is measured against: longest trump, then always low.

Trump: the longest suit of the Hakem's five cards, ties by higher rank sum,
then lower suit (the same rule as ``longest``).

Play, on purpose without any tip: lead the lowest card of the longest side
suit (the lowest trump when only trumps are left); follow suit with the
lowest legal card; when void, discard the lowest-ranked side card (it never
ruffs). Why: each tip bot (``aces``, ``partner``, ``ruff``, ``trumps``,
``kotfight``, ``early``) is this bot plus exactly one tip, so a duplicate run
of a tip bot against ``basic`` measures that tip alone.
"""

from hokm_sim.bots.botkit import V_HAND, njit
from hokm_sim.strategies._tips import basic_play, longest_trump

DESCRIPTION = "neutral baseline: trump = longest; lead low from length, follow low, never ruff"


@njit
def choose_trump(view, params, mem, rng):
    """The longest suit among the five; ties by higher rank sum, then lower suit."""
    return longest_trump(view[V_HAND])


@njit
def play_card(view, params, mem, rng):
    """Lead low from the longest side suit, follow low, discard the lowest side card."""
    return basic_play(view)
