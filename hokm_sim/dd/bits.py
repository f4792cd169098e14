"""``pext`` and ``pdep`` (parallel bit extract and deposit) for the solver.

``pext(x, m)`` packs the bits of ``x`` found at the set bits of ``m`` into the
low bits of the result: the cards of one hand among the cards still alive in
a suit, in rank order, which is what relative-rank keys and runs of
equivalent cards are made of. ``pdep`` is its inverse. One BMI2 instruction
each where the CPU has it, a loop over the bits of ``m`` elsewhere (both are
tested against each other).
"""

from __future__ import annotations

from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from hokm_sim.engine.bits import HAS_PDEP


def _bmi2(name: str):
    """An intrinsic calling ``llvm.x86.bmi.<name>.64`` on two int64."""

    def typer(typingctx, src, mask):
        if not (isinstance(src, types.Integer) and isinstance(mask, types.Integer)):
            return None

        def codegen(context, builder, sig, args):
            a = context.cast(builder, args[0], sig.args[0], types.int64)
            b = context.cast(builder, args[1], sig.args[1], types.int64)
            i64 = ir.IntType(64)
            fn = builder.module.declare_intrinsic(
                f"llvm.x86.bmi.{name}.64", fnty=ir.FunctionType(i64, [i64, i64])
            )
            return builder.call(fn, [a, b])

        return types.int64(src, mask), codegen

    typer.__name__ = f"_{name}_bmi2"
    return intrinsic(typer)


_pext_bmi2 = _bmi2("pext")
_pdep_bmi2 = _bmi2("pdep")


@njit(inline="always")
def pext_loop(src, mask):
    """``pext`` without BMI2: one step per set bit of ``mask``."""
    out = 0
    k = 0
    m = mask
    while m != 0:
        low = m & -m
        if src & low:
            out |= 1 << k
        k += 1
        m ^= low
    return out


@njit(inline="always")
def pdep_loop(src, mask):
    """``pdep`` without BMI2: one step per set bit of ``mask``."""
    out = 0
    k = 0
    m = mask
    while m != 0:
        low = m & -m
        if (src >> k) & 1:
            out |= low
        k += 1
        m ^= low
    return out


@njit(inline="always")
def _pext_fast(src, mask):
    return _pext_bmi2(src, mask)


@njit(inline="always")
def _pdep_fast(src, mask):
    return _pdep_bmi2(src, mask)


pext = _pext_fast if HAS_PDEP else pext_loop
"""Bits of ``src`` at the set bits of ``mask``, packed low (both non-negative int64)."""
pdep = _pdep_fast if HAS_PDEP else pdep_loop
"""The low bits of ``src`` placed at the set bits of ``mask`` (the inverse of ``pext``)."""
