"""The double-dummy search's transposition table: bounds kept by suit lengths and holders.

Entries are made at trick boundaries and grouped by signature (every hand's
length in every suit, trump and the Kot flag: :func:`signature`). Each
keeps who holds the alive cards of each suit only down to the lowest card
the result rested on (the search's partition, "winning ranks", see
:mod:`hokm_sim.dd.search`; :func:`holder_pattern` on the mask of
:func:`down_to_lowest`), with lower and upper bounds on the leader's team's
tricks, so one entry serves every target and many deals. A signature's
entries are scanned in turn, those that serve move up, up to
:data:`TT_MAX_ENTRIES` kept.

The table (``tt_keys``, ``tt_vals``, from :func:`new_table`) can be shared
by any number of searches and deals: its entries hold everything a stored
bound depends on. When it is full it starts afresh.

Left out because they did not pay: signature buckets of 8 or 32 shared
slots (too few entries per signature: the tail grew) or of 64 or 256 (no
better than 128); a smaller table; overwriting a full signature's last
(least used) entries rather than its entries in turn.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hokm_sim.dd.bits import pext
from hokm_sim.engine.bits import popcount, suit_mask
from hokm_sim.inlining import HELPERS

TT_EMPTY = -1
"""Signature of an empty index row (real signatures are non-negative)."""
DEFAULT_TT_BITS = 20
"""log2 of the number of table entries for a stand-alone solve (2**20 entries, about 33 MB)."""
_HASH_MUL = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64
_HASH_MUL2 = -4658895280553007687  # 0xBF58476D1CE4E5B9 as int64

TT_MAX_ENTRIES = 128
"""Most entries kept per signature (past it new entries overwrite old ones in turn)."""
_TT_FIRST = 4  # entries a new signature gets room for (doubled as it fills)


@njit(cache=True)
def new_table(bits):
    """A transposition table of ``2**bits`` entries: ``(keys int64[r, 3], vals int8[2**bits, 2])``.

    Row 0 of ``keys`` is the header (next free entry, entry count, index
    size), rows ``1 .. 2**(bits-2)`` an open-addressed index by signature
    (the signature, its first entry, and its entry count and room packed),
    then one row per entry: the holder pattern (two planes) kept on the
    cards of a mask, and the mask. ``vals`` holds each entry's lower and
    upper bounds on the tricks the leader's team takes. A signature's entries
    are contiguous, moved to twice the room as they fill; when room runs out
    the table starts afresh. ``new_table(-1)`` (no rows) turns the table off.
    """
    if bits < 0:
        return np.zeros((0, 3), np.int64), np.zeros((0, 2), np.int8)
    ne = 1 << bits
    ni = 1 << max(bits - 2, 1)
    # Only the index needs clearing: an entry row is written before it is read.
    keys = np.empty((1 + ni + ne, 3), np.int64)
    keys[: 1 + ni] = TT_EMPTY
    keys[0, 0] = 0
    keys[0, 1] = ne
    keys[0, 2] = ni
    return keys, np.empty((ne, 2), np.int8)


@njit(inline=HELPERS)
def signature(h, trump, leader, kot):
    """Signature of a trick-boundary position: every hand's length in every suit.

    Seats counted from the leader; suits 0..2 in 4 bits each (suit 3 follows
    from the number of tricks left), then tricks left, trump and the Kot flag.
    """
    sig = 0
    for k in range(4):
        x = h[(leader + k) & 3]
        for s in range(3):
            sig |= popcount(x & suit_mask(s)) << (4 * (3 * k + s))
    return sig | (popcount(h[leader]) << 48) | (trump << 52) | (kot << 54)


@njit(inline=HELPERS)
def holder_pattern(h, leader, alive):
    """Who holds each alive card, in rank order suit by suit: two bit planes.

    Seat ``k`` places from the leader holds the card where plane one has bit
    ``k & 1`` and plane two bit ``k >> 1``.
    """
    b0 = h[(leader + 1) & 3] | h[(leader + 3) & 3]
    b1 = h[(leader + 2) & 3] | h[(leader + 3) & 3]
    return pext(b0, alive), pext(b1, alive)


@njit(inline=HELPERS)
def down_to_lowest(w, alive):
    """Every alive card at or above the lowest card of ``w``, suit by suit."""
    out = 0
    for s in range(4):
        x = w & suit_mask(s)
        if x != 0:
            out |= alive & suit_mask(s) & ~((x & -x) - 1)
    return out


@njit(cache=True)
def _tt_index(tt_keys, sig, create):
    """Index row of a signature (made if ``create``), or -1."""
    ni = tt_keys[0, 2]
    x = sig * _HASH_MUL
    x ^= (x >> 29) & 0x7FFFFFFFF
    x *= _HASH_MUL2
    i = x >> 32
    for k in range(16):
        r = 1 + ((i + k) & (ni - 1))
        s = tt_keys[r, 0]
        if s == sig:
            return r
        if s == TT_EMPTY:
            if create:
                tt_keys[r, 0] = sig
                tt_keys[r, 1] = 0
                tt_keys[r, 2] = 0
                return r
            return -1
    return -1


@njit(inline=HELPERS)
def _move_up(tt_keys, tt_vals, e0, e):
    """Swap entry ``e`` with the one before it: entries that serve often come to be
    found first."""
    f = e - 1
    for k in range(3):
        t = tt_keys[e0 + f, k]
        tt_keys[e0 + f, k] = tt_keys[e0 + e, k]
        tt_keys[e0 + e, k] = t
    for k in range(2):
        t8 = tt_vals[f, k]
        tt_vals[f, k] = tt_vals[e, k]
        tt_vals[e, k] = t8


@njit(cache=True)
def tt_lookup(tt_keys, tt_vals, sig, p1, p2, target):
    """``(1, mask)`` if an entry matching the position says the leader's team
    reaches ``target``, ``(-1, mask)`` if it says not, else ``(0, 0)``."""
    r = _tt_index(tt_keys, sig, np.bool_(False))
    res = 0
    mask = 0
    if r >= 0:
        start = tt_keys[r, 1]
        e0 = 1 + tt_keys[0, 2]
        e = start
        end = start + min(tt_keys[r, 2] & 0xFFFFFFFF, tt_keys[r, 2] >> 32)
        while e < end:
            m = tt_keys[e0 + e, 2]
            if (p1 & m) == tt_keys[e0 + e, 0] and (p2 & m) == tt_keys[e0 + e, 1]:
                if tt_vals[e, 0] >= target:
                    res = 1
                elif tt_vals[e, 1] < target:
                    res = -1
                if res != 0:
                    mask = m
                    break
            e += 1
        if res != 0 and e > start:
            _move_up(tt_keys, tt_vals, e0, e)
    return res, mask


@njit(cache=True)
def _tt_clear(tt_keys):
    ni = tt_keys[0, 2]
    for r in range(1, 1 + ni):
        tt_keys[r, 0] = TT_EMPTY
    tt_keys[0, 0] = 0


@njit(cache=True)
def tt_store(tt_keys, tt_vals, sig, p1, p2, mask, nrem, reached, target):
    """Record that the leader's team reaches ``target`` (or not, ``reached``
    false) in every position with this signature and pattern on ``mask``.

    The entry with the same mask and pattern is tightened; else a new one is
    added (past :data:`TT_MAX_ENTRIES`, over the existing ones in turn).
    """
    r = _tt_index(tt_keys, sig, np.bool_(True))
    if r < 0:
        _tt_clear(tt_keys)
        r = _tt_index(tt_keys, sig, np.bool_(True))
    q1 = p1 & mask
    q2 = p2 & mask
    e0 = 1 + tt_keys[0, 2]
    start = tt_keys[r, 1]
    cnt = tt_keys[r, 2] & 0xFFFFFFFF
    cap = tt_keys[r, 2] >> 32
    j = -1
    for e in range(start, start + min(cnt, cap)):
        if tt_keys[e0 + e, 2] == mask and tt_keys[e0 + e, 0] == q1 and tt_keys[e0 + e, 1] == q2:
            j = e
            break
    if j < 0:
        if cnt < cap:
            j = start + cnt
            cnt += 1
        elif cap < TT_MAX_ENTRIES:
            # Move to twice the room (or start afresh when there is none).
            new_cap = max(_TT_FIRST, 2 * cap)
            at = tt_keys[0, 0]
            if at + new_cap > tt_keys[0, 1]:
                _tt_clear(tt_keys)
                r = _tt_index(tt_keys, sig, np.bool_(True))
                at = 0
                cnt = 0
                new_cap = _TT_FIRST
            for k in range(cnt):
                tt_keys[e0 + at + k, 0] = tt_keys[e0 + start + k, 0]
                tt_keys[e0 + at + k, 1] = tt_keys[e0 + start + k, 1]
                tt_keys[e0 + at + k, 2] = tt_keys[e0 + start + k, 2]
                tt_vals[at + k, 0] = tt_vals[start + k, 0]
                tt_vals[at + k, 1] = tt_vals[start + k, 1]
            tt_keys[0, 0] = at + new_cap
            start = at
            cap = new_cap
            tt_keys[r, 1] = start
            j = start + cnt
            cnt += 1
        else:
            j = start + cnt % cap
            cnt = cnt + 1 if cnt + 1 < 2 * cap else cap
        tt_keys[r, 2] = cnt | (cap << 32)
        tt_keys[e0 + j, 0] = q1
        tt_keys[e0 + j, 1] = q2
        tt_keys[e0 + j, 2] = mask
        tt_vals[j, 0] = 0
        tt_vals[j, 1] = nrem
    if reached:
        tt_vals[j, 0] = max(tt_vals[j, 0], target)
    else:
        tt_vals[j, 1] = min(tt_vals[j, 1], target - 1)
