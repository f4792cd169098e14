"""Keep the interpreter's spare frame-stack chunks while numba compiles (CPython 3.11, 3.12).

CPython 3.11 and 3.12 keep a thread's Python frames in chunks of 16 KiB, each
mapped from the system (``mmap``) when a call does not fit in the current one
and unmapped as soon as the call that needed it returns. A recursion whose
depth keeps crossing a chunk's end maps and unmaps a chunk at every crossing:
numba's compiler (its IR copies and visitors recurse deeply) did so about
500,000 times while compiling the generic engine's ``run_hands`` in a command's
compile thread, some 3 s of system time of a 15 s compilation. CPython 3.13
and 3.14 keep one spare chunk per thread for this reason (python/cpython
gh-142183).

:func:`keep_chunks` does the same one layer down, for the whole process
(:mod:`hokm_sim.engine.compilation` calls it when numba first compiles): the
interpreter's arena allocator (``PyObject_SetArenaAllocator``, through which
CPython maps both its object arenas and these chunks) is replaced by two small
machine-code functions, made with llvmlite, that keep up to eight freed
chunks of 16 KiB and hand them out again, and pass every other request to the
allocator they replace. Every chunk they keep came from that allocator, so
whichever of the two frees a block frees it correctly; the interpreter calls
them with its lock held. At exit the first allocator is put back.
"""

from __future__ import annotations

import atexit
import ctypes
import sys

CHUNK = 16 * 1024
"""The size of a frame-stack chunk (``_PY_DATA_STACK_CHUNK_SIZE``)."""
SPARE = 8
"""How many freed chunks are kept (128 KiB at most)."""

_IR = f"""
@first_alloc = global ptr null
@first_free = global ptr null
@first_ctx = global ptr null
@spare = global [{SPARE} x ptr] zeroinitializer
@count = global i64 0

define ptr @alloc(ptr %ctx, i64 %size) {{
entry:
  %chunk = icmp eq i64 %size, {CHUNK}
  %n = load i64, ptr @count
  %some = icmp sgt i64 %n, 0
  %take = and i1 %chunk, %some
  br i1 %take, label %reuse, label %pass
reuse:
  %m = sub i64 %n, 1
  store i64 %m, ptr @count
  %slot = getelementptr [{SPARE} x ptr], ptr @spare, i64 0, i64 %m
  %p = load ptr, ptr %slot
  ret ptr %p
pass:
  %f = load ptr, ptr @first_alloc
  %c = load ptr, ptr @first_ctx
  %r = call ptr %f(ptr %c, i64 %size)
  ret ptr %r
}}

define void @free(ptr %ctx, ptr %p, i64 %size) {{
entry:
  %chunk = icmp eq i64 %size, {CHUNK}
  %n = load i64, ptr @count
  %room = icmp slt i64 %n, {SPARE}
  %keep = and i1 %chunk, %room
  br i1 %keep, label %store, label %pass
store:
  %slot = getelementptr [{SPARE} x ptr], ptr @spare, i64 0, i64 %n
  store ptr %p, ptr %slot
  %m = add i64 %n, 1
  store i64 %m, ptr @count
  ret void
pass:
  %f = load ptr, ptr @first_free
  %c = load ptr, ptr @first_ctx
  call void %f(ptr %c, ptr %p, i64 %size)
  ret void
}}
"""


class _Arena(ctypes.Structure):
    """``PyObjectArenaAllocator``: a context and two function pointers."""

    _fields_ = [("ctx", ctypes.c_void_p), ("alloc", ctypes.c_void_p), ("free", ctypes.c_void_p)]


_kept: list[object] = []
"""The machine code and the allocator structures, alive until the process ends."""


def keep_chunks() -> bool:
    """Put the chunk-keeping allocator in place (once; see the module's docstring).
    Returns whether it is in place: only on CPython 3.11 and 3.12, with an llvmlite
    whose LLVM reads opaque pointers (LLVM 15 and later)."""
    if _kept:
        return True
    if not (3, 11) <= sys.version_info[:2] < (3, 13) or sys.implementation.name != "cpython":
        return False
    import llvmlite.binding as llvm

    try:
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        module = llvm.parse_assembly(_IR)  # opaque pointers: LLVM 15 and later
        machine = llvm.Target.from_default_triple().create_target_machine()
        engine = llvm.create_mcjit_compiler(module, machine)
        engine.finalize_object()
    except RuntimeError:  # an LLVM that reads the IR otherwise: compile as CPython does
        return False
    first = _Arena()
    ctypes.pythonapi.PyObject_GetArenaAllocator(ctypes.byref(first))
    for name, value in (("first_alloc", first.alloc), ("first_free", first.free)):
        ctypes.c_void_p.from_address(engine.get_global_value_address(name)).value = value
    ctypes.c_void_p.from_address(engine.get_global_value_address("first_ctx")).value = first.ctx
    mine = _Arena(None, engine.get_function_address("alloc"), engine.get_function_address("free"))
    _kept.extend((engine, module, first, mine))
    ctypes.pythonapi.PyObject_SetArenaAllocator(ctypes.byref(mine))
    # the first allocator back before the interpreter tears its modules down (the machine
    # code stays mapped too: nothing disposes of `engine` while `_kept` holds it)
    atexit.register(ctypes.pythonapi.PyObject_SetArenaAllocator, ctypes.byref(first))
    return True
