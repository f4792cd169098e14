"""Counter-based random streams: every hand's stream comes from (seed, match, hand).

Nothing carries over from one hand to the next, so any hand or match can be
regenerated alone and results are the same whatever the chunking, thread
count or order of execution.

- A stream is xoshiro256** whose four words are seeded through splitmix64's
  finaliser from ``(base, index)``: ``x = mix64(base + index * HAND_MUL)``,
  ``s_k = mix64(x + (k + 1) * GOLDEN)``. For independent hands (``--hands``)
  ``base`` is the run seed and ``index`` the hand number, exactly as the C
  reference program of docs/performance.md does it.
- A match has its own base, ``match_base(seed, match)``; its hands use indices
  0, 1, 2, ... and the first-Hakem draw uses ``FIRST_HAKEM_INDEX``.
- Strategies draw from their own streams, one per (hand, copy, seat), so that
  a bot's randomness never shifts the cards and the cards never shift a bot.
  These are counter-based splitmix64 streams (``state[0]`` a key,
  ``state[1]`` a counter): seeding one costs a single mix, which matters
  when four are seeded for every hand whether the bots draw or not.
- ``bounded(n)`` is Lemire's multiply-shift with rejection: exactly uniform,
  no modulo bias; a rejection happens with probability below n / 2**32.

A stream's state is a ``uint64[4]`` array, reused across hands by the caller.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
HAND_MUL = np.uint64(0xD1B54A32D192ED03)
MATCH_MUL = np.uint64(0xA0761D6478BD642F)
STRATEGY_DOMAIN = np.uint64(0x5851F42D4C957F2D)
FIRST_HAKEM_INDEX = 1 << 40
"""Stream index of a match's first-Hakem draw; no hand index comes near it."""

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)


@njit(inline="always")
def mix64(z):
    """splitmix64's finaliser: a bijective 64-bit mix."""
    z = uint64(z)
    z = (z ^ (z >> uint64(30))) * _M1
    z = (z ^ (z >> uint64(27))) * _M2
    return z ^ (z >> uint64(31))


@njit(inline="always")
def _rotl(x, k):
    return (x << uint64(k)) | (x >> uint64(64 - k))


@njit(inline="always")
def seed_stream(state, base, index):
    """Seed ``state`` (uint64[4]) for stream ``index`` under ``base``."""
    x = mix64(uint64(base) + uint64(index) * HAND_MUL)
    state[0] = mix64(x + GOLDEN)
    state[1] = mix64(x + uint64(2) * GOLDEN)
    state[2] = mix64(x + uint64(3) * GOLDEN)
    state[3] = mix64(x + uint64(4) * GOLDEN)


@njit(inline="always")
def xoshiro_step(s0, s1, s2, s3):
    """One xoshiro256** step on a state held in locals: ``(output, s0, s1, s2, s3)``.

    A loop that keeps the state in locals keeps it in registers; one that
    goes through the state array reloads and stores it every draw, because
    LLVM cannot tell that the loop's other stores (the deck's) miss it.
    """
    res = _rotl(s1 * uint64(5), 7) * uint64(9)
    t = s1 << uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return res, s0, s1, s2, s3


@njit(inline="always")
def seed_counter_stream(state, base, index):
    """Seed a strategy's counter-based stream ``index`` under ``base``."""
    state[0] = mix64(uint64(base) + uint64(index) * HAND_MUL)
    state[1] = 0


@njit(inline="always")
def counter_next(state):
    """Next 64-bit output of a counter-based splitmix64 stream."""
    zero = uint64(0)
    out, _, count, _, _ = _step(state[0], state[1], zero, zero, True)
    state[1] = count
    return out


@njit(inline="always")
def _step(s0, s1, s2, s3, counter):
    """One draw from a stream held in locals: ``(output, s0, s1, s2, s3)``.

    ``counter``: a strategy's counter-based stream (``s0`` its key, ``s1``
    its counter); else a card stream (xoshiro256**).
    """
    if counter:
        s1 = s1 + uint64(1)
        return mix64(s0 + s1 * GOLDEN), s0, s1, s2, s3
    return xoshiro_step(s0, s1, s2, s3)


@njit(inline="always")
def below_step(n, s0, s1, s2, s3, counter):
    """Uniform integer in ``[0, n)`` from a stream held in locals: ``(value, s0, s1, s2, s3)``.

    Lemire's multiply-shift with rejection: exactly uniform, no modulo bias.
    ``counter`` as in :func:`_step`.
    """
    un = uint64(n)
    r, s0, s1, s2, s3 = _step(s0, s1, s2, s3, counter)
    m = (r >> uint64(32)) * un
    low = m & _LOW32
    if low < un:
        threshold = (uint64(1 << 32) - un) % un
        while low < threshold:
            r, s0, s1, s2, s3 = _step(s0, s1, s2, s3, counter)
            m = (r >> uint64(32)) * un
            low = m & _LOW32
    return np.int64(m >> uint64(32)), s0, s1, s2, s3


@njit(inline="always")
def bounded(state, n):
    """Uniform integer in ``[0, n)`` (``1 <= n < 2**32``) from a card stream."""
    v, s0, s1, s2, s3 = below_step(n, state[0], state[1], state[2], state[3], False)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return v


@njit(inline="always")
def rand_below(state, n):
    """Uniform integer in ``[0, n)`` (``1 <= n < 2**32``) from a strategy's stream."""
    zero = uint64(0)
    v, _, count, _, _ = below_step(n, state[0], state[1], zero, zero, True)
    state[1] = count
    return v


@njit(inline="always")
def rand_float(state):
    """Uniform float in ``[0, 1)`` with 53 random bits, from a strategy's stream."""
    return np.float64(counter_next(state) >> uint64(11)) * (1.0 / 9007199254740992.0)


@njit(inline="always")
def match_base(seed, match):
    """Base of all streams of match ``match`` under run seed ``seed``."""
    return mix64(uint64(seed) ^ mix64(uint64(match + 1) * MATCH_MUL))


@njit(inline="always")
def strategy_base(game_base):
    """Base of the strategies' streams, apart from the cards' streams."""
    return mix64(uint64(game_base) ^ STRATEGY_DOMAIN)
