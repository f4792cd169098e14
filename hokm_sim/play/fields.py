"""What a page asks of the table, read and checked field by field.

The body of ``POST /api/new`` (a new game) and the numbers in the paths
(``/play/{id}``, ``/games/{id}/hands/{hand}`` ...). Each field is checked by
its type, so ``"daily": "no"`` is not taken for true nor ``"target": 3.9``
for 3, and a wrong field is refused with an :class:`InputError` naming the
field and its valid values (the server answers it as a 400).
"""

from __future__ import annotations

import contextlib
from numbers import Integral
from typing import Any

from hokm_sim.errors import InputError
from hokm_sim.jsontext import loads
from hokm_sim.play.game import TARGETS
from hokm_sim.play.store import MAX_ID
from hokm_sim.sim.checks import MAX_SEED

NEW_GAME_FIELDS = ("seed", "daily", "target")
"""What ``POST /api/new`` may say, each optional."""
_SEED = "a whole number from 0 to 2**64-1 (a JSON number or a string of digits)"


def _whole(value: Any) -> bool:
    return isinstance(value, Integral) and not isinstance(value, bool)


def path_number(text: str, name: str) -> int:
    """A number from a path (digits only, by its route) as an ``int``: a game id or a
    hand number, at most 2**63-1 (SQLite's integers)."""
    if len(text) > len(str(MAX_ID)) or int(text) > MAX_ID:
        raise InputError(f"{text[:24]}{'...' if len(text) > 24 else ''} is past 2**63-1", name)
    return int(text)


def new_game(body: bytes) -> dict:
    """The keyword arguments of :meth:`hokm_sim.play.server.Server.new_game` that the
    JSON ``body`` of ``POST /api/new`` asks for: ``seed``, ``daily`` and ``target``."""
    try:
        fields = loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"the body is not JSON ({exc}); send an object") from None
    if not isinstance(fields, dict):
        raise InputError(
            f"the body is a JSON {type(fields).__name__}; send an object with "
            f"{', '.join(NEW_GAME_FIELDS)} (each optional)"
        )
    unknown = [k for k in fields if k not in NEW_GAME_FIELDS]
    if unknown:
        raise InputError(
            f"unknown field {unknown[0][:40]!r}: a new game takes {', '.join(NEW_GAME_FIELDS)}"
        )
    seed, daily, target = (fields.get(k) for k in NEW_GAME_FIELDS)
    if daily is not None and not isinstance(daily, bool):
        raise InputError(f"{_shown(daily)} is not true or false", "daily")
    if seed is not None:
        seed = _seed(seed)
    if target is not None and not (_whole(target) and target in TARGETS):
        raise InputError(
            f"{_shown(target)} is not one of {', '.join(map(str, TARGETS))} (whole points)",
            "target",
        )
    if daily and seed is not None:
        raise InputError("give daily or seed, not both (the daily deal's seed is the date)")
    return {"seed": seed, "daily": bool(daily), "target": target}


def _seed(value: Any) -> int:
    if isinstance(value, str) and len(value) <= 40:
        with contextlib.suppress(ValueError):
            value = int(value.strip(), 0)
    if not _whole(value) or not 0 <= value <= MAX_SEED:
        raise InputError(f"{_shown(value)} is not {_SEED}", "seed")
    return int(value)


def _shown(value: Any) -> str:
    """A JSON value for one line, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
