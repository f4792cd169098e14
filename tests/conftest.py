"""Shared fixtures: one compiled Runner per strategy pair for the whole session.

Compiling an engine for a strategy pair costs seconds per entry point the
first time (then it is loaded from the on-disk cache), so every test module
asks :func:`runner` for its pairs instead of building its own.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest

from hokm_sim.bots.registry import resolve
from hokm_sim.sim.runner import Runner


@cache
def _runner(a: str, b: str) -> Runner:
    return Runner(resolve(a), resolve(b))


@pytest.fixture(scope="session")
def runner() -> Callable[[str, str], Runner]:
    """``runner(a, b)``: the session's Runner for strategy specs ``a`` (team 0) and ``b``."""
    return _runner
