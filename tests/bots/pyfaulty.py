"""A plain-Python bot that breaks the rules on purpose, for the fault tests.

Calls clubs and plays the lowest legal card, except in seat 1 on the third
trick (``trick_no == 2``), where ``mode`` chooses the fault: 1 raise, 2 an
illegal card (a card it does not hold or may not play), 3 a string, 4 a
float, 6 ``sys.exit(3)``; with ``mode`` 5 the trump call is 7 (not a suit).
``mode`` 0 plays cleanly.
"""

import sys

from hokm_sim.cards import cards_of, lowest

DESCRIPTION = "plain Python, faulty on purpose (tests only)"
PARAMS = {"mode": 0.0}


def choose_trump(obs):
    """Clubs (or 7 with mode 5)."""
    return 7 if obs.params["mode"] == 5 else 0


def play_card(obs):
    """The lowest legal card, or the fault ``mode`` asks for."""
    mode = obs.params["mode"]
    if obs.trick_no == 2 and obs.seat == 1 and mode:
        if mode == 1:
            raise ValueError("boom")
        if mode == 2:
            return next(c for c in range(52) if not (obs.legal >> c) & 1)
        if mode == 3:
            return "AS"
        if mode == 4:
            return float(lowest(obs.legal))
        if mode == 6:
            sys.exit(3)
    return cards_of(obs.legal)[0]
