"""The ``hokm-sim`` command line: one click group, one function per command.

Every usage error is one line naming the problem and the valid choices, with
exit code 2; a strategy that breaks the rules stops the run with one line
(exit code 4) that says how to replay the hand.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import click
import numpy as np
from numba.core.errors import NumbaError

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


def _scheduler(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from hokm_sim.distributed import SchedulerError, check_scheduler

    try:
        return check_scheduler(value)
    except SchedulerError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


scheduler_option = click.option(
    "--scheduler",
    metavar="ADDRESS",
    callback=_scheduler,
    help="Play on a Dask cluster: its scheduler (tcp://HOST:8786), or local:N to start "
    "N local workers [default: this machine's threads]. Needs the dask extra.",
)


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


target_option = click.option(
    "--target", type=POSITIVE, default=7, show_default=True, help="Match target score."
)


EXIT_ERROR = 4
"""Exit code of a run stopped by an error that is not the user's input: a strategy
that broke the rules or a cluster that failed. Apart from 1, which ``regress``
uses for its verdict "regression", so that a CI pipeline can tell them apart."""


def _fail_run(exc: Exception) -> None:
    """Stop with one line and ``EXIT_ERROR``: a strategy fault or a failed cluster."""
    click.echo(f"Error: {exc}", err=True)
    sys.exit(EXIT_ERROR)


class OneLineErrors(click.Group):
    """A group whose usage errors are one line on standard error, with exit code 2."""

    def main(self, *args, **kwargs):
        """Run the CLI; print ``Error: ...`` alone for usage errors (no usage block)."""
        kwargs["standalone_mode"] = False
        try:
            rv = super().main(*args, **kwargs)
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
            sys.exit(2)
        except click.ClickException as exc:
            msg = " ".join(exc.format_message().split())
            click.echo(f"Error: {msg}", err=True)
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(130)
        except NumbaError as exc:
            from hokm_sim.compiled import describe_compile_error

            click.echo(f"Error: {describe_compile_error(exc)}", err=True)
            sys.exit(2)
        if isinstance(rv, int):
            sys.exit(rv)
        sys.exit(0)


@click.group(cls=OneLineErrors, context_settings=CONTEXT)
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
@target_option
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
        _fail_run(exc)
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
@target_option
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
def show(
    seed: int | None,
    hand: int | None,
    match: int | None,
    a: Strategy,
    b: Strategy,
    target: int,
    trace_file: Path | None,
    line: int,
    copy: int,
) -> None:
    """Print one hand for people: the four hands, trump, every trick, the result.

    \b
    Example:
        hokm-sim show --seed 7 --hand 3 --a longest --b random
        hokm-sim show --seed 7 --match 0 --hand 2 --target 7
        hokm-sim show --trace hands.jsonl --line 4
        hokm-sim show --seed 7 --hand 3 --a expert --b random --copy 1
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
    names = (a.name, b.name) if copy == 0 else (b.name, a.name)  # by team
    try:
        if match is None:
            rec = row_to_record(runner.trace_hands(seed, hand, 1, copy)[0], seed)
        else:
            rows = runner.trace_match(seed, match, target, copy)
            if hand >= len(rows):
                raise click.BadParameter(
                    f"match {match} has hands 0..{len(rows) - 1}", param_hint="--hand"
                )
            rec = row_to_record(rows[hand], seed, target)
    except StrategyFault as exc:
        _fail_run(exc)
    click.echo(format_record(rec, names))


@main.command(context_settings=CONTEXT)
@strategy_options
@click.option("--hands", type=SIZE, default="3M", show_default=True, help="Hands to time.")
@click.option("--threads", type=int, callback=_threads, help="Threads [default: all cores].")
@click.option(
    "--repeat",
    type=POSITIVE,
    default=3,
    show_default=True,
    help="Time the hands this many times; report the fastest run and the median.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench(a: Strategy, b: Strategy, hands: int, threads: int, repeat: int, as_json: bool) -> None:
    """Measure whole hands per second after compilation (cached code is reused).

    The fastest of --repeat runs is the figure: other work on the machine
    only ever slows a run down.

    \b
    Example:
        hokm-sim bench --a random --b random --threads 1
        hokm-sim bench --a longest --b longest --repeat 5 --json
    """
    try:
        res = measure(Runner(a, b), hands, threads, repeat=repeat)
    except StrategyFault as exc:
        _fail_run(exc)
    if as_json:
        click.echo(json.dumps(res))
    else:
        runs = f"best of {repeat} runs" if repeat > 1 else "1 run"
        median = f", median {res['median_hands_per_sec']:,.0f}" if repeat > 2 else ""
        click.echo(
            f"{res['a']} vs {res['b']}: {res['hands_per_sec']:,.0f} hands/s on "
            f"{res['threads']} thread(s), {runs} of {res['hands']:,} hands{median} "
            f"(ready after {res['warmup_seconds']:.1f} s)"
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
@target_option
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
        hokm-sim run expert longest --hands 1G --scheduler tcp://10.0.0.1:8786
        hokm-sim run --resume results/20261130-101500-expert-vs-longest-seed1
    """
    from hokm_sim.api import HandWriter, RunConfig, checkpoint_record, execute, resume_config
    from hokm_sim.checkpoint import Checkpoint, CheckpointError
    from hokm_sim.distributed import ClusterError, SchedulerError
    from hokm_sim.progress import Progress
    from hokm_sim.report import default_folder, table, write
    from hokm_sim.runner import Runner

    ctx = click.get_current_context()
    how = {"threads": threads, "scheduler": scheduler, "task": task_size}
    if resume is not None:
        given = [
            p.upper() if p in ("a", "b") else f"--{p.replace('_', '-')}"
            for p in ("a", "b", "hands", "matches", "seed", "target", "out", "force")
            + ("no_duplicate", "save_hands")
            if ctx.get_parameter_source(p) is click.core.ParameterSource.COMMANDLINE
        ]
        if given:
            raise click.UsageError(
                f"--resume continues the run recorded in {resume}; drop {', '.join(given)}"
            )
        try:
            checkpoint = Checkpoint.load(resume)
        except CheckpointError as exc:
            raise click.BadParameter(str(exc), param_hint="--resume") from None
        if checkpoint.config.get("save_hands"):
            raise click.BadParameter(
                f"{resume} was a --save-hands run, whose rows cannot be resumed; run it again",
                param_hint="--resume",
            )
        cfg = resume_config(checkpoint.config, **how)
        a, b, folder, command = cfg.a, cfg.b, resume, checkpoint.config["command"]
    if hands is not None and matches is not None:
        raise click.UsageError("give --hands N or --matches N, not both")
    sa = _strategy(ctx, None, a)
    sb = _strategy(ctx, None, b)
    if save_hands and matches is not None:
        raise click.UsageError("--save-hands works with --hands runs (rows are per deal)")
    if save_hands and scheduler is not None:
        raise click.UsageError("--save-hands runs on this machine only; drop --scheduler")
    engine = Runner(sa, sb).engine.__name__
    if resume is not None:
        if engine != checkpoint.config["engine"]:
            raise click.BadParameter(
                f"the engine or a bot file changed since the run in {resume} started "
                f"({checkpoint.config['engine']}, now {engine}); resuming would mix two "
                "versions: start a new run",
                param_hint="--resume",
            )
    else:
        _check_out(out, force)
        cfg = RunConfig(
            a=a,
            b=b,
            hands=hands,
            matches=matches,
            seed=seed,
            target=target,
            duplicate=not no_duplicate,
            **how,
        )
        folder = out or default_folder(Path("results"), a, b, cfg.seed)
        _check_out(folder, force)
        args = ["hokm-sim", "run", a, b, f"--{cfg.mode}", str(cfg.total), "--seed", str(cfg.seed)]
        if cfg.mode == "matches":
            args += ["--target", str(target)]
        if no_duplicate:
            args.append("--no-duplicate")
        command = " ".join(_quote_arg(x) for x in args)
        record = checkpoint_record(cfg, engine, command=command, save_hands=save_hands)
        checkpoint = Checkpoint.create(folder, record, cfg.total)
    copies = 1 if not cfg.duplicate else 2
    prog = Progress(
        cfg.total,
        cfg.mode if cfg.mode == "matches" else "deals",
        per_unit=copies if cfg.mode == "hands" else 10 * copies,
        initial=checkpoint.done_count,
    )
    writer = None
    try:
        if save_hands:
            writer = HandWriter(folder / "hands.parquet", Runner(sa, sb), cfg.seed, cfg.duplicate)
        summary = execute(cfg, sa, sb, progress=prog.update, on_batch=writer, checkpoint=checkpoint)
    except StrategyFault as exc:
        prog.close()
        _fail_run(exc)
    except SchedulerError as exc:
        prog.close()
        raise click.BadParameter(str(exc), param_hint="--scheduler") from None
    except ClusterError as exc:
        prog.close()
        click.echo(
            f"Error: {exc}; finished work is kept: continue with hokm-sim run --resume {folder}",
            err=True,
        )
        sys.exit(EXIT_ERROR)
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
        click.echo(
            f"interrupted: the report covers only the finished batches; "
            f"continue with hokm-sim run --resume {folder}",
            err=True,
        )
        sys.exit(130)


@main.command(context_settings=CONTEXT)
@click.argument("strategy_specs", nargs=-1, required=True, metavar="S1 S2 [S3 ...]")
@click.option(
    "--hands", type=SIZE, default="100k", show_default=True, help="Deals per pairing (each twice)."
)
@click.option("--seed", type=SEED, help="Run seed [default: a fresh one, recorded].")
@click.option("--threads", type=int, callback=_threads, help="Threads [default: all cores].")
@scheduler_option
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Report folder.")
@click.option("--force", is_flag=True, help="Overwrite an existing --out folder.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def tournament(
    strategy_specs: tuple[str, ...],
    hands: int,
    seed: int | None,
    threads: int,
    scheduler: str | None,
    out: Path | None,
    force: bool,
    as_json: bool,
) -> None:
    """Play every pair of strategies in duplicate on the same deals, and rank them.

    Prints a Bradley-Terry ranking with bootstrap intervals, the crosstable of
    pair scores and the LOS matrix; writes summary.json and report.md.

    \b
    Example:
        hokm-sim tournament longest random points --hands 200k --seed 1
    """
    import secrets

    from hokm_sim import tournament as tour
    from hokm_sim.distributed import ClusterError, SchedulerError
    from hokm_sim.progress import Progress
    from hokm_sim.report import default_folder

    ctx = click.get_current_context()
    if len(strategy_specs) < 2:
        raise click.UsageError("a tournament needs at least two strategies")
    strats = [_strategy(ctx, None, s) for s in strategy_specs]
    seed = secrets.randbits(63) if seed is None else seed
    _check_out(out, force)
    folder = out or default_folder(Path("results"), "tournament", f"{len(strats)}", seed)
    _check_out(folder, force)
    k = len(strats)
    prog = Progress(hands * k * (k - 1) // 2, "deals", per_unit=2)
    try:
        t = tour.play(strats, seed, hands, threads, prog.update, scheduler)
    except StrategyFault as exc:
        prog.close()
        _fail_run(exc)
    except SchedulerError as exc:
        prog.close()
        raise click.UsageError(str(exc)) from None
    except ClusterError as exc:
        prog.close()
        _fail_run(exc)
    prog.close()
    summary = t.summary()
    command = " ".join(
        [
            "hokm-sim",
            "tournament",
            *(_quote_arg(s) for s in strategy_specs),
            "--hands",
            str(hands),
            "--seed",
            str(seed),
        ]
    )
    summary["command"] = command
    summary["version"] = __version__
    text = tour.format_summary(summary)
    from hokm_sim.writing import atomic_text

    atomic_text(folder / "summary.json", json.dumps(summary, indent=1) + "\n")
    atomic_text(
        folder / "report.md",
        f"# Tournament\n\n```\n{text}\n```\n\n## Reproduce\n\n"
        f"    {command}\n\nhokm-sim {__version__}\n",
    )
    click.echo(json.dumps(summary, indent=1) if as_json else text + f"\nreport: {folder}")


@main.command(context_settings=CONTEXT)
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--threads", type=int, callback=_threads, help="Threads [default: all cores].")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Report folder.")
@click.option("--force", is_flag=True, help="Overwrite an existing --out folder.")
def experiment(file: Path, threads: int, out: Path | None, force: bool) -> None:
    """Run an experiment file (TOML: runs or a tournament) and write its report.

    \b
    Example:
        hokm-sim experiment experiments/single_tips.toml
    """
    from hokm_sim.experiment import Experiment, ExperimentError, markdown, run_experiment
    from hokm_sim.progress import Progress
    from hokm_sim.report import default_folder
    from hokm_sim.writing import atomic_text

    try:
        exp = Experiment.load(file, threads)
    except (ExperimentError, StrategyError) as exc:
        raise click.UsageError(str(exc)) from None
    _check_out(out, force)
    folder = out or default_folder(Path("results"), "experiment", file.stem, exp.seed)
    _check_out(folder, force)
    total = sum(c.total for c in exp.runs) if exp.runs else 0
    prog = Progress(total or 1, "deals")
    try:
        runs, tour = run_experiment(exp, threads, prog.update)
    except StrategyFault as exc:
        prog.close()
        _fail_run(exc)
    prog.close()
    command = f"hokm-sim experiment {_quote_arg(str(file))}"
    text = markdown(exp, runs, tour, command)
    payload = {
        "experiment": exp.spec,
        "command": command,
        "version": __version__,
        "runs": [s.to_dict() for s in runs] if runs else None,
        "tournament": tour,
    }
    atomic_text(folder / "summary.json", json.dumps(payload, indent=1) + "\n")
    atomic_text(folder / "report.md", text)
    click.echo(text)
    click.echo(f"report: {folder}")


def _sprt_options(f):
    for opt in reversed(
        [
            click.option(
                "--elo0",
                type=float,
                default=-3.0,
                show_default=True,
                help="H0 in normalized Elo (a regression).",
            ),
            click.option(
                "--elo1",
                type=float,
                default=0.0,
                show_default=True,
                help="H1 in normalized Elo (no regression).",
            ),
            click.option(
                "--alpha",
                type=float,
                default=0.05,
                show_default=True,
                help="False 'no regression' rate.",
            ),
            click.option(
                "--beta",
                type=float,
                default=0.05,
                show_default=True,
                help="False 'regression' rate.",
            ),
        ]
    ):
        f = opt(f)
    return f


def _sprt_line(res) -> str:
    from hokm_sim.regress import VERDICTS

    raw = res.estimates.get("raw", {})
    elo, nelo = raw.get("elo", {}), raw.get("nelo", {})

    def est(e):
        if not e or e.get("value") is None:
            return "n/a"
        if e.get("low") is None:
            return f"{e['value']:+.1f}"
        return f"{e['value']:+.1f} [{e['low']:+.1f}, {e['high']:+.1f}]"

    adj = res.estimates.get("stop_adjusted", {})
    adj_txt = (
        f", Elo at stop (bias-corrected) {adj['elo']:+.1f}" if adj.get("elo") is not None else ""
    )
    return (
        f"{VERDICTS[res.verdict].upper()}: LLR {res.llr:.3f} (bounds {res.bounds[0]:.3f}, "
        f"{res.bounds[1]:.3f}), {res.pairs:,} pairs, raw Elo {est(elo)}, raw nElo "
        f"{est(nelo)}{adj_txt}, seed {res.config.get('seed')}"
    )


@main.command(context_settings=CONTEXT)
@click.argument("candidate", required=False)
@click.option(
    "--baseline",
    default=None,
    help="Baseline: a strategy spec, or git:REF for the "
    "candidate file at that commit [default: git:HEAD].",
)
@_sprt_options
@click.option(
    "--metric",
    type=click.Choice(["wins", "points", "matches"]),
    default="wins",
    show_default=True,
    help="What a pair scores.",
)
@click.option("--max-pairs", type=SIZE, help="Cap on pairs [default: ~10x the expected length].")
@click.option(
    "--check-every",
    type=POSITIVE,
    default=100,
    show_default=True,
    help="Pairs between LLR checks (in deal order).",
)
@click.option("--seed", type=SEED, help="Seed [default: a fresh one, recorded].")
@click.option(
    "--target", type=POSITIVE, default=7, show_default=True, help="Match target (metric matches)."
)
@click.option("--threads", type=int, callback=_threads, help="Threads [default: all cores].")
@scheduler_option
@click.option(
    "--calibrate",
    metavar="NAME",
    help="Run NAME against itself on fresh seeds and report the false-alarm rate.",
)
@click.option(
    "--runs",
    type=POSITIVE,
    default=40,
    show_default=True,
    help="Calibration runs (with --calibrate).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Report folder.")
@click.option("--force", is_flag=True, help="Overwrite an existing --out folder.")
def regress(
    candidate: str | None,
    baseline: str | None,
    elo0: float,
    elo1: float,
    alpha: float,
    beta: float,
    metric: str,
    max_pairs: int | None,
    check_every: int,
    seed: int | None,
    target: int,
    threads: int,
    scheduler: str | None,
    calibrate: str | None,
    runs: int,
    as_json: bool,
    out: Path | None,
    force: bool,
) -> None:
    """Is CANDIDATE worse than its baseline? A sequential test on duplicate pairs.

    Plays duplicate pairs against the baseline, consumed in deal order, and
    stops as soon as the generalized SPRT decides (H0: nElo <= --elo0, a
    regression; H1: nElo >= --elo1, no regression), or at the cap.

    \b
    Exit codes:
        0  no regression (H1 accepted)
        1  regression (H0 accepted)
        2  usage error
        3  inconclusive (the cap was reached)

    \b
    Example:
        hokm-sim regress strategies/my_bot.py --baseline git:HEAD
        hokm-sim regress expert --baseline longest --metric points
        hokm-sim regress --calibrate expert --runs 40
    """
    import secrets

    from hokm_sim.distributed import ClusterError, SchedulerError
    from hokm_sim.regress import SprtConfig, estimates, resolve_baseline, sequential, stop_adjusted
    from hokm_sim.runner import Runner

    seed = secrets.randbits(63) if seed is None else seed
    try:
        cfg = SprtConfig(
            nelo0=elo0,
            nelo1=elo1,
            alpha=alpha,
            beta=beta,
            metric=metric,
            max_pairs=max_pairs,
            check_every=check_every,
            seed=seed,
            target=target,
            threads=threads,
            scheduler=scheduler,
        )
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if calibrate is not None:
        _calibrate(calibrate, cfg, runs, as_json)
        return
    if candidate is None:
        raise click.UsageError("give a CANDIDATE strategy (or --calibrate NAME)")
    ctx = click.get_current_context()
    cand = _strategy(ctx, None, candidate)
    try:
        base = resolve_baseline(baseline or "git:HEAD", candidate)
    except StrategyError as exc:
        raise click.BadParameter(str(exc), param_hint="--baseline") from None
    _check_out(out, force)
    tty = sys.stderr.isatty()

    def report_progress(used, llr, counts, values):
        if tty:
            e = estimates(counts, values)["raw"]["elo"]
            elo = "n/a" if e["value"] is None else f"{e['value']:+.1f}"
            if e.get("low") is not None:
                elo += f" [{e['low']:+.1f}, {e['high']:+.1f}]"
            sys.stderr.write(
                f"\rpairs {used:,}  LLR {llr:+.3f} in ({a:.3f}, {b:.3f})  Elo {elo}\033[K"
            )
            sys.stderr.flush()

    from hokm_sim.stats import sprt_bounds

    a, b = sprt_bounds(alpha, beta)
    try:
        res = sequential(Runner(cand, base), cfg, report_progress)
    except StrategyFault as exc:
        _fail_run(exc)
    except SchedulerError as exc:
        raise click.UsageError(str(exc)) from None
    except ClusterError as exc:
        _fail_run(exc)
    if tty:
        sys.stderr.write("\n")
    values = np.array(res.values)
    counts = np.array(res.counts)
    res.estimates = estimates(counts, values)
    res.estimates["stop_adjusted"] = stop_adjusted(counts, values, cfg)
    res.config = {
        "candidate": cand.name,
        "baseline": base.name,
        "seed": seed,
        "metric": metric,
        "elo0": elo0,
        "elo1": elo1,
        "alpha": alpha,
        "beta": beta,
        "max_pairs": cfg.max_pairs,
        "check_every": check_every,
        "strategies": {"candidate": cand.to_dict(), "baseline": base.to_dict()},
        "version": __version__,
    }
    command = " ".join(
        [
            "hokm-sim",
            "regress",
            _quote_arg(candidate),
            "--baseline",
            _quote_arg(baseline or "git:HEAD"),
            "--metric",
            metric,
            "--seed",
            str(seed),
            "--elo0",
            str(elo0),
            "--elo1",
            str(elo1),
        ]
    )
    line = _sprt_line(res)
    if out is not None:
        from hokm_sim.writing import atomic_text

        payload = res.to_dict() | {"command": command}
        atomic_text(out / "summary.json", json.dumps(payload, indent=1) + "\n")
        atomic_text(
            out / "report.md",
            f"# Regression check: {cand.name} against {base.name}\n\n"
            f"**{line}**\n\n```\n{json.dumps(payload, indent=1)}\n```\n\n"
            f"## Reproduce\n\n    {command}\n",
        )
    click.echo(json.dumps(res.to_dict() | {"command": command}, indent=1) if as_json else line)
    sys.exit(res.exit_code)


def _calibrate(name: str, cfg, runs: int, as_json: bool) -> None:
    from hokm_sim.regress import sequential
    from hokm_sim.runner import Runner
    from hokm_sim.stats import wilson

    s = _strategy(click.get_current_context(), None, name)
    runner = Runner(s, s)
    verdicts = {"H0": 0, "H1": 0, "inconclusive": 0}
    pairs = []
    for i in range(runs):
        cfg.seed = cfg.seed + 1 if i else cfg.seed
        res = sequential(runner, cfg)
        verdicts[res.verdict] += 1
        pairs.append(res.pairs)
        if sys.stderr.isatty():
            sys.stderr.write(f"\rrun {i + 1}/{runs}: false alarms {verdicts['H0']}\033[K")
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    rate = wilson(verdicts["H0"], runs)
    out = {
        "strategy": name,
        "runs": runs,
        "false_regressions": verdicts["H0"],
        "no_regression": verdicts["H1"],
        "inconclusive": verdicts["inconclusive"],
        "false_alarm_rate": rate.to_dict(),
        "promised": cfg.beta,
        "mean_pairs": float(np.mean(pairs)),
        "first_seed": cfg.seed - runs + 1,
    }
    if as_json:
        click.echo(json.dumps(out, indent=1))
    else:
        click.echo(
            f"{name} against itself, {runs} runs: {verdicts['H0']} false 'regression' "
            f"verdicts, rate {rate.value:.3f} [{rate.low:.3f}, {rate.high:.3f}] "
            f"(the bounds promise {cfg.beta}); {verdicts['H1']} no regression, "
            f"{verdicts['inconclusive']} inconclusive; mean {np.mean(pairs):,.0f} pairs"
        )


@main.command(context_settings=CONTEXT)
@click.option("--wins", "wins", help="Hand-win pair counts LL,SPLIT,WW (A's point of view).")
@click.option("--points", "points", help="Points pair counts for D = -6..6 (13 numbers).")
@_sprt_options
def sprt(
    wins: str | None, points: str | None, elo0: float, elo1: float, alpha: float, beta: float
) -> None:
    """Offline SPRT calculator: LLR and verdict from pair counts gathered elsewhere.

    Exit codes as for regress: 0 no regression, 1 regression, 3 undecided.

    \b
    Example:
        hokm-sim sprt --wins 3100,13200,3700
        hokm-sim sprt --points 0,1,5,40,200,900,1500,950,210,45,6,1,0
    """
    from hokm_sim.regress import VERDICTS
    from hokm_sim.stats import gsprt_llr, llr_approx, pair_score, sprt_bounds, sprt_verdict

    if (wins is None) == (points is None):
        raise click.UsageError("give exactly one of --wins LL,SPLIT,WW or --points c0,...,c12")
    text, n_expected = (wins, 3) if wins is not None else (points, 13)
    try:
        counts = np.array([int(x) for x in text.replace(" ", "").split(",")], dtype=np.int64)
    except ValueError:
        raise click.BadParameter(
            f"{text!r} is not a comma-separated list of whole numbers", param_hint="--wins/--points"
        ) from None
    if counts.size != n_expected or (counts < 0).any():
        raise click.BadParameter(
            f"expected {n_expected} non-negative counts, got {text!r}", param_hint="--wins/--points"
        )
    values = np.array([0.0, 0.5, 1.0]) if wins is not None else np.arange(13) / 12.0
    try:
        a, b = sprt_bounds(alpha, beta)
        if elo0 >= elo1:
            raise ValueError(f"need --elo0 < --elo1, got {elo0} and {elo1}")
        llr = gsprt_llr(counts, values, elo0, elo1)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    v = sprt_verdict(llr, a, b)
    ps = pair_score(counts, values)
    verdict = VERDICTS.get(v, "undecided: keep playing")
    elo = ps.elo.to_dict()
    click.echo(
        f"{verdict.upper()}: LLR {llr:.4f} (approximation "
        f"{llr_approx(counts, values, elo0, elo1):.4f}), bounds ({a:.3f}, {b:.3f}), "
        f"{int(counts.sum()):,} pairs, Elo "
        + ("n/a" if elo["value"] is None else f"{elo['value']:+.1f}")
    )
    sys.exit({"H1": 0, "H0": 1}.get(v, 3))


def _study_markdown(s: dict, command: str) -> str:
    from hokm_sim.report import cell

    lines = [
        f"# Trump study: {s['deals']:,} deals, {s['player']} in every seat",
        "",
        f"Seed {s['seed']}; every deal played with each of the four trumps "
        f"({s['hands']:,} hands). Values are the Hakem team's signed points.",
        "",
        "| heuristic | best call | regret (points/hand) | hand win | Kot | points/hand |",
        "|---|---|---|---|---|---|",
    ]
    for name, h in s["heuristics"].items():
        lines.append(
            f"| {name} | {cell(h['best_call_rate'])} | {cell(h['regret'], True)} | "
            f"{cell(h['hand_win_rate'])} | {cell(h['kot_rate'])} | "
            f"{cell(h['points_per_hand'], True)} |"
        )
    alone = s["ace_vs_length"]["small_cards_minus_ace_alone"]
    lines += [
        "",
        "## Three or four small cards against a lone ace",
        "",
        "Points per hand of calling the suit of k small cards (nothing above the ten) "
        "minus calling the suit of the ace alone, on the same deals:",
        "",
    ]
    for k, e in alone.items():
        lines.append(f"- {k} small cards: {cell(e, True)} over {e['n']:,} deals")
    lines += [
        "",
        "## Calling the longest suit, by its length and its high cards",
        "",
        "Points per hand [95%] (deals) of calling the longest of the five cards' suits "
        "(ties as `longest` breaks them), by the count of A K Q J in it and by its ace; "
        "regret is against the best call in hindsight.",
        "",
        "| length | all | regret | 0 high | 1 high | 2 high | 3 high | 4 high | ace | no ace |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]

    def pts(c: dict | None) -> str:
        return "" if c is None else f"{cell(c['points_per_hand'], True, 3)} ({c['n']:,})"

    for length, row in s["by_longest_honours"].items():
        highs = [pts(row["highs"].get(str(h))) for h in range(5)]
        ace = [pts(row["ace"].get(k)) for k in ("held", "not_held")]
        lines.append(
            f"| {length} | {pts(row['all'])} | {cell(row['all']['regret'], False, 3)} | "
            + " | ".join(highs + ace)
            + " |"
        )
    if "table" in s:
        t = s["table"]
        lines += [
            "",
            "## Learned trump table",
            "",
            f"{t['classes']:,} five-card classes learned from the study's deals; "
            f"held out: `{t['eval']['a']}` against `{t['eval']['b']}` on {t['eval']['deals']:,} "
            f"fresh deals in duplicate (seed {t['eval']['seed']}):",
            "",
            f"- pair score {cell(t['eval']['pair_score'])}, Elo "
            f"{cell(t['eval']['elo'], True, 1)}: {t['eval']['verdict']}",
        ]
    lines += ["", "## Figures", ""]
    for name in ("by_longest", "regret", "ace_heatmap", "outcomes_by_length"):
        lines += [f"![{name}]({name}.png)", ""]
    lines += ["## Reproduce", "", f"    {command}", "", f"hokm-sim {__version__}", ""]
    return "\n".join(lines)


@main.command("trump-study", context_settings=CONTEXT)
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
    help="Comma-separated trump heuristics to judge (strategy specs).",
)
@click.option(
    "--hands",
    type=SIZE,
    default="200k",
    show_default=True,
    help="Deals (each played with all four trumps).",
)
@click.option("--seed", type=SEED, help="Seed [default: a fresh one, recorded].")
@click.option(
    "--eval-hands",
    type=SIZE,
    default="100k",
    show_default=True,
    help="Fresh deals for the held-out test of the learned table.",
)
@click.option("--threads", type=int, callback=_threads, help="Threads [default: all cores].")
@scheduler_option
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Report folder.")
@click.option("--force", is_flag=True, help="Overwrite an existing --out folder.")
def trump_study(
    player: str,
    heuristics: str,
    hands: int,
    seed: int | None,
    eval_hands: int,
    threads: int,
    scheduler: str | None,
    out: Path | None,
    force: bool,
) -> None:
    """Which suit should the Hakem call? Every deal played with each trump, then judged.

    Reports per heuristic the best-call rate, regret, hand-win, Kot and points
    as Hakem; breakdowns by the five-card shape; learns a trump table from
    the deals and tests it on fresh ones against the longest-suit rule; draws
    the figures (PNG and SVG) into the report folder.

    \b
    Example:
        hokm-sim trump-study --hands 1M --seed 1
        hokm-sim trump-study --player longest --heuristics longest,points
    """
    import secrets

    from hokm_sim import plots
    from hokm_sim import trumpstudy as ts
    from hokm_sim.api import RunConfig, execute
    from hokm_sim.distributed import ClusterError, SchedulerError
    from hokm_sim.progress import Progress
    from hokm_sim.registry import Strategy
    from hokm_sim.report import default_folder, verdict
    from hokm_sim.writing import atomic_text

    ctx = click.get_current_context()
    play = _strategy(ctx, None, player)
    heur = [_strategy(ctx, None, h) for h in heuristics.split(",") if h.strip()]
    if not heur:
        raise click.UsageError("give at least one heuristic in --heuristics")
    seed = secrets.randbits(63) if seed is None else seed
    _check_out(out, force)
    folder = out or default_folder(Path("results"), "trump-study", play.name, seed)
    _check_out(folder, force)
    prog = Progress(hands * (4 + len(heur)), "hands")
    try:
        data = ts.collect(play, heur, seed, hands, threads, prog.update, scheduler)
        prog.close()
        s = ts.summarize(data, play.name)
        table = ts.learn_table(data)
        bot = ts.write_table_bot(folder, table)
        learned = resolve(str(bot))
        a = Strategy(
            name="trump=learned table,play=" + play.name,
            trump=learned.trump,
            play=play.play,
            play_params=play.play_params,
        )
        base = resolve(f"trump=longest,play={player}")
        eval_seed = (seed + 0x9E3779B97F4A7C15) % 2**63  # fresh deals, not those learned from
        cfg = RunConfig(
            a=a.name,
            b=base.name,
            hands=eval_hands,
            seed=eval_seed,
            threads=threads,
            scheduler=scheduler,
        )
        summ = execute(cfg, a, base)
    except StrategyFault as exc:
        prog.close()
        _fail_run(exc)
    except SchedulerError as exc:
        prog.close()
        raise click.BadParameter(str(exc), param_hint="--scheduler") from None
    except ClusterError as exc:
        prog.close()
        _fail_run(exc)
    d = summ.data
    s["table"] = {
        "classes": len(table["classes"]),
        "file": "trump_table.json",
        "eval": {
            "a": a.name,
            "b": base.name,
            "deals": eval_hands,
            "seed": eval_seed,
            "pair_score": d["pair_score"],
            "elo": d["elo"],
            "verdict": verdict(d),
        },
    }
    command = (
        f"hokm-sim trump-study --player {_quote_arg(player)} --heuristics "
        f"{_quote_arg(heuristics)} --hands {hands} --seed {seed} --eval-hands {eval_hands}"
    )
    s["command"] = command
    s["version"] = __version__
    atomic_text(folder / "summary.json", json.dumps(s, indent=1) + "\n")
    plots.draw_all(s, folder)
    atomic_text(folder / "report.md", _study_markdown(s, command))
    click.echo(_study_markdown(s, command))
    click.echo(f"report: {folder}")


@main.command(context_settings=CONTEXT)
@click.argument("results_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
def plot(results_dir: Path) -> None:
    """Re-draw the figures of a finished trump study from its summary.json.

    \b
    Example:
        hokm-sim plot results/20261130-101500-trump-study-vs-expert-seed1
    """
    from hokm_sim import plots

    f = results_dir / "summary.json"
    try:
        s = json.loads(f.read_text())
        files = plots.draw_all(s, results_dir)
    except (OSError, json.JSONDecodeError, KeyError) as exc:
        raise click.UsageError(f"{f} is not the summary of a trump study: {exc}") from None
    click.echo("\n".join(str(p) for p in files))


def _register_dd() -> None:
    from hokm_sim.dd.commands import register

    register(main)


_register_dd()
