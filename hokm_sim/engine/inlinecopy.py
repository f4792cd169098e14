"""numba's IR inliner, made to copy a callee's variables once per call site, not once per block.

hokm-sim inlines at numba IR level (``inline="always"``: the bots into their
units and engines, the package's helpers into the kernels). For each call it
inlines, numba's ``InlineWorker.inline_ir`` copies the callee's IR twice, block
by block, each block with ``copy.deepcopy`` and a memo of its own. A block
refers to its scope, and the scope to every variable of the function, so
every block's copy copies the whole function's variables again: the work
grows with blocks times variables, and was more than half of the time numba
took to compile the unit of ``expert``.

:func:`patch` (which :mod:`hokm_sim.engine.compilation` calls when numba first
compiles: a warm command, which loads machine code, never imports numba's
compiler) wraps ``inline_ir`` so that the blocks of one copy
share one memo per scope: the copy refers to one copy of the scope and of
each variable, as the callee's own IR refers to one scope. Everything else
about the copy is unchanged, and so is the machine code:
``tests/test_inlinecopy.py`` compiles code that inlines with and without
this and compares the assembly; docs/performance.md gives the times.
"""

from __future__ import annotations

import copy
import threading
import types
from typing import Any

_local = threading.local()
"""``memos``: the memos of the current ``inline_ir`` call, by the id of a block's scope."""


def _deepcopy(x: Any, memo: dict | None = None) -> Any:
    """``copy.deepcopy``, with one memo for the blocks of one scope within an ``inline_ir`` call."""
    memos = getattr(_local, "memos", None)
    if memo is None and memos is not None:
        from numba.core import ir

        if isinstance(x, ir.Block):
            memo = memos.setdefault(id(x.scope), {})
    return copy.deepcopy(x, memo)


_patched = False


def patch() -> bool:
    """Wrap numba's ``InlineWorker.inline_ir`` (once). Returns whether it is wrapped: not
    where numba's inliner is not laid out as this expects."""
    global _patched
    if _patched:
        return True
    from numba.core import inline_closurecall as icc

    worker = getattr(icc, "InlineWorker", None)
    if getattr(icc, "copy", None) is not copy or not hasattr(worker, "inline_ir"):
        return False
    first = worker.inline_ir

    def inline_ir(self: Any, *args: Any, **kwargs: Any) -> Any:
        outer = getattr(_local, "memos", None)
        _local.memos = {}
        try:
            return first(self, *args, **kwargs)
        finally:
            _local.memos = outer

    inline_ir.__wrapped__ = first  # type: ignore[attr-defined]
    worker.inline_ir = inline_ir
    icc.copy = types.SimpleNamespace(**{**vars(copy), "deepcopy": _deepcopy})
    _patched = True
    return True
