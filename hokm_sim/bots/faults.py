"""When a bot breaks the rules: how its answers are checked, and how the fault is replayed.

A compiled bot's card is checked inside the engine (legal mask, suit range);
a plain-Python bot's answer is first checked here for being an integer at
all (or, from a batched bot, one integer per hand), then by the engine like
any other. Every fault names the strategy, seed, deal or match, hand and
trick, and the ``hokm-sim show`` command that replays that hand.
"""

from __future__ import annotations

from numbers import Integral
from typing import TYPE_CHECKING

from hokm_sim.commands import command_line
from hokm_sim.errors import StoppedError
from hokm_sim.house import FIRST_HAKEM_METHODS

if TYPE_CHECKING:
    import numpy as np


def replay_command(
    seed: int,
    a: str,
    b: str,
    copy: int,
    match: int | None,
    hand: int,
    target: int,
    first_hakem: int = 0,
    bot_timeout: float | None = None,
) -> str:
    """The ``hokm-sim show`` command that replays hand ``hand`` (of match ``match``, whose
    first Hakem was found by house rule ``first_hakem``, an engine code); copy 1 is
    the swapped copy of the duplicate pair, with its own streams; ``bot_timeout``, the
    protocol bots' limit the hand was played with, if not the default."""
    return command_line(
        "show",
        bot_timeout=bot_timeout,
        seed=seed,
        match=match,
        hand=hand,
        target=target if match is not None else None,
        a=a,
        b=b,
        copy=copy or None,
        first_hakem=FIRST_HAKEM_METHODS[first_hakem] if match is not None and first_hakem else None,
    )


def shown(value: object, typed: bool = True) -> str:
    """What a bot gave, for one line: its repr cut to 40 characters (and its type)."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - whatever a bot returns must give one line
        text = "an object whose repr fails"
    text = " ".join(text.split())
    text = text if len(text) <= 40 else text[:37] + "..."
    return f"{text} ({type(value).__name__})" if typed else text


class PythonBotError(StoppedError):
    """A plain-Python bot raised, or answered with something that is not a suit or card."""


def check_answer(value: object) -> int | None:
    """``value`` as an ``int`` if it is a whole number in int64's range, else None."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        return None
    value = int(value)
    return value if -(2**63) <= value < 2**63 else None


def check_batch(value: object, n: int) -> tuple[np.ndarray | None, str]:
    """A batched bot's answers as ``int64[n]``, or ``(None, why not)``."""
    import numpy as np

    try:
        arr = np.asarray(value)
    except Exception:  # noqa: BLE001 - anything a bot returns must give one line
        return None, f"returned {type(value).__name__}, not an array of integers"
    if arr.shape != (n,):
        return None, f"returned shape {arr.shape} for a batch of {n}; expected ({n},)"
    if arr.dtype.kind not in "iu":
        return None, f"returned dtype {arr.dtype}; expected integers (card or suit indices)"
    if arr.dtype.kind == "u" and arr.size and arr.max() >= 2**63:
        return None, "returned integers beyond int64"
    return arr.astype(np.int64), ""


def raised(exc: BaseException) -> str:
    """What a bot's exception (or ``sys.exit``) was, in a few words: the fault line's
    phrase, at a table and in ``hokm-sim serve`` alike."""
    if isinstance(exc, SystemExit):
        return f"called sys.exit({shown(exc.code, typed=False)})"
    try:
        text = " ".join(str(exc).split())
    except Exception:  # noqa: BLE001 - an exception whose text cannot be had
        text = ""
    text = text if len(text) <= 200 else text[:197] + "..."
    return f"raised {type(exc).__name__}: {text}" if text else f"raised {type(exc).__name__}"
