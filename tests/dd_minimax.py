"""A plain minimax over small Hokm endings: the test oracle for the double-dummy solver.

Obvious on purpose: every legal card of every seat, no pruning, no
equivalences; a cache on whole positions (the four hands as bit masks, card
``c`` as bit ``c``) keeps endings of up to five cards a hand fast enough for
thousands of positions. Callers pass the hands as sets of cards.
"""

from __future__ import annotations

from functools import cache

from hokm_sim.cards import cards_of

_SUIT = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
"""The cards of each suit as a bit mask (card ``c`` is bit ``c``; suit ``c // 13``)."""


def _legal(hand: int, led: int) -> list[int]:
    follow = hand & _SUIT[led] if led >= 0 else 0
    return cards_of(follow or hand)


def trick_winner(cards: tuple[int, ...], leader: int, trump: int) -> int:
    """Seat that wins a full trick led by ``leader``."""
    led = cards[0] // 13

    def strength(c: int) -> int:
        if c // 13 == trump:
            return 200 + c % 13
        if c // 13 == led:
            return 100 + c % 13
        return 0

    k = max(range(len(cards)), key=lambda i: strength(cards[i]))
    return (leader + k) % 4


def _masks(hands: tuple[frozenset[int], ...]) -> tuple[int, ...]:
    return tuple(sum(1 << c for c in h) for h in hands)


def team0_tricks(
    hands: tuple[frozenset[int], ...], trump: int, leader: int, trick: tuple[int, ...] = ()
) -> int:
    """Double-dummy tricks team 0 takes from the rest of the hand (current trick included)."""
    return _team0_tricks(_masks(hands), trump, leader, tuple(trick))


def team_run(
    hands: tuple[frozenset[int], ...],
    trump: int,
    leader: int,
    team: int,
    trick: tuple[int, ...] = (),
) -> int:
    """Most tricks in a row, from now, that ``team`` can make sure of (its Kot power)."""
    return _team_run(_masks(hands), trump, leader, team, tuple(trick))


@cache
def _team0_tricks(hands: tuple[int, ...], trump: int, leader: int, trick: tuple[int, ...]) -> int:
    seat = (leader + len(trick)) % 4
    if not hands[seat]:
        return 0
    led = trick[0] // 13 if trick else -1
    results = []
    for c in _legal(hands[seat], led):
        new = hands[:seat] + (hands[seat] & ~(1 << c),) + hands[seat + 1 :]
        t = trick + (c,)
        if len(t) == 4:
            w = trick_winner(t, leader, trump)
            results.append((1 if w % 2 == 0 else 0) + _team0_tricks(new, trump, w, ()))
        else:
            results.append(_team0_tricks(new, trump, leader, t))
    return max(results) if seat % 2 == 0 else min(results)


@cache
def _team_run(hands: tuple[int, ...], trump: int, leader: int, team: int, trick: tuple[int, ...]):
    seat = (leader + len(trick)) % 4
    if not hands[seat]:
        return 0
    led = trick[0] // 13 if trick else -1
    results = []
    for c in _legal(hands[seat], led):
        new = hands[:seat] + (hands[seat] & ~(1 << c),) + hands[seat + 1 :]
        t = trick + (c,)
        if len(t) == 4:
            w = trick_winner(t, leader, trump)
            results.append(1 + _team_run(new, trump, w, team, ()) if w % 2 == team else 0)
        else:
            results.append(_team_run(new, trump, leader, team, t))
    return max(results) if seat % 2 == team else min(results)
