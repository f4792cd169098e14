"""A fixed-length numeric encoding of views, for learning agents, in numba.

Row layout (``FEATURES`` = 432 ``float32``), relative to the deciding seat:

- eight 52-card planes: own hand, legal cards, cards played by the seat
  itself, by its left-hand opponent, its partner and its right-hand
  opponent, the current trick's cards, the card winning the trick;
- one-hots of trump (4) and of the suit led (4), and of the Hakem's seat
  relative to the deciding seat (4);
- tricks of the seat's team and of the other, divided by 7; match scores
  of the two, divided by the target (0 for single hands).
"""

from __future__ import annotations

from numba import njit

from hokm_sim.engine.view import (
    V_HAKEM,
    V_HAND,
    V_LED,
    V_LEGAL,
    V_NTRICK,
    V_PLAYED_BY,
    V_SCORES,
    V_SEAT,
    V_TARGET,
    V_TRICK,
    V_TRICKS,
    V_TRUMP,
    V_WIN_CARD,
)
from hokm_sim.inlining import HELPERS

PLANES = 8
FEATURES = 52 * PLANES + 16


@njit(inline=HELPERS)
def _plane(out, p, mask):
    for c in range(52):
        out[52 * p + c] = (mask >> c) & 1


@njit(inline=HELPERS)
def encode_one(v, o):
    """Fill one row ``o`` (``float32[FEATURES]``) from one view ``v`` (``int64[VIEW_SIZE]``)."""
    o[:] = 0
    seat = v[V_SEAT]
    _plane(o, 0, v[V_HAND])
    _plane(o, 1, v[V_LEGAL])
    for k in range(4):
        _plane(o, 2 + k, v[V_PLAYED_BY + ((seat + k) & 3)])
    for k in range(v[V_NTRICK]):
        o[52 * 6 + v[V_TRICK + k]] = 1
    if v[V_WIN_CARD] >= 0:
        o[52 * 7 + v[V_WIN_CARD]] = 1
    base = 52 * PLANES
    if v[V_TRUMP] >= 0:
        o[base + v[V_TRUMP]] = 1
    if v[V_LED] >= 0:
        o[base + 4 + v[V_LED]] = 1
    o[base + 8 + ((v[V_HAKEM] - seat) & 3)] = 1
    team = seat & 1
    o[base + 12] = v[V_TRICKS + team] / 7
    o[base + 13] = v[V_TRICKS + 1 - team] / 7
    target = max(v[V_TARGET], 1)
    o[base + 14] = v[V_SCORES + team] / target
    o[base + 15] = v[V_SCORES + 1 - team] / target


@njit(cache=True)
def encode(views, out):
    """Fill ``out`` (``float32[n, FEATURES]``) from ``views`` (``int64[n, VIEW_SIZE]``)."""
    for i in range(views.shape[0]):
        encode_one(views[i], out[i])
