"""A team's best play on an open deal against opponents who play as a model does.

Double dummy (:mod:`hokm_sim.dd.solver`) has every seat play its best with
every card in view. The opponents a bot meets see only their own cards, and
when they play by rule that is a weaker defence than double dummy credits
them with. ``model_value_after`` (:func:`make_model_search` makes it for a
model, :class:`~hokm_sim.dd.model.Model`; ``pimc`` passes ``expert`` with
its default parameters, the model inference judges deals by) scores a card
by what the team makes when the other team's seats each play the card the
model would play from what that seat sees, and the team's own seats play the model's card too
except at up to ``departs`` moments of their choosing, where they play any
card with the deal open. ``departs=0`` is the hand played out by the model
at every seat (a rollout); with more the team looks further for the model's
slips. The model decides from its own view, which the search keeps as the
engine does (:mod:`hokm_sim.engine.play`).

Only the team's seats branch, so the search is a plain depth-first "is
there a way", the model's card tried first. A table at trick boundaries
keeps the answers by position: the four hands, the voids shown, the tricks
taken and the seat on lead are all ``expert`` reads at the start of a trick
(the cards played follow from the hands), so equal keys give equal answers.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from hokm_sim.dd.model import Model, once_per_model
from hokm_sim.dd.search import DEPTH, S_LIMIT, S_NODES
from hokm_sim.engine.bits import ctz
from hokm_sim.engine.play import end_trick, play_one, show_turn
from hokm_sim.engine.rules import TRICKS_TO_WIN
from hokm_sim.engine.view import (
    MEM_SIZE,
    V_LEADER,
    V_LED,
    V_NTRICK,
    V_TRICK_NO,
    V_TRICKS,
    V_TRUMP,
    V_VOIDS,
    V_WIN_CARD,
    V_WIN_SEAT,
    VIEW_SIZE,
)
from hokm_sim.inlining import HELPERS

KEY_SIZE = 5
"""A table entry's key: the four hands, then the voids, tricks, leader and question packed."""


@njit(cache=True)
def new_model_table(bits):
    """An empty answer table of ``2**bits`` entries: ``(keys, answers)``; answer 0 is empty."""
    return np.zeros((1 << bits, KEY_SIZE), np.int64), np.zeros(1 << bits, np.int8)


class SearchScratch(NamedTuple):
    """The arrays a search works in (:func:`new_model_scratch`)."""

    views: np.ndarray
    """``int64[DEPTH, VIEW_SIZE]``: the position at each depth, as the seat to move sees it."""
    helds: np.ndarray
    """``int64[DEPTH, 4]``: each seat's cards at each depth."""
    plays: np.ndarray
    """``int64[52]``: the cards played (written, never read)."""
    winners: np.ndarray
    """``int64[13]``: the trick winners (likewise)."""
    mem: np.ndarray
    """``int64[MEM_SIZE]``: the model's memory (never reset, see
    :class:`~hokm_sim.dd.model.Model`)."""
    rng: np.ndarray
    """``uint64[4]``: the model's stream (likewise)."""


@njit(inline=HELPERS)
def new_model_scratch():
    """A :class:`SearchScratch`."""
    return SearchScratch(
        np.zeros((DEPTH, VIEW_SIZE), np.int64),
        np.zeros((DEPTH, 4), np.int64),
        np.zeros(52, np.int64),
        np.zeros(13, np.int64),
        np.zeros(MEM_SIZE, np.int64),
        np.zeros(4, np.uint64),
    )


@njit(inline=HELPERS)
def _slot(keys, held, packed):
    """The table slot of the position (a hash of its key)."""
    h = packed * np.int64(-7046029254386353131)
    for s in range(4):
        h = (h ^ held[s]) * np.int64(-4658895280553007687)
    return (h ^ (h >> 29)) & (keys.shape[0] - 1)


@njit(inline=HELPERS)
def _play_into(views, helds, d, seat, card, scratch):
    """Position ``d + 1``: position ``d`` after ``seat`` plays ``card``."""
    view = views[d]
    nxt = views[d + 1]
    nheld = helds[d + 1]
    nxt[:] = view
    nheld[:] = helds[d]
    k = view[V_NTRICK]
    _led, best, best_seat = play_one(
        nxt, nheld, scratch.plays, seat, helds[d, seat], card, k, 0,
        view[V_LED], view[V_WIN_CARD], view[V_WIN_SEAT], view[V_TRUMP],
    )  # fmt: skip
    if k == 3:
        end_trick(
            nxt, scratch.winners, view[V_TRICK_NO], best_seat, nxt[V_TRICKS], nxt[V_TRICKS + 1]
        )


@once_per_model
def make_model_search(model: Model):
    """``model_value_after`` with ``model`` playing the other team (and the team when it
    does not depart), bound in at compile time."""
    model_play = model.play_card
    params = model.params

    @njit
    def _reach(views, helds, d, team, need, limit, departs, keys, answers, scratch, stats):
        """Whether ``team`` can take ``need`` tricks in all before the other team takes
        ``limit``, from position ``d`` of the search (the model plays the other team)."""
        view = views[d]
        held = helds[d]
        ours = view[V_TRICKS + team]
        theirs = view[V_TRICKS + 1 - team]
        if ours >= need:
            return True
        if theirs >= limit:
            return False
        if ours + 13 - view[V_TRICK_NO] < need:
            return False
        stats[S_NODES] += 1
        if stats[S_LIMIT] > 0 and stats[S_NODES] > stats[S_LIMIT]:
            return False  # over the node budget: the caller drops the answer
        k = view[V_NTRICK]
        leader = view[V_LEADER]
        slot = 0
        packed = 0
        if k == 0:
            packed = (
                view[V_VOIDS]
                | (ours << 16)
                | (theirs << 20)
                | (leader << 24)
                | (need << 28)
                | (limit << 32)
                | (team << 36)
                | (departs << 40)
            )
            slot = _slot(keys, held, packed)
            if (
                answers[slot] != 0
                and keys[slot, 4] == packed
                and keys[slot, 0] == held[0]
                and keys[slot, 1] == held[1]
                and keys[slot, 2] == held[2]
                and keys[slot, 3] == held[3]
            ):
                return answers[slot] == 2
        seat = (leader + k) & 3
        legal = show_turn(view, held[seat], seat, view[V_LED])
        pick = model_play(view, params, scratch.mem, scratch.rng)
        # The model's card for the other team; for the team, the model's card
        # first (often the best), then the rest.
        m = legal & ~(1 << pick) if (seat & 1) == team and departs > 0 else 0
        c = pick
        left = departs
        found = False
        while True:
            _play_into(views, helds, d, seat, c, scratch)
            if _reach(views, helds, d + 1, team, need, limit, left, keys, answers, scratch, stats):
                found = True
                break
            if m == 0:
                break
            c = ctz(m)
            m &= m - 1
            left = departs - 1
        if stats[S_LIMIT] > 0 and stats[S_NODES] > stats[S_LIMIT]:
            return False
        if k == 0:
            keys[slot, 0] = held[0]
            keys[slot, 1] = held[1]
            keys[slot, 2] = held[2]
            keys[slot, 3] = held[3]
            keys[slot, 4] = packed
            answers[slot] = 2 if found else 1
        return found

    @njit
    def model_value_after(
        view, hands, card, team, we_are_hakem, departs, keys, answers, scratch, stats
    ):
        """The hand's points for ``team`` after the seat to move in ``view`` plays ``card``
        on the deal ``hands`` (each seat's cards now): the model plays the other team, and
        ``team`` plays as the model does but for up to ``departs`` cards of its choosing,
        with the deal open (win 1, Kot 2, suffered -1 / -2, and 3 for the Hakem Kot
        either way).

        ``view`` is a seat's view of the position (only its public part is read).
        ``stats[S_NODES]`` counts positions searched; past ``stats[S_LIMIT]`` (0: no limit) the
        search stops and the value means nothing (the caller checks).
        """
        views = scratch.views
        helds = scratch.helds
        views[0, :] = view
        helds[0, :] = hands
        _play_into(views, helds, 0, (view[V_LEADER] + view[V_NTRICK]) & 3, card, scratch)
        args = (departs, keys, answers, scratch, stats)
        after = views[1]
        if _reach(views, helds, 1, team, TRICKS_TO_WIN, TRICKS_TO_WIN, *args):
            if after[V_TRICKS + 1 - team] > 0:
                return 1.0
            if _reach(views, helds, 1, team, TRICKS_TO_WIN, 1, *args):
                return 2.0 if we_are_hakem else 3.0
            return 1.0
        if after[V_TRICKS + team] > 0:
            return -1.0
        if _reach(views, helds, 1, team, 1, TRICKS_TO_WIN, *args):
            return -1.0
        return -3.0 if we_are_hakem else -2.0

    return model_value_after
