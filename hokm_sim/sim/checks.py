"""The checks of what a caller asks to play: seeds, counts, hands or matches, match rules,
and the types of the parameters every API function shares (:data:`BY_NAME`).

Each check names the Python parameter at fault (``param``), which the CLI
shows as its own flag (:mod:`hokm_sim.commands`). Thread counts and
schedulers are checked where they are used (:func:`.runner.check_threads`,
:func:`.backends.check_scheduler`), once :data:`BY_NAME` has seen that a
thread count is a whole number.
"""

from __future__ import annotations

import math
import os
import secrets
from collections.abc import Callable
from numbers import Integral, Real
from pathlib import Path
from typing import Any

from hokm_sim.errors import InputError, ref
from hokm_sim.house import DEFAULT_FIRST_HAKEM, MAX_TARGET, first_hakem_code

DEFAULT_HANDS = 1_000_000
"""Deals a run plays when neither hands nor matches are given."""
DEFAULT_TARGET = 7
"""The score a match is played to unless told otherwise."""
MAX_SEED = 2**64 - 1
"""The largest run seed (seeds are 64-bit)."""
MAX_SIZE = 2**62
"""The largest count of deals, matches or pairs asked for (far beyond what any run
could play, and within the engine's 64-bit indices)."""


def fresh_seed() -> int:
    """A new random run seed (recorded with every result)."""
    return secrets.randbits(63)


def check_seed(seed: Any, param: str = "seed") -> int:
    """``seed`` as an ``int`` in 0 .. 2**64-1; None draws a fresh one."""
    if seed is None:
        return fresh_seed()
    if isinstance(seed, bool) or not isinstance(seed, Integral) or not 0 <= seed <= MAX_SEED:
        raise InputError(f"bad seed {seed!r}: expected a whole number in 0 .. 2**64-1", param)
    return int(seed)


def check_positive(n: Any, param: str, most: int = MAX_SIZE, zero: bool = False) -> int:
    """``n`` as a positive ``int`` (or 0, with ``zero``), at most ``most``. A string
    (``"10k"``) is refused: counts with suffixes are the command line's
    (:class:`hokm_sim.cli.options.SizeType`)."""
    if isinstance(n, bool) or not isinstance(n, Integral) or n < (0 if zero else 1):
        hint = " (the command line reads '10k'; Python takes 10_000)" if isinstance(n, str) else ""
        what = "a whole number, 0 or more" if zero else "a positive whole number"
        raise InputError(f"expected {what}, got {n!r}{hint}", param)
    if n > most:
        raise InputError(f"{n} is too large: at most {most}", param)
    return int(n)


def check_target(target: Any, param: str = "target") -> int:
    """A match target: a whole number in 1 .. :data:`~hokm_sim.house.MAX_TARGET`."""
    return check_positive(target, param, MAX_TARGET)


def check_size(
    hands: Any,
    matches: Any,
    target: Any = None,
    first_hakem: Any = None,
    default_hands: int | None = DEFAULT_HANDS,
) -> tuple[str, int, int, str]:
    """``(mode, size, target, first_hakem)`` of a request for ``hands`` deals or
    ``matches`` matches.

    One of the two at most (with ``default_hands`` None: exactly one); a
    ``target`` (7 by default) and a ``first_hakem`` house rule (first ace by
    default) only with matches; every number positive.
    """
    if hands is not None and matches is not None:
        raise InputError(f"give {ref('hands')} or {ref('matches')}, not both")
    if matches is None:
        check_match_only(target, first_hakem, "matches")
    if matches is not None:
        mode, size = "matches", check_positive(matches, "matches")
    elif hands is not None or default_hands is not None:
        mode, size = "hands", check_positive(default_hands if hands is None else hands, "hands")
    else:
        raise InputError(f"give {ref('hands')} or {ref('matches')}")
    target = DEFAULT_TARGET if target is None else check_target(target)
    return mode, size, target, check_first_hakem(first_hakem)


def check_match_only(target: Any, first_hakem: Any, matches: str) -> None:
    """A ``target`` and a ``first_hakem`` rule say how a match is played: refused for
    what is not a match (``matches`` names the parameter that would make it one)."""
    if target is not None:
        raise InputError(
            f"sets the score a match is played to: give it with {ref(matches)}", "target"
        )
    if first_hakem is not None:
        raise InputError(
            f"chooses a match's first Hakem: give it with {ref(matches)}", "first_hakem"
        )


def check_first_hakem(rule: Any) -> str:
    """The name of a first-Hakem house rule (None: the default, first ace)."""
    if rule is None:
        return DEFAULT_FIRST_HAKEM
    first_hakem_code(rule)  # refuses an unknown rule, naming the valid ones
    return rule


def check_finite(x: Any, param: str) -> float:
    """``x`` as a finite ``float``: a real number, not a bool, inf or nan."""
    if isinstance(x, bool) or not isinstance(x, Real) or not math.isfinite(x):
        raise InputError(f"expected a finite number, got {x!r}", param)
    return float(x)


def check_flag(value: Any, param: str) -> bool:
    """``True`` or ``False``, nothing that merely stands for one (``1``, ``"yes"``)."""
    if not isinstance(value, bool):
        raise InputError(f"expected True or False, got {value!r}", param)
    return value


def check_callable(fn: Any, param: str) -> Callable[..., Any] | None:
    """A function to call back (``progress``, ``on_batch`` ...), or None."""
    if fn is not None and not callable(fn):
        raise InputError(f"expected a function (or None), got {fn!r}", param)
    return fn


def check_path(path: Any, param: str) -> Path:
    """A path given as ``str`` or ``os.PathLike``, not empty."""
    if isinstance(path, bool) or not isinstance(path, str | os.PathLike):
        raise InputError(f"expected a path (str or pathlib.Path), got {path!r}", param)
    if not str(path).strip():
        raise InputError("expected a path, not an empty one", param)
    return Path(path)


def check_out(out: Any, param: str = "out") -> Path | bool | None:
    """A report folder's ``out``: a path, True (a new folder under ``results/``), or
    None and False (none)."""
    if out is None or isinstance(out, bool):
        return out
    return check_path(out, param)


def check_text(text: Any, param: str) -> str:
    """A non-empty string (an address, a host name)."""
    if not isinstance(text, str) or not text.strip():
        raise InputError(f"expected a non-empty string, got {text!r}", param)
    return text


def check_port(port: Any, param: str) -> int:
    """A TCP port, 0 (any free one) .. 65535."""
    if isinstance(port, bool) or not isinstance(port, Integral) or not 0 <= port <= 65535:
        raise InputError(f"expected a port in 0 .. 65535 (0: any free one), got {port!r}", param)
    return int(port)


BY_NAME: dict[str, Callable[[Any, str], Any]] = {
    "threads": check_positive,
    "task": check_positive,
    "force": check_flag,
    "duplicate": check_flag,
    "save_hands": check_flag,
    "progress": check_callable,
    "on_batch": check_callable,
    "on_ready": check_callable,
    "on_check": check_callable,
    "out": check_out,
    "folder": check_path,
    "file": check_path,
    "trace": check_path,
    "html": check_path,
    "http": check_port,
    "host": check_text,
    "scheduler": check_text,
}
"""The check of each parameter that means the same in every API function that has it,
by name: ``hokm_sim.api`` applies it to each value a caller gives (not to a default),
before the function's own checks, so that a wrong type is an :class:`InputError`
naming the parameter, never a ``TypeError`` from deep inside."""
