"""The rules of four-player Hokm, written to be read: the test oracle.

This module is a slow, plain-Python statement of the rules in docs/rules.md. It exists
so that the fast numba engine has something obviously correct to be checked
against, and it is itself checked against the golden cases in ``golden/``.
Clarity wins over speed everywhere: cards are card indices (``int``, see
:mod:`hokm_sim.cards`), hands and tricks are Python lists, and there are no
bit tricks.

Conventions (all from docs/rules.md):

- Card index ``suit * 13 + rank``; suits 0..3 are C D H S, ranks 0..12 are 2..A.
- Seats 0..3. Play and dealing pass from seat ``s`` to seat ``(s + 1) % 4``.
- Team of a seat is ``seat % 2``: team 0 is seats 0 and 2, team 1 seats 1 and 3.
- A deck is a sequence of the 52 card indices, top (first dealt) first.
- A trick is the list of cards played so far, in play order, starting with
  the leader's card; its ``k``-th card was played by seat ``(leader + k) % 4``.
- Tricks won are always given as ``[team0, team1]``.

Errors: a card that a seat does not hold or may not play raises
:class:`IllegalPlay` (naming the seat, trick and card); a card sequence that
stops before the hand is decided raises :class:`HandNotFinished`; hands given
to a match after it is decided raise :class:`MatchOver`. Malformed arguments
(a deck that is not 52 distinct cards, a seat outside 0..3, ...) raise
``ValueError``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hokm_sim.cards import N_CARDS, SUITS, card_str, rank_of, suit_of

N_SEATS = 4
"""Seats at the table, 0..3."""
HAND_SIZE = 13
"""Cards each seat receives."""
DEAL_ROUNDS = (5, 4, 4)
"""Cards given to each seat in each round of the deal, Hakem first."""
TRICKS_TO_WIN = 7
"""Tricks that end a hand: the first team to take this many wins it."""
ACE = 12
"""Rank index of the ace."""
KIND_NORMAL = "normal"
"""The winners took 7 and the losers at least 1: 1 point."""
KIND_KOT = "kot"
"""The Hakem's team took 7 and the opponents none: 2 points."""
KIND_HAKEM_KOT = "hakem_kot"
"""The opponents took 7 and the Hakem's team none: 3 points."""
POINTS = {KIND_NORMAL: 1, KIND_KOT: 2, KIND_HAKEM_KOT: 3}
"""Match points for each kind of hand result. They replace each other, never add."""


# --------------------------------------------------------------------------- errors


class IllegalPlay(ValueError):
    """A card that may not be played where it was played.

    ``seat``, ``trick_no`` (0-based) and ``card`` say where; the message also
    gives the card as text and the reason.
    """

    def __init__(self, seat: int, trick_no: int, card: int, reason: str) -> None:
        self.seat = seat
        self.trick_no = trick_no
        self.card = card
        self.reason = reason
        super().__init__(f"seat {seat}, trick {trick_no}, card {_card_text(card)}: {reason}")


class HandNotFinished(ValueError):
    """A card sequence that ends before either team has taken 7 tricks."""


class MatchOver(ValueError):
    """A hand result given after a team already reached the match target."""


# --------------------------------------------------------------------------- table basics


def team_of(seat: int) -> int:
    """Team of a seat: 0 for seats 0 and 2, 1 for seats 1 and 3 (partners sit opposite)."""
    return _check_seat(seat, "seat") % 2


def next_seat(seat: int) -> int:
    """The seat that plays after ``seat``: play passes from ``s`` to ``(s + 1) % 4``."""
    return (_check_seat(seat, "seat") + 1) % N_SEATS


def dealer_of(hakem: int) -> int:
    """The dealer for a given Hakem: the player on the Hakem's left, ``(hakem + 3) % 4``.

    The deal starts on the dealer's right, which is the Hakem, so the Hakem
    receives the first cards.
    """
    return (_check_seat(hakem, "hakem") + 3) % N_SEATS


def first_five(deck: Sequence[int]) -> list[int]:
    """The Hakem's first five cards, deck positions 0..4: all the Hakem sees before naming trump."""
    return _check_deck(deck)[:5]


def deal(deck: Sequence[int], hakem: int) -> list[list[int]]:
    """Deal a deck: the hand of each seat (index = seat), cards in the order received.

    Dealing goes from the top of the deck in play order starting with the
    Hakem: 5 cards to each of ``hakem, hakem+1, hakem+2, hakem+3``, then 4
    each in the same order, then 4 each. Every seat ends with 13 cards.
    """
    cards = _check_deck(deck)
    _check_seat(hakem, "hakem")
    hands: list[list[int]] = [[] for _ in range(N_SEATS)]
    position = 0
    for round_size in DEAL_ROUNDS:
        for k in range(N_SEATS):
            seat = (hakem + k) % N_SEATS
            hands[seat].extend(cards[position : position + round_size])
            position += round_size
    assert position == N_CARDS and all(len(h) == HAND_SIZE for h in hands)
    return hands


def first_hakem_draw(
    deck: Sequence[int], start_seat: int, method: str = "first-ace"
) -> tuple[int, list[tuple[int, int]]]:
    """The first Hakem of a match by a house rule, and the cards turned to find it.

    Cards are turned face up from the top of ``deck``, one at a time, to the
    seats in play order starting with ``start_seat``. (These cards are not
    the hand; the deck is shuffled again before the first deal.) ``method``:

    - ``first-ace``: until a seat receives an ace; that seat is Hakem.
    - ``highest-card``: one card to each seat; the highest rank is Hakem.
    - ``highest-two``: two rounds, two cards to each seat; the highest sum of
      ranks is Hakem.

    With the two "highest" rules, seats tied for the best score are each given
    one more card, in play order, and the highest of those wins, again while a
    tie remains; should the deck run out, the first tied seat in play order
    from ``start_seat`` is Hakem. Returns ``(hakem, [(seat, card), ...])``.
    """
    cards = _check_deck(deck)
    start = _check_seat(start_seat, "start_seat")
    order = [(start + k) % N_SEATS for k in range(N_SEATS)]
    turned: list[tuple[int, int]] = []
    if method == "first-ace":
        for i, card in enumerate(cards):
            turned.append((order[i % N_SEATS], card))
            if rank_of(card) == ACE:
                return order[i % N_SEATS], turned
        raise AssertionError("a full deck always holds an ace")  # pragma: no cover
    rounds = {"highest-card": 1, "highest-two": 2}.get(method)
    if rounds is None:
        raise ValueError(f"unknown first-Hakem method {method!r}")
    score = dict.fromkeys(order, 0)
    position = 0
    for _ in range(rounds):
        for seat in order:
            turned.append((seat, cards[position]))
            score[seat] += rank_of(cards[position])
            position += 1
    tied = order
    while True:
        best = max(score[seat] for seat in tied)
        tied = [seat for seat in tied if score[seat] == best]
        if len(tied) == 1 or position + len(tied) > N_CARDS:
            return tied[0], turned
        for seat in tied:
            turned.append((seat, cards[position]))
            score[seat] = rank_of(cards[position])
            position += 1


def first_hakem_by_first_ace(deck: Sequence[int], start_seat: int) -> int:
    """The first Hakem of a match by the first-ace method (see :func:`first_hakem_draw`)."""
    return first_hakem_draw(deck, start_seat, "first-ace")[0]


# --------------------------------------------------------------------------- one trick


def legal_cards(hand: Sequence[int], trick: Sequence[int]) -> list[int]:
    """The cards of ``hand`` that may be played next onto ``trick``, in hand order.

    ``trick`` holds the cards already played to the current trick (0 to 3 of
    them, leader's first). Leading, any card may be played. Otherwise a seat
    that holds the led suit must play that suit, even when its partner is
    winning; a seat void in the led suit may play any card (trumping is never
    compulsory).
    """
    hand_cards = _check_cards(hand, "hand")
    trick_cards = _check_cards(trick, "trick")
    if len(trick_cards) >= N_SEATS:
        raise ValueError(f"trick already holds {len(trick_cards)} cards; nothing more to play")
    shared = set(hand_cards) & set(trick_cards)
    if shared:
        raise ValueError(f"cards both in hand and in trick: {_cards_text(sorted(shared))}")
    if not trick_cards:
        return list(hand_cards)
    led_suit = suit_of(trick_cards[0])
    following = [card for card in hand_cards if suit_of(card) == led_suit]
    if following:
        return following
    return list(hand_cards)


def trick_winner(cards: Sequence[int], leader: int, trump: int) -> int:
    """The seat that wins (or, for an unfinished trick, is winning) a trick.

    ``cards`` are in play order, the first played by ``leader``. The highest
    trump wins; if there is no trump, the highest card of the led suit wins.
    Cards of any other suit never win.
    """
    trick_cards = _check_cards(cards, "trick")
    _check_seat(leader, "leader")
    _check_suit(trump)
    if not 1 <= len(trick_cards) <= N_SEATS:
        raise ValueError(f"a trick holds 1 to 4 cards, got {len(trick_cards)}")
    led_suit = suit_of(trick_cards[0])
    trumps = [card for card in trick_cards if suit_of(card) == trump]
    led_suit_cards = [card for card in trick_cards if suit_of(card) == led_suit]
    # Any trump beats every non-trump; with no trump, only the led suit counts.
    candidates = trumps if trumps else led_suit_cards
    # All candidates share one suit, so the highest rank is a unique card.
    best = max(candidates, key=rank_of)
    position = trick_cards.index(best)
    return (leader + position) % N_SEATS


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class HandScore:
    """The score of a finished hand and who is Hakem and dealer for the next one."""

    hakem: int
    """Hakem of the hand that was scored."""
    tricks_won: list[int]
    """Tricks ``[team0, team1]`` when the hand stopped."""
    winner_team: int
    """Team that took 7 tricks."""
    points: int
    """Match points to the winning team: 1, 2 or 3."""
    kind: str
    """``"normal"``, ``"kot"`` or ``"hakem_kot"``."""
    hakem_team: int
    """Team of the Hakem of the scored hand."""
    next_hakem: int
    """Hakem of the next hand: the same if the Hakem's team won, else ``(hakem + 1) % 4``."""
    next_dealer: int
    """Dealer of the next hand: ``(next_hakem + 3) % 4``; the old Hakem after a loss."""


def score_hand(hakem: int, tricks_won: Sequence[int]) -> HandScore:
    """Score a finished hand from the Hakem's seat and the tricks ``[team0, team1]``.

    Exactly one team must have 7 tricks and the other 0 to 6 (the hand stops
    at 7). The winners score 1 (normal); 2 if they are the Hakem's team and
    the opponents took none (Kot); 3 if they are the Hakem's opponents and the
    Hakem's team took none (Hakem Kot). If the Hakem's team won, Hakem and
    dealer stay; otherwise the Hakem passes to the old Hakem's right,
    ``(hakem + 1) % 4``, and the old Hakem becomes the dealer.
    """
    _check_seat(hakem, "hakem")
    won = _check_tricks_won(tricks_won)
    winner_team = 0 if won[0] == TRICKS_TO_WIN else 1
    loser_tricks = won[1 - winner_team]
    hakem_team = team_of(hakem)

    if loser_tricks > 0:
        kind = KIND_NORMAL
    elif winner_team == hakem_team:
        kind = KIND_KOT
    else:
        kind = KIND_HAKEM_KOT

    next_hakem = hakem if winner_team == hakem_team else (hakem + 1) % N_SEATS
    return HandScore(
        hakem=hakem,
        tricks_won=won,
        winner_team=winner_team,
        points=POINTS[kind],
        kind=kind,
        hakem_team=hakem_team,
        next_hakem=next_hakem,
        next_dealer=dealer_of(next_hakem),
    )


# --------------------------------------------------------------------------- one hand


@dataclass(frozen=True)
class Trick:
    """One finished trick."""

    leader: int
    """Seat that led it."""
    cards: list[int]
    """The four cards in play order; ``cards[k]`` was played by ``(leader + k) % 4``."""
    winner: int
    """Seat that won it (and led the next trick)."""

    @property
    def seats(self) -> list[int]:
        """The seat that played each card, in play order."""
        return [(self.leader + k) % N_SEATS for k in range(len(self.cards))]


@dataclass(frozen=True)
class HandReplay:
    """Everything that happened in one hand."""

    hakem: int
    """Seat of the Hakem, who chose trump and led the first trick."""
    dealer: int
    """Seat of the dealer, ``(hakem + 3) % 4``."""
    trump: int
    """Trump suit 0..3 (C D H S)."""
    hands: list[list[int]]
    """The 13 cards dealt to each seat (index = seat), in the order received."""
    tricks: list[Trick]
    """The tricks played, in order, until a team reached 7."""
    tricks_won: list[int]
    """Tricks ``[team0, team1]`` when the hand stopped."""
    score: HandScore
    """Result, points, kind and the next Hakem and dealer."""

    @property
    def winner_team(self) -> int:
        """Team that took 7 tricks."""
        return self.score.winner_team

    @property
    def points(self) -> int:
        """Match points to the winning team."""
        return self.score.points

    @property
    def kind(self) -> str:
        """``"normal"``, ``"kot"`` or ``"hakem_kot"``."""
        return self.score.kind

    @property
    def trick_winners(self) -> list[int]:
        """The seat that won each trick, in order."""
        return [trick.winner for trick in self.tricks]

    @property
    def plays(self) -> list[int]:
        """Every card played, in order."""
        return [card for trick in self.tricks for card in trick.cards]


@dataclass(frozen=True)
class PlayView:
    """What a seat knows about the hand besides its own cards, for ``choose_card``.

    Everything here is public at a real table.
    """

    trump: int
    """Trump suit 0..3."""
    hakem: int
    """Seat of the Hakem."""
    leader: int
    """Seat that led the current trick."""
    trick_no: int
    """Index of the current trick, 0-based."""
    tricks_won: list[int]
    """Tricks ``[team0, team1]`` so far."""
    history: list[Trick]
    """The finished tricks of this hand, in order."""


TrumpChooser = Callable[[list[int], int], int]
"""``choose_trump(first_five, seat) -> suit``: the Hakem names trump from its first 5 cards."""

CardChooser = Callable[[int, list[int], list[int], list[int], PlayView], int]
"""``choose_card(seat, hand, trick, legal, view) -> card``: the card to play.

- ``seat``: the seat to play.
- ``hand``: that seat's cards still held, in the order received.
- ``trick``: the cards already in the current trick, leader's first (empty when leading).
- ``legal``: the cards of ``hand`` that may be played now; the answer must be one of them.
- ``view``: a :class:`PlayView` with trump, Hakem, leader, trick number, tricks won, history.

Every list is a fresh copy: changing it changes nothing in the hand.
"""


class _HandInPlay:
    """The state of a hand being played, one card at a time, checking every card."""

    def __init__(self, deck: Sequence[int], hakem: int, trump: int) -> None:
        self.hakem = _check_seat(hakem, "hakem")
        self.trump = _check_suit(trump)
        self.dealt = deal(deck, hakem)
        self.held = [list(hand) for hand in self.dealt]  # cards each seat still holds
        self.tricks: list[Trick] = []
        self.tricks_won = [0, 0]
        self.leader = hakem  # the Hakem leads the first trick
        self.trick: list[int] = []  # cards of the current trick, in play order

    @property
    def finished(self) -> bool:
        return TRICKS_TO_WIN in self.tricks_won

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % N_SEATS

    def legal_now(self) -> list[int]:
        return legal_cards(self.held[self.to_play], self.trick)

    def view(self) -> PlayView:
        return PlayView(
            trump=self.trump,
            hakem=self.hakem,
            leader=self.leader,
            trick_no=len(self.tricks),
            tricks_won=list(self.tricks_won),
            history=[Trick(t.leader, list(t.cards), t.winner) for t in self.tricks],
        )

    def play(self, card: int) -> None:
        """Play ``card`` for the seat to play, or raise IllegalPlay."""
        card = operator.index(card)
        seat = self.to_play
        trick_no = len(self.tricks)
        if self.finished:
            team = self.tricks_won.index(TRICKS_TO_WIN)
            raise IllegalPlay(
                seat, trick_no, card, f"the hand is over: team {team} already took 7 tricks"
            )
        if card not in self.held[seat]:
            raise IllegalPlay(
                seat, trick_no, card, f"seat {seat} does not hold it; it holds {self._held(seat)}"
            )
        legal = self.legal_now()
        if card not in legal:
            led = SUITS[suit_of(self.trick[0])]
            raise IllegalPlay(
                seat,
                trick_no,
                card,
                f"must follow the led suit {led} with one of {_cards_text(legal)}",
            )
        self.held[seat].remove(card)
        self.trick.append(card)
        if len(self.trick) == N_SEATS:
            winner = trick_winner(self.trick, self.leader, self.trump)
            self.tricks.append(Trick(leader=self.leader, cards=self.trick, winner=winner))
            self.tricks_won[team_of(winner)] += 1
            self.leader = winner
            self.trick = []

    def result(self) -> HandReplay:
        if not self.finished:
            raise HandNotFinished(
                f"the plays stop after {len(self.tricks)} tricks"
                f" (+{len(self.trick)} cards) with tricks {self.tricks_won}:"
                " neither team has 7"
            )
        return HandReplay(
            hakem=self.hakem,
            dealer=dealer_of(self.hakem),
            trump=self.trump,
            hands=[list(hand) for hand in self.dealt],
            tricks=list(self.tricks),
            tricks_won=list(self.tricks_won),
            score=score_hand(self.hakem, self.tricks_won),
        )

    def _held(self, seat: int) -> str:
        return _cards_text(self.held[seat])


def replay_hand(deck: Sequence[int], hakem: int, trump: int, plays: Sequence[int]) -> HandReplay:
    """Deal ``deck`` and replay ``plays`` (every card played, in order), checking each card.

    The Hakem leads the first trick and each trick's winner leads the next.
    Every card must be held by the seat whose turn it is and be legal there,
    else :class:`IllegalPlay` is raised. The hand stops the moment a team has
    7 tricks: a card after that raises :class:`IllegalPlay`, and plays that
    end before it raise :class:`HandNotFinished`.
    """
    state = _HandInPlay(deck, hakem, trump)
    for card in _check_cards(plays, "plays", distinct=False):
        state.play(card)
    return state.result()


def play_hand(
    deck: Sequence[int],
    hakem: int,
    choose_trump: TrumpChooser,
    choose_card: CardChooser,
) -> HandReplay:
    """Play a hand with plain Python decision functions and return what happened.

    ``choose_trump(first_five, hakem)`` sees only the Hakem's first five cards
    (deck positions 0..4) and returns a suit 0..3. Then, until a team has 7
    tricks, ``choose_card(seat, hand, trick, legal, view)`` (see
    :data:`CardChooser`) is asked for each card in turn; a card outside
    ``legal`` raises :class:`IllegalPlay`.
    """
    cards = _check_deck(deck)
    _check_seat(hakem, "hakem")
    trump = _check_suit(choose_trump(first_five(cards), hakem))
    state = _HandInPlay(cards, hakem, trump)
    while not state.finished:
        seat = state.to_play
        legal = state.legal_now()
        hand, trick = list(state.held[seat]), list(state.trick)
        card = choose_card(seat, hand, trick, list(legal), state.view())
        if card not in legal:
            raise IllegalPlay(
                seat,
                len(state.tricks),
                card,
                f"choose_card returned a card outside the legal {_cards_text(legal)}",
            )
        state.play(card)
    return state.result()


# --------------------------------------------------------------------------- a match


@dataclass(frozen=True)
class MatchHand:
    """One hand of a match, as scored."""

    hakem: int
    """Hakem of this hand."""
    dealer: int
    """Dealer of this hand."""
    tricks_won: list[int]
    """Tricks ``[team0, team1]`` of this hand."""
    winner_team: int
    """Team that won this hand."""
    points: int
    """Points the winners scored."""
    kind: str
    """``"normal"``, ``"kot"`` or ``"hakem_kot"``."""
    scores: list[int]
    """Match scores ``[team0, team1]`` after this hand."""


@dataclass(frozen=True)
class MatchReplay:
    """A match's hands, scored in turn, and its result."""

    first_hakem: int
    """Hakem of the first hand."""
    target: int
    """Points that win the match."""
    hands: list[MatchHand]
    """Each hand in turn."""
    winner_team: int | None
    """Team that reached the target, or None if the results given stop before that."""
    final_scores: list[int]
    """Match scores ``[team0, team1]`` after the last hand."""


def play_match_results(
    first_hakem: int, target: int, hand_results: Sequence[Sequence[int]]
) -> MatchReplay:
    """Score a match from the tricks ``[team0, team1]`` of each hand in turn.

    Each hand is scored with :func:`score_hand`; Hakem and dealer pass as it
    says. The first team to reach at least ``target`` points wins at once,
    with that hand counted in full (5 + 3 = 8); a hand result given after that
    raises :class:`MatchOver`. If the results stop before either team reaches
    the target, ``winner_team`` is None.
    """
    hakem = _check_seat(first_hakem, "first_hakem")
    target = operator.index(target)
    if target < 1:
        raise ValueError(f"target must be at least 1, got {target}")
    scores = [0, 0]
    hands: list[MatchHand] = []
    winner_team: int | None = None
    for number, result in enumerate(hand_results):
        if winner_team is not None:
            raise MatchOver(
                f"hand {number} given after team {winner_team} won the match"
                f" {scores[0]}-{scores[1]} (target {target})"
            )
        score = score_hand(hakem, result)
        scores[score.winner_team] += score.points
        hands.append(
            MatchHand(
                hakem=hakem,
                dealer=dealer_of(hakem),
                tricks_won=list(score.tricks_won),
                winner_team=score.winner_team,
                points=score.points,
                kind=score.kind,
                scores=list(scores),
            )
        )
        if scores[score.winner_team] >= target:
            winner_team = score.winner_team
        hakem = score.next_hakem
    return MatchReplay(
        first_hakem=first_hakem,
        target=target,
        hands=hands,
        winner_team=winner_team,
        final_scores=list(scores),
    )


# --------------------------------------------------------------------------- checks


def _card_text(card: object) -> str:
    """A card as text for messages, or its repr when it is not a card index."""
    if isinstance(card, int) and 0 <= card < N_CARDS:
        return card_str(card)
    return repr(card)


def _cards_text(cards: Sequence[int]) -> str:
    return "[" + " ".join(_card_text(c) for c in cards) + "]"


def _check_seat(seat: int, name: str) -> int:
    seat = operator.index(seat)
    if not 0 <= seat < N_SEATS:
        raise ValueError(f"{name} must be a seat 0..3, got {seat}")
    return seat


def _check_suit(suit: int) -> int:
    suit = operator.index(suit)
    if not 0 <= suit < len(SUITS):
        raise ValueError(f"trump must be a suit 0..3 (C D H S), got {suit}")
    return suit


def _check_cards(cards: Sequence[int], name: str, *, distinct: bool = True) -> list[int]:
    """Card indices as a list of ints; each must be 0..51 and, if ``distinct``, appear once."""
    out = [operator.index(card) for card in cards]
    for card in out:
        if not 0 <= card < N_CARDS:
            raise ValueError(f"{name}: card index {card} out of range 0..51")
    if distinct and len(set(out)) != len(out):
        raise ValueError(f"{name}: repeated cards in {_cards_text(out)}")
    return out


def _check_deck(deck: Sequence[int]) -> list[int]:
    """A deck as a list: every one of the 52 card indices exactly once."""
    cards = _check_cards(deck, "deck", distinct=False)
    if sorted(cards) != list(range(N_CARDS)):
        missing = sorted(set(range(N_CARDS)) - set(cards))
        raise ValueError(
            f"deck must hold each of the 52 cards once; got {len(cards)} cards,"
            f" missing {_cards_text(missing)}"
        )
    return cards


def _check_tricks_won(tricks_won: Sequence[int]) -> list[int]:
    """Tricks ``[team0, team1]`` of a finished hand: one team 7, the other 0..6."""
    won = [operator.index(t) for t in tricks_won]
    if len(won) != 2:
        raise ValueError(f"tricks_won must be [team0, team1], got {won}")
    if sorted(won)[1] != TRICKS_TO_WIN or not 0 <= sorted(won)[0] < TRICKS_TO_WIN:
        raise ValueError(
            f"a finished hand has one team on 7 tricks and the other on 0..6, got {won}"
        )
    return won
