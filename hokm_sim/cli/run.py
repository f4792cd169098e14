"""``run``: A against B in duplicate, a table in the terminal and a report on disk."""

from __future__ import annotations

import json
from pathlib import Path

import click

from hokm_sim.cli.options import (
    CONTEXT,
    SIZE,
    bot_timeout_option,
    engine_option,
    first_hakem_option,
    interrupted,
    out_options,
    scheduler_option,
    seed_option,
    target_option,
    threads_option,
)
from hokm_sim.cli.progress import Progress


@click.command(context_settings=CONTEXT)
@click.argument("a", default="expert", required=False)
@click.argument("b", default="longest", required=False)
@click.option("--hands", type=SIZE, help="Deals to play (each twice in duplicate) [default: 1M].")
@click.option("--matches", type=SIZE, help="Matches to play instead of single deals.")
@seed_option
@target_option
@first_hakem_option
@threads_option
@out_options
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON, not a table.")
@click.option("--no-duplicate", is_flag=True, help="Play each deal once (A on team 0).")
@click.option("--save-hands", is_flag=True, help="Also write one row per hand to hands.parquet.")
@click.option(
    "--analyse",
    "analyse_deals",
    type=SIZE,
    metavar="N",
    help="Also grade every card of a seeded sample of N deals (both copies) double dummy: "
    "accuracy per strategy, worst swings and blunders (analysis.md, analysis/index.html).",
)
@scheduler_option
@click.option(
    "--task-size",
    type=SIZE,
    help="Deals (or matches) per Dask task or local batch [default: sized to the workers "
    "or threads].",
)
@click.option(
    "--resume",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    metavar="DIR",
    help="Continue the stopped run whose report folder is DIR, from its checkpoint.",
)
@engine_option
@bot_timeout_option
def run(
    a: str,
    b: str,
    hands: int | None,
    matches: int | None,
    seed: int | None,
    target: int | None,
    first_hakem: str | None,
    threads: int | None,
    out: Path | None,
    force: bool,
    as_json: bool,
    no_duplicate: bool,
    save_hands: bool,
    analyse_deals: int | None,
    scheduler: str | None,
    task_size: int | None,
    resume: Path | None,
    engine: str | None,
    bot_timeout: float | None,
) -> None:
    """Compare strategy A with strategy B in duplicate, with 95% intervals.

    Every deal is played twice with the same cards and the same Hakem seat,
    teams swapped, so card luck cancels; numbers are from A's point of view.
    A and B are names (see `hokm-sim strategies`), bot files, or
    compositions such as trump=longest,play=expert. Prints a table (or JSON)
    and writes summary.json and report.md to a report folder. Finished work
    is checkpointed in the folder as it goes: Ctrl-C stops after the batch in
    flight and writes a partial report (exit code 130), and --resume DIR
    continues a stopped or killed run to exactly the uninterrupted result.

    \b
    Example:
        hokm-sim run
        hokm-sim run expert longest --hands 10M --seed 1
        hokm-sim run expert random --matches 20000 --target 7 --json
        hokm-sim run expert random --matches 20000 --first-hakem highest-card
        hokm-sim run expert longest --hands 100k --seed 1 --analyse 500
        hokm-sim run expert longest --hands 1G --scheduler tcp://10.0.0.1:8786
        hokm-sim run --resume results/20261130-101500-expert-vs-longest-seed1
    """
    from hokm_sim import api
    from hokm_sim.report.markdown import table

    how = {
        "threads": threads,
        "scheduler": scheduler,
        "task": task_size,
        "engine": engine,
        "bot_timeout": bot_timeout,
    }
    with Progress() as prog:
        if resume is not None:
            _refuse_what_resume_ignores(resume)
            summary = api.resume(resume, progress=prog, **how)
        else:
            summary = api.run(
                a,
                b,
                hands=hands,
                matches=matches,
                seed=seed,
                target=target,
                first_hakem=first_hakem,
                duplicate=not no_duplicate,
                out=out or True,
                force=force,
                save_hands=save_hands,
                analyse=analyse_deals,
                progress=prog,
                **how,
            )
    analysis = summary.analysis
    if as_json:
        extra = {"analysis": analysis.to_dict()} if analysis is not None else {}
        click.echo(
            json.dumps(summary.to_dict() | {"report": str(summary.folder)} | extra, indent=1)
        )
    else:
        click.echo(table(summary))
        if analysis is not None:
            from hokm_sim.dd.analyse import format_accuracy

            click.echo("")
            click.echo(format_accuracy(analysis.accuracy()))
            click.echo(f"analysis: {summary.folder / 'analysis' / 'index.html'}")
        click.echo(f"report: {summary.folder}")
    then = f"continue with hokm-sim run --resume {summary.folder}"
    if save_hands:  # its rows cannot be resumed (api.resume refuses them)
        then = "a --save-hands run cannot be resumed: run it again to finish it"
    interrupted({"partial": summary.partial}, then)


def _refuse_what_resume_ignores(resume: Path) -> None:
    """--resume plays what the checkpoint recorded: options that say what to play are
    refused rather than silently ignored."""
    ctx = click.get_current_context()
    how = {"resume", "threads", "scheduler", "task_size", "as_json"}
    given = [
        p.opts[0] if isinstance(p, click.Option) else p.human_readable_name
        for p in ctx.command.params
        if p.name not in how
        and ctx.get_parameter_source(p.name) is click.core.ParameterSource.COMMANDLINE
    ]
    if given:
        raise click.UsageError(
            f"--resume continues the run recorded in {resume}; drop {', '.join(given)}"
        )


COMMANDS = (run,)
