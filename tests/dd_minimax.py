"""A plain minimax over small Hokm endings: the test oracle for the double-dummy solver.

Obvious on purpose: every legal card of every seat, no pruning, no
equivalences; a cache on whole positions keeps endings of up to five cards a
hand fast enough for thousands of positions.
"""

from __future__ import annotations

from functools import cache


def _legal(hand: frozenset[int], led: int) -> list[int]:
    follow = [c for c in hand if c // 13 == led]
    return sorted(follow or hand)


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


@cache
def team0_tricks(
    hands: tuple[frozenset[int], ...], trump: int, leader: int, trick: tuple[int, ...] = ()
) -> int:
    """Double-dummy tricks team 0 takes from the rest of the hand (current trick included)."""
    seat = (leader + len(trick)) % 4
    if not hands[seat]:
        return 0
    led = trick[0] // 13 if trick else -1
    results = []
    for c in _legal(hands[seat], led):
        new = tuple(h - {c} if s == seat else h for s, h in enumerate(hands))
        t = trick + (c,)
        if len(t) == 4:
            w = trick_winner(t, leader, trump)
            results.append((1 if w % 2 == 0 else 0) + team0_tricks(new, trump, w, ()))
        else:
            results.append(team0_tricks(new, trump, leader, t))
    return max(results) if seat % 2 == 0 else min(results)


@cache
def team_run(
    hands: tuple[frozenset[int], ...],
    trump: int,
    leader: int,
    team: int,
    trick: tuple[int, ...] = (),
) -> int:
    """Most tricks in a row, from now, that ``team`` can make sure of (its Kot power)."""
    seat = (leader + len(trick)) % 4
    if not hands[seat]:
        return 0
    led = trick[0] // 13 if trick else -1
    results = []
    for c in _legal(hands[seat], led):
        new = tuple(h - {c} if s == seat else h for s, h in enumerate(hands))
        t = trick + (c,)
        if len(t) == 4:
            w = trick_winner(t, leader, trump)
            results.append(1 + team_run(new, trump, w, team, ()) if w % 2 == team else 0)
        else:
            results.append(team_run(new, trump, leader, team, t))
    return max(results) if seat % 2 == team else min(results)
