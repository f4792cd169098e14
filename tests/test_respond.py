"""The search against a model of the opponents (:mod:`hokm_sim.dd.respond`).

Checked three ways: without departures from the model it is the hand
``expert`` plays out at every seat (the reference plays it); with any
number it is a plain search without a table over small endings; and it is
never below double dummy (a best answer to one way of defending is at least
the answer to the best defence).
"""

from __future__ import annotations

import random as pyrandom

import numpy as np
from test_strategies import view_of

from hokm_sim import reference as ref
from hokm_sim.cards import mask_of
from hokm_sim.dd.pimc import _value_after
from hokm_sim.dd.respond import (
    SearchScratch,
    _play_into,
    new_model_scratch,
    new_model_table,
)
from hokm_sim.dd.search import DEPTH, STATS_SIZE
from hokm_sim.dd.table import new_table
from hokm_sim.engine.play import show_turn
from hokm_sim.engine.view import (
    V_HAKEM,
    V_HAND,
    V_LEADER,
    V_LED,
    V_NTRICK,
    V_PLAYED_BY,
    V_SEAT,
    V_TRICK,
    V_TRICK_NO,
    V_TRICKS,
    V_TRUMP,
    VIEW_SIZE,
)
from hokm_sim.strategies import expert
from hokm_sim.strategies._pimc import EXPERT_PARAMS, model_value_after

ALL = 99  # departures: as many as the team likes


def _expert_hands(seed: int, n: int):
    """Every decision of ``n`` hands ``expert`` plays at every seat (reference engine):
    ``(view, the seats' cards then, the card played, the hand's points for the seat's team)``."""
    rnd = pyrandom.Random(seed)
    out = []
    for _ in range(n):
        deck = list(range(52))
        rnd.shuffle(deck)
        hakem = rnd.randrange(4)
        dealt = [mask_of(h) for h in ref.deal(deck, hakem)]
        seen = []

        def choose(seat, hand, trick, legal, pv, seen=seen, dealt=dealt):
            v = view_of(seat, hand, trick, legal, pv)
            card = int(expert.play_card(v, EXPERT_PARAMS, np.zeros(16, np.int64), _rng()))
            now = np.array([dealt[s] & ~int(v[V_PLAYED_BY + s]) for s in range(4)], np.int64)
            seen.append((v, now, card, seat))
            return card

        replay = ref.play_hand(deck, hakem, _call, choose)
        for v, now, card, seat in seen:
            team = seat & 1
            pts = replay.points if replay.winner_team == team else -replay.points
            out.append((v, now, card, pts))
    return out


def _call(five, hakem) -> int:
    """``expert``'s trump call on the Hakem's five."""
    v = np.zeros(VIEW_SIZE, np.int64)
    v[V_HAND] = mask_of(five)
    v[V_SEAT] = hakem
    v[V_TRUMP] = -1
    return int(expert.choose_trump(v, EXPERT_PARAMS, np.zeros(16, np.int64), _rng()))


def _rng() -> np.ndarray:
    return np.zeros(4, np.uint64)


def _value(v, now, card, dev, bits=12):
    keys, answers = new_model_table(bits)
    stats = np.zeros(STATS_SIZE, np.int64)
    seat = (int(v[V_LEADER]) + int(v[V_NTRICK])) & 3
    team = seat & 1
    hakem = (int(v[V_HAKEM]) & 1) == team
    return model_value_after(
        v, now, card, team, hakem, dev, keys, answers, new_model_scratch(), stats
    )


def test_without_departures_the_value_is_the_hand_expert_plays_out():
    checked = 0
    for v, now, card, pts in _expert_hands(3, 12):
        assert _value(v, now, card, 0) == pts
        checked += 1
    assert checked > 150


def _scratch(views, helds):
    """A search's scratch around these positions (:func:`_play_into` writes the plays
    and winners beside them)."""
    s = new_model_scratch()
    return SearchScratch(views, helds, s.plays, s.winners, s.mem, s.rng)


def _plain_best(views, helds, d, team, hakem_team):
    """Best hand points for ``team`` from position ``d``: every card at its seats,
    the model's at the others; no table, no bounds."""
    v = views[d]
    t0, t1 = int(v[V_TRICKS]), int(v[V_TRICKS + 1])
    if t0 == 7 or t1 == 7:
        winner = 0 if t0 == 7 else 1
        score = ref.score_hand(0 if hakem_team == 0 else 1, [t0, t1])
        return score.points if winner == team else -score.points
    seat = (int(v[V_LEADER]) + int(v[V_NTRICK])) & 3
    legal = int(show_turn(v, helds[d, seat], seat, v[V_LED]))
    scratch = _scratch(views, helds)
    if (seat & 1) != team:
        cards = [int(expert.play_card(v, EXPERT_PARAMS, np.zeros(16, np.int64), _rng()))]
    else:
        cards = [c for c in range(52) if legal >> c & 1]
    best = -99
    for c in cards:
        _play_into(views, helds, d, seat, c, scratch)
        best = max(best, _plain_best(views, helds, d + 1, team, hakem_team))
    return best


def test_with_departures_it_is_the_plain_best_answer_to_the_model():
    checked = 0
    for v, now, card, _pts in _expert_hands(4, 30):
        if v[V_TRICK_NO] < 9:
            continue
        seat = (int(v[V_LEADER]) + int(v[V_NTRICK])) & 3
        team = seat & 1
        views = np.zeros((DEPTH, v.shape[0]), np.int64)
        helds = np.zeros((DEPTH, 4), np.int64)
        views[0] = v
        helds[0] = now
        _play_into(views, helds, 0, seat, card, _scratch(views, helds))
        want = _plain_best(views, helds, 1, team, int(v[V_HAKEM]) & 1)
        assert _value(v, now, card, ALL) == want
        assert _value(v, now, card, ALL, bits=0) == want  # one table slot: keys still exact
        checked += 1
    assert checked > 40


def test_never_below_double_dummy_and_more_departures_never_worse():
    keys, vals = new_table(14)
    checked = gained = 0
    for v, now, card, pts in _expert_hands(5, 20):
        if v[V_TRICK_NO] < 6:
            continue
        seat = (int(v[V_LEADER]) + int(v[V_NTRICK])) & 3
        team = seat & 1
        ntrick = int(v[V_NTRICK])
        trick = np.array([v[V_TRICK + k] for k in range(3)], np.int64)
        stats = np.zeros(STATS_SIZE, np.int64)
        dd = _value_after(
            now, v[V_TRUMP], v[V_LEADER], trick, ntrick, card, team,
            v[V_TRICKS + team], v[V_TRICKS + 1 - team], (v[V_HAKEM] & 1) == team,
            keys, vals, stats,
        )  # fmt: skip
        values = [_value(v, now, card, dev) for dev in (0, 1, 2, ALL)]
        assert values == sorted(values) and values[0] == pts
        assert values[-1] >= dd
        gained += values[-1] > values[0]
        checked += 1
    assert checked > 100 and gained > 10  # the model's slips are there to take
