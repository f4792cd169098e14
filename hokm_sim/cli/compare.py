"""``tournament`` (every pair of strategies, ranked) and ``experiment`` (a TOML file of runs)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from hokm_sim.cli.options import (
    CONTEXT,
    SIZE,
    bot_timeout_option,
    interrupted,
    out_options,
    scheduler_option,
    seed_option,
    threads_option,
)
from hokm_sim.cli.progress import Progress


@click.command(context_settings=CONTEXT)
@click.argument("strategy_specs", nargs=-1, required=True, metavar="S1 S2 [S3 ...]")
@click.option(
    "--hands", type=SIZE, default="100k", show_default=True, help="Deals per pairing (each twice)."
)
@seed_option
@threads_option
@scheduler_option
@out_options
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@bot_timeout_option
def tournament(
    strategy_specs: tuple[str, ...],
    hands: int,
    seed: int | None,
    threads: int | None,
    scheduler: str | None,
    out: Path | None,
    force: bool,
    as_json: bool,
    bot_timeout: float | None,
) -> None:
    """Play every pair of strategies in duplicate on the same deals, and rank them.

    Prints a Bradley-Terry ranking with bootstrap intervals, the crosstable of
    pair scores and the LOS matrix; writes summary.json and report.md.

    \b
    Example:
        hokm-sim tournament longest random points --hands 200k --seed 1
    """
    from hokm_sim import api
    from hokm_sim.analysis.tournament import format_summary

    with Progress() as prog:
        result = api.tournament(
            strategy_specs,
            hands=hands,
            seed=seed,
            threads=threads,
            scheduler=scheduler,
            out=out or True,
            force=force,
            progress=prog,
            bot_timeout=bot_timeout,
        )
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=1))
    else:
        click.echo(format_summary(result.data) + f"\nreport: {result.folder}")
    interrupted(result.data, "a tournament cannot be resumed: run it again to finish it")


@click.command(context_settings=CONTEXT)
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@threads_option
@out_options
@bot_timeout_option
def experiment(
    file: Path, threads: int | None, out: Path | None, force: bool, bot_timeout: float | None
) -> None:
    """Run an experiment file (TOML: runs or a tournament) and write its report.

    \b
    Example:
        hokm-sim experiment experiments/single_tips.toml
    """
    from hokm_sim import api
    from hokm_sim.report.pages import experiment_text

    with Progress() as prog:
        result = api.experiment(
            file,
            threads=threads,
            out=out or True,
            force=force,
            progress=prog,
            bot_timeout=bot_timeout,
        )
    click.echo(experiment_text(result.data, result.runs()))
    click.echo(f"report: {result.folder}")
    interrupted(result.data, "an experiment cannot be resumed: run it again to finish it")


COMMANDS = (tournament, experiment)
