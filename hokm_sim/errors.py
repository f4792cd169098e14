"""The exceptions hokm-sim raises on purpose, and the exit code each one means.

Every command maps them the same way (:mod:`hokm_sim.cli.guard`):

- :class:`InputError` (exit 2): bad input from the user: a size, a seed, a
  strategy spec, a file. The message is one line that names the problem and
  the valid choices. It names parameters as Python knows them (``param``,
  and :func:`ref` inside the text); the CLI shows its own flags instead.
- :class:`StoppedError` (exit 4): work stopped by something that is not the
  user's input: a bot that broke the rules or raised, a cluster that failed.
  What finished is kept.
- :class:`OutputError` (exit 74, ``EX_IOERR``): a file that could not be
  written to the end (a full disk); one line naming it.
- :class:`Terminated` (exit 128 + the signal, 143 for ``SIGTERM``): ``SIGTERM``
  or ``SIGHUP``, which hokm-sim takes as it takes Ctrl-C (a
  ``KeyboardInterrupt``, exit 130).

Anything else that escapes is a bug in hokm-sim (exit 70).
"""

from __future__ import annotations

import re
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

_REF = "\x00"
_REFS = re.compile(_REF + r"(\w+)" + _REF)


def ref(name: str) -> str:
    """Parameter ``name`` mentioned inside an error message: shown as ``name`` from
    Python and as its flag (``--name``, ``A`` ...) on the command line."""
    return f"{_REF}{name}{_REF}"


class HokmError(Exception):
    """Base of the errors hokm-sim raises on purpose; ``exit_code`` is the command
    line's exit code for each kind."""

    exit_code: int


class InputError(HokmError, ValueError):
    """Bad input: one line naming the problem and the valid choices.

    ``param`` is the Python parameter at fault, if one is; the message then
    reads ``param: text``. :meth:`render` writes it with other names for the
    parameters (the command line's flags).
    """

    exit_code = 2

    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message, param)
        self.message, self.param = message, param

    def render(self, label: Callable[[str], str] = str) -> str:
        """The message with each parameter called ``label(name)``."""
        text = _REFS.sub(lambda m: label(m[1]), self.message)
        return f"{label(self.param)}: {text}" if self.param else text

    def __str__(self) -> str:
        return self.render()


class StoppedError(HokmError, RuntimeError):
    """Work stopped by a bot fault or a failed cluster; finished work is kept.

    The layers it passes through say what was kept: ``partial`` is what
    finished before the stop (a run's :class:`~hokm_sim.sim.run.Played`),
    ``folder`` the report folder the partial report was written to, and
    ``resume`` the command that continues the work, when it can be resumed.
    """

    exit_code = 4
    partial: Any = None
    folder: Path | None = None
    resume: str | None = None


class OutputError(HokmError):
    """A file that could not be written to the end: a full disk, a device that refuses it."""

    exit_code = 74


class Terminated(KeyboardInterrupt):
    """``SIGTERM`` (or ``SIGHUP``), handled as Ctrl-C is: a ``KeyboardInterrupt``, so
    that whatever stops on Ctrl-C (and ends its bots) stops on it too. ``signum`` is
    the signal: the command line exits with 128 + it (143 for ``SIGTERM``, where
    Ctrl-C gives 130)."""

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__(signum)
        self.signum = int(signum)

    def __str__(self) -> str:
        return f"stopped by {signal.Signals(self.signum).name}"
