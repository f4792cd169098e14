"""``field`` (a candidate against every bot of a field, and its weakest pair score) and
``tune`` (a bot's parameters tuned by SPSA on duplicate pairs)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from hokm_sim.cli.options import (
    CONTEXT,
    POSITIVE,
    SIZE,
    SPECS,
    bot_timeout_option,
    out_options,
    seed_option,
    threads_option,
)
from hokm_sim.cli.progress import Progress


def _stopped_early(result, what: str) -> None:
    """Exit 130 after a Ctrl-C, saying what the report holds."""
    if result.data["partial"]:
        click.echo(f"interrupted: the report holds {what}", err=True)
        sys.exit(130)


@click.command(context_settings=CONTEXT)
@click.argument("candidate")
@click.option(
    "--field",
    "members",
    type=SPECS,
    help="The opponents, comma-separated specs [default: expert, sharp, drawer, eager, "
    "signal, kots, cautious, without the candidate].",
)
@click.option("--hands", type=SIZE, help="Deals per pairing (each twice) [default: 100k].")
@click.option("--matches", type=SIZE, help="Matches per pairing instead of single deals.")
@seed_option
@click.option("--target", type=POSITIVE, help="Match target score (with --matches) [default: 7].")
@click.option(
    "--metric",
    type=click.Choice(["wins", "points", "matches"]),
    help="The pair score the weakest is taken on [default: wins, or matches with --matches].",
)
@threads_option
@out_options
@click.option("--json", "as_json", is_flag=True, help="Print the record as JSON.")
@bot_timeout_option
def field(
    candidate: str,
    members: list[str] | None,
    hands: int | None,
    matches: int | None,
    seed: int | None,
    target: int | None,
    metric: str | None,
    threads: int | None,
    out: Path | None,
    force: bool,
    as_json: bool,
    bot_timeout: float | None,
) -> None:
    """Play CANDIDATE against every bot of a field in duplicate, and report the weakest.

    Each pairing is exactly `hokm-sim run CANDIDATE BOT` with the same seed and
    size: its pair score with a 95% interval, points per hand and Elo. The
    weakest pair score is the one number that says "strong against everyone".
    Ctrl-C stops after the batch in flight and keeps the pairings played
    (exit code 130).

    \b
    Example:
        hokm-sim field sharp --hands 20000 --seed 1
        hokm-sim field mybot.py --field expert,sharp,kots --metric points --seed 1
        hokm-sim field sharp --matches 2000 --seed 1
    """
    from hokm_sim import api
    from hokm_sim.analysis.field import format_field

    with Progress() as prog:
        result = api.field(
            candidate,
            members,
            hands=hands,
            matches=matches,
            seed=seed,
            target=target,
            metric=metric,
            threads=threads,
            out=out or True,
            force=force,
            progress=prog,
            bot_timeout=bot_timeout,
        )
    if as_json:
        click.echo(json.dumps(result.to_dict() | {"report": str(result.folder)}, indent=1))
    else:
        click.echo(format_field(result.data) + f"\nreport: {result.folder}")
    _stopped_early(result, "the pairings played, the last one partial")


@click.command(context_settings=CONTEXT)
@click.argument("bot")
@click.option(
    "--param",
    "params",
    multiple=True,
    metavar="NAME=LOW:HIGH",
    help="A parameter to tune and its range (repeat for each; trump.NAME or play.NAME "
    "for a part of a composition).",
)
@click.option(
    "--against",
    type=SPECS,
    default="field",
    show_default=True,
    help="The opponents, comma-separated specs, or field (the built-in field without BOT).",
)
@click.option(
    "--iterations", type=POSITIVE, default=100, show_default=True, help="SPSA iterations."
)
@click.option(
    "--pairs",
    type=SIZE,
    default="20k",
    show_default=True,
    help="Deals per opponent and side in an iteration (each twice).",
)
@click.option(
    "--c",
    type=float,
    default=0.1,
    show_default=True,
    help="First perturbation, as a share of each range.",
)
@click.option(
    "--rate",
    type=float,
    default=0.1,
    show_default=True,
    help="First step, as a share of the range, for a score difference of 0.01.",
)
@click.option(
    "--metric",
    type=click.Choice(["wins", "points"]),
    default="wins",
    show_default=True,
    help="The pair score climbed.",
)
@seed_option
@click.option(
    "--check",
    type=click.IntRange(min=0),
    default=20_000,
    show_default=True,
    help="Fresh deals on which the tuned and starting values then play every opponent "
    "(0: no check).",
)
@threads_option
@out_options
@click.option("--json", "as_json", is_flag=True, help="Print the record as JSON.")
@bot_timeout_option
def tune(
    bot: str,
    params: tuple[str, ...],
    against: list[str],
    iterations: int,
    pairs: int,
    c: float,
    rate: float,
    metric: str,
    seed: int | None,
    check: int,
    threads: int | None,
    out: Path | None,
    force: bool,
    as_json: bool,
    bot_timeout: float | None,
) -> None:
    """Tune BOT's parameters by SPSA on duplicate pairs against OPPONENTS or the field.

    Each iteration plays BOT on either side of its estimate against every
    opponent on the same fresh deals and steps towards the better side;
    the same seed gives the same run. Writes summary.json, report.md and the
    figure of the run (tune.png). Ctrl-C stops after the iteration in flight
    and keeps the estimate reached (exit code 130).

    \b
    Example:
        hokm-sim tune sharp --param length=3:8 --param strength=0:2 --seed 1
        hokm-sim tune mybot.py --param aggression=0:1 --against expert --iterations 50
    """
    from hokm_sim import api
    from hokm_sim.analysis.tune import format_tune

    with Progress() as prog:
        result = api.tune(
            bot,
            params,
            against=against,
            iterations=iterations,
            pairs=pairs,
            c=c,
            rate=rate,
            metric=metric,
            seed=seed,
            check=check,
            threads=threads,
            out=out or True,
            force=force,
            progress=prog,
            bot_timeout=bot_timeout,
        )
    if as_json:
        click.echo(json.dumps(result.to_dict() | {"report": str(result.folder)}, indent=1))
    else:
        click.echo(format_tune(result.data) + f"\nreport: {result.folder}")
    _stopped_early(result, "the estimate after the last iteration finished")


COMMANDS = (field, tune)
