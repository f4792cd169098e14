"""The exceptions hokm-sim raises on purpose, and the exit code each one means.

Every command maps them the same way (:mod:`hokm_sim.cli.guard`):

- :class:`InputError` (exit 2): bad input from the user: a size, a seed, a
  strategy spec, a file. The message is one line that names the problem and
  the valid choices.
- :class:`StoppedError` (exit 4): work stopped by something that is not the
  user's input: a bot that broke the rules or raised, a cluster that failed.
  What finished is kept.
- :class:`OutputError` (exit 74, ``EX_IOERR``): a file that could not be
  written to the end (a full disk); one line naming it.

Anything else that escapes is a bug in hokm-sim (exit 70).
"""

from __future__ import annotations


class HokmError(Exception):
    """Base of the errors hokm-sim raises on purpose."""

    exit_code = 2


class InputError(HokmError, ValueError):
    """Bad input: one line naming the problem and the valid choices."""

    exit_code = 2


class StoppedError(HokmError, RuntimeError):
    """Work stopped by a bot fault or a failed cluster; finished work is kept."""

    exit_code = 4


class OutputError(HokmError):
    """A file that could not be written to the end: a full disk, a device that refuses it."""

    exit_code = 74
