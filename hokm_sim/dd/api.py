"""Double-dummy answers from Python: parse deals, check them, solve many at once.

A deal for ``hokm-sim dd`` is one JSON object a line::

    {"hands": [["AS", "KS", ...], [...], [...], [...]], "trump": "H", "leader": 0}

``hands`` are by seat (0..3), all of the same length (13 for a whole deal,
fewer for an ending); cards and suits use :mod:`hokm_sim.cards` text.
Answers count every remaining trick (see :mod:`hokm_sim.dd.solver`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from hokm_sim import jsontext
from hokm_sim.cards import CardParseError, card_str, parse_card, parse_suit
from hokm_sim.dd.solver import analyse_many_nb, card_values_nb, reach_nb, tricks_nb
from hokm_sim.dd.table import DEFAULT_TT_BITS, new_table
from hokm_sim.errors import InputError


class DealError(InputError):
    """A deal that cannot be solved; the message names the problem."""


@dataclass(frozen=True)
class Deal:
    """Four hands (card masks by seat), the trump suit 0..3 and the seat on lead."""

    hands: tuple[int, int, int, int]
    trump: int
    leader: int

    def array(self) -> np.ndarray:
        """The hands as ``int64[4]``."""
        return np.array(self.hands, np.int64)


def parse_deal(text: str) -> Deal:
    """A :class:`Deal` from one JSON line; :class:`DealError` names what is wrong."""
    try:
        obj = jsontext.loads(text)
    except json.JSONDecodeError as exc:
        raise DealError(f"bad JSON: {exc.msg} at character {exc.pos + 1}") from None
    if not isinstance(obj, dict):
        raise DealError(
            'bad deal: expected an object {"hands": [...], "trump": ..., "leader": ...}'
        )
    missing = [k for k in ("hands", "trump", "leader") if k not in obj]
    if missing:
        raise DealError(f"bad deal: missing {', '.join(missing)}")
    hands = obj["hands"]
    if not isinstance(hands, list) or len(hands) != 4:
        raise DealError("bad hands: expected a list of 4 lists of cards (by seat)")
    masks = []
    seen: dict[int, int] = {}
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list):
            raise DealError(f"bad hand of seat {seat}: expected a list of cards")
        m = 0
        for text_card in hand:
            try:
                c = parse_card(text_card)
            except CardParseError as exc:
                raise DealError(f"seat {seat}: {exc}") from None
            if c in seen:
                raise DealError(
                    f"duplicate card {card_str(c)}: in seat {seen[c]} and seat {seat}"
                    if seen[c] != seat
                    else f"duplicate card {card_str(c)} in seat {seat}"
                )
            seen[c] = seat
            m |= 1 << c
        masks.append(m)
    lengths = [len(h) for h in hands]
    if len(set(lengths)) != 1:
        raise DealError(f"unequal hands: seats hold {lengths} cards; all must hold the same")
    if not 1 <= lengths[0] <= 13:
        raise DealError(f"bad hands: {lengths[0]} cards each; expected 1 to 13")
    trump = obj["trump"]
    if isinstance(trump, int) and not isinstance(trump, bool) and 0 <= trump <= 3:
        t = trump
    else:
        try:
            t = parse_suit(trump if isinstance(trump, str) else "?")
        except CardParseError:
            raise DealError(
                f"bad trump {trump!r}: expected C, D, H, S (or ♣ ♦ ♥ ♠, or 0..3)"
            ) from None
    leader = obj["leader"]
    if isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader <= 3:
        raise DealError(f"bad leader {leader!r}: expected a seat 0, 1, 2 or 3")
    return Deal(hands=(masks[0], masks[1], masks[2], masks[3]), trump=t, leader=leader)


def parse_lines(lines: Iterable[str]) -> list[Deal]:
    """The deals of JSON lines (blank lines skipped); the error names the line."""
    deals = []
    try:
        for lineno, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                deals.append(parse_deal(line))
            except DealError as exc:
                raise DealError(f"line {lineno}: {exc}") from None
    except UnicodeDecodeError:
        raise DealError("the input is not UTF-8 text; deals are JSON, one a line") from None
    return deals


def analyse(deals: list[Deal], threads: int = 1, tt_bits: int = DEFAULT_TT_BITS) -> list[dict]:
    """The ``hokm-sim dd`` answers for each deal, in order.

    Each answer holds ``tricks`` (``[team0, team1]``, all remaining tricks),
    ``reach7`` (the leader's team takes 7 or more of them) and, for 13-card
    deals, ``kot`` (the leader's team can take the first 7 tricks in a row)
    and ``hakem_kot`` (the other team can). Deals are cut into ``threads``
    blocks solved in parallel, each with its own table; answers do not
    depend on ``threads``.
    """
    n = len(deals)
    if n == 0:
        return []
    hands = np.array([d.hands for d in deals], np.int64)
    trump = np.array([d.trump for d in deals], np.int64)
    leader = np.array([d.leader for d in deals], np.int64)
    full = np.array([bin(d.hands[0]).count("1") == 13 for d in deals], np.int64)
    chunks = max(1, min(threads, n))
    out = np.zeros((n, 5), np.int64)
    nodes = np.zeros(chunks, np.int64)
    analyse_many_nb(hands, trump, leader, full, chunks, tt_bits, out, nodes)
    answers = []
    for row, f in zip(out, full, strict=True):
        a: dict = {"tricks": [int(row[0]), int(row[1])], "reach7": bool(row[2])}
        if f:
            a["kot"] = bool(row[3])
            a["hakem_kot"] = bool(row[4])
        answers.append(a)
    return answers


def _trick_array(trick: list[int]) -> np.ndarray:
    t = np.zeros(3, np.int64)
    t[: len(trick)] = trick
    return t


def tricks(deal: Deal, team: int, trick: list[int] | None = None) -> int:
    """Double-dummy number of the remaining tricks ``team`` takes (current trick included).

    ``trick`` lists the cards already played to the current trick, which
    ``deal.leader`` led; ``deal.hands`` are the cards still held.
    """
    trick = trick or []
    keys, vals = new_table(16)
    stats = np.zeros(1, np.int64)
    return int(
        tricks_nb(
            deal.array(),
            deal.trump,
            deal.leader,
            _trick_array(trick),
            len(trick),
            team,
            keys,
            vals,
            stats,
        )
    )


def can_reach(deal: Deal, team: int, need: int, kot: bool = False) -> bool:
    """Whether ``team`` can take ``need`` of the remaining tricks (in a row with ``kot``)."""
    keys, vals = new_table(16)
    stats = np.zeros(1, np.int64)
    return bool(
        reach_nb(
            deal.array(),
            deal.trump,
            deal.leader,
            _trick_array([]),
            0,
            team,
            need,
            kot,
            keys,
            vals,
            stats,
        )
    )


def card_values(deal: Deal, trick: list[int] | None = None) -> dict[int, int]:
    """Each legal card of the seat to move -> tricks its team then takes (double dummy)."""
    trick = trick or []
    keys, vals = new_table(16)
    stats = np.zeros(1, np.int64)
    out = np.zeros(52, np.int64)
    card_values_nb(
        deal.array(),
        deal.trump,
        deal.leader,
        _trick_array(trick),
        len(trick),
        keys,
        vals,
        stats,
        out,
    )
    return {int(c): int(out[c]) for c in np.flatnonzero(out >= 0)}
