"""The ``hokm-sim`` command line: thin commands over :mod:`hokm_sim.api`.

Each command parses its options, calls one public function (with a
:class:`.progress.Progress` as its ``progress`` for long work) and renders
the result; checks of what the user asked for are the function's, never
the command's. Each function has its row in :data:`hokm_sim.commands.COMMANDS`
(its parameters and this command's flags), from which the recorded
command of every result is built and with which :mod:`.guard` names the
flags in the library's errors, turning every error into one line and an
exit code.
"""

from __future__ import annotations

import os

import click

from hokm_sim.cli import (
    analyse,
    compare,
    dd,
    hands,
    play,
    regress,
    results,
    run,
    serve,
    strength,
    study,
    tools,
)
from hokm_sim.cli.guard import GuardedGroup
from hokm_sim.cli.options import CONTEXT
from hokm_sim.version import __version__


def _store(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """``hokm-sim --store PATH|URL COMMAND``: the results store of every command it runs."""
    if value:
        os.environ["HOKM_SIM_STORE"] = value


@click.group(cls=GuardedGroup, context_settings=CONTEXT)
@click.version_option(__version__, "--version", prog_name="hokm-sim")
@click.option(
    "--store",
    metavar="PATH|URL",
    callback=_store,
    expose_value=False,
    help="The results store every report is added to: a SQLite file, or "
    "postgresql://USER:PASSWORD@HOST/DATABASE [default: $HOKM_SIM_STORE, else "
    "results.sqlite in the user's data folder; docs/results.md].",
)
def main() -> None:
    """Simulate four-player Hokm between bot strategies and measure them honestly.

    \b
    Example:
        hokm-sim run
        hokm-sim strategies
        hokm-sim trace --seed 1 --hands 3 --a longest --b random
    """


for module in (
    run,
    compare,
    strength,
    regress,
    study,
    hands,
    tools,
    dd,
    analyse,
    play,
    serve,
    results,
):
    for command in module.COMMANDS:
        main.add_command(command)
