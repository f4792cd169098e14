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
    strategy_options,
    target_option,
)
from hokm_sim.house import first_hakem_code


@click.command(context_settings=CONTEXT)
@click.option("--seed", type=SEED, required=True, help="Run seed (0 .. 2**64-1).")
@click.option("--hands", type=SIZE, help="Trace this many independent hands (deals 0..N-1).")
@click.option("--matches", type=SIZE, help="Trace this many whole matches.")
@strategy_options
@target_option
@first_hakem_option
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write to FILE (atomically) instead of standard output.",
)
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
    from hokm_sim.api import strategy
    from hokm_sim.sim.runner import Runner
    from hokm_sim.sim.trace import trace_lines

    if (hands is None) == (matches is None):
        raise click.UsageError("give exactly one of --hands N or --matches N")
    if target is not None and matches is None:
        raise click.UsageError("--target sets the score a match is played to: give --matches")
    if first_hakem is not None and matches is None:
        raise click.UsageError("--first-hakem chooses a match's first Hakem: give --matches")
    runner = Runner(strategy(a, "--a"), strategy(b, "--b"))
    lines = trace_lines(runner, seed, hands=hands, matches=matches, target=target or 7,
                        first_hakem=first_hakem_code(first_hakem))  # fmt: skip
    emit_lines(lines, output)


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
    from hokm_sim.api import strategy
    from hokm_sim.sim.runner import Runner
    from hokm_sim.sim.trace import format_record, raise_fault, read_trace_line, show_record

    ctx = click.get_current_context()
    given = [f"--{p}" for p in ("seed", "hand", "match", "a", "b", "target", "copy", "line")
             if ctx.get_parameter_source(p) is click.core.ParameterSource.COMMANDLINE]  # fmt: skip
    mixed = [g for g in given if g != "--line"]
    if trace_file is not None and mixed:
        raise click.UsageError(f"--trace shows a hand of its file: drop {', '.join(mixed)}")
    if trace_file is None and "--line" in given:
        raise click.UsageError("--line picks a line of --trace FILE: give --trace")
    if trace_file is not None:
        rec = read_trace_line(trace_file, line)
        click.echo(format_record(rec))
        if html is not None:
            _write_html(html, rec, None)
        return
    if seed is None or hand is None:
        raise click.UsageError("give --seed S and --hand H (or --trace FILE)")
    sa, sb = strategy(a, "--a"), strategy(b, "--b")
    names = (sa.name, sb.name) if copy == 0 else (sb.name, sa.name)  # by team
    runner = Runner(sa, sb)
    rule = first_hakem_code(first_hakem)
    rec = show_record(runner, seed, hand, copy, match, target or 7, rule)
    click.echo(format_record(rec, names))
    if "fault" in rec:  # the hand up to the fault is shown; now the fault, in one line
        raise_fault(runner, seed, hand, copy, match, target or 7, rule)
    if html is not None:
        _write_html(html, rec, names)


def _write_html(path: Path, rec: dict, names: tuple[str, str] | None) -> None:
    from hokm_sim.api import analyse_hand
    from hokm_sim.report.viewer import hand_page
    from hokm_sim.writing import AtomicWriter

    graded = analyse_hand(rec, names)
    with AtomicWriter(path, "--html") as f:
        f.write(hand_page(graded))
    click.echo(f"html: {path}", err=True)


COMMANDS = (trace, show)
