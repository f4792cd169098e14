"""``dd`` (solve deals double dummy) and ``dd-study`` (trump calls judged by the solver)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import click

from hokm_sim.cli.options import (
    CONTEXT,
    SIZE,
    SPECS,
    bot_timeout_option,
    emit_lines,
    force_option,
    interrupted,
    out_options,
    output_option,
    output_to,
    seed_option,
    threads_option,
)
from hokm_sim.cli.progress import Progress


@click.command("dd", context_settings=CONTEXT)
@click.argument(
    "file",
    type=click.Path(exists=True, dir_okay=False, allow_dash=True, path_type=Path),
    default="-",
)
@threads_option
@output_option
@force_option("-o file")
def dd(file: Path, threads: int | None, output: Path | None, force: bool) -> None:
    """Solve deals double dummy (every hand open, best play): one JSON line in, one out.

    Each input line is {"hands": [4 lists of cards by seat], "trump": "H",
    "leader": SEAT}; hands may be shorter than 13 (an ending) but of equal
    length. Each output line holds "tricks" ([team 0, team 1], counting every
    remaining trick as if the hand were played out; who gets to 7 first is
    unchanged by that), "reach7" (the leader's team takes 7 or more) and, for
    13-card deals, "kot" (the leader's team can take the first 7 tricks in a
    row) and "hakem_kot" (the other team can). FILE defaults to standard input.

    \b
    Example:
        hokm-sim dd deals.jsonl
        hokm-sim dd deals.jsonl --threads 2 -o solved.jsonl
    """
    from hokm_sim import api

    out = output_to(output, force)
    deals: Path | io.TextIOWrapper = file
    if str(file) == "-":  # read as UTF-8 whatever the locale: bytes that are not text are refused
        deals = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8")
    emit_lines(api.solve(deals, threads=threads).lines(), out)
    sys.stdout.flush()


@click.command("dd-study", context_settings=CONTEXT)
@click.option("--hands", type=SIZE, default="200", show_default=True, help="Deals to solve.")
@seed_option
@click.option(
    "--heuristics",
    default="longest,points,weighted,random",
    show_default=True,
    type=SPECS,
    help="Comma-separated trump heuristics to judge (strategy specs).",
)
@threads_option
@out_options
@bot_timeout_option
def dd_study(
    hands: int,
    seed: int | None,
    heuristics: list[str],
    threads: int | None,
    out: Path | None,
    force: bool,
    bot_timeout: float | None,
) -> None:
    """How often can the Hakem's team force 7 with each trump call, double dummy?

    Solves each seeded deal (the engine's deals) with all four trumps, the
    Hakem leading, and judges each heuristic's call against the best suit in
    hindsight: how much each heuristic gives away against perfect play.
    Prints a table and writes summary.json and report.md to a report folder
    (never over an existing one without --force).

    \b
    Example:
        hokm-sim dd-study --hands 200 --seed 1
        hokm-sim dd-study --heuristics longest,expert --hands 100
    """
    from hokm_sim import api

    with Progress() as prog:
        result = api.dd_study(
            heuristics,
            hands=hands,
            seed=seed,
            threads=threads,
            out=out or True,
            force=force,
            bot_timeout=bot_timeout,
            progress=prog,
        )
    from hokm_sim.report.pages import dd_study_text

    click.echo(dd_study_text(result.data))
    click.echo(f"report: {result.folder}")
    interrupted(result.data, "a study cannot be resumed: run it again to finish it")


COMMANDS = (dd, dd_study)
