"""Tests for hokm_sim.cards: card text <-> index, masks, and CardSet."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hokm_sim.cards import (
    FULL_DECK,
    N_CARDS,
    RANKS,
    SUIT_MASKS,
    SUITS,
    CardParseError,
    CardSet,
    card_str,
    card_symbol,
    cards_of,
    highest,
    highest_in_suit,
    lowest,
    make_card,
    mask_of,
    parse_card,
    parse_cards,
    parse_suit,
    popcount,
    rank_of,
    suit_of,
)

ALL_TEXTS = [r + s for s in SUITS for r in RANKS]
card_indices = st.integers(min_value=0, max_value=N_CARDS - 1)
card_subsets = st.sets(card_indices)


# --------------------------------------------------------------------------- index layout


def test_index_is_suit_times_13_plus_rank() -> None:
    assert parse_card("2C") == 0
    assert parse_card("AC") == 12
    assert parse_card("2D") == 13
    assert parse_card("TH") == 2 * 13 + 8
    assert parse_card("AS") == 51
    for card in range(N_CARDS):
        assert make_card(suit_of(card), rank_of(card)) == card


def test_all_texts_are_the_52_cards_in_index_order() -> None:
    assert [parse_card(t) for t in ALL_TEXTS] == list(range(N_CARDS))


# --------------------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AS", "AS"),
        ("TH", "TH"),
        ("10H", "TH"),
        ("10♥", "TH"),
        ("10h", "TH"),
        ("th", "TH"),
        ("a♠", "AS"),
        ("A♠", "AS"),
        ("A♠\ufe0f", "AS"),
        ("qh", "QH"),
        ("Qh", "QH"),
        ("2c", "2C"),
        ("2♣", "2C"),
        ("k♦", "KD"),
        ("j♣", "JC"),
        ("9♦", "9D"),
        ("  js ", "JS"),
    ],
)
def test_parse_card_accepts_variants(text: str, expected: str) -> None:
    assert card_str(parse_card(text)) == expected


@pytest.mark.parametrize(
    "bad",
    ["", "A", "S", "1S", "11H", "1OH", "AX", "ZS", "ASX", "A S", "♠A", "10", "TT", "0H", "AS,"],
)
def test_parse_card_rejects_bad_tokens_naming_them(bad: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_card(bad)
    assert repr(bad) in str(info.value) or bad in str(info.value)


def test_bad_token_message_contains_the_token() -> None:
    with pytest.raises(CardParseError, match="XQ"):
        parse_card("XQ")
    with pytest.raises(CardParseError, match="ZZ"):
        parse_cards("AS ZZ 2C")


def test_parse_card_rejects_non_text() -> None:
    with pytest.raises(CardParseError):
        parse_card(51)  # type: ignore[arg-type]


def test_card_parse_error_is_caught_as_a_value_error() -> None:
    """Callers that catch ValueError (as for int("x")) catch a bad card too."""
    for bad in ("XQ", "1H", ""):
        with pytest.raises(ValueError, match="card"):
            parse_card(bad)


@pytest.mark.parametrize(
    ("text", "suit"),
    [
        ("C", 0),
        ("d", 1),
        ("H", 2),
        ("s", 3),
        ("♣", 0),
        ("♦", 1),
        ("♥", 2),
        ("♠", 3),
        ("♠\ufe0f", 3),
    ],
)
def test_parse_suit(text: str, suit: int) -> None:
    assert parse_suit(text) == suit


@pytest.mark.parametrize("bad", ["", "X", "CD", "clubs", "1"])
def test_parse_suit_rejects_bad_text(bad: str) -> None:
    with pytest.raises(CardParseError):
        parse_suit(bad)


def test_parse_cards_list_and_string() -> None:
    expected = [parse_card("AS"), parse_card("TH"), parse_card("2C")]
    assert parse_cards(["AS", "10h", "2♣"]) == expected
    assert parse_cards("AS th 2c") == expected
    assert parse_cards("AS, TH,2C") == expected
    assert parse_cards("") == []


# --------------------------------------------------------------------------- text forms


@pytest.mark.parametrize("text", ALL_TEXTS)
def test_round_trip_text(text: str) -> None:
    assert card_str(parse_card(text)) == text


def test_round_trip_index() -> None:
    for card in range(N_CARDS):
        assert parse_card(card_str(card)) == card
        assert parse_card(card_symbol(card)) == card


def test_card_str_is_two_characters_and_range_checked() -> None:
    assert all(len(card_str(c)) == 2 for c in range(N_CARDS))
    for bad in (-1, N_CARDS):
        with pytest.raises(ValueError):
            card_str(bad)


def test_card_symbol() -> None:
    assert card_symbol(parse_card("AS")) == "A♠"
    assert card_symbol(parse_card("10H")) == "T♥"


# --------------------------------------------------------------------------- masks


def test_suit_masks_partition_the_deck() -> None:
    assert sum(SUIT_MASKS) == FULL_DECK
    for s, m in enumerate(SUIT_MASKS):
        assert popcount(m) == 13
        assert all(suit_of(c) == s for c in cards_of(m))
    assert popcount(FULL_DECK) == N_CARDS
    assert cards_of(FULL_DECK) == list(range(N_CARDS))


def test_mask_helpers() -> None:
    m = mask_of(parse_cards("2C TH AS 5H"))
    assert popcount(m) == 4
    assert lowest(m) == parse_card("2C")
    assert highest(m) == parse_card("AS")
    assert highest_in_suit(m, parse_suit("H")) == parse_card("TH")
    assert highest_in_suit(m, parse_suit("D")) == -1
    assert mask_of([]) == 0
    assert cards_of(0) == []
    assert popcount(0) == 0
    assert mask_of([5, 5]) == 1 << 5


@given(card_subsets)
def test_mask_of_cards_of_round_trip(cards: set[int]) -> None:
    mask = mask_of(cards)
    assert cards_of(mask) == sorted(cards)
    assert popcount(mask) == len(cards)
    assert 0 <= mask <= FULL_DECK


@given(st.integers(min_value=0, max_value=FULL_DECK))
def test_cards_of_mask_of_round_trip(mask: int) -> None:
    assert mask_of(cards_of(mask)) == mask


@given(card_subsets.filter(bool))
def test_lowest_highest_and_per_suit(cards: set[int]) -> None:
    mask = mask_of(cards)
    assert lowest(mask) == min(cards)
    assert highest(mask) == max(cards)
    for suit in range(4):
        in_suit = [c for c in cards if suit_of(c) == suit]
        assert highest_in_suit(mask, suit) == (max(in_suit) if in_suit else -1)


# --------------------------------------------------------------------------- CardSet


def test_cardset_repr() -> None:
    assert repr(CardSet.parse("AS th 2c")) == "{2C, TH, AS}"
    assert repr(CardSet.parse(["10♥", "a♠", "2♣"])) == "{2C, TH, AS}"
    assert repr(CardSet()) == "{}"


def test_cardset_behaviour() -> None:
    cs = CardSet.parse("AS TH 2C 5H")
    assert len(cs) == 4
    assert list(cs) == sorted(parse_cards("AS TH 2C 5H"))
    assert parse_card("TH") in cs
    assert parse_card("KH") not in cs
    assert "TH" not in cs  # membership is by card index, not text
    assert 52 not in cs
    assert cs.suit(parse_suit("H")) == CardSet.parse("TH 5H")
    assert cs.texts() == ["2C", "5H", "TH", "AS"]
    assert cs == CardSet.of(parse_cards("2C 5H TH AS"))
    assert hash(cs) == hash(CardSet.of(parse_cards("2C 5H TH AS")))
    assert cs != CardSet.parse("AS")


def test_cardset_rejects_bad_masks() -> None:
    with pytest.raises(ValueError):
        CardSet(-1)
    with pytest.raises(ValueError):
        CardSet(FULL_DECK + 1)


@given(card_subsets)
def test_cardset_round_trip(cards: set[int]) -> None:
    cs = CardSet.of(cards)
    assert len(cs) == len(cards)
    assert list(cs) == sorted(cards)
    assert CardSet.parse(cs.texts()) == cs
    assert CardSet.parse(repr(cs).strip("{}")) == cs
