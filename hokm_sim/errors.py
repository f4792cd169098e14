"""The exceptions hokm-sim raises on purpose, and the exit code each one means.

Every command maps them the same way (:mod:`hokm_sim.cli.guard`):

- :class:`InputError` (exit 2): bad input from the user: a size, a seed, a
  strategy spec, a file. The message is one line that names the problem and
  the valid choices.
- :class:`StoppedError` (exit 4): work stopped by something that is not the
  user's input: a bot that broke the rules or raised, a cluster that failed.
  What finished is kept.

Anything else that escapes is a bug in hokm-sim (exit 70).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


class HokmError(Exception):
    """Base of the errors hokm-sim raises on purpose."""

    exit_code = 2


class InputError(HokmError, ValueError):
    """Bad input: one line naming the problem and the valid choices."""

    exit_code = 2


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
