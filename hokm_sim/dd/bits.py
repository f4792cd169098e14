"""``pext`` and ``pdep`` (parallel bit extract and deposit) for the solver.

``pext(x, m)`` packs the bits of ``x`` found at the set bits of ``m`` into the
low bits of the result: the cards of one hand among the cards still alive in
a suit, in rank order, which is what relative-rank keys and runs of
equivalent cards are made of. ``pdep`` is its inverse. One BMI2 instruction
each where the CPU has it, a loop over the bits of ``m`` elsewhere (both are
tested against each other).
"""

from __future__ import annotations

from numba import njit

from hokm_sim.engine.bits import HAS_PDEP, pdep_bmi2, pext_bmi2


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
    return pext_bmi2(src, mask)


@njit(inline="always")
def _pdep_fast(src, mask):
    return pdep_bmi2(src, mask)


pext = _pext_fast if HAS_PDEP else pext_loop
"""Bits of ``src`` at the set bits of ``mask``, packed low (both non-negative int64)."""
pdep = _pdep_fast if HAS_PDEP else pdep_loop
"""The low bits of ``src`` placed at the set bits of ``mask`` (the inverse of ``pext``)."""
