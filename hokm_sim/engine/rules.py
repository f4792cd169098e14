"""The pure rules of four-player Hokm on card masks, for numba (docs/rules.md).

Legal moves, who wins a trick, how a hand scores and who is Hakem next.
Nothing here knows about strategies, streams or statistics.
"""

from __future__ import annotations

from numba import njit

from hokm_sim.engine.bits import suit_mask, suit_of

TRICKS_TO_WIN = 7
"""A hand ends the moment either team has this many tricks."""

KIND_NORMAL = 0
KIND_KOT = 1
KIND_HAKEM_KOT = 2
KIND_NAMES = ("normal", "kot", "hakem_kot")


@njit(inline="always")
def legal_mask(hand, led):
    """Cards of ``hand`` that may be played to a trick whose led suit is ``led``.

    Follow suit whenever possible; when void (or leading, ``led == -1``) any
    card is legal. Trumping is never compulsory.
    """
    if led < 0:
        return hand
    follow = hand & suit_mask(led)
    if follow != 0:
        return follow
    return hand


@njit(inline="always")
def beats(card, best, trump):
    """Whether ``card`` beats ``best``, the card winning the trick so far.

    A higher card of the same suit beats it; a trump beats any non-trump;
    any other card (a discard) does not.
    """
    cs = suit_of(card)
    bs = suit_of(best)
    if cs == bs:
        return card > best
    return cs == trump


@njit(inline="always")
def hand_score(hakem, tricks0, tricks1):
    """Score a finished hand: ``(winner_team, points, kind)``.

    Normal win 1 point; Kot (the Hakem's team 7, opponents 0) 2 points;
    Hakem Kot (opponents 7, the Hakem's team 0) 3 points.
    """
    winner = 0 if tricks0 >= TRICKS_TO_WIN else 1
    loser_tricks = tricks1 if winner == 0 else tricks0
    if loser_tricks > 0:
        return winner, 1, KIND_NORMAL
    if winner == (hakem & 1):
        return winner, 2, KIND_KOT
    return winner, 3, KIND_HAKEM_KOT


@njit(inline="always")
def next_hakem(hakem, winner_team):
    """The Hakem keeps the role when the Hakem's team wins, else it passes right."""
    if winner_team == (hakem & 1):
        return hakem
    return (hakem + 1) & 3


@njit(inline="always")
def dealer_of(hakem):
    """The dealer sits on the Hakem's left: ``(hakem + 3) % 4``."""
    return (hakem + 3) & 3
