"""The ``hokm-sim`` command line: one click group, one function per command.

Every usage error is one line naming the problem and the valid choices, with
exit code 2; a strategy that breaks the rules stops the run with one line
(exit code 1) that says how to replay the hand.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import click

from hokm_sim import __version__
from hokm_sim.registry import Strategy, StrategyError, builtin_bots, resolve
from hokm_sim.runner import Runner, StrategyFault, check_threads, measure

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
MAX_SEED = 2**64 - 1


class SizeType(click.ParamType):
    """A positive count written as ``1000``, ``1e6``, ``10k``, ``10M`` or ``2G``."""

    name = "N"
    _SUFFIX = {"k": 10**3, "m": 10**6, "g": 10**9}

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            n = value
        else:
            text = str(value).strip().replace("_", "")
            mult = self._SUFFIX.get(text[-1:].lower(), 1) if text else 1
            body = text[:-1] if mult > 1 else text
            try:
                f = float(body)
            except ValueError:
                self.fail(f"{value!r} is not a count (examples: 1000, 1e6, 10k, 10M)", param, ctx)
            if f != int(f):
                self.fail(f"{value!r} is not a whole number", param, ctx)
            n = int(f) * mult
        if n <= 0:
            self.fail(f"{value!r} must be positive", param, ctx)
        return n


class SeedType(click.ParamType):
    """A non-negative integer below 2**64."""

    name = "SEED"

    def convert(self, value, param, ctx):
        try:
            n = int(str(value), 0) if not isinstance(value, int) else value
        except ValueError:
            self.fail(f"{value!r} is not a non-negative integer below 2**64", param, ctx)
        if not 0 <= n <= MAX_SEED:
            self.fail(f"{value!r} is not a non-negative integer below 2**64", param, ctx)
        return n


SIZE = SizeType()
SEED = SeedType()
POSITIVE = click.IntRange(min=1)


def _strategy(ctx: click.Context, param: click.Parameter, value: str | None) -> Strategy | None:
    if value is None:
        return None
    try:
        return resolve(value)
    except StrategyError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


def _threads(ctx: click.Context, param: click.Parameter, value: int | None) -> int:
    try:
        return check_threads(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


def strategy_options(f):
    """``--a`` (team 0, seats 0 and 2) and ``--b`` (team 1, seats 1 and 3)."""
    f = click.option(
        "--b",
        "b",
        default="longest",
        show_default=True,
        callback=_strategy,
        help="Strategy of team 1 (seats 1 and 3): a name, a bot file or trump=X,play=Y.",
    )(f)
    f = click.option(
        "--a",
        "a",
        default="longest",
        show_default=True,
        callback=_strategy,
        help="Strategy of team 0 (seats 0 and 2): a name, a bot file or trump=X,play=Y.",
    )(f)
    return f


def _fail_fault(exc: StrategyFault) -> None:
    click.echo(f"Error: {exc}", err=True)
    sys.exit(1)


@click.group(context_settings=CONTEXT)
@click.version_option(__version__, "--version", prog_name="hokm-sim")
def main() -> None:
    """Simulate four-player Hokm between bot strategies and measure them honestly.

    \b
    Example:
        hokm-sim strategies
        hokm-sim trace --seed 1 --hands 3 --a longest --b random
        hokm-sim bench --a longest --b longest --threads 1
    """


@main.command(context_settings=CONTEXT)
def strategies() -> None:
    """List every built-in strategy with a one-line description.

    \b
    Example:
        hokm-sim strategies
    """
    bots = builtin_bots()
    width = max(len(n) for n in bots)
    for name, bot in bots.items():
        params = ""
        if bot.params:
            params = "  [" + ", ".join(f"{k}={v:g}" for k, v in bot.params.items()) + "]"
        click.echo(f"{name:<{width}}  {bot.description}{params}")


@main.command(context_settings=CONTEXT)
@click.option("--seed", type=SEED, required=True, help="Run seed (0 .. 2**64-1).")
@click.option("--hands", type=SIZE, help="Trace this many independent hands (deals 0..N-1).")
@click.option("--matches", type=SIZE, help="Trace this many whole matches.")
@strategy_options
@click.option(
    "--target",
    type=POSITIVE,
    default=7,
    show_default=True,
    help="Match target score (with --matches).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write to FILE (atomically) instead of standard output.",
)
def trace(
    seed: int,
    hands: int | None,
    matches: int | None,
    a: Strategy,
    b: Strategy,
    target: int,
    output: Path | None,
) -> None:
    """Write every card of seeded hands as JSON Lines, one line per hand.

    Fields: seed, match, hand, hakem, dealer, deck (top first), first_five,
    trump, hands (by seat, in the order received), tricks ({leader, cards,
    winner}), tricks_won [team0, team1], winner_team, points, kind; with
    --matches also scores (after the hand) and target. --a plays team 0
    (seats 0 and 2), --b team 1 (seats 1 and 3).

    \b
    Example:
        hokm-sim trace --seed 7 --hands 10 --a longest --b random -o hands.jsonl
    """
    from hokm_sim.trace import row_to_record
    from hokm_sim.writing import atomic_text

    if (hands is None) == (matches is None):
        raise click.UsageError("give exactly one of --hands N or --matches N")
    runner = Runner(a, b)
    try:
        if hands is not None:
            rows = runner.trace_hands(seed, 0, hands)
            lines = [json.dumps(row_to_record(r, seed)) for r in rows]
        else:
            lines = []
            for m in range(matches):
                for r in runner.trace_match(seed, m, target):
                    lines.append(json.dumps(row_to_record(r, seed, target)))
    except StrategyFault as exc:
        _fail_fault(exc)
    text = "\n".join(lines) + "\n"
    if output is None:
        click.echo(text, nl=False)
    else:
        atomic_text(output, text)


@main.command(context_settings=CONTEXT)
@click.option("--seed", type=SEED, help="Run seed of the hand (with --hand).")
@click.option(
    "--hand",
    type=click.IntRange(min=0),
    help="Hand index (deal index, or the hand's number within --match).",
)
@click.option("--match", type=click.IntRange(min=0), help="Match index: show a hand of a match.")
@strategy_options
@click.option(
    "--target",
    type=POSITIVE,
    default=7,
    show_default=True,
    help="Match target score (with --match).",
)
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
def show(
    seed: int | None,
    hand: int | None,
    match: int | None,
    a: Strategy,
    b: Strategy,
    target: int,
    trace_file: Path | None,
    line: int,
) -> None:
    """Print one hand for people: the four hands, trump, every trick, the result.

    \b
    Example:
        hokm-sim show --seed 7 --hand 3 --a longest --b random
        hokm-sim show --seed 7 --match 0 --hand 2 --target 7
        hokm-sim show --trace hands.jsonl --line 4
    """
    from hokm_sim.trace import format_record, row_to_record

    if trace_file is not None:
        lines = trace_file.read_text().splitlines()
        if line > len(lines):
            raise click.BadParameter(f"{trace_file} has {len(lines)} lines", param_hint="--line")
        try:
            rec = json.loads(lines[line - 1])
        except json.JSONDecodeError as exc:
            raise click.UsageError(f"{trace_file} line {line} is not JSON: {exc}") from None
        click.echo(format_record(rec))
        return
    if seed is None or hand is None:
        raise click.UsageError("give --seed S and --hand H (or --trace FILE)")
    runner = Runner(a, b)
    names = (a.name, b.name)
    try:
        if match is None:
            rec = row_to_record(runner.trace_hands(seed, hand, 1)[0], seed)
        else:
            rows = runner.trace_match(seed, match, target)
            if hand >= len(rows):
                raise click.BadParameter(
                    f"match {match} has hands 0..{len(rows) - 1}", param_hint="--hand"
                )
            rec = row_to_record(rows[hand], seed, target)
    except StrategyFault as exc:
        _fail_fault(exc)
    click.echo(format_record(rec, names))


@main.command(context_settings=CONTEXT)
@strategy_options
@click.option("--hands", type=SIZE, default="3M", show_default=True, help="Hands to time.")
@click.option("--threads", type=int, callback=_threads, help="Threads [default: all cores].")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench(a: Strategy, b: Strategy, hands: int, threads: int, as_json: bool) -> None:
    """Measure whole hands per second after compilation (cached code is reused).

    \b
    Example:
        hokm-sim bench --a random --b random --threads 1
        hokm-sim bench --a longest --b longest --json
    """
    try:
        res = measure(Runner(a, b), hands, threads)
    except StrategyFault as exc:
        _fail_fault(exc)
    if as_json:
        click.echo(json.dumps(res))
    else:
        click.echo(
            f"{res['a']} vs {res['b']}: {res['hands_per_sec']:,.0f} hands/s on "
            f"{res['threads']} thread(s) ({res['hands']:,} hands in {res['seconds']:.2f} s; "
            f"ready after {res['warmup_seconds']:.1f} s)"
        )


def _quote_arg(s: str) -> str:
    return s if re.fullmatch(r"[A-Za-z0-9_./=:-]+", s) else "'" + s.replace("'", "'\\''") + "'"


def _check_out(out: Path | None, force: bool) -> None:
    """Refuse an existing report folder (unless --force) and an unwritable one, early."""
    if out is None:
        return
    if out.exists() and not out.is_dir():
        raise click.BadParameter(f"{out} exists and is not a folder", param_hint="--out")
    if out.exists() and any(out.iterdir()) and not force:
        raise click.BadParameter(
            f"report folder {out} already exists; choose another or add --force to overwrite",
            param_hint="--out",
        )
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise click.BadParameter(
            f"cannot write to {out}: {exc.strerror}", param_hint="--out"
        ) from None


@main.command(context_settings=CONTEXT)
@click.argument("a", default="expert", required=False)
@click.argument("b", default="longest", required=False)
@click.option("--hands", type=SIZE, help="Deals to play (each twice in duplicate) [default: 1M].")
@click.option("--matches", type=SIZE, help="Matches to play instead of single deals.")
@click.option("--seed", type=SEED, help="Run seed [default: a fresh one, recorded].")
@click.option("--target", type=POSITIVE, default=7, show_default=True, help="Match target score.")
@click.option("--threads", type=int, callback=_threads, help="Threads [default: all cores].")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Report folder [default: results/<time>-<a>-vs-<b>-seed<seed>].",
)
@click.option("--force", is_flag=True, help="Overwrite an existing --out folder.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON, not a table.")
@click.option("--no-duplicate", is_flag=True, help="Play each deal once (A on team 0).")
@click.option("--save-hands", is_flag=True, help="Also write one row per hand to hands.parquet.")
def run(
    a: str,
    b: str,
    hands: int | None,
    matches: int | None,
    seed: int | None,
    target: int,
    threads: int,
    out: Path | None,
    force: bool,
    as_json: bool,
    no_duplicate: bool,
    save_hands: bool,
) -> None:
    """Compare strategy A with strategy B in duplicate, with 95% intervals.

    Every deal is played twice with the same cards and the same Hakem seat,
    teams swapped, so card luck cancels; numbers are from A's point of view.
    A and B are names (see `hokm-sim strategies`), bot files, or
    compositions such as trump=longest,play=expert. Prints a table (or JSON)
    and writes summary.json and report.md to a report folder. Ctrl-C stops
    after the batch in flight and writes a partial report (exit code 130).

    \b
    Example:
        hokm-sim run
        hokm-sim run expert longest --hands 10M --seed 1
        hokm-sim run expert random --matches 20000 --target 7 --json
    """
    from hokm_sim.api import HandWriter, RunConfig, execute
    from hokm_sim.progress import Progress
    from hokm_sim.report import default_folder, table, write

    sa = _strategy(click.get_current_context(), None, a)
    sb = _strategy(click.get_current_context(), None, b)
    if hands is not None and matches is not None:
        raise click.UsageError("give --hands N or --matches N, not both")
    if save_hands and matches is not None:
        raise click.UsageError("--save-hands works with --hands runs (rows are per deal)")
    _check_out(out, force)
    cfg = RunConfig(
        a=a,
        b=b,
        hands=hands,
        matches=matches,
        seed=seed,
        target=target,
        threads=threads,
        duplicate=not no_duplicate,
    )
    folder = out or default_folder(Path("results"), a, b, cfg.seed)
    _check_out(folder, force)
    args = ["hokm-sim", "run", a, b, f"--{cfg.mode}", str(cfg.total), "--seed", str(cfg.seed)]
    if cfg.mode == "matches":
        args += ["--target", str(target)]
    if no_duplicate:
        args.append("--no-duplicate")
    command = " ".join(_quote_arg(x) for x in args)
    copies = 1 if no_duplicate else 2
    prog = Progress(
        cfg.total,
        cfg.mode if cfg.mode == "matches" else "deals",
        per_unit=copies if cfg.mode == "hands" else 10 * copies,
    )
    writer = None
    try:
        from hokm_sim.runner import Runner

        if save_hands:
            writer = HandWriter(folder / "hands.parquet", Runner(sa, sb), cfg.seed, cfg.duplicate)
        summary = execute(cfg, sa, sb, progress=prog.update, on_batch=writer)
    except StrategyFault as exc:
        prog.close()
        _fail_fault(exc)
    finally:
        if writer is not None:
            writer.close()
    prog.close()
    write(summary, folder, command)
    if as_json:
        click.echo(json.dumps(summary.to_dict() | {"report": str(folder)}, indent=1))
    else:
        click.echo(table(summary))
        click.echo(f"report: {folder}")
    if summary.partial:
        click.echo("interrupted: the report covers only the finished batches", err=True)
        sys.exit(130)
