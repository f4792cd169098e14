"""The one error guard of every command: exceptions to one line and an exit code.

====  ==========================================================
 0    success
 1    regression (``regress`` and ``sprt`` only)
 2    usage error: bad input, one line naming the problem
 3    inconclusive (``regress`` and ``sprt`` only)
 4    stopped by a bot fault or a failed cluster (partial report kept)
 70   internal error: a bug in hokm-sim; the traceback is saved to a file
 74   the output could not be written (a full disk): one line
 130  interrupted (Ctrl-C)
 143  terminated (``SIGTERM``, taken as Ctrl-C is: partial report kept); a hang-up
      (``SIGHUP``) likewise gives 129: 128 + the signal
 141  standard output was closed by its reader (``| head``): no message
====  ==========================================================

Standard output is flushed before the exit code is chosen, so a full disk
or a closed pipe is found here and not, as a traceback, when the process
ends. Warnings of the libraries underneath (numba's) are not shown: the
terminal carries only what hokm-sim means to say.

``SIGTERM`` and ``SIGHUP`` raise :class:`~hokm_sim.errors.Terminated` (a
KeyboardInterrupt) wherever the command is, rather than ending the process where it stands, so
that what Ctrl-C does on the way out happens for it too: the partial report,
and the bots' processes ended with their helpers (docs/protocol.md). Long
work takes it as a request to stop after the batch in flight
(:mod:`hokm_sim.sim.interrupt`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys
import tempfile
import threading
import traceback
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import NoReturn

import click

from hokm_sim.commands import labels
from hokm_sim.errors import InputError, OutputError, StoppedError, Terminated
from hokm_sim.writing import FULL

EXIT_USAGE = InputError.exit_code
EXIT_INTERNAL = 70
"""A bug in hokm-sim (``EX_SOFTWARE``): never 1, which ``regress`` uses for "regression"."""
EXIT_OUTPUT = OutputError.exit_code
EXIT_INTERRUPTED = 130
"""128 + SIGINT; ``SIGTERM`` gives 128 + 15, by the same rule."""
EXIT_PIPE = 141
"""128 + SIGPIPE: what a shell reports for a program whose reader closed the pipe."""


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def save_traceback(exc: BaseException) -> Path:
    """Write the full traceback to a new file in the temporary folder; its path."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    fd, name = tempfile.mkstemp(prefix=f"hokm-sim-crash-{stamp}-", suffix=".txt")
    with os.fdopen(fd, "w") as f:
        f.write(f"hokm-sim {' '.join(sys.argv[1:])}\n\n")
        f.write("".join(traceback.format_exception(exc)))
    return Path(name)


def _say(text: str) -> None:
    """One line on standard error (nothing if standard error is itself gone)."""
    with contextlib.suppress(OSError, ValueError):
        click.echo(text, err=True)


def _quiet_stdout() -> None:
    """Point standard output at the null device, so that what is still buffered for a
    full disk or a closed pipe cannot fail again when the process ends."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _output_failed(exc: OSError) -> int | None:
    """The exit code for an error writing standard output, or None if it is another."""
    if exc.errno == errno.EPIPE:  # the reader left (| head): stop quietly
        _quiet_stdout()
        return EXIT_PIPE
    if exc.errno not in FULL:
        return None
    _quiet_stdout()  # hokm-sim's own files name themselves (OutputError): this is stdout
    what = exc.filename or "the output"
    _say(f"Error: cannot write {what}: {os.strerror(exc.errno).lower()}")
    return EXIT_OUTPUT


def _flushed(code: int) -> int:
    """``code``, once standard output is flushed (or the code of its failure)."""
    try:
        sys.stdout.flush()
    except OSError as exc:
        failed = _output_failed(exc)
        if failed is not None:
            return failed
        raise
    return code


def _hide_library_warnings() -> None:
    """numba's warnings (experimental features, deprecations, performance hints) are
    for hokm-sim's developers, not for the people who run it.

    Those raised inside numba are filtered by module; numba's own kinds of
    warning, which it may raise as from a bot file, by their class, when they
    are shown: a filter by class would import numba, which ``--help`` and
    ``strategies`` have no use for."""
    warnings.filterwarnings("ignore", module=r"numba(\.|$)")
    if not getattr(warnings.showwarning, "hides_numba", False):
        warnings.showwarning = _without_numba(warnings.showwarning)


def _without_numba(show):
    """``show`` (a :func:`warnings.showwarning`) for every warning but numba's own."""

    def showwarning(message, category, filename, lineno, file=None, line=None):
        if category.__module__.partition(".")[0] != "numba":
            show(message, category, filename, lineno, file, line)

    showwarning.hides_numba = True
    return showwarning


def _leave(code: int) -> NoReturn:
    """Exit with ``code``; at once if an engine call was left running after Ctrl-C
    (a stuck bot's thread would hold the process open), once the output is flushed."""
    interrupt = sys.modules.get("hokm_sim.sim.interrupt")  # loaded by every engine call
    if interrupt is not None and interrupt.abandoned():
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)
    sys.exit(code)


def _internal(exc: BaseException) -> int:
    """A bug: one line, and the traceback saved for the report."""
    path = save_traceback(exc)
    _say(
        f"Error: internal error ({type(exc).__name__}: {_one_line(exc)[:300]}); "
        f"the full traceback is in {path}; please report it"
    )
    return EXIT_INTERNAL


_ENDING = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))
"""Signals that would end the process where it stands: taken as Ctrl-C is instead."""


def _terminated(signum, frame) -> NoReturn:
    raise Terminated(signum)


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """Within the block (a command, in the main thread), ``SIGTERM`` and ``SIGHUP``
    raise :class:`Terminated`, unless the process was started with them ignored
    (``nohup``)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {s: signal.getsignal(s) for s in _ENDING}
    for s, handler in old.items():
        if handler is not signal.SIG_IGN:
            signal.signal(s, _terminated)
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)


class _PipeClosed(Exception):
    """Standard output's reader left; raised past click, which would exit 1 for it."""


@contextlib.contextmanager
def _pipe_kept() -> Iterator[None]:
    """Within the block, a closed pipe (``EPIPE``) is :class:`_PipeClosed`."""
    try:
        yield
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            raise _PipeClosed from exc
        raise


class BadInput(click.ClickException):
    """An :class:`InputError` of the library, told in the command line's words."""

    exit_code = InputError.exit_code


class GuardedGroup(click.Group):
    """A click group whose every error is one line on standard error and an exit code.

    The library names Python parameters in its errors; the command that ran
    names them by its flags (:func:`hokm_sim.commands.labels`).
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Parse the group's own options; a closed pipe while ``--help`` prints (before
        any command runs) kept from click's own handling, as in :meth:`invoke`."""
        with _pipe_kept():
            return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context):
        """Run the command: its input errors told with its flags, and a closed pipe
        kept from click's own handling (exit 1, which means "regression" here)."""
        try:
            with _pipe_kept():
                return super().invoke(ctx)
        except InputError as exc:
            names = labels(ctx.invoked_subcommand or "")
            raise BadInput(exc.render(lambda name: names.get(name, name))) from None

    def main(self, *args, **kwargs) -> NoReturn:
        """Run the CLI with the mapping of the module docstring."""
        _leave(self._guarded(*args, **kwargs))

    def _guarded(self, *args, **kwargs) -> int:
        with _terminate_as_interrupt():
            return self._mapped(*args, **kwargs)

    def _mapped(self, *args, **kwargs) -> int:
        kwargs["standalone_mode"] = False
        _hide_library_warnings()
        try:
            rv = super().main(*args, **kwargs)
            return _flushed(rv if isinstance(rv, int) else 0)
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
            return _flushed(EXIT_USAGE)
        except click.ClickException as exc:
            _say(f"Error: {_one_line(exc.format_message())}")
            return exc.exit_code
        except InputError as exc:  # raised outside a command (while parsing)
            _say(f"Error: {_one_line(exc)}")
            return exc.exit_code
        except OutputError as exc:
            _quiet_stdout()
            _say(f"Error: {_one_line(exc)}")
            return exc.exit_code
        except StoppedError as exc:
            kept = f" (partial report: {exc.folder})" if exc.folder is not None else ""
            if exc.resume:
                kept += f"; continue with {exc.resume}"
            _say(f"Error: {_one_line(exc)}{kept}")
            return _flushed(exc.exit_code)
        except (click.exceptions.Abort, KeyboardInterrupt) as exc:
            cause = exc.__cause__ if isinstance(exc, click.exceptions.Abort) else exc
            if isinstance(cause, Terminated):  # click made it an Abort, as Ctrl-C
                _say(f"Terminated ({signal.Signals(cause.signum).name}).")
                return 128 + cause.signum
            _say("Aborted.")
            return EXIT_INTERRUPTED
        except click.exceptions.Exit as exc:
            return _flushed(exc.exit_code)
        except _PipeClosed:
            _quiet_stdout()
            return EXIT_PIPE
        except SystemExit as exc:  # a command's own code (run interrupted: 130, regress)
            return _flushed(exc.code if isinstance(exc.code, int) else EXIT_INTERNAL)
        except OSError as exc:
            failed = _output_failed(exc)
            return failed if failed is not None else _internal(exc)
        except Exception as exc:  # a bug: one line, the traceback kept for the report
            from numba.core.errors import NumbaError

            if isinstance(exc, NumbaError):
                from hokm_sim.bots.compiled import describe_compile_error

                _say(f"Error: {describe_compile_error(exc)}")
                return EXIT_USAGE
            return _internal(exc)
