"""Requests written straight from the engine's arrays: one numba pass per message.

The host asks a protocol bot for the decisions of every hand in flight that
waits for it, often two thousand at a time; writing each request through
Python's ``json`` would cost more than the rest of the table together. Here
the ``decide`` message is written byte by byte from the stepper's slot arrays
(:mod:`hokm_sim.engine.stepper`): the view (:mod:`hokm_sim.engine.view`)
gives the seat, Hakem, trump, hand, legal cards, tricks, scores and target,
the slot's ``plays`` array every card of the hand so far, its deck the
Hakem's first five cards, and the seat's random stream the request's seed.
The bytes are exactly those of :func:`hokm_sim.protocol.wire.request` and
:func:`~hokm_sim.protocol.wire.dumps` (``tests/test_protocol_wire.py``).

A request's ``seed`` is :func:`request_seed` of the deciding seat's stream
key for the hand (different for every hand, copy and seat, fixed by the run
seed) and of the decision (0 for the trump call, ``n + 1`` for a card when
``n`` cards have been played), so it is the same whatever the batch, the
threads or the order of the requests.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from hokm_sim.engine.bits import ctz, popcount
from hokm_sim.engine.rng import mix64
from hokm_sim.engine.view import (
    V_HAKEM,
    V_HAND,
    V_LEGAL,
    V_PLAYED,
    V_SCORES,
    V_SEAT,
    V_TARGET,
    V_TRICKS,
    V_TRUMP,
)
from hokm_sim.inlining import HELPERS
from hokm_sim.protocol.wire import CARD_TEXTS

MAX_REQUEST = 720
"""Bytes a request can take at most (13 + 13 + 5 + 52 cards of five bytes, the rest)."""
MESSAGE_EXTRA = 64
"""Bytes of the message around its requests."""
REQUEST_DOMAIN = np.uint64(0x2545F4914F6CDD1D)
"""Keeps request seeds apart from the outputs of the stream they come from."""


def _lit(text: str) -> np.ndarray:
    return np.frombuffer(text.encode(), np.uint8).copy()


_CARDS = _lit("".join(CARD_TEXTS))
_SUITS = _lit("CDHS")
_HEAD = _lit('{"type":"decide","requests":[')
_TAIL = _lit("]}\n")
_ID = _lit('{"id":')
_KIND_TRUMP = _lit(',"kind":"trump","seat":')
_KIND_CARD = _lit(',"kind":"card","seat":')
_HAKEM = _lit(',"hakem":')
_TRUMP_NULL = _lit(',"trump":null')
_TRUMP = _lit(',"trump":"')
_HAND = _lit('","hand":[')
_HAND_AFTER_NULL = _lit(',"hand":[')
_LEGAL = _lit('],"legal":[')
_FIVE = _lit('],"first_five":[')
_PLAYS = _lit('],"plays":[')
_TRICKS = _lit('],"tricks":[')
_SCORES = _lit('],"scores":[')
_TARGET = _lit('],"target":')
_SEED = _lit(',"seed":')
_STREAM = _lit(',"stream":')


@njit(inline=HELPERS)
def request_seed(key, tag):
    """The ``seed`` of a request: stream key ``key``, decision ``tag`` (see the module doc)."""
    return mix64(uint64(key) ^ mix64(uint64(tag) + REQUEST_DOMAIN))


@njit(inline=HELPERS)
def _put(out, pos, lit):
    for i in range(lit.shape[0]):
        out[pos + i] = lit[i]
    return pos + lit.shape[0]


_PAIRS = _lit("".join(f"{i:02d}" for i in range(100)))
_POW10 = np.array([10**k for k in range(20)], np.uint64)


@njit(inline=HELPERS)
def _put_uint(out, pos, x):
    """Decimal digits of a non-negative integer (``uint64``), two at a time."""
    x = uint64(x)
    n = 1
    while n < 20 and x >= _POW10[n]:
        n += 1
    p = pos + n
    while x >= uint64(100):
        q = x // uint64(100)
        d = np.int64(x - q * uint64(100))
        p -= 2
        out[p] = _PAIRS[2 * d]
        out[p + 1] = _PAIRS[2 * d + 1]
        x = q
    if x >= uint64(10):
        d = np.int64(x)
        out[p - 2] = _PAIRS[2 * d]
        out[p - 1] = _PAIRS[2 * d + 1]
    else:
        out[p - 1] = 48 + np.uint8(x)
    return pos + n


@njit(inline=HELPERS)
def _put_card(out, pos, c):
    out[pos] = 34
    out[pos + 1] = _CARDS[2 * c]
    out[pos + 2] = _CARDS[2 * c + 1]
    out[pos + 3] = 34
    return pos + 4


@njit(inline=HELPERS)
def _put_mask(out, pos, m):
    """The cards of a mask, lowest index first, comma-separated."""
    first = True
    while m != 0:
        c = ctz(m)
        m &= m - 1
        if not first:
            out[pos] = 44
            pos += 1
        first = False
        pos = _put_card(out, pos, c)
    return pos


@njit(inline=HELPERS)
def _put_pair(out, pos, a, b):
    pos = _put_uint(out, pos, a)
    out[pos] = 44
    return _put_uint(out, pos + 1, b)


@njit(cache=True)
def encode_decide(idx, view, srng, deck, plays, stream, out):
    """Write the ``decide`` message for slots ``idx`` (ids 0, 1, ...) into ``out``.

    ``view``, ``srng``, ``deck`` and ``plays`` are the stepper's slot arrays
    (``int64[n, VIEW_SIZE]``, ``uint64[n, 4, 4]``, ``int64[n, 52]``,
    ``int64[n, 52]``); ``stream`` adds each request's stream key. ``out`` holds
    at least ``len(idx) * MAX_REQUEST + MESSAGE_EXTRA`` bytes. Returns the
    message's length, its newline included.
    """
    pos = _put(out, 0, _HEAD)
    for r in range(idx.shape[0]):
        i = idx[r]
        v = view[i]
        seat = v[V_SEAT]
        hakem = v[V_HAKEM]
        trump = v[V_TRUMP]
        key = srng[i, seat, 0]
        if r > 0:
            out[pos] = 44
            pos += 1
        pos = _put(out, pos, _ID)
        pos = _put_uint(out, pos, r)
        pos = _put(out, pos, _KIND_TRUMP) if trump < 0 else _put(out, pos, _KIND_CARD)
        pos = _put_uint(out, pos, seat)
        pos = _put(out, pos, _HAKEM)
        pos = _put_uint(out, pos, hakem)
        if trump < 0:
            pos = _put(out, pos, _TRUMP_NULL)
            pos = _put(out, pos, _HAND_AFTER_NULL)
        else:
            pos = _put(out, pos, _TRUMP)
            out[pos] = _SUITS[trump]
            pos = _put(out, pos + 1, _HAND)
        pos = _put_mask(out, pos, v[V_HAND])
        pos = _put(out, pos, _LEGAL)
        pos = _put_mask(out, pos, v[V_LEGAL])
        pos = _put(out, pos, _FIVE)
        if seat == hakem:
            five = 0
            for k in range(5):
                five |= 1 << deck[i, k]
            pos = _put_mask(out, pos, five)
        pos = _put(out, pos, _PLAYS)
        n = popcount(v[V_PLAYED]) if trump >= 0 else 0
        for k in range(n):
            if k > 0:
                out[pos] = 44
                pos += 1
            pos = _put_card(out, pos, plays[i, k])
        pos = _put(out, pos, _TRICKS)
        pos = _put_pair(out, pos, v[V_TRICKS], v[V_TRICKS + 1])
        pos = _put(out, pos, _SCORES)
        pos = _put_pair(out, pos, v[V_SCORES], v[V_SCORES + 1])
        pos = _put(out, pos, _TARGET)
        pos = _put_uint(out, pos, v[V_TARGET])
        pos = _put(out, pos, _SEED)
        pos = _put_uint(out, pos, request_seed(key, 0 if trump < 0 else n + 1))
        if stream:
            pos = _put(out, pos, _STREAM)
            pos = _put_uint(out, pos, key)
        out[pos] = 125
        pos += 1
    return _put(out, pos, _TAIL)


def buffer_for(n: int, buf: np.ndarray | None = None) -> np.ndarray:
    """A byte buffer big enough for a message of ``n`` requests (``buf`` when it is)."""
    need = n * MAX_REQUEST + MESSAGE_EXTRA
    if buf is not None and buf.shape[0] >= need:
        return buf
    return np.empty(max(need, 2 * (0 if buf is None else buf.shape[0])), np.uint8)
