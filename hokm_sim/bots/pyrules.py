"""What makes a bot a plain-Python bot, and how its answers are checked.

A plain-Python bot has ``choose_trump(obs)`` and ``play_card(obs)`` taking an
:class:`~hokm_sim.bots.observation.Observation` and returning a suit or a
card; decorated with :func:`batched`, they take
:class:`~hokm_sim.bots.observation.Observations` (many hands at once) and
return an array with one answer per row. Compiled bots take ``(view,
params, mem, rng)`` and are numba dispatchers.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable


def batched(fn: Callable) -> Callable:
    """Mark a bot function as deciding for many hands at once.

    It receives :class:`~hokm_sim.bots.observation.Observations` and must
    return one integer per row (a list or an integer array of that length).
    """
    fn.batched = True
    return fn


def is_batched(fn: Callable) -> bool:
    """Whether ``fn`` was marked with :func:`batched`."""
    return bool(getattr(fn, "batched", False))


def is_compiled(fn: object) -> bool:
    """Whether ``fn`` is a numba-compiled bot function."""
    return hasattr(fn, "py_func")


def python_arity_problem(fn: object, name: str) -> str | None:
    """Why ``fn`` cannot be a plain-Python bot's ``name``, or None if it can."""
    if not callable(fn):
        return f"{name} is not a function"
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None  # a builtin or a C extension: trust it
    required = [
        p
        for p in sig.parameters.values()
        if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    positional = [
        p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    varargs = any(p.kind is p.VAR_POSITIONAL for p in sig.parameters.values())
    if len(required) > 1 or (not positional and not varargs):
        return (
            f"{name} takes {len(required)} arguments; a Python bot's {name} takes one "
            "(an Observation), a compiled bot's (view, params, mem, rng) with @njit"
        )
    return None
