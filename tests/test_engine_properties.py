"""Determinism and invariants of the engine's runs, traces and random streams.

- Summed counts are bit-identical whatever the threads, chunk size or split
  of the work into ``start`` ranges (hands and matches, duplicate or not).
- Any hand regenerates alone: deal ``d`` traced by itself equals row ``d``
  of a longer trace; decks follow the documented stream scheme.
- Different seeds give different decks; the shuffle is uniform (chi-square).
- Counts add up (tables total the deals or matches played) and equal the
  counts rebuilt from traced, reference-checked hands.
- Hypothesis: traced hands and matches at random seeds follow the rules.
"""

from __future__ import annotations

import numpy as np
import pytest
from hokm_checks import (
    check_match_rows,
    check_row,
    check_row_tail,
    expected_deck,
    expected_first_hakem,
    match_base,
    played_part,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from hokm_sim import reference as ref
from hokm_sim.engine import kernels as k
from hokm_sim.engine import records as rc

SEED = 123456789
N_HANDS = 40_000
N_MATCHES = 1_200
MODES = [
    pytest.param(False, False, id="hands"),
    pytest.param(False, True, id="hands-duplicate"),
    pytest.param(True, False, id="matches"),
    pytest.param(True, True, id="matches-duplicate"),
]


@pytest.fixture(scope="module")
def lr(runner):
    return runner("longest", "random")


def _counts(r, matches, duplicate, total=None, **kw):
    total = total or (N_MATCHES if matches else N_HANDS)
    return r.counts(SEED, total, matches=matches, duplicate=duplicate, target=7, **kw)


# --------------------------------------------------------------------------- determinism


@pytest.mark.parametrize(("matches", "duplicate"), MODES)
def test_threads_do_not_change_counts(lr, matches, duplicate):
    one = _counts(lr, matches, duplicate, threads=1)
    two = _counts(lr, matches, duplicate, threads=2)
    assert np.array_equal(one, two)
    assert one.dtype == np.int64


@pytest.mark.parametrize(("matches", "duplicate"), MODES)
def test_chunk_size_does_not_change_counts(lr, matches, duplicate):
    chunks = (256, 100, 37) if matches else (1000, 8192, 777)
    results = [_counts(lr, matches, duplicate, chunk=c, threads=1) for c in chunks]
    results.append(_counts(lr, matches, duplicate))  # default chunk, all threads
    for other in results[1:]:
        assert np.array_equal(results[0], other)


@pytest.mark.parametrize(("matches", "duplicate"), MODES)
def test_split_start_ranges_add_up(lr, matches, duplicate):
    total = N_MATCHES if matches else N_HANDS
    first = 457 if matches else 12_345
    whole = _counts(lr, matches, duplicate, total)
    a = _counts(lr, matches, duplicate, first, start=0)
    b = _counts(lr, matches, duplicate, total - first, start=first)
    assert np.array_equal(whole, a + b)


def test_batches_cover_the_range_once(lr):
    batches = list(lr.batches(SEED, 20_000, start=500, chunk=1000, threads=1, duplicate=False))
    assert len(batches) > 1
    assert batches[0].start == 500
    for prev, cur in zip(batches, batches[1:], strict=False):
        assert cur.start == prev.start + prev.count
    assert sum(b.count for b in batches) == 20_000
    summed = sum(b.counts for b in batches)
    assert np.array_equal(summed, lr.counts(SEED, 20_000, start=500, duplicate=False))


def test_a_hand_regenerates_alone(lr):
    """Row d of a long trace is deal d traced alone (slots after the hand's end aside)."""
    rows = lr.trace_hands(SEED, 0, 300)
    for d in range(300):
        alone = lr.trace_hands(SEED, d, 1)
        assert np.array_equal(played_part(alone[0]), played_part(rows[d])), d
    later = lr.trace_hands(SEED, 10**9, 40)
    again = lr.trace_hands(SEED, 10**9 + 25, 15)
    for x, y in zip(again, later[25:], strict=True):
        assert np.array_equal(played_part(x), played_part(y))
    swapped = lr.trace_hands(SEED, 0, 50, 1)
    deck = slice(k.T_DECK, k.T_DECK + 52)
    for d in range(50):
        alone = lr.trace_hands(SEED, d, 1, 1)[0]
        assert np.array_equal(played_part(alone), played_part(swapped[d]))
        # The duplicate copy has the same cards and Hakem seat, with the teams swapped.
        assert np.array_equal(swapped[d, deck], rows[d, deck])
        assert swapped[d, k.T_HAKEM] == rows[d, k.T_HAKEM]


def test_a_match_regenerates_alone(lr):
    for m in (0, 5, 1000):
        assert np.array_equal(lr.trace_match(SEED, m, 7), lr.trace_match(SEED, m, 7))


def test_trace_rows_end_cleanly_after_long_hands(lr):
    """A short hand traced after a long one carries no cards of the long one."""
    rows = lr.trace_hands(SEED, 0, 2000)
    n_tricks = rows[:, k.T_TRICKS] + rows[:, k.T_TRICKS + 1]
    assert n_tricks.min() < n_tricks.max()
    for row in rows:
        check_row_tail(row)
    for m in range(20):
        for row in lr.trace_match(SEED, m, 7):
            check_row_tail(row)


# --------------------------------------------------------------------------- streams and shuffle


def _deck(row):
    return [int(c) for c in row[k.T_DECK : k.T_DECK + 52]]


def test_different_seeds_give_different_decks(lr):
    seeds = [*range(200), 2**32, 2**63, 2**64 - 1]
    decks = {tuple(_deck(lr.trace_hands(s, 0, 1)[0])) for s in seeds}
    assert len(decks) == len(seeds)
    rows = lr.trace_hands(SEED, 0, 1000)
    assert len({tuple(_deck(r)) for r in rows}) == 1000


@pytest.mark.parametrize("seed", [0, 5, SEED, 2**64 - 1])
def test_decks_follow_the_documented_streams(lr, seed):
    """Deal d is stream d under the run seed (engine/rng.py, the C yardstick's scheme)."""
    rows = lr.trace_hands(seed, 0, 40)
    for d, row in enumerate(rows):
        assert _deck(row) == expected_deck(seed, d), d
    for m in (0, 3):
        for h, row in enumerate(lr.trace_match(seed, m, 7)):
            assert _deck(row) == expected_deck(match_base(seed, m), h), (m, h)
        assert lr.trace_match(seed, m, 7)[0, k.T_HAKEM] == expected_first_hakem(seed, m)


def test_shuffle_is_uniform(runner):
    n = 20_000
    rows = runner("random", "random").trace_hands(2718, 0, n)
    decks = rows[:, k.T_DECK : k.T_DECK + 52]
    expected = n / 52
    for pos in (0, 4, 5, 51):
        counts = np.bincount(decks[:, pos], minlength=52)
        chi2 = float(((counts - expected) ** 2 / expected).sum())
        assert chi2 < 125, (pos, chi2)  # 51 degrees of freedom: mean 51, sd 10
    # Every (position, card) cell together: 51 x 51 degrees of freedom, sd about 72.
    table = np.zeros((52, 52))
    for pos in range(52):
        table[pos] = np.bincount(decks[:, pos], minlength=52)
    chi2 = float(((table - expected) ** 2 / expected).sum())
    assert chi2 < 51 * 51 + 7 * 72, chi2


# --------------------------------------------------------------------------- counts


@pytest.mark.parametrize(("matches", "duplicate"), MODES)
def test_counts_tables_total_what_was_played(lr, matches, duplicate):
    total = 900 if matches else 10_000
    c = _counts(lr, matches, duplicate, total)
    copies = 2 if duplicate else 1
    tricks = c[rc.C_TRICKS : rc.C_TRICKS + rc.C_TRICKS_SIZE].reshape(2, 8, 8)
    hands = int(tricks.sum())
    for ht in range(8):
        for dt in range(8):
            if tricks[:, ht, dt].any():
                assert (ht == 7) != (dt == 7), (ht, dt)
    assert c[rc.C_TRUMP : rc.C_TRUMP + rc.C_TRUMP_SIZE].sum() == hands
    assert c[rc.C_SUIT : rc.C_SUIT + rc.C_SUIT_SIZE].sum() == hands
    pairs = c[rc.C_PAIR : rc.C_PAIR + rc.C_PAIR_SIZE].sum()
    assert c[rc.C_PAIR_COPY : rc.C_PAIR_COPY + rc.C_PAIR_SIZE].sum() == pairs
    match_tab = c[rc.C_MATCH : rc.C_MATCH + rc.C_MATCH_SIZE].sum()
    match_pairs = c[rc.C_MATCH_PAIR : rc.C_MATCH_PAIR + rc.C_MATCH_PAIR_SIZE].sum()
    if matches:
        assert match_tab == copies * total
        assert c[rc.C_MATCH_LEN : rc.C_MATCH_LEN + rc.C_MATCH_LEN_SIZE].sum() == copies * total
        assert c[rc.C_MATCH_HANDS] == hands
        assert hands >= 7 // 3 * copies * total
        assert match_pairs == (total if duplicate else 0)
        assert pairs == 0
    else:
        assert hands == copies * total
        assert pairs == (total if duplicate else 0)
        assert match_tab == 0 and match_pairs == 0 and c[rc.C_MATCH_HANDS] == 0


def _point_slot(x: int) -> int:
    return rc.POINT_VALUES.index(x)


def _add_hand(c: np.ndarray, row: np.ndarray, a_team: int) -> None:
    """Add a traced hand to counts as records.py documents the layout."""
    hakem = int(row[k.T_HAKEM])
    trump = int(row[k.T_TRUMP])
    hakem_team = hakem % 2
    who = 0 if hakem_team == a_team else 1
    won = [int(row[k.T_TRICKS]), int(row[k.T_TRICKS + 1])]
    c[rc.C_TRICKS + (who * 8 + won[hakem_team]) * 8 + won[1 - hakem_team]] += 1
    deck = [int(x) for x in row[k.T_DECK : k.T_DECK + 52]]
    thirteen = ref.deal(deck, hakem)[hakem]
    n13 = sum(card // 13 == trump for card in thirteen)
    n5 = sum(card // 13 == trump for card in deck[:5])
    hakem_won = int(row[k.T_WINNER] == hakem_team)
    c[rc.C_TRUMP + ((who * 14 + n13) * 6 + n5) * 2 + hakem_won] += 1
    c[rc.C_SUIT + who * 4 + trump] += 1


def _signed(row: np.ndarray, team: int) -> int:
    p = int(row[k.T_POINTS])
    return p if row[k.T_WINNER] == team else -p


@pytest.mark.parametrize("duplicate", [False, True])
def test_hand_counts_equal_counts_of_traced_hands(lr, duplicate):
    n = 3000
    rows0 = lr.trace_hands(SEED, 0, n, 0)
    expected = np.zeros(rc.N_COUNTS, np.int64)
    for row in rows0:
        _add_hand(expected, row, 0)
    if duplicate:
        rows1 = lr.trace_hands(SEED, 0, n, 1)
        for r0, r1 in zip(rows0, rows1, strict=True):
            check_row(r1, SEED)
            _add_hand(expected, r1, 1)
            x0, x1 = _signed(r0, 0), _signed(r1, 1)  # A's points in each copy
            a_hakem, a_defends = (x0, x1) if r0[k.T_HAKEM] % 2 == 0 else (x1, x0)
            expected[rc.C_PAIR + _point_slot(a_hakem) * 6 + _point_slot(a_defends)] += 1
            expected[rc.C_PAIR_COPY + _point_slot(x0) * 6 + _point_slot(x1)] += 1
    got = lr.counts(SEED, n, duplicate=duplicate, chunk=1000)
    assert np.array_equal(got, expected), np.flatnonzero(got != expected)


def _add_match(c: np.ndarray, rows: np.ndarray, a_team: int, target: int) -> int:
    for row in rows:
        _add_hand(c, row, a_team)
    scores = [int(rows[-1, k.T_SCORES]), int(rows[-1, k.T_SCORES + 1])]
    a_won = int(scores[a_team] >= target)
    winner, loser = (scores[a_team], scores[1 - a_team])[:: 1 if a_won else -1]
    c[rc.C_MATCH + (a_won * rc.MAX_SCORE + min(loser, rc.MAX_SCORE - 1)) * 3
      + min(winner - target, 2)] += 1  # fmt: skip
    c[rc.C_MATCH_LEN + a_won * rc.MAX_MATCH_LEN + min(len(rows), rc.MAX_MATCH_LEN - 1)] += 1
    c[rc.C_MATCH_HANDS] += len(rows)
    return a_won


@pytest.mark.parametrize("duplicate", [False, True])
@pytest.mark.parametrize("target", [3, 7])
def test_match_counts_equal_counts_of_traced_matches(lr, duplicate, target):
    n = 150
    expected = np.zeros(rc.N_COUNTS, np.int64)
    for m in range(n):
        w0 = _add_match(expected, lr.trace_match(SEED, m, target, 0), 0, target)
        if duplicate:
            w1 = _add_match(expected, lr.trace_match(SEED, m, target, 1), 1, target)
            expected[rc.C_MATCH_PAIR + w0 * 2 + w1] += 1
    got = lr.counts(SEED, n, matches=True, duplicate=duplicate, target=target, chunk=64)
    assert np.array_equal(got, expected), np.flatnonzero(got != expected)


# --------------------------------------------------------------------------- hypothesis

PAIRS = [("longest", "random"), ("random", "random")]


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    start=st.integers(0, 2**40),
    copy=st.integers(0, 1),
    pair=st.sampled_from(PAIRS),
)
def test_random_seeds_give_valid_hands(runner, seed, start, copy, pair):
    rows = runner(*pair).trace_hands(seed, start, 6, copy)
    for i, row in enumerate(rows):
        rec = check_row(row, seed)
        assert rec["hand"] == start + i and rec["hakem"] == (start + i) % 4
        assert [int(c) for c in row[k.T_DECK : k.T_DECK + 52]] == expected_deck(seed, start + i)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), match=st.integers(0, 2**32), target=st.integers(1, 12))
def test_random_seeds_give_valid_matches(runner, seed, match, target):
    rows = runner("random", "random").trace_match(seed, match, target)
    check_match_rows(rows, seed, match, target, expected_first_hakem(seed, match))
