"""``trace`` (every card of seeded hands, JSON Lines) and ``show`` (one hand, for people)."""

from __future__ import annotations

from pathlib import Path

import click

from hokm_sim.cli.options import (
    CONTEXT,
    SEED,
    SIZE,
    bot_timeout_option,
    emit_lines,
    first_hakem_option,
    force_option,
    given,
    output_option,
    output_to,
    strategy_options,
    target_option,
)


@click.command(context_settings=CONTEXT)
@click.option("--seed", type=SEED, required=True, help="Run seed (0 .. 2**64-1).")
@click.option("--hands", type=SIZE, help="Trace this many independent hands (deals 0..N-1).")
@click.option("--matches", type=SIZE, help="Trace this many whole matches.")
@strategy_options
@target_option
@first_hakem_option
@output_option
@force_option("-o file")
@bot_timeout_option
def trace(
    seed: int,
    hands: int | None,
    matches: int | None,
    a: str,
    b: str,
    target: int | None,
    first_hakem: str | None,
    output: Path | None,
    force: bool,
    bot_timeout: float | None,
) -> None:
    """Write every card of seeded hands as JSON Lines, one line per hand.

    Fields: seed, match, hand, hakem, dealer, deck (top first), first_five,
    trump, hands (by seat, in the order received), tricks ({leader, cards,
    winner}), tricks_won [team0, team1], winner_team, points, kind; with
    --matches also scores (after the hand) and target. --a plays team 0
    (seats 0 and 2), --b team 1 (seats 1 and 3). Lines are written as they
    are played, a block at a time, so any number of hands fits in memory.

    \b
    Example:
        hokm-sim trace --seed 7 --hands 10 --a longest --b random -o hands.jsonl
    """
    from hokm_sim import api

    out = output_to(output, force)
    result = api.trace(
        a,
        b,
        seed=seed,
        hands=hands,
        matches=matches,
        target=target,
        first_hakem=first_hakem,
        bot_timeout=bot_timeout,
    )
    emit_lines(result.lines(), out)


@click.command(context_settings=CONTEXT)
@click.option("--seed", type=SEED, help="Run seed of the hand (with --hand).")
@click.option(
    "--hand",
    type=click.IntRange(min=0),
    help="Hand index (deal index, or the hand's number within --match).",
)
@click.option("--match", type=click.IntRange(min=0), help="Match index: show a hand of a match.")
@strategy_options
@target_option
@first_hakem_option
@click.option(
    "--trace",
    "trace_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Show a hand from a trace file instead (with --line).",
)
@click.option(
    "--line",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Line of --trace to show.",
)
@click.option(
    "--copy",
    type=click.IntRange(0, 1),
    default=0,
    show_default=True,
    help="1: the swapped copy of a duplicate pair (--a on team 1, --b on team 0).",
)
@click.option(
    "--html",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Also write a self-contained HTML page to FILE that replays the hand trick by trick, "
    "every card graded double dummy (hokm-sim analyse).",
)
@force_option("--html file")
@bot_timeout_option
def show(
    seed: int | None,
    hand: int | None,
    match: int | None,
    a: str,
    b: str,
    target: int | None,
    first_hakem: str | None,
    trace_file: Path | None,
    line: int,
    copy: int,
    html: Path | None,
    force: bool,
    bot_timeout: float | None,
) -> None:
    """Print one hand for people: the four hands, trump, every trick, the result.

    A hand stopped by a bot fault is shown up to and including the faulty
    card (exit code 4).

    \b
    Example:
        hokm-sim show --seed 7 --hand 3 --a longest --b random
        hokm-sim show --seed 7 --match 0 --hand 2 --target 7
        hokm-sim show --trace hands.jsonl --line 4
        hokm-sim show --seed 7 --hand 3 --a expert --b random --copy 1
        hokm-sim show --seed 7 --hand 3 --a expert --b random --html hand.html
    """
    from hokm_sim import api

    # options left at their defaults are not passed, so that the API can refuse a
    # seeded hand's options given with --trace
    typed = given(click.get_current_context(), a=a, b=b, copy=copy, line=line)
    result = api.show(
        seed=seed,
        hand=hand,
        match=match,
        target=target,
        first_hakem=first_hakem,
        trace=trace_file,
        html=html,
        force=force,
        bot_timeout=bot_timeout,
        **typed,
    )
    click.echo(result.text)
    if result.fault is not None:  # the hand up to the fault is shown; now the fault, in one line
        raise _without_replay(result.fault, result.command)
    if html is not None:
        click.echo(f"html: {html}", err=True)


def _without_replay(fault: Exception, command: str | None) -> Exception:
    """``fault`` without its "replay it with" command where that is ``command``, the show
    command that is running: the hand it would show is already on the screen."""
    said = f"; replay it with: {command}"
    if command and fault.args and isinstance(fault.args[0], str) and said in fault.args[0]:
        fault.args = (fault.args[0].replace(said, ""), *fault.args[1:])
    return fault


COMMANDS = (trace, show)
