"""DDS (bridge's double-dummy solver, through ``endplay``) as a reference for tests.

A Hokm position at a trick boundary is a bridge deal with a trump suit: DDS
answers it. Seats go round as in Hokm (seat 0 is North); Hokm cards are
``13 * suit + rank`` with suits C, D, H, S and ranks 2..A.
"""

from __future__ import annotations

import pytest


def pbn(hands) -> str:
    """A deal in PBN, seat 0 as North: each hand's spades, hearts, diamonds, clubs, high to low."""
    out = []
    for m in hands:
        suits = [
            "".join("23456789TJQKA"[r] for r in range(12, -1, -1) if int(m) >> (13 * s + r) & 1)
            for s in (3, 2, 1, 0)
        ]
        out.append(".".join(suits))
    return "N:" + " ".join(out)


def bridge_deal(hands, trump: int, leader: int):
    """The ``endplay`` deal of four Hokm hands (card masks), with trump and the seat on lead."""
    pytest.importorskip("endplay")
    from endplay.types import Deal, Denom, Player

    d = Deal.from_pbn(pbn(hands))
    d.first = Player(leader)
    d.trump = [Denom.clubs, Denom.diamonds, Denom.hearts, Denom.spades][trump]
    return d


def most_tricks(hands, trump: int, leader: int) -> int:
    """The most tricks the side on lead can take, double dummy (DDS ``SolveBoard``)."""
    from endplay import _dds

    fut = _dds.futureTricks()
    _dds.SolveBoard(bridge_deal(hands, trump, leader)._data, -1, 1, 1, fut, 0)
    return int(fut.score[0])
