"""Card-by-card records of played hands: JSON Lines for machines, text for people.

The engine's trace kernels return one ``int64`` row per hand (layout in
:mod:`hokm_sim.engine.kernels`); this module turns rows into the documented
JSON record and into the ``show`` text.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from hokm_sim.bots.faults import PythonBotError
from hokm_sim.bots.stepped import STOPPED_OUTSIDE
from hokm_sim.cards import SUIT_SYMBOLS, SUITS, card_str, card_symbol
from hokm_sim.engine import kernels as k
from hokm_sim.engine.rules import KIND_NAMES, dealer_of
from hokm_sim.errors import InputError, StoppedError
from hokm_sim.jsontext import loads
from hokm_sim.sim.runner import Runner
from hokm_sim.sim.tracecheck import (
    MAX_INDEX,
    TraceError,
    check_records,
    hands_in_order_received,
)


def row_to_record(row: np.ndarray, seed: int, target: int | None = None) -> dict:
    """The JSON record of one traced hand (see ``hokm-sim trace --help``)."""
    hakem = int(row[k.T_HAKEM])
    deck = [int(c) for c in row[k.T_DECK : k.T_DECK + 52]]
    plays = [int(c) for c in row[k.T_PLAYS : k.T_PLAYS + 52] if c >= 0]
    winners = [int(w) for w in row[k.T_WINNERS : k.T_WINNERS + 13] if w >= 0]
    tricks = []
    leader = hakem
    for t in range(len(plays) // 4):
        cards = plays[4 * t : 4 * t + 4]
        tricks.append(
            {"leader": leader, "cards": [card_str(c) for c in cards], "winner": winners[t]}
        )
        leader = winners[t]
    rec = {
        "seed": seed,
        "match": int(row[k.T_MATCH]),
        "hand": int(row[k.T_HAND]),
        "hakem": hakem,
        "dealer": dealer_of.py_func(hakem),  # the rule in Python: no compiling
        "deck": [card_str(c) for c in deck],
        "first_five": [card_str(c) for c in deck[:5]],
        "trump": SUITS[int(row[k.T_TRUMP])],
        "hands": [[card_str(c) for c in h] for h in hands_in_order_received(deck, hakem)],
        "tricks": tricks,
        "tricks_won": [int(row[k.T_TRICKS]), int(row[k.T_TRICKS + 1])],
        "winner_team": int(row[k.T_WINNER]),
        "points": int(row[k.T_POINTS]),
        "kind": KIND_NAMES[int(row[k.T_KIND])],
    }
    if target is not None:
        rec["scores"] = [int(row[k.T_SCORES]), int(row[k.T_SCORES + 1])]
        rec["target"] = target
    if row[k.T_ERROR] != 0:  # stopped by a bot fault: the cards up to it, and the fault
        rest = plays[4 * len(tricks) :]
        rec["unfinished_trick"] = {"leader": leader, "cards": [card_str(c) for c in rest]}
        card, trick = int(row[k.T_ERR_CARD]), int(row[k.T_ERR_TRICK])
        if trick < 0:  # the trump call: no trump was named, and the answer is no card
            rec["trump"] = None
        rec["fault"] = {
            "seat": int(row[k.T_ERR_SEAT]),
            "trick": trick,
            "card": card_str(card) if trick >= 0 and 0 <= card < 52 else card,
        }
    return rec


def _sorted_symbols(cards: list[str]) -> str:
    from hokm_sim.cards import parse_card

    idx = sorted((parse_card(c) for c in cards), key=lambda c: (-(c // 13), -(c % 13)))
    by_suit: dict[int, list[str]] = {}
    for c in idx:
        by_suit.setdefault(c // 13, []).append(card_symbol(c)[:-1])
    return "  ".join(SUIT_SYMBOLS[s] + " " + " ".join(r) for s, r in by_suit.items())


def format_record(rec: dict, names: tuple[str, str] = ("A", "B")) -> str:
    """A hand for people: the four hands, trump, each trick with its winner, the result."""
    from hokm_sim.cards import parse_card, parse_suit

    if rec["trump"] is None:
        shown = "none (the call failed)"
    else:
        trump = parse_suit(rec["trump"])
        shown = f"{SUIT_SYMBOLS[trump]} ({'CDHS'[trump]})"
    lines = [
        f"seed {rec['seed']}  match {rec['match']}  hand {rec['hand']}  "
        f"Hakem seat {rec['hakem']}  dealer seat {rec['dealer']}",
        f"first five: {' '.join(card_symbol(parse_card(c)) for c in rec['first_five'])}   "
        f"trump: {shown}",
        "",
    ]
    for seat, hand in enumerate(rec["hands"]):
        role = " (Hakem)" if seat == rec["hakem"] else ""
        lines.append(
            f"seat {seat} [{names[seat % 2]}, team {seat % 2}]{role}: {_sorted_symbols(hand)}"
        )
    lines.append("")
    for t, tr in enumerate(rec["tricks"], 1):
        cells = []
        for i, c in enumerate(tr["cards"]):
            seat = (tr["leader"] + i) % 4
            mark = "*" if seat == tr["winner"] else " "
            cells.append(f"{seat}:{card_symbol(parse_card(c)):>3}{mark}")
        lines.append(
            f"trick {t:2d}  " + "  ".join(cells) + f"   won by seat {tr['winner']} "
            f"(team {tr['winner'] % 2})"
        )
    if "fault" in rec:
        f = rec["fault"]
        cells = [
            f"{(rec['unfinished_trick']['leader'] + i) % 4}:{card_symbol(parse_card(c)):>3} "
            for i, c in enumerate(rec["unfinished_trick"]["cards"])
        ]
        if f.get("what"):  # a plain-Python or protocol bot's fault: no card of its
            what = f"seat {f['seat']} [{names[f['seat'] % 2]}] {f['what']}"
            if cells and f["trick"] >= 0:
                lines.append(f"trick {f['trick'] + 1:2d}  " + "  ".join(cells).rstrip())
        elif f["trick"] < 0:
            what = f"seat {f['seat']} (Hakem) called bad trump suit {f['card']}"
        else:
            shown = card_symbol(parse_card(f["card"])) if isinstance(f["card"], str) else f["card"]
            what = f"seat {f['seat']} [{names[f['seat'] % 2]}] played ILLEGAL {shown}"
            lines.append(
                f"trick {f['trick'] + 1:2d}  " + "  ".join([*cells, f"{f['seat']}:{shown:>3}!"])
            )
        lines += ["", f"stopped: {what}"]
        return "\n".join(lines)
    t0, t1 = rec["tricks_won"]
    kind = {"normal": "", "kot": " - Kot!", "hakem_kot": " - Hakem Kot!"}[rec["kind"]]
    lines.append("")
    lines.append(
        f"tricks {t0}-{t1}: team {rec['winner_team']} "
        f"({names[rec['winner_team']]}) wins {rec['points']} point"
        f"{'s' if rec['points'] > 1 else ''}{kind}"
    )
    if "scores" in rec:
        lines.append(f"match score {rec['scores'][0]}-{rec['scores'][1]} (target {rec['target']})")
    return "\n".join(lines)


TRACE_BLOCK = 4096
"""Hands traced per engine call when streaming: bounded memory for any count."""


def trace_records(
    runner: Runner,
    seed: int,
    *,
    hands: int | None = None,
    matches: int | None = None,
    target: int = 7,
    first_hakem: int = 0,
) -> Iterator[dict]:
    """The records of deals ``0 .. hands-1`` (or of every hand of matches
    ``0 .. matches-1``, their first Hakem by house rule ``first_hakem``), played a
    block at a time."""
    if hands is not None:
        for start in range(0, hands, TRACE_BLOCK):
            for r in runner.trace_hands(seed, start, min(TRACE_BLOCK, hands - start)):
                yield row_to_record(r, seed)
        return
    for m in range(matches or 0):
        for r in runner.trace_match(seed, m, target, first_hakem=first_hakem):
            yield row_to_record(r, seed, target)


def show_record(
    runner: Runner,
    seed: int,
    hand: int,
    copy: int = 0,
    match: int | None = None,
    target: int = 7,
    first_hakem: int = 0,
) -> tuple[dict, StoppedError | None]:
    """The record of one hand (of deal ``hand``, or hand ``hand`` of ``match``), played
    up to a bot's fault if there is one (then the record has ``fault``), and the fault
    (a :class:`~hokm_sim.sim.runner.StrategyFault`, or a plain-Python or protocol bot's
    :class:`~hokm_sim.bots.faults.PythonBotError`), or None."""
    if match is None and hand >= MAX_INDEX:
        raise InputError(f"{hand} is too large (deal indices are below 2**62)", "hand")
    if match is not None and match >= MAX_INDEX:
        raise InputError(f"{match} is too large (match indices are below 2**62)", "match")
    stopped: StoppedError | None = None
    what = None
    try:
        if match is None:
            rows = runner.trace_hands(seed, hand, 1, copy, check=False)
        else:
            rows = runner.trace_match(seed, match, target, copy, check=False,
                                      first_hakem=first_hakem)  # fmt: skip
    except PythonBotError as exc:  # a bot played outside numba: its hand comes with it
        if not hasattr(exc, "stopped"):
            raise
        stopped, (rows, what) = exc, exc.stopped
    if match is not None and hand >= len(rows):
        if stopped is not None:
            raise stopped  # the match stopped before that hand
        raise InputError(f"match {match} has hands 0..{len(rows) - 1}", "hand")
    row = rows[0] if match is None else rows[hand]
    rec = row_to_record(row, seed, None if match is None else target)
    if "fault" not in rec:
        return rec, None
    if row[k.T_ERROR] == STOPPED_OUTSIDE:  # no card to show: what the bot did instead
        rec["fault"] |= {"card": None, "what": what}
        return rec, stopped
    try:  # the engine's own fault: raised by the checked call
        if match is None:
            runner.trace_hands(seed, hand, 1, copy)
        else:
            runner.trace_match(seed, match, target, copy, first_hakem=first_hakem)
    except StoppedError as exc:
        return rec, exc
    return rec, None


def read_trace_line(path: Path, line: int) -> dict:
    """Record ``line`` (from 1) of a trace file, checked against the rules
    (:func:`~hokm_sim.sim.tracecheck.check_records`); :class:`InputError` names what is
    wrong."""
    try:
        with open(path, encoding="utf-8") as f:
            text = next(itertools.islice(f, line - 1, None), None)
            if text is None:
                f.seek(0)
                raise InputError(f"{path} has {sum(1 for _ in f)} lines", "line")
    except UnicodeDecodeError:
        raise InputError(f"{path} is not a text file of JSON lines", "trace") from None
    try:
        rec = loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path} line {line} is not JSON: {exc}", "trace") from None
    try:
        check_records([(line, rec)], str(path), shown=True)
    except TraceError as exc:
        raise TraceError(exc.message, "trace") from None
    return rec
