"""Replay every golden case against the plain-Python reference rules.

The golden files in ``tests/golden`` pin the rules of docs/rules.md ("How the
rules are pinned"); every engine must pass them. Each case is one pytest
case with id ``<file stem>-<index in the file's "cases" list>``, e.g.
``hands-17``, so a failure points straight at the JSON entry.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hokm_checks import bot_trump

from hokm_sim import reference as ref
from hokm_sim.cards import parse_card, parse_cards, parse_suit

TESTS_DIR = Path(__file__).resolve().parent
GOLDEN_DIR = TESTS_DIR / "golden"
REPO_ROOT = TESTS_DIR.parent
SHARED_GOLDEN_DIR = REPO_ROOT.parent / "shared" / "golden"
GOLDEN_FILES = (
    "deal",
    "legal",
    "tricks",
    "scoring",
    "hands",
    "matches",
    "trump_choice",
)


def load_cases(stem: str) -> list[dict[str, Any]]:
    """The ``cases`` list of ``tests/golden/<stem>.json``."""
    with open(GOLDEN_DIR / f"{stem}.json", encoding="utf-8") as f:
        return json.load(f)["cases"]


def golden_params(stem: str) -> list[Any]:
    """One pytest param per case of a golden file, with id ``<stem>-<index>``."""
    return [pytest.param(case, id=f"{stem}-{i}") for i, case in enumerate(load_cases(stem))]


def test_every_golden_file_is_replayed() -> None:
    """Every file in tests/golden has a test here that takes each of its cases."""
    on_disk = sorted(p.stem for p in GOLDEN_DIR.glob("*.json"))
    assert on_disk == sorted(GOLDEN_FILES)
    module = globals()
    for stem in GOLDEN_FILES:
        cases = load_cases(stem)
        assert cases, f"{stem}.json has no cases"
        replayers = [
            fn
            for name, fn in module.items()
            if name.startswith("test_")
            for mark in getattr(fn, "pytestmark", [])
            if mark.name == "parametrize"
            and mark.args[0] == "case"
            and [p.id for p in mark.args[1]] == [f"{stem}-{i}" for i in range(len(cases))]
        ]
        assert len(replayers) == 1, f"{stem}.json: {len(replayers)} tests replay its cases"


@pytest.mark.skipif(not SHARED_GOLDEN_DIR.is_dir(), reason=f"no {SHARED_GOLDEN_DIR}")
def test_golden_copies_are_identical_to_shared() -> None:
    shared = sorted(p.name for p in SHARED_GOLDEN_DIR.iterdir() if p.is_file())
    local = sorted(p.name for p in GOLDEN_DIR.iterdir() if p.is_file())
    assert local == shared
    for name in shared:
        a = (SHARED_GOLDEN_DIR / name).read_bytes()
        b = (GOLDEN_DIR / name).read_bytes()
        assert a == b, f"tests/golden/{name} differs from {SHARED_GOLDEN_DIR / name}"


# --------------------------------------------------------------------------- deal


@pytest.mark.parametrize("case", golden_params("deal"))
def test_deal(case: dict[str, Any]) -> None:
    deck = parse_cards(case["deck"])
    hakem = case["hakem"]
    assert ref.dealer_of(hakem) == case["dealer"]
    assert ref.first_five(deck) == parse_cards(case["first_five"])
    hands = ref.deal(deck, hakem)
    assert hands == [parse_cards(h) for h in case["hands"]]
    # The Hakem's first five cards open the Hakem's hand.
    assert hands[hakem][:5] == ref.first_five(deck)


# --------------------------------------------------------------------------- legal


@pytest.mark.parametrize("case", golden_params("legal"))
def test_legal(case: dict[str, Any]) -> None:
    hand = parse_cards(case["hand"])
    trick = parse_cards(case["trick"])
    legal = ref.legal_cards(hand, trick)
    assert len(legal) == len(set(legal)), "legal cards repeat"
    assert set(legal) == set(parse_cards(case["legal"]))


# --------------------------------------------------------------------------- tricks


@pytest.mark.parametrize("case", golden_params("tricks"))
def test_trick_winner(case: dict[str, Any]) -> None:
    cards = parse_cards(case["cards"])
    trump = parse_suit(case["trump"])
    assert ref.trick_winner(cards, case["leader"], trump) == case["winner"]


# --------------------------------------------------------------------------- scoring


@pytest.mark.parametrize("case", golden_params("scoring"))
def test_scoring(case: dict[str, Any]) -> None:
    score = ref.score_hand(case["hakem"], case["tricks_won"])
    assert score.hakem == case["hakem"]
    assert score.tricks_won == case["tricks_won"]
    assert score.winner_team == case["winner_team"]
    assert score.points == case["points"]
    assert score.kind == case["kind"]
    assert score.hakem_team == case["hakem_team"]
    assert score.next_hakem == case["next_hakem"]
    assert score.next_dealer == case["next_dealer"]


# --------------------------------------------------------------------------- hands


@pytest.mark.parametrize("case", golden_params("hands"))
def test_hand(case: dict[str, Any]) -> None:
    deck = parse_cards(case["deck"])
    plays = parse_cards(case["plays"])
    hand = ref.replay_hand(deck, case["hakem"], parse_suit(case["trump"]), plays)
    assert hand.trick_winners == case["trick_winners"]
    assert hand.tricks_won == case["tricks_won"]
    assert hand.winner_team == case["winner_team"]
    assert hand.points == case["points"]
    assert hand.kind == case["kind"]
    assert hand.plays == plays
    assert hand.hands == ref.deal(deck, case["hakem"])
    # The hand stopped exactly at 7: every card was needed, no more.
    assert len(plays) == 4 * sum(case["tricks_won"])
    assert max(hand.tricks_won) == ref.TRICKS_TO_WIN


# --------------------------------------------------------------------------- matches


@pytest.mark.parametrize("case", golden_params("matches"))
def test_match(case: dict[str, Any]) -> None:
    match = ref.play_match_results(case["first_hakem"], case["target"], case["hand_results"])
    got = [
        {
            "hakem": h.hakem,
            "dealer": h.dealer,
            "tricks_won": h.tricks_won,
            "points": h.points,
            "kind": h.kind,
            "scores": h.scores,
        }
        for h in match.hands
    ]
    assert got == case["hands"]
    assert match.winner_team == case["winner_team"]
    assert match.final_scores == case["final_scores"]


# --------------------------------------------------------------------------- trump choice


def test_longest_bot_breaks_ties_by_rank_sum_then_suit() -> None:
    """The tie-breaks the trump-choice cases rely on, asked of the real ``longest`` bot."""
    # Two clubs (K, 3) against two diamonds (A, Q): diamonds have the higher ranks.
    assert bot_trump("longest", parse_cards("KC 3C AD QD 5H")) == parse_suit("D")
    assert bot_trump("longest", [parse_card(t) for t in ("2S", "3S", "AH", "4C", "5D")]) == 3
    # Equal length and rank sum (K+2 = Q+3): the lower suit, clubs before hearts.
    assert bot_trump("longest", parse_cards("KC 2C QH 3H 9D")) == parse_suit("C")


@pytest.mark.parametrize("case", golden_params("trump_choice"))
@pytest.mark.parametrize("hakem", [0, 3])
def test_trump_choice(case: dict[str, Any], hakem: int) -> None:
    """The ``longest`` bot's own choose_trump, asked as the engine asks it."""
    five = parse_cards(case["first_five"])
    assert bot_trump("longest", five, hakem) == parse_suit(case["trump"])
