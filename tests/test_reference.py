"""Rule tests for hokm_sim.reference beyond the golden cases.

Short scripted sequences for each rule of docs/rules.md, its worked
cases 1-4, and property tests that play random legal hands through
:func:`reference.play_hand` and check them with :func:`reference.replay_hand`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hokm_sim import reference as ref
from hokm_sim.cards import N_CARDS, card_str, parse_card, parse_cards, rank_of, suit_of

C, D, H, S = range(4)


# --------------------------------------------------------------------------- helpers


def deck_for(hands: Sequence[Sequence[int]], hakem: int) -> list[int]:
    """The deck that deals ``hands`` (by seat, in the order received) for ``hakem``.

    The inverse of :func:`reference.deal`, written independently: 5, 4, 4
    cards per seat, Hakem first.
    """
    assert sorted(c for h in hands for c in h) == list(range(N_CARDS))
    deck: list[int] = []
    start = 0
    for size in (5, 4, 4):
        for k in range(4):
            deck.extend(hands[(hakem + k) % 4][start : start + size])
        start += size
    return deck


def shuffled_deck(seed: int) -> list[int]:
    deck = list(range(N_CARDS))
    random.Random(seed).shuffle(deck)
    return deck


def suit_cards(suit: int) -> list[int]:
    return [suit * 13 + r for r in range(13)]


def longest_suit(first_five: list[int], seat: int) -> int:
    """A plain trump rule: the suit with most cards, ties to the higher rank sum."""
    return max(
        range(4),
        key=lambda s: (
            sum(1 for c in first_five if suit_of(c) == s),
            sum(rank_of(c) for c in first_five if suit_of(c) == s),
        ),
    )


def first_legal(seat, hand, trick, legal, view) -> int:
    return legal[0]


def random_player(seed: int):
    rng = random.Random(seed)

    def choose(seat, hand, trick, legal, view) -> int:
        return rng.choice(legal)

    return choose


# --------------------------------------------------------------------------- table and deal


def test_teams_and_seats() -> None:
    assert [ref.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [ref.next_seat(s) for s in range(4)] == [1, 2, 3, 0]
    assert [ref.dealer_of(h) for h in range(4)] == [3, 0, 1, 2]
    with pytest.raises(ValueError):
        ref.dealer_of(4)


@pytest.mark.parametrize("hakem", range(4))
def test_deal_is_5_4_4_from_the_hakem(hakem: int) -> None:
    deck = shuffled_deck(hakem)
    hands = ref.deal(deck, hakem)
    assert all(len(h) == 13 for h in hands)
    assert sorted(c for h in hands for c in h) == list(range(N_CARDS))
    assert hands[hakem][:5] == deck[:5] == ref.first_five(deck)
    # The second seat to receive cards is the Hakem's right, (hakem + 1) % 4.
    assert hands[(hakem + 1) % 4][:5] == deck[5:10]
    # Second round starts again with the Hakem at deck position 20.
    assert hands[hakem][5:9] == deck[20:24]
    assert hands[hakem][9:13] == deck[36:40]
    assert hands[(hakem + 3) % 4][9:13] == deck[48:52]
    assert deck_for(hands, hakem) == deck


@pytest.mark.parametrize(
    "bad_deck",
    [list(range(51)), list(range(51)) + [0], list(range(1, 53)), list(range(52)) + [0]],
)
def test_deal_rejects_bad_decks(bad_deck: list[int]) -> None:
    with pytest.raises(ValueError):
        ref.deal(bad_deck, 0)


def test_first_hakem_by_first_ace() -> None:
    rest = [c for c in range(N_CARDS) if c not in parse_cards("2C 3C 4C AS")]
    deck = parse_cards("2C 3C 4C AS") + rest
    # Cards go to start, start+1, ...: the fourth card goes to start + 3.
    assert [ref.first_hakem_by_first_ace(deck, s) for s in range(4)] == [3, 0, 1, 2]
    ace_first = [parse_card("AD")] + [c for c in range(N_CARDS) if c != parse_card("AD")]
    assert [ref.first_hakem_by_first_ace(ace_first, s) for s in range(4)] == [0, 1, 2, 3]
    # Past four cards the seats wrap around: the sixth card goes to start + 1.
    sixth = parse_cards("2C 3C 4C 5C 6C AH")
    deck = sixth + [c for c in range(N_CARDS) if c not in sixth]
    assert ref.first_hakem_by_first_ace(deck, 2) == 3


@given(st.randoms(use_true_random=False), st.integers(0, 3))
def test_first_hakem_is_the_seat_of_the_first_ace(rnd: random.Random, start: int) -> None:
    deck = list(range(N_CARDS))
    rnd.shuffle(deck)
    first_ace_at = next(i for i, c in enumerate(deck) if rank_of(c) == 12)
    assert ref.first_hakem_by_first_ace(deck, start) == (start + first_ace_at) % 4


def _deck(top: str) -> list[int]:
    first = parse_cards(top)
    return first + [c for c in range(N_CARDS) if c not in first]


def test_first_hakem_by_highest_card() -> None:
    # one card each from the start seat: KH to seat 2, the highest
    hakem, turned = ref.first_hakem_draw(_deck("2C 9D KH 5S"), 0, "highest-card")
    assert hakem == 2 and [s for s, _c in turned] == [0, 1, 2, 3]
    assert ref.first_hakem_draw(_deck("2C 9D KH 5S"), 1, "highest-card")[0] == 3
    # seats 1 and 3 tie on aces: each gets one more card, in play order; 3 wins with the Q
    hakem, turned = ref.first_hakem_draw(_deck("2C AD 4H AS 7C QD"), 0, "highest-card")
    assert hakem == 3 and turned[4:] == [(1, parse_card("7C")), (3, parse_card("QD"))]
    # tied again (7 and 7), and again: the third round decides
    hakem, turned = ref.first_hakem_draw(_deck("2C AD 4H AS 7C 7D 3S 9H"), 0, "highest-card")
    assert hakem == 3 and len(turned) == 8


def test_first_hakem_by_highest_two() -> None:
    # two rounds: seat 0 A+2 (12+0), seat 1 K+K (11+11), seat 2 Q+3, seat 3 J+4
    hakem, turned = ref.first_hakem_draw(_deck("AC KD QH JS 2C KH 3D 4S"), 0, "highest-two")
    assert hakem == 1 and [s for s, _c in turned] == [0, 1, 2, 3] * 2
    # seat 0 A+K ties seat 2 K+A: one more card each, seat 0 first
    hakem, turned = ref.first_hakem_draw(_deck("AC 2D KH 3S KC 4D AH 5S 6C 8D"), 0, "highest-two")
    assert hakem == 2 and turned[8:] == [(0, parse_card("6C")), (2, parse_card("8D"))]


def test_a_tie_to_the_end_of_the_deck_goes_to_the_first_tied_seat() -> None:
    # ranks in fours, high to low: every round ties all four seats until the deck is out
    deck = [s * 13 + r for r in range(12, -1, -1) for s in range(4)]
    for start in range(4):
        hakem, turned = ref.first_hakem_draw(deck, start, "highest-card")
        assert hakem == start and len(turned) == N_CARDS
    with pytest.raises(ValueError, match="unknown first-Hakem method"):
        ref.first_hakem_draw(deck, 0, "two-aces")


# --------------------------------------------------------------------------- worked cases


def test_worked_case_1_longest_suit_names_hearts_from_the_first_five() -> None:
    five = parse_cards("AH QH 9H KC 4D")
    deck = five + [c for c in range(N_CARDS) if c not in five]
    seen = []

    def choose_trump(first_five: list[int], seat: int) -> int:
        seen.append((first_five, seat))
        return longest_suit(first_five, seat)

    hand = ref.play_hand(deck, 2, choose_trump, first_legal)
    # The Hakem saw exactly its first five cards, and only once.
    assert seen == [(five, 2)]
    assert hand.trump == H


def test_worked_case_2_trump_beats_the_led_ace_and_must_follow() -> None:
    trick = parse_cards("KC 3C 2H AC")
    for leader in range(4):
        # C, the third seat to play, wins with the trump despite D's ace.
        assert ref.trick_winner(trick, leader, H) == (leader + 2) % 4
    # Without hearts as trump the ace of clubs wins.
    assert ref.trick_winner(trick, 0, S) == 3
    # A player who holds a club may not play 2H on the club lead...
    assert ref.legal_cards(parse_cards("2H 9C AS"), parse_cards("KC 3C")) == [parse_card("9C")]
    # ...but a player void in clubs may.
    assert parse_card("2H") in ref.legal_cards(parse_cards("2H 9D AS"), parse_cards("KC 3C"))


def test_worked_case_3_hakem_side_7_to_2_is_one_point_not_kot() -> None:
    for hakem in range(4):
        team = hakem % 2
        won = [0, 0]
        won[team], won[1 - team] = 7, 2
        score = ref.score_hand(hakem, won)
        assert (score.winner_team, score.points, score.kind) == (team, 1, "normal")
        assert (score.next_hakem, score.next_dealer) == (hakem, (hakem + 3) % 4)


def test_worked_case_4_opponents_on_5_take_first_7_tricks_and_win_at_once() -> None:
    # Team 1 gets to 5 points; then team 0's seat 2 is Hakem.
    results = [[3, 7], [0, 7], [2, 7], [3, 7], [7, 3]]
    before = ref.play_match_results(0, 7, results)
    assert before.final_scores == [1, 5]
    assert before.winner_team is None
    assert before.hands[-1].hakem == 1 and before.hands[-1].winner_team == 0
    hakem = 2  # team 0 won with team 1's Hakem, so the Hakem passed to seat 2

    # A real hand in which the opponents take the first 7 tricks: seat 3 holds
    # every club and the Hakem names clubs (it holds none, so a poor choice).
    hands = [suit_cards(D), suit_cards(H), suit_cards(S), suit_cards(C)]
    deck = deck_for(hands, hakem)
    hand = ref.play_hand(deck, hakem, lambda five, seat: C, first_legal)
    assert hand.trick_winners == [3] * 7
    assert hand.tricks_won == [0, 7]
    assert (hand.winner_team, hand.points, hand.kind) == (1, 3, "hakem_kot")
    assert len(hand.plays) == 28  # the other 24 cards are never played

    match = ref.play_match_results(0, 7, [*results, hand.tricks_won])
    last = match.hands[-1]
    assert (last.hakem, last.points, last.kind, last.scores) == (2, 3, "hakem_kot", [1, 8])
    assert match.winner_team == 1
    assert match.final_scores == [1, 8]  # counted in full: 5 + 3 = 8
    with pytest.raises(ref.MatchOver):
        ref.play_match_results(0, 7, [*results, hand.tricks_won, [7, 0]])


# --------------------------------------------------------------------------- legal cards and tricks


def test_legal_cards_leading_and_following() -> None:
    hand = parse_cards("2H 9C AS KC")
    assert ref.legal_cards(hand, []) == hand
    assert ref.legal_cards(hand, parse_cards("3C")) == parse_cards("9C KC")
    assert ref.legal_cards(hand, parse_cards("3D 4D 5D")) == hand  # void: anything
    # Must follow even when the partner is winning with the ace.
    assert ref.legal_cards(parse_cards("2S 7S AH"), parse_cards("AS 3S")) == parse_cards("2S 7S")
    with pytest.raises(ValueError):
        ref.legal_cards(hand, parse_cards("3D 4D 5D 6D"))  # trick already full
    with pytest.raises(ValueError):
        ref.legal_cards(hand, parse_cards("AS"))  # card both in hand and trick


def test_trick_winner_basic_rules() -> None:
    # No trump played: off-suit aces do nothing.
    assert ref.trick_winner(parse_cards("5D AC AS 9D"), 1, H) == 0
    # Overtrump: the highest trump wins.
    assert ref.trick_winner(parse_cards("5D 2H 3H 9D"), 0, H) == 2
    # Trump led: the highest trump wins.
    assert ref.trick_winner(parse_cards("4S AD 9S 2S"), 3, S) == 1
    # Leader wins when nobody beats the led card.
    assert ref.trick_winner(parse_cards("2C 2D 2H 2S"), 2, D) == 3
    assert ref.trick_winner(parse_cards("3C 2D 2H 2S"), 2, C) == 2
    # Unfinished trick: who is winning so far.
    assert ref.trick_winner(parse_cards("3C"), 1, H) == 1
    assert ref.trick_winner(parse_cards("3C 4C"), 1, H) == 2
    with pytest.raises(ValueError):
        ref.trick_winner([], 0, H)
    with pytest.raises(ValueError):
        ref.trick_winner(parse_cards("3C 4C 5C 6C 7C"), 0, H)
    with pytest.raises(ValueError):
        ref.trick_winner(parse_cards("3C 4C"), 0, 4)


# --------------------------------------------------------------------------- illegal plays


def _golden_like_hand() -> tuple[list[int], int, int, list[int]]:
    """A random hand played with legal cards: deck, hakem, trump, plays."""
    deck = shuffled_deck(12345)
    hand = ref.play_hand(deck, 1, longest_suit, random_player(7))
    return deck, 1, hand.trump, hand.plays


def test_replay_reproduces_play_hand() -> None:
    deck, hakem, trump, plays = _golden_like_hand()
    again = ref.replay_hand(deck, hakem, trump, plays)
    assert again.plays == plays
    assert again.dealer == (hakem + 3) % 4
    assert again.tricks[0].leader == hakem


def test_card_not_held_is_illegal() -> None:
    deck, hakem, trump, plays = _golden_like_hand()
    hands = ref.deal(deck, hakem)
    foreign = hands[(hakem + 1) % 4][0]
    with pytest.raises(ref.IllegalPlay) as info:
        ref.replay_hand(deck, hakem, trump, [foreign, *plays[1:]])
    err = info.value
    assert (err.seat, err.trick_no, err.card) == (hakem, 0, foreign)
    assert f"seat {hakem}" in str(err) and card_str(foreign) in str(err)
    assert "does not hold" in str(err)


def test_card_played_twice_is_illegal() -> None:
    deck, hakem, trump, plays = _golden_like_hand()
    # The leader of trick 1 plays again the card it played to trick 0.
    first = ref.replay_hand(deck, hakem, trump, plays).tricks[0]
    leader = first.winner
    again = first.cards[first.seats.index(leader)]
    with pytest.raises(ref.IllegalPlay) as info:
        ref.replay_hand(deck, hakem, trump, [*plays[:4], again, *plays[5:]])
    assert (info.value.seat, info.value.trick_no, info.value.card) == (leader, 1, again)


def test_failing_to_follow_suit_is_illegal() -> None:
    # Seat 0 (Hakem) leads KC; seat 1 holds one club, 9C, but plays 2H.
    hands = [
        parse_cards("KC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD AD"),
        parse_cards("2H 9C 2S 3S 4S 5S 6S 7S 8S TS JS QS AS"),
        parse_cards("3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH KS"),
        parse_cards("2C 3C 4C 5C 6C 7C 8C 9S TC JC QC AC KD"),
    ]
    deck = deck_for(hands, 0)
    with pytest.raises(ref.IllegalPlay) as info:
        ref.replay_hand(deck, 0, H, parse_cards("KC 2H"))
    err = info.value
    assert (err.seat, err.trick_no, err.card) == (1, 0, parse_card("2H"))
    assert "2H" in str(err) and "9C" in str(err) and "follow" in str(err)
    # Following with the club is fine (the hand is then just unfinished).
    with pytest.raises(ref.HandNotFinished):
        ref.replay_hand(deck, 0, H, parse_cards("KC 9C"))


def test_wrong_seat_order_is_illegal() -> None:
    deck, hakem, trump, _ = _golden_like_hand()
    hands = ref.deal(deck, hakem)
    # The Hakem must lead; a card of the seat after it is not held by the Hakem.
    with pytest.raises(ref.IllegalPlay) as info:
        ref.replay_hand(deck, hakem, trump, [hands[(hakem + 1) % 4][0]])
    assert info.value.seat == hakem


def test_play_hand_rejects_an_illegal_choice() -> None:
    def revoke(seat, hand, trick, legal, view) -> int:
        off = [c for c in hand if c not in legal]
        return off[0] if off else legal[0]

    with pytest.raises(ref.IllegalPlay, match="outside the legal"):
        for seed in range(20):  # some deal soon forces a seat to follow suit
            ref.play_hand(shuffled_deck(seed), 0, longest_suit, revoke)


def test_play_hand_rejects_a_bad_trump() -> None:
    with pytest.raises(ValueError):
        ref.play_hand(shuffled_deck(0), 0, lambda five, seat: 4, first_legal)


def test_play_hand_decisions_cannot_change_the_hand() -> None:
    def vandal(seat, hand, trick, legal, view) -> int:
        card = legal[0]
        hand.clear()
        trick.append(0)
        view.tricks_won[0] = 99
        for t in view.history:
            t.cards.clear()
        legal.clear()
        return card

    deck = shuffled_deck(3)
    hand = ref.play_hand(deck, 3, longest_suit, vandal)
    assert hand.plays == ref.play_hand(deck, 3, longest_suit, first_legal).plays
    assert all(len(t.cards) == 4 for t in hand.tricks)


def test_play_hand_view() -> None:
    views = []

    def watch(seat, hand, trick, legal, view) -> int:
        views.append((seat, len(hand), list(trick), view))
        return legal[0]

    hand = ref.play_hand(shuffled_deck(9), 2, lambda five, seat: S, watch)
    assert len(views) == len(hand.plays)
    for i, (seat, held, trick, view) in enumerate(views):
        trick_no, position = divmod(i, 4)
        assert view.trump == S and view.hakem == 2
        assert view.trick_no == trick_no and len(view.history) == trick_no
        assert len(trick) == position
        assert seat == (view.leader + position) % 4
        assert held == 13 - trick_no
        assert sum(view.tricks_won) == trick_no
    assert views[0][3].leader == 2


# --------------------------------------------------------------------------- the hand stops at 7


def test_hand_stops_exactly_at_7() -> None:
    deck, hakem, trump, plays = _golden_like_hand()
    hand = ref.replay_hand(deck, hakem, trump, plays)
    assert max(hand.tricks_won) == 7 and min(hand.tricks_won) < 7
    assert len(hand.tricks) == sum(hand.tricks_won) < 13
    # One card fewer: not finished.
    with pytest.raises(ref.HandNotFinished):
        ref.replay_hand(deck, hakem, trump, plays[:-1])
    with pytest.raises(ref.HandNotFinished):
        ref.replay_hand(deck, hakem, trump, [])
    # One card more (a legal-looking card of the next leader): the hand is over.
    leader = hand.tricks[-1].winner
    held = [c for c in ref.deal(deck, hakem)[leader] if c not in plays]
    with pytest.raises(ref.IllegalPlay, match="over") as info:
        ref.replay_hand(deck, hakem, trump, [*plays, held[0]])
    assert info.value.trick_no == len(hand.tricks)


def test_hand_with_a_7_0_sweep_stops_after_7_tricks() -> None:
    # Seat 0 (Hakem) holds all spades and names spades: a Kot in 7 tricks.
    hands = [suit_cards(S), suit_cards(D), suit_cards(H), suit_cards(C)]
    deck = deck_for(hands, 0)
    hand = ref.play_hand(deck, 0, longest_suit, first_legal)
    assert hand.trump == S
    assert hand.tricks_won == [7, 0] and hand.trick_winners == [0] * 7
    assert (hand.winner_team, hand.points, hand.kind) == (0, 2, "kot")
    assert (hand.score.next_hakem, hand.score.next_dealer) == (0, 3)
    with pytest.raises(ref.IllegalPlay, match="over"):
        ref.replay_hand(deck, 0, S, [*hand.plays, parse_card("9S")])


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 3))
def test_random_legal_hands(seed: int, hakem: int) -> None:
    deck = shuffled_deck(seed)
    hand = ref.play_hand(deck, hakem, longest_suit, random_player(seed + 1))
    dealt = ref.deal(deck, hakem)

    # Re-derive everything from the plays with independent, simple code.
    held = [set(h) for h in dealt]
    leader = hakem
    won = [0, 0]
    for n, trick in enumerate(hand.tricks):
        assert trick.leader == leader
        led = suit_of(trick.cards[0])
        for k, card in enumerate(trick.cards):
            seat = (leader + k) % 4
            assert card in held[seat]
            if k > 0 and any(suit_of(c) == led for c in held[seat]):
                assert suit_of(card) == led
            held[seat].remove(card)
        trumps = [c for c in trick.cards if suit_of(c) == hand.trump]
        best = max(trumps or [c for c in trick.cards if suit_of(c) == led])
        assert trick.winner == (leader + trick.cards.index(best)) % 4
        won[trick.winner % 2] += 1
        leader = trick.winner
        assert max(won) < 7 or n == len(hand.tricks) - 1
    assert won == hand.tricks_won and 7 in won

    again = ref.replay_hand(deck, hakem, hand.trump, hand.plays)
    assert again == hand
    assert hand.score == ref.score_hand(hakem, won)


# --------------------------------------------------------------------------- scoring and succession


@pytest.mark.parametrize("hakem", range(4))
def test_kot_and_hakem_kot(hakem: int) -> None:
    team = hakem % 2
    sweep_by_hakem = [0, 0]
    sweep_by_hakem[team] = 7
    kot = ref.score_hand(hakem, sweep_by_hakem)
    assert (kot.winner_team, kot.points, kot.kind, kot.hakem_team) == (team, 2, "kot", team)

    sweep_against = [0, 0]
    sweep_against[1 - team] = 7
    hk = ref.score_hand(hakem, sweep_against)
    assert (hk.winner_team, hk.points, hk.kind) == (1 - team, 3, "hakem_kot")

    for loser_tricks in range(1, 7):
        for winner in (0, 1):
            won = [0, 0]
            won[winner], won[1 - winner] = 7, loser_tricks
            score = ref.score_hand(hakem, won)
            assert (score.winner_team, score.points, score.kind) == (winner, 1, "normal")


@pytest.mark.parametrize("hakem", range(4))
def test_succession(hakem: int) -> None:
    team = hakem % 2
    win, lose = [0, 0], [0, 0]
    win[team], win[1 - team] = 7, 4
    lose[team], lose[1 - team] = 4, 7
    kept = ref.score_hand(hakem, win)
    assert (kept.next_hakem, kept.next_dealer) == (hakem, ref.dealer_of(hakem))
    passed = ref.score_hand(hakem, lose)
    # The Hakem goes to the old Hakem's right; the old Hakem deals.
    assert passed.next_hakem == (hakem + 1) % 4
    assert passed.next_dealer == hakem
    assert passed.next_hakem % 2 != team  # it passes to the other team


@pytest.mark.parametrize("bad", [[7, 7], [6, 6], [8, 0], [7, -1], [7], [7, 0, 0], [0, 0]])
def test_score_hand_rejects_unfinished_or_impossible_results(bad: list[int]) -> None:
    with pytest.raises(ValueError):
        ref.score_hand(0, bad)


def test_match_succession_and_dealers() -> None:
    match = ref.play_match_results(3, 7, [[7, 5], [7, 5], [3, 7], [3, 7], [7, 0]])
    assert [h.hakem for h in match.hands] == [3, 0, 0, 1, 1]
    assert [h.dealer for h in match.hands] == [2, 3, 3, 0, 0]
    assert [h.scores for h in match.hands] == [[1, 0], [2, 0], [2, 1], [2, 2], [5, 2]]
    assert match.hands[-1].kind == "hakem_kot"
    assert match.winner_team is None
    assert match.final_scores == [5, 2]


def test_match_ends_at_once_at_the_target() -> None:
    results = [[0, 7]] * 3  # hakem 0 loses 3 (Hakem Kot), then seat 1 wins Kot, ...
    match = ref.play_match_results(0, 7, results)
    assert [h.kind for h in match.hands] == ["hakem_kot", "kot", "kot"]
    assert match.final_scores == [0, 7] and match.winner_team == 1
    with pytest.raises(ref.MatchOver):
        ref.play_match_results(0, 7, [*results, [7, 3]])
    # A lower target ends sooner; reaching it exactly is enough.
    short = ref.play_match_results(0, 3, [[0, 7]])
    assert short.winner_team == 1 and short.final_scores == [0, 3]
    with pytest.raises(ref.MatchOver):
        ref.play_match_results(0, 3, [[0, 7], [0, 7]])


def test_match_with_no_hands_and_bad_arguments() -> None:
    empty = ref.play_match_results(2, 7, [])
    assert empty.hands == [] and empty.winner_team is None and empty.final_scores == [0, 0]
    with pytest.raises(ValueError):
        ref.play_match_results(0, 0, [])
    with pytest.raises(ValueError):
        ref.play_match_results(4, 7, [])
    with pytest.raises(ValueError):
        ref.play_match_results(0, 7, [[6, 6]])


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 3),
    st.integers(1, 12),
    st.lists(st.tuples(st.booleans(), st.integers(0, 6)), min_size=1, max_size=40),
)
def test_random_matches(first_hakem: int, target: int, outcomes) -> None:
    results = []
    for team0_wins, loser in outcomes:
        results.append([7, loser] if team0_wins else [loser, 7])
    # Cut the list at the first hand that reaches the target (as a match does).
    scores, hakem, cut = [0, 0], first_hakem, len(results)
    for i, won in enumerate(results):
        winner = 0 if won[0] == 7 else 1
        hakem_team = hakem % 2
        points = 1 if min(won) > 0 else (2 if winner == hakem_team else 3)
        scores[winner] += points
        hakem = hakem if winner == hakem_team else (hakem + 1) % 4
        if scores[winner] >= target:
            cut = i + 1
            break
    match = ref.play_match_results(first_hakem, target, results[:cut])
    assert match.final_scores == scores
    assert match.winner_team == (None if max(scores) < target else scores.index(max(scores)))
    assert all(max(h.scores) < target for h in match.hands[:-1])
    if cut < len(results):
        with pytest.raises(ref.MatchOver):
            ref.play_match_results(first_hakem, target, results[: cut + 1])
