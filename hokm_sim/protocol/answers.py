"""Reading a bot's answer line: one numba pass for the plain form, ``json`` for the rest.

An ``answers`` line of two thousand answers is read by :func:`read_answers`
in one pass when it has the plain form that ``JSON.stringify``, compact
``json.dumps`` and the example bots write: ``{"type":"answers","answers":
[{"id":0,"card":"AS"},{"id":1,"suit":"H"}]}``, no whitespace, ``id`` first.
Anything else (whitespace, other field orders, extra fields, escapes, an
``error`` message, broken JSON) goes to Python's ``json`` and
:func:`_check_json`, which accepts every valid form and names the fault of
every invalid one. The numba pass accepts only valid JSON of the expected
shape, so the two never disagree (``tests/test_protocol_wire.py``).

The result gives each request's answer as an index (a suit 0..3 or a card
0..51), ``NO_VALUE`` when the answer lacks the field its request asks for,
or ``BAD_TEXT`` when that field is not a suit or card of the protocol's
forms; whether a card is legal is the host's to check.
"""

from __future__ import annotations

import json

import numpy as np
from numba import njit

from hokm_sim.cards import RANKS, SUITS
from hokm_sim.inlining import HELPERS
from hokm_sim.jsontext import loads
from hokm_sim.protocol.wire import CARD_INDEX, CARD_TEXTS, SUIT_INDEX, mask_text

NO_VALUE = -1
"""The answer has no ``suit`` (for a trump call) or no ``card`` (for a card)."""
BAD_TEXT = -2
"""The ``suit`` or ``card`` is not one of the protocol's texts."""

_OK = 0
_SLOW = 1


class AnswerError(Exception):
    """An answer line that breaks the protocol as a whole: ``what`` says how."""

    def __init__(self, what: str, bot_message: str | None = None) -> None:
        super().__init__(what)
        self.what = what
        self.bot_message = bot_message
        """The bot's own ``message`` when it answered ``{"type": "error"}``."""


def _table(chars: str) -> np.ndarray:
    """Index of each character's byte in ``chars``, -1 for other bytes."""
    t = np.full(256, -1, np.int64)
    for i, ch in enumerate(chars.encode()):
        t[ch] = i
    return t


_RANK_OF = _table(RANKS)
_SUIT_OF = _table(SUITS)
_HEAD = np.frombuffer(b'{"type":"answers","answers":[', np.uint8).copy()
_ID = np.frombuffer(b'{"id":', np.uint8).copy()
_CARD = np.frombuffer(b',"card":"', np.uint8).copy()
_SUIT = np.frombuffer(b',"suit":"', np.uint8).copy()


@njit(inline=HELPERS)
def _match(b, p, lit):
    """Position after ``lit`` at ``p``, or -1."""
    if p < 0 or p + lit.shape[0] > b.shape[0]:
        return -1
    for i in range(lit.shape[0]):
        if b[p + i] != lit[i]:
            return -1
    return p + lit.shape[0]


@njit(cache=True)
def _plain(b, kinds, ids, out):
    """Read the plain form into ``out``: ``_OK``, or ``_SLOW`` to ask ``json``."""
    end = b.shape[0]
    p = _match(b, 0, _HEAD)
    for r in range(kinds.shape[0]):
        if r > 0:
            if p < 0 or p >= end or b[p] != 44:
                return _SLOW
            p += 1
        p = _match(b, p, _ID)
        if p < 0:
            return _SLOW
        v = 0
        q = p
        while q < end and 48 <= b[q] <= 57 and q - p < 12:
            v = v * 10 + (b[q] - 48)
            q += 1
        if q == p or v != ids[r] or (b[p] == 48 and q - p > 1):
            return _SLOW
        if kinds[r] == 1:
            p = _match(b, q, _CARD)
            if p < 0 or p + 4 > end or b[p + 2] != 34 or b[p + 3] != 125:
                return _SLOW
            rank = _RANK_OF[b[p]]
            suit = _SUIT_OF[b[p + 1]]
            if rank < 0 or suit < 0:
                return _SLOW  # json tells a bad card from bad JSON
            out[r] = suit * 13 + rank
            p += 4
        else:
            p = _match(b, q, _SUIT)
            if p < 0 or p + 3 > end or b[p + 1] != 34 or b[p + 2] != 125:
                return _SLOW
            suit = _SUIT_OF[b[p]]
            if suit < 0:
                return _SLOW
            out[r] = suit
            p += 3
    if p < 0 or p + 2 != end or b[p] != 93 or b[p + 1] != 125:
        return _SLOW
    return _OK


def read_answers(line: bytes, kinds: np.ndarray, ids: np.ndarray | None = None) -> np.ndarray:
    """The answers of one ``answers`` line to requests of ``kinds`` (0 trump call,
    1 card) with ``ids`` (by default 0, 1, ...: hokm-sim numbers the requests of a
    message so): ``int64[n]`` of indices, ``NO_VALUE`` or ``BAD_TEXT``. Raises
    :class:`AnswerError` for a line that breaks the protocol."""
    if ids is None:
        ids = np.arange(kinds.shape[0], dtype=np.int64)
    out = np.empty(kinds.shape[0], np.int64)
    if _plain(np.frombuffer(line, np.uint8), kinds, ids, out) == _OK:
        return out
    return _check_json(line, kinds, ids)


def bad_answer(line: bytes, r: int, card: bool, value: int, legal: int, hand: int) -> str:
    """The phrase for answer ``r`` of ``line`` when it is no suit (a trump call), no card or
    a card not in ``legal`` (masks of the request's legal cards and hand)."""
    if not card:
        if value == NO_VALUE:
            return f"answered {answer_text(line, r)} to a trump call, without a suit"
        return f"answered {answer_text(line, r)} to a trump call: a suit is one of C, D, H, S"
    if value == NO_VALUE:
        return f"answered {answer_text(line, r)} to a card request, without a card"
    if value == BAD_TEXT:
        return (
            f"answered {answer_text(line, r)}: a card is a rank (2-9, T, J, Q, K, A) "
            "then a suit (C, D, H, S)"
        )
    held = "" if (hand >> value) & 1 else ", a card it does not hold"
    legal_text = " ".join(mask_text(legal))
    return f"answered {CARD_TEXTS[value]}{held}, not one of its legal cards {legal_text}"


def answer_text(line: bytes, r: int) -> str:
    """What answer ``r`` of a line gave for its suit or card, shown for a fault message."""
    try:
        answer = loads(line)["answers"][r]
        return json.dumps(answer, ensure_ascii=False)[:80]
    except (ValueError, KeyError, IndexError, TypeError):
        return "?"


def _short(text: str | bytes, n: int = 60) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    text = " ".join(text.split())
    return repr(text if len(text) <= n else text[: n - 3] + "...")


def _check_json(line: bytes, kinds: np.ndarray, ids: np.ndarray) -> np.ndarray:
    try:
        msg = loads(line)
    except ValueError:
        raise AnswerError(f"answered a line that is not JSON: {_short(line)}") from None
    if not isinstance(msg, dict):
        raise AnswerError(f"answered a line that is not a JSON object: {_short(line)}")
    kind = msg.get("type")
    if kind == "error":
        text = msg.get("message")
        text = " ".join(str(text).split()) if text is not None else "(no message)"
        raise AnswerError(f"answered an error: {text}", bot_message=text)
    if kind != "answers":
        raise AnswerError(f"answered type {kind!r} to a decide message; expected 'answers'")
    answers = msg.get("answers")
    if not isinstance(answers, list):
        raise AnswerError("answered without an 'answers' list")
    n = kinds.shape[0]
    if len(answers) != n:
        which = "fewer" if len(answers) < n else "more"
        raise AnswerError(f"gave {len(answers)} answers to {n} requests ({which} than asked)")
    out = np.empty(n, np.int64)
    for r, a in enumerate(answers):
        if not isinstance(a, dict):
            raise AnswerError(f"answer {r} is not a JSON object: {_short(json.dumps(a))}")
        got = a.get("id")
        if isinstance(got, bool) or not isinstance(got, int) or got != ids[r]:
            raise AnswerError(
                f"answer {r} has id {got!r} where request id {ids[r]} was due "
                "(answers come in the order of the requests)"
            )
        field, table = ("card", CARD_INDEX) if kinds[r] == 1 else ("suit", SUIT_INDEX)
        value = a.get(field)
        if value is None:
            out[r] = NO_VALUE
        else:
            out[r] = table.get(value, BAD_TEXT) if isinstance(value, str) else BAD_TEXT
    return out
