"""Loading hokm-sim's cached machine code without setting up numba's compiler.

Before numba loads a function from its disk cache it refreshes the CPU
target: it imports every module of numba that implements something for the
compiler (numpy's linear algebra, which imports ``scipy.linalg``; the random
generators; typed containers; ...) and registers what they implement. That
is about a third of a second of CPU at the start of every process that runs
a cached engine, and none of it is needed to link code that is compiled
already: that takes numba's runtime (the NRT) and the symbols the code calls.

So for hokm-sim's own cached code (the package's kernels, keyed by
:mod:`.jitcache`, and the generated modules under the cache root: engines,
steppers, seats) :func:`install` has numba load the code with the runtime
initialised and the code's own reload hooks run (the threads of a
``parallel=True`` kernel), and nothing else. Where that is not enough, numba's
full set-up runs first, as it would have anyway: object-mode code, a cache
entry of an unexpected shape, or machine code that calls a symbol nothing has
defined yet (one that a module of numba defines when imported, such as the
hash secret of string hashing). Compiling is untouched (numba's compiler sets
up the target itself), and other code's caches are loaded by numba's own
method. The machine code, and so every result, is the same either way.
"""

from __future__ import annotations

import inspect
from itertools import chain
from pathlib import Path

from llvmlite import binding as llvm
from numba.core import caching, compiler
from numba.core.runtime import nrt

from hokm_sim.engine.jitcache import ClosureCacheLocator, cache_root

_numba_load_overload = caching.Cache.load_overload

_FIELDS = tuple(inspect.signature(compiler.CompileResult._rebuild).parameters)[1:]
"""The names of a cache entry's parts, in order (after the target context)."""


class _FullSetUp(Exception):
    """The entry needs what numba's full set-up of the target provides."""


def _ours(entry_cache: caching.Cache) -> bool:
    """Whether ``entry_cache`` holds hokm-sim's code: a kernel of the package or of the
    built-in bots, or a generated module under the cache root."""
    if isinstance(entry_cache._impl.locator, ClosureCacheLocator):
        return True
    source = Path(entry_cache._py_func.__code__.co_filename)
    return source.resolve().is_relative_to(cache_root().resolve())


def _undefined(bitcode: bytes, target_context) -> list[str]:
    """The symbols the library's code declares that neither numba's JIT nor the
    process defines yet (LLVM's intrinsics aside)."""
    module = llvm.parse_bitcode(bitcode)
    engine = target_context.codegen()._engine
    return [
        g.name
        for g in chain(module.functions, module.global_variables)
        if g.is_declaration
        and not g.name.startswith("llvm.")
        and not engine.is_symbol_defined(g.name)
        and not llvm.address_of_symbol(g.name)
    ]


def _prepare(target_context, data: tuple) -> None:
    """What loading the cache entry ``data`` takes: the runtime, the entry's reload hooks,
    and numba's full set-up of the target when the code needs more."""
    nrt.rtsys.initialize(target_context)
    try:
        entry = dict(zip(_FIELDS, data, strict=True))
        if entry["objectmode"] or entry["lifted"]:
            raise _FullSetUp
        _name, kind, payload = entry["libdata"]
        if kind != "object":
            raise _FullSetUp
        for hook in entry["reload_init"] or ():
            hook()  # numba runs them again when it rebuilds the entry: they act once
        if _undefined(payload[1], target_context):
            raise _FullSetUp
    except (_FullSetUp, AttributeError, KeyError, TypeError, ValueError):
        target_context.refresh()


def load_overload(self: caching.Cache, sig, target_context):
    """``numba.core.caching.Cache.load_overload`` for hokm-sim's own code: the cached
    entry for ``sig`` linked with only what it needs (see the module doc); numba's own
    method for any other code."""
    if not _ours(self):
        return _numba_load_overload(self, sig, target_context)
    with self._guard_against_spurious_io_errors():
        if not self._enabled:
            return None
        data = self._cache_file.load(self._index_key(sig, target_context.codegen()))
        if data is None:
            return None
        _prepare(target_context, data)
        return self._impl.rebuild(target_context, data)
    return None  # the guard swallowed a spurious I/O error (Windows): not cached


def install() -> None:
    """Load hokm-sim's cached code with :func:`load_overload` (once)."""
    caching.Cache.load_overload = load_overload
