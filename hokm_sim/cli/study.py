"""``trump-study`` (which suit should the Hakem call?) and ``plot`` (its figures again)."""

from __future__ import annotations

from pathlib import Path

import click

from hokm_sim.cli.options import (
    CONTEXT,
    SIZE,
    SIZE_OR_ZERO,
    SPECS,
    bot_timeout_option,
    force_option,
    interrupted,
    out_options,
    scheduler_option,
    seed_option,
    threads_option,
)
from hokm_sim.cli.progress import Progress


@click.command("trump-study", context_settings=CONTEXT)
@click.option(
    "--player",
    default="expert",
    show_default=True,
    help="Strategy that plays the cards in every seat.",
)
@click.option(
    "--heuristics",
    default="longest,points,weighted,random,table",
    show_default=True,
    type=SPECS,
    help="Comma-separated trump heuristics to judge (strategy specs).",
)
@click.option(
    "--hands",
    type=SIZE,
    default="200k",
    show_default=True,
    help="Deals (each played with all four trumps).",
)
@seed_option
@click.option(
    "--eval-hands",
    type=SIZE_OR_ZERO,
    default="100k",
    show_default=True,
    help="Fresh deals for the held-out test of the learned table (0: no test).",
)
@threads_option
@scheduler_option
@out_options
@bot_timeout_option
def trump_study(
    player: str,
    heuristics: list[str],
    hands: int,
    seed: int | None,
    eval_hands: int,
    threads: int | None,
    scheduler: str | None,
    out: Path | None,
    force: bool,
    bot_timeout: float | None,
) -> None:
    """Which suit should the Hakem call? Every deal played with each trump, then judged.

    Reports per heuristic the best-call rate, regret, hand-win, Kot and points
    as Hakem; breakdowns by the five-card shape; learns a trump table from
    the deals and tests it on fresh ones against the longest-suit rule; draws
    the figures (PNG and SVG) into the report folder. Ctrl-C stops after the
    block of deals in flight and keeps the study of the deals finished (or,
    in the held-out test, the whole study and the test's deals played).

    \b
    Example:
        hokm-sim trump-study --hands 1M --seed 1
        hokm-sim trump-study --player longest --heuristics longest,points
    """
    from hokm_sim import api
    from hokm_sim.report.pages import trump_study_text

    with Progress() as prog:
        result = api.trump_study(
            player,
            heuristics,
            hands=hands,
            seed=seed,
            eval_hands=eval_hands,
            threads=threads,
            scheduler=scheduler,
            out=out or True,
            force=force,
            progress=prog,
            bot_timeout=bot_timeout,
        )
    click.echo(trump_study_text(result.data))
    click.echo(f"report: {result.folder}")
    interrupted(result.data, "a study cannot be resumed: run it again to finish it")


@click.command(context_settings=CONTEXT)
@click.argument("results_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@force_option("figure in the folder")
def plot(results_dir: Path, force: bool) -> None:
    """Re-draw the figures of a finished trump study or tuning run from its summary.json.
    Figures already in the folder are replaced only with --force.

    \b
    Example:
        hokm-sim plot results/20261130-101500-trump-study-vs-expert-seed1 --force
    """
    from hokm_sim import api

    click.echo("\n".join(str(p) for p in api.plot(results_dir, force=force)))


COMMANDS = (trump_study, plot)
