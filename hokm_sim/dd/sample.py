"""Deals of the cards a seat cannot see, consistent with everything it has seen.

At a decision a seat knows its own hand, every card played and by whom, the
voids shown and how many cards each seat still holds. :func:`sample_view`
deals the unseen cards to the other three seats consistently with all of it;
:func:`sample_hands` is the same for any split of cards over seats (the
Hakem's five completed for a trump call).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hokm_sim.engine.bits import FULL_DECK, ctz, popcount
from hokm_sim.engine.rng import rand_below
from hokm_sim.engine.view import V_HAND, V_PLAYED, V_PLAYED_BY, V_SEAT, V_VOIDS
from hokm_sim.inlining import HELPERS

MAX_TRIES = 200
"""Attempts at a consistent deal before giving up on the voids (never seen needed)."""


@njit(cache=True)
def sample_hands(rng, seat, hand, unseen, counts, voids, out):
    """Deal ``unseen`` to the seats other than ``seat``, ``counts[s]`` cards each.

    No seat gets a suit it has shown void in (bit ``s * 4 + suit`` of
    ``voids``). Cards go out most constrained first, each to a seat allowed
    to hold it with chance proportional to the room it has left; a deal that
    runs into a dead end is started again. ``out`` (int64[4]) gets the hands,
    ``hand`` for ``seat`` (-1: deal to all four). Returns False if no consistent deal was found
    (then the voids are ignored for this one).
    """
    cards = np.empty(52, np.int64)
    n = 0
    m = unseen
    while m != 0:
        cards[n] = ctz(m)
        m &= m - 1
        n += 1
    cap = np.zeros(4, np.int64)
    for _ in range(MAX_TRIES):
        ok = _try_deal(rng, seat, hand, cards, n, counts, voids, cap, out)
        if ok:
            return True
    _try_deal(rng, seat, hand, cards, n, counts, 0, cap, out)
    return False


@njit(cache=True)
def sample_view(view, rng, out):
    """One deal of the cards the deciding seat has not seen, consistent with its view.

    ``out`` (int64[4]) gets every seat's current cards: the seat's own hand,
    and for each other seat as many unseen cards as it still holds
    (13 minus the cards it has played), never of a suit it has shown void in.
    """
    seat = view[V_SEAT]
    hand = view[V_HAND]
    unseen = FULL_DECK & ~hand & ~view[V_PLAYED]
    counts = np.zeros(4, np.int64)
    for s in range(4):
        counts[s] = 13 - popcount(view[V_PLAYED_BY + s])
    return sample_hands(rng, seat, hand, unseen, counts, view[V_VOIDS], out)


@njit(inline=HELPERS)
def _try_deal(rng, seat, hand, cards, n, counts, voids, cap, out):
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t
    for s in range(4):
        cap[s] = counts[s] if s != seat else 0
        out[s] = hand if s == seat else 0
    for allowed_n in range(1, 4):
        for i in range(n):
            c = cards[i]
            suit = c // 13
            k = 0
            room = 0
            for s in range(4):
                if s != seat and (voids >> (s * 4 + suit)) & 1 == 0:
                    k += 1
                    room += cap[s]
            if k != allowed_n and not (allowed_n == 3 and k == 0):
                continue
            if room == 0:
                return False
            r = rand_below(rng, room)
            for s in range(4):
                if s != seat and (voids >> (s * 4 + suit)) & 1 == 0:
                    if r < cap[s]:
                        out[s] |= 1 << c
                        cap[s] -= 1
                        break
                    r -= cap[s]
    return True
