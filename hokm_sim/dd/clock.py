"""A monotonic clock for numba code: time budgets inside compiled searches.

numba's nopython mode has no ``time`` module. :func:`now_ns` calls the C
library's ``clock_gettime(CLOCK_MONOTONIC)`` directly (a vDSO call, about
25 ns here); the symbol is linked by name, so functions that use it still
load from numba's on-disk cache.

Anything that decides by the clock depends on the machine's speed and load:
results that use it are not reproducible from the seed alone.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_CLOCK_MONOTONIC = 1  # Linux's clockid_t for CLOCK_MONOTONIC


@intrinsic
def now_ns(typingctx):
    """Nanoseconds on the monotonic clock (only differences mean anything)."""

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        timespec = ir.LiteralStructType([i64, i64])
        fnty = ir.FunctionType(ir.IntType(32), [ir.IntType(32), timespec.as_pointer()])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        ts = cgutils.alloca_once(builder, timespec)
        builder.call(fn, [ir.Constant(ir.IntType(32), _CLOCK_MONOTONIC), ts])
        sec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 0))
        nsec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 1))
        return builder.add(builder.mul(sec, ir.Constant(i64, 1_000_000_000)), nsec)

    return types.int64(), codegen
