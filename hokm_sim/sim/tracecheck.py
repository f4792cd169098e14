"""Trace records checked against the rules: the one validator of ``show --trace`` and
``analyse --trace`` (and of a hand given to ``hokm_sim.analyse_hand``).

A record (one line of ``hokm-sim trace``, see :func:`hokm_sim.sim.trace.row_to_record`)
is taken only if it is a hand the engine could have played and written:

- ``hakem`` a seat; ``trump`` a suit; ``hands`` four hands of 13 cards, no
  card dealt twice; ``deck`` (when given) the 52 cards that deal those hands
  5-4-4 from the Hakem, ``first_five`` (when given) the Hakem's first five
  cards, ``dealer`` (when given) the seat on the Hakem's left;
- ``tricks`` legal play, trick by trick (every card held by the seat whose
  turn it is, suit followed when it can be), up to the moment a team has 7
  tricks and no further; each trick's ``leader`` (when given) the Hakem for
  the first and the last winner after, its ``winner`` the seat that won it;
- ``tricks_won``, ``winner_team``, ``points`` and ``kind`` (when given) what
  those tricks make; ``seed``, ``match``, ``hand``, ``scores`` and ``target``
  (when given) whole numbers in range.

The first record that is not raises :class:`TraceError` naming its line and
what is wrong. Card play is checked for all records at once in numba
(:func:`check_hands_nb`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from hokm_sim.cards import CardParseError, card_str, parse_card, parse_suit
from hokm_sim.engine.rules import KIND_NAMES, beats, dealer_of, hand_score, legal_mask
from hokm_sim.errors import InputError
from hokm_sim.sim.checks import MAX_SEED

REQUIRED = ("hakem", "trump", "hands", "tricks")
"""What every record must hold (``hokm-sim trace`` writes these and more)."""
SHOWN = ("seed", "match", "hand", "dealer", "first_five", "tricks_won", "winner_team", "points",
         "kind")  # fmt: skip
"""What ``show`` prints besides, so what a record to show must hold too."""
MAX_INDEX = 2**62
"""Deal and match indices the engine takes are below this."""

CHECK_OK, CHECK_NOT_HELD, CHECK_ILLEGAL, CHECK_PAST_7, CHECK_SHORT = 0, 1, 2, 3, 4
"""Codes of :func:`check_hands_nb`."""

# Deck positions dealt to seat hakem + k (5-4-4 from the Hakem).
SEAT_OF_POSITION = np.array(
    [p // 5 if p < 20 else (p - 20) // 4 if p < 36 else (p - 36) // 4 for p in range(52)],
    np.int64,
)
_RECEIVE_ORDER = ((0, 5), (20, 4), (36, 4))


class TraceError(InputError):
    """A trace line that is not a legal hand; the message names the line and the problem."""


@dataclass
class Played:
    """Checked records as arrays: the deal, trump, every card, each trick's winner."""

    hands: np.ndarray  # int64[n, 4] card masks by seat
    hakem: np.ndarray  # int64[n]
    trump: np.ndarray  # int64[n]
    plays: np.ndarray  # int64[n, 52] cards in play order, -1 after the last
    winners: np.ndarray  # int64[n, 13] seat that won each trick, -1 after the last
    meta: list[dict] = field(default_factory=list)  # seed, match, hand (as given) and line


def hands_in_order_received(deck: Sequence, hakem: int) -> list[list]:
    """Each seat's cards of ``deck`` (top first) in the order dealt: 5-4-4 from the Hakem."""
    hands: list[list] = [[], [], [], []]
    for start, size in _RECEIVE_ORDER:
        for i in range(4):
            seat = (hakem + i) % 4
            hands[seat].extend(deck[start + i * size : start + (i + 1) * size])
    return hands


def check_records(
    records: Iterable[tuple[int, object]], where: str = "trace", shown: bool = False
) -> Played:
    """The checked records (``(line number, record)`` pairs; anything but a dict stands
    for a line that is not a JSON object) as :class:`Played`; ``shown`` also asks for
    every field ``show`` prints. Raises :class:`TraceError` for the first bad one."""
    need = REQUIRED + SHOWN if shown else REQUIRED
    hands, hakem, trump, plays, meta, recs = [], [], [], [], [], []
    for line, rec in records:
        w = f"{where} line {line}"
        if not isinstance(rec, dict):
            raise TraceError(f"{w}: not a JSON object (a hand written by hokm-sim trace)")
        missing = [key for key in need if key not in rec]
        if missing:
            raise TraceError(f"{w}: not a hand written by hokm-sim trace (no {', '.join(missing)})")
        if "fault" in rec or "unfinished_trick" in rec:
            raise TraceError(
                f"{w}: the hand stopped at a bot's fault; hokm-sim trace writes finished hands"
            )
        for key, top in (("seed", MAX_SEED), ("match", MAX_INDEX - 1), ("hand", MAX_INDEX - 1)):
            if key in rec:
                _whole(rec[key], f"{w}: {key}", 0, top)
        h = _whole(rec["hakem"], f"{w}: hakem", 0, 3, "a seat 0, 1, 2 or 3")
        dealer = dealer_of.py_func(h)  # the rules in Python here: nothing to compile
        if "dealer" in rec and rec["dealer"] != dealer:
            raise TraceError(
                f"{w}: bad dealer {rec['dealer']!r}: the dealer sits on the Hakem's left, "
                f"seat {dealer}"
            )
        t = _suit(rec["trump"], w)
        deal = _deal(rec, h, w)
        tricks = rec["tricks"]
        if not isinstance(tricks, list):
            raise TraceError(f"{w}: tricks: expected a list of {{leader, cards, winner}}")
        if len(tricks) > 13:
            raise TraceError(f"{w}: {len(tricks)} tricks; a hand has at most 13")
        seq = []
        for i, tr in enumerate(tricks):
            if not isinstance(tr, dict) or "cards" not in tr:
                raise TraceError(f"{w}: trick {i + 1}: expected {{leader, cards, winner}}")
            cs = _cards(tr["cards"], f"{w}: trick {i + 1}")
            if len(cs) != 4:
                raise TraceError(f"{w}: trick {i + 1} has {len(cs)} cards; a trick has 4")
            seq += cs
        row = np.full(52, -1, np.int64)
        row[: len(seq)] = seq
        hands.append([sum(1 << c for c in cards) for cards in deal])
        hakem.append(h)
        trump.append(t)
        plays.append(row)
        meta.append({k: rec[k] for k in ("seed", "match", "hand") if k in rec} | {"line": line})
        recs.append(rec)
    n = len(recs)
    played = Played(
        np.array(hands, np.int64).reshape(n, 4),
        np.array(hakem, np.int64),
        np.array(trump, np.int64),
        np.array(plays, np.int64).reshape(n, 52),
        np.zeros((n, 13), np.int64),
        meta,
    )
    _check_play(played, [f"{where} line {m['line']}" for m in meta])
    for i, rec in enumerate(recs):
        _check_outcome(rec, played, i, f"{where} line {meta[i]['line']}")
    return played


def _whole(value: object, what: str, lo: int, hi: int, expect: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise TraceError(f"{what}: bad value {value!r}: expected {expect or f'{lo} .. {hi}'}")
    return value


def _suit(value: object, w: str) -> int:
    try:
        if isinstance(value, str):
            return parse_suit(value)
    except CardParseError:
        pass
    raise TraceError(f"{w}: bad trump {value!r}: expected C, D, H or S")


def _cards(cards: object, where: str) -> list[int]:
    if not isinstance(cards, list):
        raise TraceError(f"{where}: expected a list of cards")
    try:
        return [parse_card(c) for c in cards]
    except CardParseError as exc:
        raise TraceError(f"{where}: {exc}") from None


def _deal(rec: dict, hakem: int, w: str) -> list[list[int]]:
    """The four hands of ``rec``, checked against each other, the deck and the first five."""
    if not isinstance(rec["hands"], list) or len(rec["hands"]) != 4:
        raise TraceError(f"{w}: hands: expected 4 lists of 13 cards (by seat)")
    seen: set[int] = set()
    deal = []
    for s, cards in enumerate(rec["hands"]):
        cs = _cards(cards, f"{w}: hand of seat {s}")
        if len(cs) != 13:
            raise TraceError(f"{w}: seat {s} holds {len(cs)} cards; a deal gives 13 each")
        for c in cs:
            if c in seen:
                raise TraceError(f"{w}: card {card_str(c)} dealt twice")
            seen.add(c)
        deal.append(cs)
    if "deck" in rec:
        deck = _cards(rec["deck"], f"{w}: deck")
        if len(deck) != 52 or hands_in_order_received(deck, hakem) != deal:
            raise TraceError(f"{w}: the deck does not deal these hands (5-4-4 from the Hakem)")
    if "first_five" in rec and _cards(rec["first_five"], f"{w}: first_five") != deal[hakem][:5]:
        raise TraceError(f"{w}: first_five are not the first five cards of the Hakem's hand")
    return deal


_CHECK_TEXT = {
    CHECK_NOT_HELD: "{card} is not in the hand of seat {seat}, whose turn it is",
    CHECK_ILLEGAL: "seat {seat} plays {card} but holds the suit led and must follow",
    CHECK_PAST_7: "cards played after a team has 7 tricks (the hand stops there)",
    CHECK_SHORT: "the hand stops before either team has 7 tricks",
}


def _check_play(p: Played, where: Sequence[str]) -> None:
    """Fill ``p.winners``; :class:`TraceError` for the first hand whose cards are not a
    legal Hokm hand (a card not held, a revoke, cards after 7 tricks, a hand that stops
    short), naming ``where[i]`` and the trick."""
    out = np.zeros((len(p.hakem), 2), np.int64)
    check_hands_nb(p.hands, p.hakem, p.trump, p.plays, p.winners, out)
    bad = np.flatnonzero(out[:, 0] != CHECK_OK)
    if len(bad):
        i = int(bad[0])
        code, pos = int(out[i, 0]), int(out[i, 1])
        seat = -1
        if code in (CHECK_NOT_HELD, CHECK_ILLEGAL):
            leader = int(p.hakem[i]) if pos < 4 else int(p.winners[i, pos // 4 - 1])
            seat = (leader + pos % 4) % 4
        card = card_str(int(p.plays[i, pos])) if code != CHECK_SHORT else ""
        text = _CHECK_TEXT[code].format(card=card, seat=seat)
        raise TraceError(f"{where[i]}: not a legal hand: trick {pos // 4 + 1}: {text}")


def _check_outcome(rec: dict, p: Played, i: int, w: str) -> None:
    """Leaders, winners, tricks won, winner, points, kind, scores of record ``i``: as its
    legal cards make them."""
    leader = int(p.hakem[i])
    for t, tr in enumerate(rec["tricks"]):
        won = int(p.winners[i, t])
        if "leader" in tr and tr["leader"] != leader:
            raise TraceError(
                f"{w}: trick {t + 1} is led by seat {leader} (the "
                f"{'Hakem' if t == 0 else 'winner of the trick before'}), not {tr['leader']!r}"
            )
        if tr.get("winner", won) != won:
            raise TraceError(f"{w}: trick {t + 1} is won by seat {won}, not {tr['winner']!r}")
        leader = won
    taken = p.winners[i][p.winners[i] >= 0]
    t1 = int((taken & 1).sum())
    t0 = len(taken) - t1
    winner, points, kind = hand_score.py_func(int(p.hakem[i]), t0, t1)
    expect = {
        "tricks_won": [t0, t1],
        "winner_team": winner,
        "points": points,
        "kind": KIND_NAMES[kind],
    }
    for key, value in expect.items():
        if key in rec and rec[key] != value:
            raise TraceError(f"{w}: {key} is {value!r} after these tricks, not {rec[key]!r}")
    if "target" in rec:
        _whole(rec["target"], f"{w}: target", 1, MAX_INDEX - 1)
    if "scores" in rec:
        s = rec["scores"]
        if not isinstance(s, list) or len(s) != 2:
            raise TraceError(f"{w}: scores: expected [team 0, team 1]")
        for team in (0, 1):
            _whole(s[team], f"{w}: scores", 0, MAX_INDEX - 1)
        if s[winner] < points:
            raise TraceError(f"{w}: scores {s}: team {winner} won {points} in this hand alone")


@njit(cache=True)
def check_hands_nb(hands, hakem, trump, plays, winners, out):
    """Check that each hand's plays are a legal Hokm hand; trick winners into ``winners``.

    ``out[i]`` gets ``(code, position)``: ``CHECK_NOT_HELD`` (the card is not
    in the mover's hand), ``CHECK_ILLEGAL`` (the mover could follow suit),
    ``CHECK_PAST_7`` (cards after a team has 7 tricks), ``CHECK_SHORT`` (the
    hand stops before a team has 7), or ``CHECK_OK``.
    """
    for i in range(hands.shape[0]):
        h = hands[i].copy()
        leader = hakem[i]
        best = -1
        best_seat = -1
        led = -1
        taken = np.zeros(2, np.int64)
        out[i, 0] = CHECK_OK
        out[i, 1] = -1
        winners[i, :] = -1
        ntrick = 0
        t = 0
        for p in range(52):
            c = plays[i, p]
            if c < 0:
                if taken[0] < 7 and taken[1] < 7:
                    out[i, 0] = CHECK_SHORT
                    out[i, 1] = p
                break
            if taken[0] >= 7 or taken[1] >= 7:
                out[i, 0] = CHECK_PAST_7
                out[i, 1] = p
                break
            seat = (leader + ntrick) & 3
            if not (h[seat] >> c) & 1:
                out[i, 0] = CHECK_NOT_HELD
                out[i, 1] = p
                break
            if not (legal_mask(h[seat], led) >> c) & 1:
                out[i, 0] = CHECK_ILLEGAL
                out[i, 1] = p
                break
            h[seat] ^= 1 << c
            if ntrick == 0:
                led = c // 13
                best = c
                best_seat = seat
            elif beats(c, best, trump[i]):
                best = c
                best_seat = seat
            ntrick += 1
            if ntrick == 4:
                winners[i, t] = best_seat
                taken[best_seat & 1] += 1
                t += 1
                leader = best_seat
                ntrick = 0
                led = -1
