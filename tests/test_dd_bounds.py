"""The solver's sure-trick bounds never promise more than best play gives.

A bound decides a position without searching it, so an unsound one gives a
wrong answer only where the search happens to reach it. Here each bound is
checked on its own, on thousands of random positions with many trumps
(where the trump rules come up): the tricks it counts for a team are never
more than DDS finds that team takes, or, for tricks in a row (Kot), than the
plain minimax's longest run.
"""

from __future__ import annotations

import numpy as np
import pytest
from dd_minimax import team_run
from dds_ref import most_tricks

from hokm_sim.cards import cards_of
from hokm_sim.dd.bounds import guarded_trump, quick_tricks


def _position(rng: np.random.Generator, n: int) -> tuple[np.ndarray, int]:
    """Four hands of ``n`` cards (masks) with between 3 and 13 trumps among them, and the trump."""
    trump = int(rng.integers(4))
    trumps = rng.permutation(13)[: int(rng.integers(3, min(13, 4 * n) + 1))] + 13 * trump
    others = rng.permutation([c for c in range(52) if c // 13 != trump])
    deck = rng.permutation(np.concatenate([trumps, others[: 4 * n - len(trumps)]]))
    hands = np.zeros(4, np.int64)
    for s in range(4):
        for c in deck[n * s : n * s + n]:
            hands[s] |= 1 << int(c)
    return hands, trump


def _quick_cases(rng: np.random.Generator, count: int, most: int, kot: bool, trumpy_partner: bool):
    """``count`` positions of 2 to ``most - 1`` cards a hand with a leader and a question
    (``want`` tricks), and the quick tricks counted for the leader's side.

    With ``trumpy_partner``, half of them give the leader's partner trumps
    for its side-suit cards, as far as the others hold trumps to swap.
    """
    for _ in range(count):
        n = int(rng.integers(2, most))
        hands, trump = _position(rng, n)
        leader = int(rng.integers(4))
        partner = (leader + 2) % 4
        tm = ((1 << 13) - 1) << (13 * trump)
        if trumpy_partner and rng.random() < 0.5:
            for c in cards_of(int(hands[partner] & ~tm)):
                donors = [s for s in range(4) if s != partner and hands[s] & tm]
                if not donors:
                    break
                s = donors[int(rng.integers(len(donors)))]
                t = cards_of(int(hands[s] & tm))[0]
                hands[partner] ^= (1 << c) | (1 << t)
                hands[s] ^= (1 << c) | (1 << t)
        want = int(rng.integers(1, n + 1))
        qt, _ = quick_tricks(hands, trump, leader, kot, want)
        yield hands, trump, leader, want, qt


def test_quick_tricks_are_never_more_than_the_leaders_side_takes():
    pytest.importorskip("endplay")
    checked = 0
    cases = _quick_cases(np.random.default_rng(31), 1500, 8, kot=False, trumpy_partner=False)
    for hands, trump, leader, want, qt in cases:
        if qt > 0:
            assert most_tricks(hands, trump, leader) >= min(qt, want), (hands, trump, leader)
            checked += 1
    assert checked > 500


def test_quick_tricks_in_a_row_are_never_more_than_the_longest_run():
    # Partner holding little but trumps is where a run breaks: partner has to
    # ruff the leader's winner and takes the lead from it.
    checked = 0
    cases = _quick_cases(np.random.default_rng(32), 350, 5, kot=True, trumpy_partner=True)
    for hands, trump, leader, want, qt in cases:
        if qt > 0:
            sets = tuple(frozenset(cards_of(int(m))) for m in hands)
            run = team_run(sets, trump, leader, leader & 1, ())
            assert run >= min(qt, want), (hands, trump, leader, want)
            checked += 1
    assert checked > 150  # 208 of the 350


def test_a_guarded_second_trump_takes_a_trick_against_the_leaders_side():
    pytest.importorskip("endplay")
    rng = np.random.default_rng(33)
    checked = 0
    while checked < 600:
        n = int(rng.integers(2, 8))
        hands, trump = _position(rng, n)
        for team in (0, 1):
            if guarded_trump(hands, trump, team) == 0:
                continue
            leader = int(rng.choice([s for s in range(4) if s & 1 != team]))
            assert most_tricks(hands, trump, leader) <= n - 1, (hands, trump, leader)
            checked += 1


def test_trick_counts_agree_with_dds_on_trump_heavy_endings():
    # The bounds in the search itself: where they apply is up to the search
    # (the guarded second trump only against the side on lead), so the
    # whole search is checked too, on positions the bounds decide often.
    pytest.importorskip("endplay")
    from hokm_sim.dd.solver import tricks_nb
    from hokm_sim.dd.table import new_table

    rng = np.random.default_rng(34)
    tt = new_table(16)
    stats = np.zeros(1, np.int64)
    trick = np.zeros(3, np.int64)
    for _ in range(3000):
        n = int(rng.integers(2, 9))
        hands, trump = _position(rng, n)
        leader = int(rng.integers(4))
        got = tricks_nb(hands, trump, leader, trick, 0, leader & 1, tt[0], tt[1], stats)
        assert got == most_tricks(hands, trump, leader), (hands, trump, leader)
