"""House rules: the optional rules a match may be played with, by name (docs/rules.md).

Only the choice of the first Hakem varies: ``first-ace`` (cards turned up
until someone receives an ace; the default and the standard method),
``highest-card`` (one card each, highest wins) and ``highest-two`` (two
cards each, highest total wins). The engine knows them by their index here
(``hokm_sim.engine.deal``). Plain Python, so the command line can list them
without loading the engine.
"""

from __future__ import annotations

from hokm_sim.errors import InputError

FIRST_HAKEM_METHODS = ("first-ace", "highest-card", "highest-two")
"""The house rules for a match's first Hakem; the index is the engine's code."""
DEFAULT_FIRST_HAKEM = FIRST_HAKEM_METHODS[0]
MAX_TARGET = 1000
"""The highest score a match may be played to. A match to 1000 lasts about 400
hands; a trace or a table of the environments keeps rows by the point, so a
target without a limit would take memory without one (and past 2**63 the
engine cannot hold it at all)."""


def first_hakem_code(name: str | None) -> int:
    """The engine's code of first-Hakem rule ``name`` (None: the default);
    :class:`InputError` names the valid rules."""
    if name is None:
        return 0
    if name not in FIRST_HAKEM_METHODS:
        raise InputError(
            f"bad first-Hakem rule {name!r}: expected one of {', '.join(FIRST_HAKEM_METHODS)}",
            "first_hakem",
        )
    return FIRST_HAKEM_METHODS.index(name)
