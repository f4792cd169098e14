"""The numba engine against the plain-Python rules oracle, hand by hand and card by card.

Thousands of seeded hands are traced from the engine (``Runner.trace_hands``)
and every card is checked with :mod:`hokm_sim.reference`: the deal, who holds
each card, following suit, every trick's winner, the hand stopping the moment
a team has 7 tricks, and the score. Whole matches (``Runner.trace_match``)
are checked for succession, scores and stopping at the target. The longest
bot's trump must follow the longest-suit rule, the first Hakem (first ace)
must be spread evenly over the seats, and the other house rules of the first
Hakem must pick the reference's seat.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hokm_checks import check_match_rows, check_row, expected_first_hakem, longest_suit

from hokm_sim import reference as ref
from hokm_sim.cards import parse_card, parse_cards, parse_suit
from hokm_sim.engine import deal
from hokm_sim.engine import kernels as k
from hokm_sim.engine import stepper as st
from hokm_sim.env.table import Table
from hokm_sim.house import FIRST_HAKEM_METHODS
from hokm_sim.sim.trace import row_to_record

N_HANDS = 4500
PAIRS = [("longest", "random"), ("random", "random")]
HAND_SEEDS = {("longest", "random"): 20240601, ("random", "random"): 77}


@pytest.fixture(scope="module")
def traced(runner):
    """``{(a, b, copy): (seed, rows)}``: 4,500 hands per pair (A on team 0), 1,000
    swapped: 10,000 in all."""
    out = {}
    for a, b in PAIRS:
        seed = HAND_SEEDS[(a, b)]
        out[(a, b, 0)] = (seed, runner(a, b).trace_hands(seed, 0, N_HANDS))
    seed = HAND_SEEDS[("longest", "random")]
    out[("longest", "random", 1)] = (
        seed,
        runner("longest", "random").trace_hands(seed, 0, 1000, 1),
    )
    return out


@pytest.mark.parametrize("key", [(*p, 0) for p in PAIRS] + [("longest", "random", 1)],
                         ids=lambda key: f"{key[0]}-vs-{key[1]}-copy{key[2]}")  # fmt: skip
def test_traced_hands_follow_the_rules(traced, key):
    seed, rows = traced[key]
    assert rows.shape[0] == (N_HANDS if key[2] == 0 else 1000)
    kinds = Counter()
    for d, row in enumerate(rows):
        assert row[k.T_MATCH] == 0 and row[k.T_HAND] == d
        rec = check_row(row, seed)
        assert rec["hakem"] == d % 4, "deal d's Hakem is seat d % 4"
        kinds[rec["kind"]] += 1
    # The sample is big enough to exercise every scoring branch.
    assert set(kinds) == {"normal", "kot", "hakem_kot"}, kinds


def test_total_hands_checked(traced):
    assert sum(rows.shape[0] for _, rows in traced.values()) >= 10_000


@pytest.mark.parametrize("copy", [0, 1])
def test_longest_bot_names_the_longest_suit(traced, copy):
    """Where the longest bot is Hakem, trump is the longest of its five (ties: rank sum, suit)."""
    seed, rows = traced[("longest", "random", copy)]
    longest_team = copy  # copy 0: A (longest) is team 0; copy 1: teams swapped
    checked = 0
    ties = 0
    for row in rows:
        hakem = int(row[k.T_HAKEM])
        if hakem % 2 != longest_team:
            continue
        five = [int(c) for c in row[k.T_DECK : k.T_DECK + 5]]
        assert int(row[k.T_TRUMP]) == longest_suit(five), (five, int(row[k.T_TRUMP]))
        lengths = sorted(Counter(c // 13 for c in five).values())
        ties += len(lengths) > 1 and lengths[-1] == lengths[-2]
        checked += 1
    assert checked == rows.shape[0] // 2
    assert ties > 0, "no tied lengths: the tie-break was never exercised"


def test_longest_trump_rule_worked_case():
    """docs/rules.md, worked example 1: A♥ Q♥ 9♥ K♣ 4♦ names hearts."""
    five = [parse_card(c) for c in ("AH", "QH", "9H", "KC", "4D")]
    assert longest_suit(five) == parse_suit("H")


def test_random_bot_trump_is_spread_over_suits(traced):
    seed, rows = traced[("random", "random", 0)]
    counts = np.bincount(rows[:, k.T_TRUMP], minlength=4)
    expected = rows.shape[0] / 4
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 30, counts  # 3 degrees of freedom; p < 1e-5


# --------------------------------------------------------------------------- matches

MATCH_SEED = 4242
MATCHES = {("random", "random"): 60, ("longest", "random"): 25}


@pytest.mark.parametrize("target", [1, 3, 7, 10])
@pytest.mark.parametrize("pair", list(MATCHES), ids=lambda p: f"{p[0]}-vs-{p[1]}")
def test_traced_matches_follow_the_rules(runner, pair, target):
    r = runner(*pair)
    hakem_changes = 0
    n_hands = 0
    for m in range(MATCHES[pair]):
        rows = r.trace_match(MATCH_SEED, m, target)
        recs = check_match_rows(rows, MATCH_SEED, m, target, expected_first_hakem(MATCH_SEED, m))
        n_hands += len(recs)
        hakem_changes += sum(a["hakem"] != b["hakem"] for a, b in zip(recs, recs[1:], strict=False))
    if target >= 3:
        assert hakem_changes > 0, "the Hakem never passed: succession was not exercised"
    assert n_hands >= MATCHES[pair]


def test_swapped_match_copy_follows_the_rules(runner):
    """The duplicate copy of a match (teams swapped) is a valid match too, on the same cards."""
    r = runner("longest", "random")
    for m in range(20):
        rows0 = r.trace_match(MATCH_SEED, m, 7, 0)
        rows1 = r.trace_match(MATCH_SEED, m, 7, 1)
        first = expected_first_hakem(MATCH_SEED, m)
        check_match_rows(rows1, MATCH_SEED, m, 7, first)
        assert rows0[0, k.T_HAKEM] == rows1[0, k.T_HAKEM]
        # Hand 0 is dealt before anything can differ: same cards in both copies.
        assert (rows0[0, k.T_DECK : k.T_DECK + 52] == rows1[0, k.T_DECK : k.T_DECK + 52]).all()


def test_match_record_fields(runner):
    rows = runner("random", "random").trace_match(MATCH_SEED, 0, 7)
    rec = row_to_record(rows[-1], MATCH_SEED, 7)
    assert rec["target"] == 7 and max(rec["scores"]) >= 7


@pytest.mark.parametrize("rule", ["highest-card", "highest-two"])
def test_house_rules_of_the_first_hakem_follow_the_reference(runner, rule):
    """Each house rule's first Hakem is the reference's on the same draw, in matches
    played by the compiled engine and by the stepper, and the matches follow the rules."""
    code = FIRST_HAKEM_METHODS.index(rule)
    r = runner("random", "random")
    seats = []
    for m in range(300):
        rows = r.trace_match(MATCH_SEED, m, 1, first_hakem=code)
        seats.append(int(rows[0, k.T_HAKEM]))
        assert seats[-1] == expected_first_hakem(MATCH_SEED, m, rule), m
    assert set(seats) == {0, 1, 2, 3}
    for m in range(10):
        rows = r.trace_match(MATCH_SEED, m, 3, first_hakem=code)
        check_match_rows(rows, MATCH_SEED, m, 3, expected_first_hakem(MATCH_SEED, m, rule))
    table = Table(target=1, first_hakem=code)
    for m in range(40):
        table.reset(MATCH_SEED, m)
        assert int(table.slots.ctl[0, st.K_HAKEM]) == expected_first_hakem(MATCH_SEED, m, rule)


@pytest.mark.parametrize("rule", FIRST_HAKEM_METHODS)
def test_engine_first_hakem_on_hand_made_draws(rule):
    """Ties, ties again, and a tie that lasts the whole deck, as the reference says."""
    code = FIRST_HAKEM_METHODS.index(rule)
    decks = [
        parse_cards("2C AD 4H AS 7C 7D 3S 9H"),
        parse_cards("AC 2D KH 3S KC 4D AH 5S 6C 8D"),
        [s * 13 + r for r in range(12, -1, -1) for s in range(4)],
    ]
    for top in decks:
        deck = top + [c for c in range(52) if c not in top]
        for start in range(4):
            arr = np.array(deck, np.int64)
            got = deal.first_ace(arr, start) if code == 0 else deal.highest(arr, start, code)
            assert got == ref.first_hakem_draw(deck, start, rule)[0], (top, start)


def test_first_hakem_is_spread_over_seats(runner):
    """First ace from a uniform start seat: each seat is first Hakem about a quarter of the time."""
    r = runner("random", "random")
    n = 1200
    seats = np.array([r.trace_match(99, m, 1)[0, k.T_HAKEM] for m in range(n)])
    counts = np.bincount(seats, minlength=4)
    chi2 = float(((counts - n / 4) ** 2 / (n / 4)).sum())
    assert chi2 < 30, counts  # 3 degrees of freedom; p < 1e-5
    # And exactly the reference first-ace rule on the documented stream, for a sample.
    for m in range(0, n, 13):
        assert seats[m] == expected_first_hakem(99, m), m
