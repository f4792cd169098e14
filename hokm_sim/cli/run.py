"""``run``: A against B in duplicate, a table in the terminal and a report on disk."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from hokm_sim.cli.options import (
    CONTEXT,
    SIZE,
    bot_timeout_option,
    first_hakem_option,
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
    from hokm_sim.report.folder import default_folder
    from hokm_sim.report.markdown import table

    how = {"threads": threads, "scheduler": scheduler, "task": task_size}
    ctx = click.get_current_context()
    if resume is not None:
        given = [
            p.upper() if p in ("a", "b") else f"--{p.replace('_', '-')}"
            for p in ("a", "b", "hands", "matches", "seed", "target", "first_hakem", "out")
            + ("force",)
            + ("no_duplicate", "save_hands")
            if ctx.get_parameter_source(p) is click.core.ParameterSource.COMMANDLINE
        ]
        if given:
            raise click.UsageError(
                f"--resume continues the run recorded in {resume}; drop {', '.join(given)}"
            )
        cfg, done = api.resume_plan(resume)
        prog = _progress(cfg.total, cfg.mode, cfg.duplicate, done)
        with prog:
            summary = api.resume(resume, progress=prog.update, **how)
        folder = resume
    else:
        if hands is not None and matches is not None:
            raise click.UsageError("give --hands N or --matches N, not both")
        if analyse_deals is not None and matches is not None:
            raise click.UsageError("--analyse grades deals of a --hands run, not --matches")
        seed = api.fresh_seed() if seed is None else seed
        sa, sb = api.strategy(a, "A"), api.strategy(b, "B")
        folder = out or default_folder(a, b, seed)
        mode = "matches" if matches is not None else "hands"
        total = matches if matches is not None else (hands or 1_000_000)
        with _progress(total, mode, not no_duplicate, 0) as prog:
            summary = api.run(
                sa,
                sb,
                hands=hands,
                matches=matches,
                seed=seed,
                target=target,
                first_hakem=first_hakem,
                duplicate=not no_duplicate,
                out=folder,
                force=force,
                save_hands=save_hands,
                progress=prog.update,
                **how,
            )
    analysis = None
    if analyse_deals is not None and not summary.partial:
        analysis = api.analyse_run(folder, analyse_deals, threads=threads)
    if as_json:
        extra = {"analysis": analysis} if analysis is not None else {}
        click.echo(json.dumps(summary.to_dict() | {"report": str(folder)} | extra, indent=1))
    else:
        click.echo(table(summary))
        if analysis is not None:
            from hokm_sim.dd.analyse import format_accuracy

            click.echo("")
            click.echo(format_accuracy(analysis["accuracy"]))
            click.echo(f"analysis: {Path(folder) / 'analysis' / 'index.html'}")
        click.echo(f"report: {folder}")
    if summary.partial:
        click.echo(
            f"interrupted: the report covers only the finished batches; "
            f"continue with hokm-sim run --resume {folder}",
            err=True,
        )
        sys.exit(130)


def _progress(total: int, mode: str, duplicate: bool, done: int) -> Progress:
    copies = 2 if duplicate else 1
    per_unit = copies if mode == "hands" else 10 * copies
    unit = "matches" if mode == "matches" else "deals"
    return Progress(total, unit, per_unit=per_unit, initial=done)


COMMANDS = (run,)
