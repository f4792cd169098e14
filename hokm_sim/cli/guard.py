"""The one error guard of every command: exceptions to one line and an exit code.

====  ==========================================================
 0    success
 1    regression (``regress`` and ``sprt`` only)
 2    usage error: bad input, one line naming the problem
 3    inconclusive (``regress`` and ``sprt`` only)
 4    stopped by a bot fault or a failed cluster (partial report kept)
 70   internal error: a bug in hokm-sim; the traceback is saved to a file
 130  interrupted (Ctrl-C)
====  ==========================================================
"""

from __future__ import annotations

import os
import sys
import tempfile
import traceback
from datetime import UTC, datetime
from pathlib import Path

import click

from hokm_sim.commands import labels
from hokm_sim.errors import InputError, StoppedError

EXIT_USAGE = InputError.exit_code
EXIT_INTERNAL = 70
"""A bug in hokm-sim (``EX_SOFTWARE``): never 1, which ``regress`` uses for "regression"."""
EXIT_INTERRUPTED = 130


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def save_traceback(exc: BaseException) -> Path:
    """Write the full traceback to a new file in the temporary folder; its path."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    fd, name = tempfile.mkstemp(prefix=f"hokm-sim-crash-{stamp}-", suffix=".txt")
    with os.fdopen(fd, "w") as f:
        f.write(f"hokm-sim {' '.join(sys.argv[1:])}\n\n")
        f.write("".join(traceback.format_exception(exc)))
    return Path(name)


class BadInput(click.ClickException):
    """An :class:`InputError` of the library, told in the command line's words."""

    exit_code = InputError.exit_code


class GuardedGroup(click.Group):
    """A click group whose every error is one line on standard error and an exit code.

    The library names Python parameters in its errors; the command that ran
    names them by its flags (:func:`hokm_sim.commands.labels`).
    """

    def invoke(self, ctx: click.Context):
        """Run the command, its input errors told with its flags."""
        try:
            return super().invoke(ctx)
        except InputError as exc:
            names = labels(ctx.invoked_subcommand or "")
            raise BadInput(exc.render(lambda name: names.get(name, name))) from None

    def main(self, *args, **kwargs):
        """Run the CLI with the mapping of the module docstring."""
        kwargs["standalone_mode"] = False
        try:
            rv = super().main(*args, **kwargs)
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
            sys.exit(EXIT_USAGE)
        except click.ClickException as exc:
            click.echo(f"Error: {_one_line(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        except InputError as exc:  # raised outside a command (while parsing)
            click.echo(f"Error: {_one_line(exc)}", err=True)
            sys.exit(exc.exit_code)
        except StoppedError as exc:
            kept = f" (partial report: {exc.folder})" if exc.folder is not None else ""
            if exc.resume:
                kept += f"; continue with {exc.resume}"
            click.echo(f"Error: {_one_line(exc)}{kept}", err=True)
            sys.exit(exc.exit_code)
        except (click.exceptions.Abort, KeyboardInterrupt):
            click.echo("Aborted.", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except Exception as exc:  # a bug: one line, the traceback kept for the report
            from numba.core.errors import NumbaError

            if isinstance(exc, NumbaError):
                from hokm_sim.bots.compiled import describe_compile_error

                click.echo(f"Error: {describe_compile_error(exc)}", err=True)
                sys.exit(EXIT_USAGE)
            path = save_traceback(exc)
            click.echo(
                f"Error: internal error ({type(exc).__name__}: {_one_line(exc)[:300]}); "
                f"the full traceback is in {path}; please report it",
                err=True,
            )
            sys.exit(EXIT_INTERNAL)
        sys.exit(rv if isinstance(rv, int) else 0)
