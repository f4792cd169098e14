"""Bit helpers on card masks for numba code, as single LLVM instructions.

Card masks in the engine are ``int64`` holding at most 52 bits, so they are
never negative and never mix signed and unsigned arithmetic (which numba
would turn into float64). ``popcount``, ``ctz`` and ``bit_length`` go straight
to the LLVM intrinsics ``ctpop``, ``cttz`` and ``ctlz``: one instruction each
instead of a loop, which matters in a card loop that counts and picks bits at
every decision.
"""

from __future__ import annotations

import llvmlite.binding as llvm
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

SUIT_MASK = (1 << 13) - 1
"""The 13 bits of one suit, shifted by ``13 * suit``."""
RANK_COLUMN = 1 | (1 << 13) | (1 << 26) | (1 << 39)
"""One bit per suit at rank 0: ``RANK_COLUMN << r`` holds rank ``r`` of every suit."""
ACES = RANK_COLUMN << 12
FULL_DECK = (1 << 52) - 1

HAS_PDEP = bool(llvm.get_host_cpu_features().get("bmi2", False))
"""Whether this CPU has BMI2's ``pdep``: selecting the k-th set bit in one instruction."""


def _as_i64(context, builder, ty, val):
    return context.cast(builder, val, ty, types.int64)


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a non-negative int64 mask."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(_as_i64(context, builder, sig.args[0], args[0]))

    return types.int64(x), codegen


@intrinsic
def ctz(typingctx, x):
    """Index of the lowest set bit (count trailing zeros); 64 for zero."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        v = _as_i64(context, builder, sig.args[0], args[0])
        return builder.cttz(v, ir.Constant(ir.IntType(1), 0))

    return types.int64(x), codegen


@intrinsic
def ctlz(typingctx, x):
    """Count of leading zero bits in 64; 64 for zero."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        v = _as_i64(context, builder, sig.args[0], args[0])
        return builder.ctlz(v, ir.Constant(ir.IntType(1), 0))

    return types.int64(x), codegen


@njit(inline="always")
def suit_of(card):
    """Suit 0..3 of a card 0..51, and -1 for -1 (no card): ``card // 13``.

    ``(card * 79) >> 10`` equals ``card // 13`` for every card and for -1
    (the shift floors); numba's ``//`` on a signed integer costs about ten
    instructions (floor semantics for negatives), this costs two, and the
    engine and the bots ask it several times per card.
    """
    return (card * 79) >> 10


@njit(inline="always")
def rank_of(card):
    """Rank 0..12 (2..A) of a card 0..51: ``card % 13``."""
    return card - 13 * suit_of(card)


@njit(inline="always")
def lowest(m):
    """Lowest card index in a non-empty mask."""
    return ctz(m)


@njit(inline="always")
def highest(m):
    """Highest card index in a non-empty mask (-1 for an empty one)."""
    return 63 - ctlz(m)


@njit(inline="always")
def bit_length(m):
    """Number of bits up to and including the highest set bit (0 for an empty mask)."""
    return 64 - ctlz(m)


@njit(inline="always")
def suit_mask(s):
    """Mask of all 13 cards of suit ``s``."""
    return SUIT_MASK << (13 * s)


@njit(inline="always")
def suit_cards(m, s):
    """The cards of suit ``s`` in mask ``m``."""
    return m & (SUIT_MASK << (13 * s))


@njit(inline="always")
def highest_in_suit(m, s):
    """Highest card of suit ``s`` in ``m``, or -1 when it holds none."""
    return 63 - ctlz(m & (SUIT_MASK << (13 * s)))


@njit(inline="always")
def lowest_in_suit(m, s):
    """Lowest card of suit ``s`` in ``m``, or -1 when it holds none."""
    x = m & (SUIT_MASK << (13 * s))
    if x == 0:
        return -1
    return ctz(x)


@njit(inline="always")
def above(c):
    """Mask of all card indices above ``c`` (same suit and higher suits)."""
    return ~((2 << c) - 1) & FULL_DECK


@njit(inline="always")
def lowest_by_rank(m):
    """Lowest-ranked card of a non-empty mask; ties go to the lowest suit."""
    f = (m | (m >> 13) | (m >> 26) | (m >> 39)) & SUIT_MASK
    return ctz(m & (RANK_COLUMN << ctz(f)))


@njit(inline="always")
def highest_by_rank(m):
    """Highest-ranked card of a non-empty mask; ties go to the highest suit."""
    f = (m | (m >> 13) | (m >> 26) | (m >> 39)) & SUIT_MASK
    return 63 - ctlz(m & (RANK_COLUMN << (63 - ctlz(f))))


def bmi2(name: str):
    """An intrinsic for BMI2's ``pdep`` or ``pext`` on two int64: ``llvm.x86.bmi.<name>.64``.

    ``pdep(src, mask)`` deposits the low bits of ``src`` at the set bits of
    ``mask``; ``pext`` is its inverse. Call only where :data:`HAS_PDEP`.
    """

    def typer(typingctx, src, mask):
        if not (isinstance(src, types.Integer) and isinstance(mask, types.Integer)):
            return None

        def codegen(context, builder, sig, args):
            a = _as_i64(context, builder, sig.args[0], args[0])
            b = _as_i64(context, builder, sig.args[1], args[1])
            i64 = ir.IntType(64)
            fn = builder.module.declare_intrinsic(
                f"llvm.x86.bmi.{name}.64", fnty=ir.FunctionType(i64, [i64, i64])
            )
            return builder.call(fn, [a, b])

        return types.int64(src, mask), codegen

    typer.__name__ = f"{name}_bmi2"
    return intrinsic(typer)


pdep_bmi2 = bmi2("pdep")
pext_bmi2 = bmi2("pext")


@njit(inline="always")
def _kth_card_pdep(m, k):
    return ctz(pdep_bmi2(1 << k, m))


@njit(inline="always")
def _kth_card_blocks(m, k):
    s = 0
    while s < 3:
        n = popcount(m & (SUIT_MASK << (13 * s)))
        if k < n:
            break
        k -= n
        s += 1
    x = m & (SUIT_MASK << (13 * s))
    while k > 0:
        x &= x - 1
        k -= 1
    return ctz(x)


kth_card = _kth_card_pdep if HAS_PDEP else _kth_card_blocks
"""The ``k``-th lowest card (0-based) of mask ``m``; needs ``k < popcount(m)``.

One ``pdep`` where the CPU has BMI2; elsewhere it finds the suit by counting
whole 13-bit blocks, then clears low bits within it (at most 3 popcounts and
12 clears instead of ``k`` clears).
"""
