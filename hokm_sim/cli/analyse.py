"""``analyse``: every card of played hands graded against double-dummy play."""

from __future__ import annotations

from pathlib import Path

import click

from hokm_sim.cli.options import (
    CONTEXT,
    SEED,
    SIZE,
    bot_timeout_option,
    emit_lines,
    force_option,
    output_option,
    output_to,
    strategy_options,
    threads_option,
)
from hokm_sim.cli.progress import Progress


@click.command(context_settings=CONTEXT)
@click.argument(
    "folder", required=False, type=click.Path(exists=True, file_okay=False, path_type=Path)
)
@click.option(
    "--trace",
    "trace_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Analyse the hands of a trace file (hokm-sim trace) instead.",
)
@click.option("--seed", type=SEED, help="Analyse seeded deals 0..N-1 (with --hands) instead.")
@click.option(
    "--hands",
    type=SIZE,
    help="With --seed: deals to play and analyse (both copies); with FOLDER: the first N deals.",
)
@strategy_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "jsonl", "summary"]),
    default="text",
    show_default=True,
    help="text: every hand graded, then accuracy per strategy; jsonl: one JSON line per "
    "hand; summary: accuracy per strategy only.",
)
@output_option
@click.option(
    "--html",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Also write HTML pages to DIR: an index of the worst swings and blunders and a "
    "page per hand they name.",
)
@force_option("-o file or --html folder")
@threads_option
@bot_timeout_option
def analyse(
    folder: Path | None,
    trace_file: Path | None,
    seed: int | None,
    hands: int | None,
    a: str,
    b: str,
    fmt: str,
    output: Path | None,
    html: Path | None,
    force: bool,
    threads: int | None,
    bot_timeout: float | None,
) -> None:
    """Grade every card of played hands against double-dummy play (all hands open).

    For each card: the double-dummy value of every legal card (the tricks
    the player's team takes in the whole hand with best play by all four),
    whether the team can still reach 7, make or avoid a Kot, the cost of the
    card chosen and its grade (best, mistake: costs a trick, blunder: loses
    a won hand or gives up or concedes a Kot; docs/analysis.md). The trump
    call is graded on the outcome of each trump with the full deal known:
    hindsight. The hands are a run's saved hands (FOLDER, from run
    --save-hands), a trace file (--trace), or seeded deals played again
    (--seed S --hands N --a A --b B, both copies of each deal).

    \b
    Example:
        hokm-sim analyse --seed 7 --hands 20 --a expert --b random --format summary
        hokm-sim analyse --trace hands.jsonl --format jsonl -o graded.jsonl
        hokm-sim analyse results/my-run --hands 100 --html results/my-run-html
    """
    from hokm_sim import api
    from hokm_sim.dd.analyse import format_accuracy, format_hand

    out = output_to(output, force)
    with Progress() as prog:
        result = api.analyse(
            folder,
            trace=trace_file,
            seed=seed,
            hands=hands,
            a=a,
            b=b,
            threads=threads,
            out=html,
            force=force,
            progress=prog,
            bot_timeout=bot_timeout,
        )

    def lines():
        if fmt == "jsonl":
            yield from result.lines()
            return
        if fmt == "text":
            for rec in result.records():
                yield format_hand(rec) + "\n"
        yield format_accuracy(result.accuracy())

    emit_lines(lines(), out)
    if result.folder is not None:
        click.echo(f"html: {result.folder / 'analysis' / 'index.html'}", err=output is None)


COMMANDS = (analyse,)
