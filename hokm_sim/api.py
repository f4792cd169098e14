"""The public Python API: everything a command does, a notebook can do.

Each function checks its input (raising :class:`~hokm_sim.errors.InputError`
with one line that names the Python parameter at fault), plays, and returns
a result object (the protocol of :mod:`hokm_sim.analysis.results`:
``to_dict()``, ``to_frame()``, ``headline``, ``folder``, ``command``). Given
``out`` (a folder, or True for a new one under ``results/``), it writes the
report folder that :func:`load` reads back. Every result records the
``hokm-sim`` command that reproduces it, built from the table of
:mod:`hokm_sim.commands`. The CLI is a thin shell over these functions: each
command parses its options, calls one of them and renders the result.

Long work reports its progress to ``progress`` as :class:`Tick` records.

>>> import hokm_sim
>>> s = hokm_sim.run("expert", "longest", hands=100_000, seed=1)   # doctest: +SKIP
>>> s.to_frame()                                                  # doctest: +SKIP
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from hokm_sim.analysis.results import (
    BenchResult,
    CalibrationResult,
    DDResult,
    DDStudyResult,
    ExperimentResult,
    FieldResult,
    HandResult,
    HistoryResult,
    RegressResult,
    Shown,
    SprtResult,
    StrategiesResult,
    TournamentResult,
    TraceResult,
    TrumpStudyResult,
    TuneResult,
    from_dict,
)
from hokm_sim.commands import COMMANDS, command_line
from hokm_sim.errors import InputError, StoppedError, ref
from hokm_sim.report.folder import ReportFolder, default_folder, read_record
from hokm_sim.serving import serve as _serve
from hokm_sim.sim.checks import (
    BY_NAME,
    DEFAULT_TARGET,
    MAX_SEED,
    check_first_hakem,
    check_match_only,
    check_positive,
    check_seed,
    check_size,
    check_target,
    fresh_seed,
)
from hokm_sim.store import keep, prepare
from hokm_sim.version import __version__

if TYPE_CHECKING:
    import numpy as np

    from hokm_sim.analysis.summary import Summary
    from hokm_sim.analysis.trumpstudy import StudyData
    from hokm_sim.bots.registry import Strategy
    from hokm_sim.sim.checkpoint import Checkpoint
    from hokm_sim.sim.run import Played, RunConfig
    from hokm_sim.sim.runner import Runner

__all__ = [
    "Tick",
    "run",
    "resume",
    "tournament",
    "field",
    "tune",
    "regress",
    "calibrate",
    "sprt",
    "trump_study",
    "plot",
    "dd_study",
    "solve",
    "analyse",
    "analyse_run",
    "analyse_hand",
    "experiment",
    "trace",
    "show",
    "bench",
    "list_strategies",
    "load",
    "results",
    "import_results",
    "history",
    "fresh_seed",
    "strategy",
    "serve",
    "check_bot",
]


def _checked(fn: Callable) -> Callable:
    """Check each argument a caller gives to a parameter of :data:`~hokm_sim.sim.checks.BY_NAME`
    (a thread count, a flag, a callback, a path ...) before ``fn`` runs: a wrong type is an
    :class:`InputError` naming the parameter. Values left at their defaults are not checked."""
    sig = inspect.signature(fn)
    checked = [name for name in sig.parameters if name in BY_NAME]
    if not checked:
        return fn

    @functools.wraps(fn)
    def with_checks(*args: Any, **kwargs: Any) -> Any:
        given = sig.bind(*args, **kwargs).arguments
        for name in checked:
            if name in given and given[name] is not sig.parameters[name].default:
                BY_NAME[name](given[name], name)
        return fn(*args, **kwargs)

    return with_checks


def _bot_timeout(fn: Callable) -> Callable:
    """Give an API function that plays strategies ``bot_timeout=`` (keyword only): how long
    an ``exec:`` bot may take to answer ``hello`` and each message (plus 10 ms a request),
    in seconds; None keeps the default, 10 s (see docs/protocol.md)."""

    @functools.wraps(fn)
    def with_timeout(*args: Any, bot_timeout: float | None = None, **kwargs: Any) -> Any:
        from hokm_sim.bots.host import bot_timeout as host_timeout  # loads the engine

        with host_timeout(bot_timeout):
            return fn(*args, **kwargs)

    sig = inspect.signature(fn)
    extra = inspect.Parameter(
        "bot_timeout", inspect.Parameter.KEYWORD_ONLY, default=None, annotation="float | None"
    )
    with_timeout.__signature__ = sig.replace(parameters=[*sig.parameters.values(), extra])
    return with_timeout


@dataclass(frozen=True)
class Tick:
    """How far long work has come, told to a ``progress`` callable after each step.

    ``done`` of ``total`` ``unit`` (deals, matches, hands, pairs, runs), of
    which ``start`` were done before this call began (a resumed run);
    ``hands`` is the hands played per unit, for a rate in hands per second;
    ``note`` a short state (a sequential test's LLR).
    """

    done: int
    total: int
    unit: str = "deals"
    hands: float = 1.0
    start: int = 0
    note: str = ""


Progress = Callable[[Tick], None]


def _command(function: str, **values: Any) -> str:
    """:func:`~hokm_sim.commands.command_line` of ``function``, with the protocol bots'
    limit in force (``bot_timeout=``) written too when the command takes one: a run
    that needed a longer limit needs it again."""
    if any(p.name == "bot_timeout" for p in COMMANDS[function].params):
        from hokm_sim.bots.host import given_timeout  # such a command plays: engine loaded

        values.setdefault("bot_timeout", given_timeout())
    return command_line(function, **values)


def _counter(
    progress: Progress | None, total: int, unit: str, hands: float = 1.0, done: int = 0
) -> Callable[[int], None] | None:
    """A callable that adds finished units and tells ``progress`` (None without one)."""
    if progress is None:
        return None
    state = [done]

    def add(n: int) -> None:
        state[0] += n
        progress(Tick(state[0], total, unit, hands, done))

    return add


def _run_counter(progress: Progress | None, cfg: RunConfig, done: int = 0):
    copies = 2 if cfg.duplicate else 1
    if cfg.mode == "matches":  # about ten hands a match to 7, for the rate only
        return _counter(progress, cfg.total, "matches", 10.0 * copies, done)
    return _counter(progress, cfg.total, "deals", copies, done)


def strategy(spec: str | Strategy | object, param: str | None = None) -> Strategy:
    """A strategy from a spec (name, bot file, ``trump=X,play=Y``, ``name(k=v)``),
    or from a plain-Python bot object with ``choose_trump(obs)`` and ``play_card(obs)``.

    ``param`` is the parameter the spec came from, named in the error.
    """
    from hokm_sim.bots.registry import Strategy, from_object, resolve

    if isinstance(spec, Strategy):
        return spec
    try:
        if not isinstance(spec, str):
            return from_object(spec)
        return resolve(spec)
    except InputError as exc:
        if param and exc.param is None:
            raise type(exc)(exc.message, param) from None
        raise


def _folder(out: str | Path | bool | None, force: bool, what: str, against: str, seed: int):
    """The report folder of ``out``: None, a path, or True for a new one under results/."""
    if out is None or out is False:
        return None
    return ReportFolder.create(default_folder(what, against, seed) if out is True else out, force)


def _stop(exc: StoppedError) -> dict[str, str]:
    """What a partial report records of what stopped the work: ``fault``, the line of the
    bot fault, or ``failure``, the line of the failed cluster."""
    from hokm_sim.sim.backends import ClusterError

    return {"failure" if isinstance(exc, ClusterError) else "fault": " ".join(str(exc).split())}


@contextmanager
def _partial_kept(
    folder: ReportFolder | None, report: Callable[[Any, dict[str, str]], Any] | None
) -> Iterator[None]:
    """A :class:`StoppedError` (a bot fault, a failed cluster) leaves the report of what
    finished before it (its ``partial``, written by ``report`` with :func:`_stop`'s record
    of the fault) in ``folder``, and says where; a folder with nothing in it (no
    ``report``, or nothing finished, or a stop by Ctrl-C or ``SIGTERM`` before anything
    finished) is not left behind."""
    try:
        yield
    except KeyboardInterrupt:
        if folder is not None and not folder.file("summary.json").exists():
            folder.discard()
        raise
    except StoppedError as exc:
        if folder is not None:
            if exc.partial is not None and report is not None:
                report(exc.partial, _stop(exc))
                exc.folder = folder.path
            else:
                folder.discard()
        raise


def _with_command(data: dict[str, Any], command: str) -> dict[str, Any]:
    return data | {"command": command, "version": __version__}


def _summary(played: Played, command: str) -> Summary:
    from hokm_sim.analysis.summary import summarize

    s = summarize(played.counts, played.record)
    s.data.update(command=command, version=__version__)
    return s


# --- run: A against B ---------------------------------------------------------


@_checked
@_bot_timeout
def run(
    a: str | Strategy = "expert",
    b: str | Strategy = "longest",
    *,
    hands: int | None = None,
    matches: int | None = None,
    seed: int | None = None,
    target: int | None = None,
    threads: int | None = None,
    duplicate: bool = True,
    scheduler: str | None = None,
    task: int | None = None,
    out: str | Path | bool | None = None,
    force: bool = False,
    save_hands: bool = False,
    first_hakem: str | None = None,
    analyse: int | None = None,
    engine: str | None = None,
    progress: Progress | None = None,
    on_batch: Callable[[int, int], None] | None = None,
) -> Summary:
    """Play A against B (in duplicate by default) and summarize from A's point of view.

    ``hands`` counts deals (each played twice in duplicate; default one
    million), ``matches`` whole matches to ``target`` (default 7).
    ``scheduler`` plays on a Dask cluster (``"local:2"`` or
    ``"tcp://host:8786"``) in tasks of ``task`` deals; the counts are the same.
    With ``out`` the report folder is written (``summary.json``,
    ``report.md``, a checkpoint to resume from, ``hands.parquet`` with
    ``save_hands``). ``first_hakem`` is the house rule that finds each
    match's first Hakem: ``"first-ace"`` (the default), ``"highest-card"``
    or ``"highest-two"`` (docs/rules.md). ``analyse`` grades every card of a
    seeded sample of so many deals double dummy (``summary.analysis``, and
    its pages in the folder). ``engine`` plays a pair of compiled bots with the
    ``"generic"`` engine, the pair's ``"specialised"`` one, or ``"auto"`` (the
    default: generic, then specialised once a long run has compiled it); the counts
    are the same. The first Ctrl-C stops after the batch in
    flight and returns a summary marked partial. A bot that breaks the rules
    raises :class:`~hokm_sim.sim.runner.StrategyFault`, after the partial
    report.
    """
    from hokm_sim.sim.checkpoint import Checkpoint
    from hokm_sim.sim.run import RunConfig, checkpoint_record, execute
    from hokm_sim.sim.runner import Runner

    sa, sb = strategy(a, "a"), strategy(b, "b")
    mode, size, target, rule = check_size(hands, matches, target, first_hakem)
    if save_hands and mode == "matches":
        raise InputError(f"works with {ref('hands')} runs (rows are per deal)", "save_hands")
    if save_hands and scheduler is not None:
        raise InputError(f"runs on this machine only; drop {ref('scheduler')}", "save_hands")
    if analyse is not None:
        check_positive(analyse, "analyse")
        if mode == "matches":
            raise InputError(f"grades deals of a {ref('hands')} run, not matches", "analyse")
    cfg = RunConfig(
        a=sa.name,
        b=sb.name,
        hands=size if mode == "hands" else None,
        matches=size if mode == "matches" else None,
        seed=check_seed(seed),
        target=target,
        threads=threads,
        duplicate=duplicate,
        scheduler=scheduler,
        task=task,
        first_hakem=rule,
        engine=engine,
    )
    command = _command(
        "run",
        a=cfg.a,
        b=cfg.b,
        hands=cfg.hands,
        matches=cfg.matches,
        seed=cfg.seed,
        target=cfg.target if mode == "matches" else None,
        first_hakem=first_hakem,
        duplicate=duplicate,
        save_hands=save_hands,
        analyse=analyse,
    )
    folder = _folder(out, force, cfg.a, cfg.b, cfg.seed)
    counter = _run_counter(progress, cfg)
    if folder is None:
        runner = Runner(sa, sb, engine=cfg.engine)  # the run's one: play, analysis
        played = execute(cfg, sa, sb, progress=counter, on_batch=on_batch, runner=runner)
        summary = _summary(played, command)
    else:
        checkpoint = None
        try:
            runner = Runner(sa, sb, engine=cfg.engine)  # the run's one: checkpoint, play ...
            record = checkpoint_record(
                cfg, runner.engine_key, command=command, save_hands=save_hands, analyse=analyse
            )
            checkpoint = Checkpoint.create(folder.path, record, cfg.total)
            summary = _play(cfg, runner, folder, checkpoint, command, save_hands, counter, on_batch)
        except BaseException:  # nothing played, nothing reported (a bot that fails to compile)
            if not folder.file("summary.json").exists() and not (
                checkpoint and checkpoint.done_count
            ):
                folder.discard()
            raise
    if analyse is not None and not summary.partial:
        summary.analysis = _analyse_sample(
            summary.config, analyse, threads, folder, command, runner
        )
    return summary


@_checked
@_bot_timeout
def resume(
    folder: str | Path,
    *,
    threads: int | None = None,
    scheduler: str | None = None,
    task: int | None = None,
    engine: str | None = None,
    progress: Progress | None = None,
) -> Summary:
    """Continue the stopped run of report folder ``folder`` from its checkpoint.

    The result is exactly that of the uninterrupted run (and its analysis, if
    the run asked for one), whichever ``engine`` plays (as for :func:`run`).
    Refuses a folder whose engine or bot files changed since the run started.
    """
    from hokm_sim.bots.registry import resolve
    from hokm_sim.sim.checkpoint import Checkpoint, CheckpointError
    from hokm_sim.sim.run import resume_config
    from hokm_sim.sim.runner import Runner

    path = Path(folder)
    try:
        checkpoint = Checkpoint.load(path)
    except CheckpointError as exc:
        raise CheckpointError(exc.message, "folder") from None
    rec = checkpoint.config
    for key in ("run", "engine", "command"):
        if key not in rec:
            raise InputError(
                f"{path}/checkpoint.json lacks {key!r}: not the checkpoint of a run", "folder"
            )
    if rec.get("save_hands"):
        raise InputError(
            f"{path} was a {ref('save_hands')} run, whose rows cannot be resumed; run it again",
            "folder",
        )
    cfg = resume_config(rec, threads=threads, scheduler=scheduler, task=task, engine=engine)
    base = Path(rec["cwd"]) if "cwd" in rec else None  # where the run began
    try:
        sa, sb = resolve(cfg.a, base), resolve(cfg.b, base)
    except InputError as exc:
        raise type(exc)(f"the run's strategy: {exc.message}", "folder") from None
    runner = Runner(sa, sb, engine=cfg.engine)  # the one of the run
    engine = runner.engine_key
    if engine != rec["engine"]:
        raise InputError(
            f"the engine or a bot file changed since the run in {path} started "
            f"({rec['engine']}, now {engine}); resuming would mix two versions: start a new run",
            "folder",
        )
    counter = _run_counter(progress, cfg, checkpoint.done_count)
    report = ReportFolder.take(path)
    summary = _play(cfg, runner, report, checkpoint, rec["command"], False, counter, None)
    if rec.get("analyse") and not summary.partial:
        summary.analysis = _analyse_sample(
            summary.config, rec["analyse"], threads, report, rec["command"], runner
        )
    return summary


def _play(
    cfg: RunConfig,
    runner: Runner,
    folder: ReportFolder,
    checkpoint: Checkpoint,
    command: str,
    save_hands: bool,
    progress: Callable[[int], None] | None,
    on_batch: Callable[[int, int], None] | None,
) -> Summary:
    from hokm_sim.report.markdown import markdown as run_markdown
    from hokm_sim.sim.handrows import HandWriter
    from hokm_sim.sim.run import execute

    writer = None
    if save_hands:
        writer = HandWriter(folder.file("hands.parquet"), runner, cfg.seed, cfg.duplicate)

    def batch_done(start: int, count: int) -> None:
        if writer is not None:
            writer(start, count)
        if on_batch is not None:
            on_batch(start, count)

    try:
        played = execute(
            cfg,
            runner.a,
            runner.b,
            progress=progress,
            on_batch=batch_done,
            checkpoint=checkpoint,
            runner=runner,
        )
    except StoppedError as exc:
        if exc.partial is not None:
            partial = _summary(exc.partial, command)
            partial.data.update(_stop(exc))
            folder.save(partial.to_dict(), run_markdown(partial, command), command)
        exc.folder = folder.path
        from hokm_sim.sim.backends import ClusterError

        if isinstance(exc, ClusterError):  # the cluster failed, not a bot: worth resuming
            exc.resume = _command("resume", folder=folder.path)
        raise
    finally:
        if writer is not None:
            writer.close()
    summary = _summary(played, command)
    summary.folder = folder.path
    folder.save(summary.to_dict(), run_markdown(summary, command), command)
    return summary


# --- tournament -------------------------------------------------------------------


@_checked
@_bot_timeout
def tournament(
    strategies: Sequence[str | Strategy],
    *,
    hands: int = 100_000,
    seed: int | None = None,
    threads: int | None = None,
    scheduler: str | None = None,
    out: str | Path | bool | None = None,
    force: bool = False,
    progress: Progress | None = None,
) -> TournamentResult:
    """Every pair of strategies in duplicate on the same ``hands`` deals, ranked
    by Bradley-Terry ratings with bootstrap intervals."""
    from hokm_sim.analysis import tournament as tour
    from hokm_sim.bots.registry import Strategy
    from hokm_sim.report import pages
    from hokm_sim.sim.backends import check_scheduler
    from hokm_sim.sim.runner import check_threads

    if isinstance(strategies, str | Strategy):
        raise InputError(
            f"expected a list of strategies, got the one {strategies!r}: "
            "a tournament needs at least two",
            "strategies",
        )
    strategies = _listed(strategies, "strategies")
    if len(strategies) < 2:
        raise InputError("a tournament needs at least two strategies", "strategies")
    strats: list[Strategy] = []
    for i, s in enumerate(strategies):
        try:
            strats.append(strategy(s))
        except InputError as exc:
            raise type(exc)(f"strategy {i + 1}: {exc.message}", "strategies") from None
        first = [t.name for t in strats].index(strats[-1].name)
        if first < i:
            raise InputError(
                f"strategy {i + 1} ({strats[-1].name}) is strategy {first + 1} again: "
                "each entry plays once",
                "strategies",
            )
    check_positive(hands, "hands")
    seed = check_seed(seed)
    check_scheduler(scheduler)
    folder = _folder(out, force, "tournament", str(len(strats)), seed)
    k = len(strats)
    counter = _counter(progress, hands * k * (k - 1) // 2, "deals", 2)
    command = _command("tournament", strategies=[s.name for s in strats], hands=hands, seed=seed)

    def report(t: tour.Tournament, stop: dict[str, str] | None = None) -> TournamentResult:
        record = t.summary() | {"strategies": [s.to_dict() for s in strats]} | (stop or {})
        result = TournamentResult(_with_command(record, command))
        if folder is not None:
            folder.save(result.to_dict(), pages.tournament(result.data, command), command)
            result.folder = folder.path
        return result

    with _partial_kept(folder, report):
        return report(tour.play(strats, seed, hands, check_threads(threads), counter, scheduler))


# --- strength against a field, and tuning ---------------------------------------------


def _listed(value: Any, param: str) -> list[Any]:
    """A list parameter as a list: one string (or strategy) is one item, never a sequence
    of characters; what is not a list at all is refused, naming ``param``."""
    from hokm_sim.bots.registry import Strategy

    if isinstance(value, str | Strategy):
        return [value]
    try:
        return list(value)
    except TypeError:
        raise InputError(f"expected a list, got {value!r}", param) from None


def _strategies(specs: str | Strategy | Sequence[str | Strategy], param: str) -> list[Strategy]:
    """Each spec resolved (one spec is a list of one); an error names its place in the
    list and ``param``."""
    out = []
    for i, spec in enumerate(_listed(specs, param)):
        try:
            out.append(strategy(spec))
        except InputError as exc:
            raise type(exc)(f"strategy {i + 1}: {exc.message}", param) from None
    return out


@_checked
@_bot_timeout
def field(
    candidate: str | Strategy,
    members: Sequence[str | Strategy] | None = None,
    *,
    hands: int | None = None,
    matches: int | None = None,
    seed: int | None = None,
    target: int | None = None,
    metric: str | None = None,
    threads: int | None = None,
    out: str | Path | bool | None = None,
    force: bool = False,
    progress: Progress | None = None,
) -> FieldResult:
    """The candidate against every bot of a field in duplicate, each pairing the ``run``
    of the candidate against that bot with the same seed and size; the weakest pair
    score (on ``metric``: ``wins``, ``points`` or, with ``matches``, ``matches``) is the
    one number that says "strong against everyone".

    ``members`` defaults to the built-in field (``expert``, ``sharp`` and the
    style bots of docs/bots.md) without the candidate; ``hands`` to 100,000
    deals. The first Ctrl-C stops the pairing in flight after its batch and
    returns a result marked partial with the pairings played; a bot fault
    raises :class:`~hokm_sim.errors.StoppedError` after the partial report.
    """
    from hokm_sim.analysis import field as fld
    from hokm_sim.report import pages
    from hokm_sim.sim.runner import check_threads

    cand = strategy(candidate, "candidate")
    strats = _strategies(fld.default_members(cand) if members is None else members, "members")
    mode, size, target, _ = check_size(hands, matches, target, None, default_hands=100_000)
    seed = check_seed(seed)
    cfg = fld.FieldConfig(
        cand.name,
        [s.name for s in strats],
        hands=size if mode == "hands" else None,
        matches=size if mode == "matches" else None,
        seed=seed,
        target=target,
        threads=threads,
        metric=metric,
    )
    check_threads(threads)
    command = _command(
        "field",
        candidate=cand.name,
        members=cfg.members,
        hands=cfg.hands,
        matches=cfg.matches,
        seed=seed,
        target=target if mode == "matches" else None,
        metric=metric,
    )
    folder = _folder(out, force, "field", cand.name, seed)
    copies = 10.0 * 2 if mode == "matches" else 2.0  # about ten hands a match, for the rate
    unit = "matches" if mode == "matches" else "deals"
    done, note, seen = [0], [""], []

    def counted(n: int) -> None:
        done[0] += n
        if progress is not None:
            progress(Tick(done[0], size * len(strats), unit, copies, note=note[0]))

    def paired(pair: dict[str, Any]) -> None:
        seen.append(pair)
        low = fld.weakest(seen, cfg.metric or "wins")
        if low is not None:
            note[0] = f"weakest so far: {low['opponent']} {low[cfg.metric]['value']:.4f}"

    try:
        data = fld.play(cfg, cand, strats, progress=counted, on_pair=paired)
    except StoppedError as exc:
        if folder is not None and exc.partial is not None:
            partial = FieldResult(_with_command(exc.partial | _stop(exc), command))
            folder.save(partial.to_dict(), pages.field(partial.data, command), command)
            exc.folder = folder.path
        raise
    result = FieldResult(_with_command(data, command))
    if folder is not None:
        folder.save(result.to_dict(), pages.field(result.data, command), command)
        result.folder = folder.path
    return result


@_checked
@_bot_timeout
def tune(
    bot: str | Strategy,
    params: Sequence[str],
    *,
    against: str | Sequence[str | Strategy] = "field",
    iterations: int = 100,
    pairs: int = 20_000,
    c: float = 0.1,
    rate: float = 0.1,
    metric: str = "wins",
    seed: int | None = None,
    check: int = 20_000,
    threads: int | None = None,
    out: str | Path | bool | None = None,
    force: bool = False,
    progress: Progress | None = None,
) -> TuneResult:
    """Tune ``params`` (``"NAME=LOW:HIGH"`` each; ``trump.NAME`` or ``play.NAME`` for a
    part of a composition) of ``bot`` by SPSA on duplicate pairs (docs/bots.md).

    Each of ``iterations`` plays the bot on either side of its estimate
    against every opponent of ``against`` (specs, or ``"field"``: the
    built-in field without the bot) on ``pairs`` fresh deals of ``seed``, and
    steps towards the better side. Then the tuned and the starting values play
    every opponent on ``check`` deals not used to tune (0: none). The first
    Ctrl-C stops after the iteration in flight and returns the estimate
    reached, marked partial. With ``out`` the report folder gets
    ``summary.json``, ``report.md`` and the figure of the run (``tune.png``).
    """
    from hokm_sim.analysis import field as fld
    from hokm_sim.analysis import tune as tn
    from hokm_sim.report import pages, plots
    from hokm_sim.sim.runner import check_threads

    s = strategy(bot, "bot")
    specs = _listed(against, "against")
    named = [x for spec in specs for x in (fld.default_members(s) if spec == "field" else [spec])]
    if not named:
        raise InputError("give at least one opponent, or field", "against")
    opponents = _strategies(named, "against")
    parsed = [tn.parse_param(text, s) for text in _listed(params, "params")]
    tn.check_params(parsed)  # before the report folder is begun
    seed = check_seed(seed)
    check_threads(threads)
    cfg = tn.TuneConfig(
        iterations=iterations,
        pairs=pairs,
        c=c,
        rate=rate,
        metric=metric,
        seed=seed,
        threads=threads,
        check=check,
    )
    command = _command(
        "tune",
        bot=s.name,
        params=[p.text for p in parsed],
        against=[o.name for o in opponents],
        iterations=iterations,
        pairs=pairs,
        c=c,
        rate=rate,
        metric=metric,
        seed=seed,
        check=check,
    )
    folder = _folder(out, force, "tune", s.name, seed)
    hands = 2 * 2 * pairs * len(opponents)  # both sides, both copies, every opponent

    def told(rec: dict[str, Any]) -> None:
        if progress is not None:
            values = " ".join(
                f"{p.label}={v:.4g}" for p, v in zip(parsed, rec["values"], strict=True)
            )
            note = f"{values}  score +{rec['plus']:.4f} / -{rec['minus']:.4f}"
            progress(Tick(rec["iteration"], iterations, "iterations", hands, note=note))

    def save(result: TuneResult) -> None:
        assert folder is not None
        if result.data["history"]:
            plots.tune_run(result.data, folder.path)
        folder.save(result.to_dict(), pages.tune(result.data, command), command)
        result.folder = folder.path

    try:
        data = tn.spsa(s, parsed, opponents, cfg, progress=told)
    except StoppedError as exc:
        if folder is not None and exc.partial is not None:
            save(TuneResult(_with_command(exc.partial | _stop(exc), command)))
            exc.folder = folder.path
        raise
    result = TuneResult(_with_command(data, command))
    if folder is not None:
        save(result)
    return result


# --- regression checks ---------------------------------------------------------------


@_checked
@_bot_timeout
def regress(
    candidate: str | Strategy | None,
    baseline: str | Strategy = "git:HEAD",
    *,
    elo0: float = -3.0,
    elo1: float = 0.0,
    alpha: float = 0.05,
    beta: float = 0.05,
    metric: str = "wins",
    max_pairs: int | None = None,
    check_every: int = 100,
    seed: int | None = None,
    target: int | None = None,
    threads: int | None = None,
    scheduler: str | None = None,
    out: str | Path | bool | None = None,
    force: bool = False,
    progress: Progress | None = None,
) -> RegressResult:
    """Is ``candidate`` worse than ``baseline``? A GSPRT on duplicate pairs in deal order.

    ``baseline`` is a strategy spec or ``git:REF`` (the candidate file at that
    commit). The verdict's exit code (``result.exit_code``): 0 no regression,
    1 regression, 3 inconclusive (the cap was reached). The result is added to the
    results store, with its report folder (``out``) or without one.
    """
    import numpy as np

    from hokm_sim.analysis.regress import (
        SprtConfig,
        estimates,
        resolve_baseline,
        sequential,
        stop_adjusted,
    )
    from hokm_sim.bots.registry import Strategy
    from hokm_sim.report import pages
    from hokm_sim.sim.runner import Runner

    if candidate is None:
        raise InputError("give the strategy to check", "candidate")
    target = _match_target(metric, target)
    seed = check_seed(seed)
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
    cand = strategy(candidate, "candidate")
    cand_spec = candidate if isinstance(candidate, str) else cand.name
    if isinstance(baseline, Strategy):
        base, base_spec = baseline, baseline.name
    else:
        base_spec = baseline
        try:
            base = resolve_baseline(baseline, cand_spec)
        except InputError as exc:
            raise type(exc)(exc.message, "baseline") from None
    folder = _folder(out, force, "regress", cand.name, seed)
    if folder is None:
        prepare()  # the store opened while the test plays, for the verdict kept at the end

    def told(used: int, llr: float, counts: np.ndarray, values: np.ndarray) -> None:
        if progress is not None:
            progress(Tick(used, int(cfg.max_pairs or 0), "pairs", 2, note=f"LLR {llr:+.3f}"))

    command = _command(
        "regress",
        candidate=cand_spec,
        baseline=base_spec,
        metric=metric,
        seed=seed,
        elo0=elo0,
        elo1=elo1,
        alpha=alpha,
        beta=beta,
        max_pairs=max_pairs,
        check_every=check_every,
        target=target if metric == "matches" else None,
    )

    def report(res: Any, stop: dict[str, str] | None = None) -> RegressResult:
        values, counts = np.array(res.values), np.array(res.counts)
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
            "target": target,
            "strategies": {"candidate": cand.to_dict(), "baseline": base.to_dict()},
            "version": __version__,
        }
        result = RegressResult(_with_command(res.to_dict() | (stop or {}), command))
        if folder is not None:
            folder.save(result.to_dict(), pages.regress(result.data, command), command)
            result.folder = folder.path
        else:  # no report folder: the verdict stored here, against the candidate's commit
            keep(result.to_dict(), headline=result.headline)
        return result

    with _partial_kept(folder, report):
        return report(sequential(Runner(cand, base, checked=True), cfg, told))


def _match_target(metric: str, target: int | None) -> int:
    """The match target of a sequential test: only for ``metric="matches"`` (7 by default)."""
    if target is None:
        return DEFAULT_TARGET
    if metric != "matches":
        raise InputError(
            f"sets the score a match is played to: give it with {ref('metric')} matches",
            "target",
        )
    return check_target(target)


@_checked
@_bot_timeout
def calibrate(
    name: str | Strategy,
    *,
    runs: int = 40,
    elo0: float = -3.0,
    elo1: float = 0.0,
    alpha: float = 0.05,
    beta: float = 0.05,
    metric: str = "wins",
    max_pairs: int | None = None,
    check_every: int = 100,
    seed: int | None = None,
    target: int | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
) -> CalibrationResult:
    """``name`` against itself on ``runs`` consecutive seeds: how often does the
    check call a false regression (the bounds promise about ``beta``)?"""
    import numpy as np

    from hokm_sim.analysis.intervals import wilson
    from hokm_sim.analysis.regress import SprtConfig, sequential
    from hokm_sim.sim.runner import Runner

    check_positive(runs, "runs")
    prepare()  # the store opened while the runs play, for the result kept at the end
    target = _match_target(metric, target)
    first = check_seed(seed)
    if first + runs - 1 > MAX_SEED:
        raise InputError(
            f"runs {ref('seed')} .. {ref('seed')} + {ref('runs')} - 1 would pass the largest "
            f"seed, 2**64-1: give a seed of at most {MAX_SEED - runs + 1}",
            "seed",
        )
    cfg = SprtConfig(
        nelo0=elo0,
        nelo1=elo1,
        alpha=alpha,
        beta=beta,
        metric=metric,
        max_pairs=max_pairs,
        check_every=check_every,
        seed=first,
        target=target,
        threads=threads,
    )
    s = strategy(name, "name")
    runner = Runner(s, s)
    verdicts = {"H0": 0, "H1": 0, "inconclusive": 0}
    pairs = []
    for i in range(runs):
        cfg.seed = first + i
        res = sequential(runner, cfg)
        verdicts[res.verdict] += 1
        pairs.append(res.pairs)
        if progress is not None:
            progress(
                Tick(i + 1, runs, "runs", 2 * res.pairs, note=f"false alarms {verdicts['H0']}")
            )
    command = _command(
        "calibrate",
        name=s.name,
        runs=runs,
        metric=metric,
        seed=first,
        elo0=elo0,
        elo1=elo1,
        alpha=alpha,
        beta=beta,
        max_pairs=max_pairs,
        check_every=check_every,
        target=target if metric == "matches" else None,
    )
    data = {
        "strategy": s.name,
        "runs": runs,
        "false_regressions": verdicts["H0"],
        "no_regression": verdicts["H1"],
        "inconclusive": verdicts["inconclusive"],
        "false_alarm_rate": wilson(verdicts["H0"], runs).to_dict(),
        "promised": beta,
        "mean_pairs": float(np.mean(pairs)),
        "first_seed": first,
        "strategies": {"bot": s.to_dict()},
    }
    result = CalibrationResult(_with_command(data, command))
    keep(result.to_dict(), headline=result.headline)  # no report folder: stored here
    return result


@_checked
def sprt(
    wins: Sequence[int] | None = None,
    *,
    points: Sequence[int] | None = None,
    elo0: float = -3.0,
    elo1: float = 0.0,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> SprtResult:
    """The offline SPRT: LLR and verdict of pair counts gathered elsewhere.

    ``wins``: the LL, split, WW counts of pairs scored by hand wins; or
    ``points``: 13 counts of pairs by points difference D = -6..6.
    """
    import numpy as np

    from hokm_sim.analysis.regress import EXIT_CODES, VERDICTS, check_test
    from hokm_sim.analysis.scores import pair_score
    from hokm_sim.analysis.sprt import gsprt_llr, llr_approx, sprt_bounds, sprt_verdict

    if (wins is None) == (points is None):
        raise InputError(f"give {ref('wins')} (3 counts) or {ref('points')} (13 counts)")
    metric, given, want = ("wins", wins, 3) if wins is not None else ("points", points, 13)
    try:
        c = np.asarray(given, dtype=np.int64)
    except (TypeError, ValueError, OverflowError):  # 1e23 pairs is no count of pairs
        c = np.zeros(0, np.int64)
    if c.shape != (want,) or (c < 0).any():
        raise InputError(f"expected {want} non-negative counts, got {given!r}", metric)
    check_test(elo0, elo1, alpha, beta)
    values = np.array([0.0, 0.5, 1.0]) if metric == "wins" else np.arange(13) / 12.0
    lo, hi = sprt_bounds(alpha, beta)
    try:
        llr = float(gsprt_llr(c, values, elo0, elo1))
    except ValueError as exc:  # bounds the pair distribution cannot reach
        raise InputError(f"{ref('elo0')}/{ref('elo1')}: {exc}") from None
    v = sprt_verdict(llr, lo, hi)
    hyp = v if v in ("H0", "H1") else "inconclusive"
    command = _command(
        "sprt", wins=wins, points=points, elo0=elo0, elo1=elo1, alpha=alpha, beta=beta
    )
    data = {
        "metric": metric,
        "counts": [int(x) for x in c],
        "verdict": VERDICTS[hyp] if v != "continue" else "undecided: keep playing",
        "hypothesis_accepted": v if v != "continue" else None,
        "exit_code": EXIT_CODES[hyp],
        "llr": llr,
        "llr_approx": float(llr_approx(c, values, elo0, elo1)),
        "bounds": [lo, hi],
        "pairs": int(c.sum()),
        "elo": pair_score(c, values).elo.to_dict(),
        "config": {"elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta},
    }
    return SprtResult(_with_command(data, command))


# --- studies ---------------------------------------------------------------------


@_checked
@_bot_timeout
def trump_study(
    player: str | Strategy = "expert",
    heuristics: Sequence[str | Strategy] = ("longest", "points", "weighted", "random", "table"),
    *,
    hands: int = 200_000,
    seed: int | None = None,
    eval_hands: int = 100_000,
    threads: int | None = None,
    scheduler: str | None = None,
    out: str | Path | bool | None = None,
    force: bool = False,
    progress: Progress | None = None,
) -> TrumpStudyResult:
    """Which suit should the Hakem call? Every deal played with each trump, then judged.

    Per heuristic: best-call rate, regret, hand win, Kot and points as Hakem;
    breakdowns by the five-card shape; a trump table learned from the deals,
    tested on ``eval_hands`` fresh deals against the longest-suit rule (0:
    not tested). With ``out`` the report folder gets the figures and the
    learned table bot.

    The first Ctrl-C stops after the block of deals in flight and returns a
    result marked partial: the study of the deals finished, with no held-out
    test, or, once the study is whole, the held-out test of the deals
    played. Either is exactly the study its recorded command gives (fewer
    ``hands``, ``eval_hands`` 0 or fewer). A bot fault raises
    :class:`~hokm_sim.errors.StoppedError` after the same partial report.
    """
    from hokm_sim.analysis import trumpstudy as ts
    from hokm_sim.bots.registry import Strategy, resolve
    from hokm_sim.sim.backends import check_scheduler
    from hokm_sim.sim.run import RunConfig, execute
    from hokm_sim.sim.runner import check_threads

    play = strategy(player, "player")
    heur = _strategies(heuristics, "heuristics")
    if not heur:
        raise InputError("give at least one heuristic", "heuristics")
    check_positive(hands, "hands")
    if not (type(eval_hands) is int and eval_hands == 0):
        check_positive(eval_hands, "eval_hands")
    seed = check_seed(seed)
    check_threads(threads)
    check_scheduler(scheduler)
    folder = _folder(out, force, "trump-study", play.name, seed)
    counter = _counter(progress, hands * (4 + len(heur)) + 2 * eval_hands, "hands")

    def report(data: ts.StudyData, played: Played | None, stopped: str | None):
        return _trump_report(
            data, play, heur, played, stopped, {"hands": hands, "eval_hands": eval_hands}, folder
        )

    data = None
    try:
        data = ts.collect(play, heur, seed, hands, threads, counter, scheduler)
        if data.partial or not eval_hands:
            return report(data, None, "Ctrl-C" if data.partial else None)
        tick = None if counter is None else lambda n: counter(2 * n)
        try:  # Ctrl-C while the learned table's engine compiles, or a second one in the test
            learned = ts.table_strategy(ts.learn_table(data), play)
            base = resolve(f"trump=longest,play={play.name}") if isinstance(player, str) else None
            base = base or Strategy(
                name="trump=longest,play=" + play.name,
                trump=resolve("longest").trump,
                play=play.play,
                play_params=play.play_params,
            )
            cfg = RunConfig(
                a=learned.name,
                b=base.name,
                hands=eval_hands,
                seed=_eval_seed(seed),
                threads=threads,
                scheduler=scheduler,
            )
            played = execute(cfg, learned, base, progress=tick, prefix=True)
        except KeyboardInterrupt:  # the study is kept, the test not played
            return report(data, None, "Ctrl-C")
        return report(data, played, "Ctrl-C" if played.partial else None)
    except StoppedError as exc:  # a bot fault, a failed cluster: keep what finished
        why = " ".join(str(exc).split())
        if folder is not None and data is None and exc.partial is not None:
            report(exc.partial, None, why)  # the study's blocks before the fault
        elif folder is not None and data is not None:
            report(data, exc.partial, why)  # the whole study, the test's batches before it
        if folder is not None and folder.file("summary.json").exists():
            exc.folder = folder.path
        raise
    finally:
        if folder is not None and not folder.file("summary.json").exists():
            folder.discard()  # nothing finished (a bot that fails to compile, Ctrl-C)


def _eval_seed(seed: int) -> int:
    """The seed of a trump study's held-out test: fresh deals, not those learned from."""
    return (seed + 0x9E3779B97F4A7C15) % 2**63


def _trump_report(
    data: StudyData,
    play: Strategy,
    heur: list[Strategy],
    played: Played | None,
    stopped: str | None,
    asked: dict[str, int],
    folder: ReportFolder | None,
) -> TrumpStudyResult:
    """The result (and with ``folder`` the report) of a trump study's deals ``data`` and
    its held-out test ``played`` (None: not played), recording the command that gives
    exactly this: the deals and test deals played. ``stopped`` says why the work ended
    early (None: it did not); ``asked`` is what the study was asked to play."""
    from hokm_sim.analysis import trumpstudy as ts
    from hokm_sim.analysis.summary import summarize
    from hokm_sim.report import pages, plots
    from hokm_sim.report.markdown import verdict

    s = ts.summarize(data, play.name)
    s["table_heuristics"] = ts.table_rows(heur, data)
    table = ts.learn_table(data)
    evaluation = None
    if played is not None:
        d = summarize(played.counts, played.record).data
        evaluation = {
            "a": played.record["a"],
            "b": played.record["b"],
            "deals": played.record["done"],
            "seed": played.record["seed"],
            "shared_deals": ts.shared_deals(
                data.seed, len(data.five), played.record["seed"], played.record["done"]
            ),
            "points_per_pair": d["points_per_pair"],
            "pair_score": d["pair_score"],
            "elo": d["elo"],
            "verdict": verdict(d),
        }
    s["table"] = {
        "classes": len(table["classes"]),
        "file": "trump_table.json",
        "in_sample": ts.learned_in_sample(data, table),
        "eval": evaluation,
    }
    s["partial"] = stopped is not None
    s["stopped"] = stopped
    s["asked"] = asked
    command = _command(
        "trump_study",
        player=play.name,
        heuristics=[h.name for h in heur],
        hands=len(data.five),
        seed=data.seed,
        eval_hands=0 if evaluation is None else evaluation["deals"],
    )
    result = TrumpStudyResult(_with_command(s, command))
    if folder is not None:
        ts.write_table_bot(folder.path, table)
        plots.draw_all(result.data, folder.path)
        folder.save(result.to_dict(), pages.trump_study(result.data, command), command)
        result.folder = folder.path
    return result


@_checked
def plot(folder: str | Path, *, force: bool = False) -> list[Path]:
    """Draw the figures of the trump study or the tuning run in report folder ``folder``
    again, from its ``summary.json``; the files written. Figures already there are
    replaced only with ``force``, like any output file."""
    from hokm_sim.report import plots

    result = load(folder)
    if isinstance(result, TuneResult):
        draw, names = plots.tune_run, ["tune"]
    elif isinstance(result, TrumpStudyResult):
        draw, names = plots.draw_all, list(plots.FIGURES)
    else:
        raise InputError(
            f"{folder} is not the report folder of a trump study or a tuning run", "folder"
        )
    there = [p.name for p in plots.figure_files(Path(folder), names) if p.exists()]
    if there and not force:
        raise InputError(
            f"{folder} already has {', '.join(there)}; add {ref('force')} to draw them again",
            "folder",
        )
    return draw(result.data, Path(folder))


@_checked
@_bot_timeout
def dd_study(
    heuristics: Sequence[str | Strategy] = ("longest", "points", "weighted", "random"),
    *,
    hands: int = 200,
    seed: int | None = None,
    threads: int | None = None,
    out: str | Path | bool | None = None,
    force: bool = False,
    progress: Progress | None = None,
) -> DDStudyResult:
    """Trump calls judged by the double-dummy solver: with all hands open, can the
    Hakem's team force 7 tricks with the suit each heuristic calls? ``progress`` is
    told the deals solved."""
    from hokm_sim.dd import study
    from hokm_sim.report import pages
    from hokm_sim.sim.runner import check_threads

    heur = _strategies(heuristics, "heuristics")
    if not heur:
        raise InputError("give at least one heuristic", "heuristics")
    check_positive(hands, "hands")
    seed = check_seed(seed)
    folder = _folder(out, force, "dd-study", "perfect", seed)
    with _partial_kept(folder, None):  # a fault keeps nothing: no folder left empty
        counter = _counter(progress, hands, "deals")
        s = study.summarize(study.collect(heur, seed, hands, check_threads(threads), counter))
    command = _command("dd_study", heuristics=[h.name for h in heur], hands=hands, seed=seed)
    result = DDStudyResult(_with_command(s, command))
    if folder is not None:
        folder.save(result.to_dict(), pages.dd_study(result.data, command), command)
        result.folder = folder.path
    return result


# --- double dummy and the analysis of played hands ------------------------------------


@_checked
def solve(deals: str | Path | Iterable[Any], *, threads: int | None = None) -> DDResult:
    """Solve deals double dummy (every hand open, best play), one answer per deal.

    ``deals`` is a file of JSON lines (``{"hands": [4 lists of cards by seat],
    "trump": "H", "leader": SEAT}``, hands of equal length up to 13), its path or
    the open file, or an iterable of such lines, of such dicts, or of
    :class:`hokm_sim.dd.api.Deal`.
    Each answer holds ``tricks`` ([team 0, team 1], every remaining trick),
    ``reach7`` and, for 13-card deals, ``kot`` and ``hakem_kot``.
    """
    import json

    from hokm_sim.dd import api as ddapi
    from hokm_sim.sim.runner import check_threads

    nthreads = check_threads(threads)
    path = Path(deals) if isinstance(deals, str | Path) else None
    if path is not None:
        try:
            with open(path, encoding="utf-8") as f:
                parsed = ddapi.parse_lines(f)
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read {path}: {exc}", "deals") from None
    elif hasattr(deals, "read"):  # an open text file, such as standard input
        parsed = ddapi.parse_lines(deals)
    else:
        items = _listed(deals, "deals")
        if all(isinstance(d, ddapi.Deal) for d in items):
            parsed = items
        else:
            lines = [d if isinstance(d, str) else json.dumps(d) for d in items]
            parsed = ddapi.parse_lines(lines)
    answers = ddapi.analyse(parsed, threads=nthreads)
    command = _command("solve", deals=path) if path is not None else None
    return DDResult(_with_command({"deals": len(parsed), "answers": answers}, command))


@_checked
@_bot_timeout
def analyse(
    folder: str | Path | None = None,
    *,
    trace: str | Path | None = None,
    seed: int | None = None,
    hands: int | None = None,
    a: str | Strategy = "expert",
    b: str | Strategy = "longest",
    threads: int | None = None,
    out: str | Path | None = None,
    force: bool = False,
    progress: Progress | None = None,
):
    """Every card of played hands graded against double-dummy play (docs/analysis.md).

    The hands are a run's saved hands (``folder``, from ``run --save-hands``;
    ``hands`` keeps the first so many deals), a trace file (``trace``), or
    deals ``0 .. hands-1`` of ``seed`` played by ``a`` and ``b`` in both
    copies. With ``out`` the HTML pages (an index of the worst swings and
    blunders, a page per hand they name) and ``analysis.json`` are written
    to that folder. ``progress`` is told the hands graded. Returns a
    :class:`hokm_sim.dd.analyse.Analysis`.
    """
    from hokm_sim.dd import analyse as an
    from hokm_sim.report import analysis as pages_
    from hokm_sim.sim.runner import Runner, check_threads

    given = [x for x in (folder, trace, seed) if x is not None]
    if len(given) != 1:
        raise InputError(
            f"give one source of hands: {ref('folder')} (a run's report folder with saved "
            f"hands), {ref('trace')} (a trace file) or {ref('seed')} with {ref('hands')}"
        )
    if hands is not None:
        check_positive(hands, "hands")
    if trace is not None and hands is not None:
        raise InputError(
            f"picks deals of {ref('folder')} or {ref('seed')}; a trace is read whole", "hands"
        )
    if seed is not None and hands is None:
        raise InputError("give it too (deals 0..N-1 are analysed)", "hands")
    nthreads = check_threads(threads)
    if isinstance(out, bool):
        raise InputError(f"expected the folder of the pages (a path), got {out!r}", "out")
    report = ReportFolder.create(Path(out), force) if out is not None else None
    if folder is not None:
        h = an.hands_from_folder(Path(folder), hands)
        command = _command("analyse", folder=folder, hands=hands)
        title = f"{folder}: double-dummy analysis"
    elif trace is not None:
        h = an.read_trace(Path(trace))
        command = _command("analyse", trace=trace)
        title = f"{trace}: double-dummy analysis"
    else:
        sa, sb = strategy(a, "a"), strategy(b, "b")
        seed = check_seed(seed)
        h = an.hands_from_seed(Runner(sa, sb), seed, hands)
        command = _command("analyse", seed=seed, hands=hands, a=sa.name, b=sb.name)
        title = f"{sa.name} vs {sb.name}, seed {seed}: double-dummy analysis"
    result = an.analyse(h, nthreads, counter=_counter(progress, len(h), "hands"))
    result.command = command
    if report is not None:
        pages_.write(report.path, result, title)
        result.folder = report.path
    return result


@_checked
def analyse_hand(record: dict, teams: Sequence[str] | None = None) -> dict:
    """One hand of ``hokm-sim trace`` (a record) graded card by card: the record
    :func:`hokm_sim.dd.analyse.hand_record` gives, with ``teams`` (names by team)."""
    from hokm_sim.dd import analyse as an

    try:
        h = an.hands_from_records([(1, record)], where="hand")
    except InputError as exc:
        raise type(exc)(exc.message, "record") from None
    h.meta[0].pop("line", None)
    if teams is not None:
        h.meta[0]["teams"] = list(teams)
    return an.hand_record(an.analyse(h), 0)


@_checked
@_bot_timeout
def analyse_run(folder: str | Path, deals: int, *, threads: int | None = None):
    """Grade a seeded sample of ``deals`` deals (both copies) of the run in report folder
    ``folder`` double dummy, and write ``analysis.json``, ``analysis.md`` and
    ``analysis/`` (HTML) into it: what ``run --analyse`` does. Returns the
    :class:`hokm_sim.dd.analyse.Analysis`."""
    check_positive(deals, "deals")
    path = Path(folder)
    cfg = read_record(path).get("config") or {}
    if cfg.get("mode") != "hands":
        raise InputError(f"grades deals of a {ref('hands')} run, not matches", "folder")
    command = _command(
        "run",
        a=cfg["a"],
        b=cfg["b"],
        hands=cfg["size"],
        seed=cfg["seed"],
        duplicate=cfg.get("duplicate", True),
        save_hands=(path / "hands.parquet").exists(),
        analyse=deals,
    )
    return _analyse_sample(cfg, deals, threads, ReportFolder(path), command)


def _analyse_sample(
    cfg: dict,
    deals: int,
    threads: int | None,
    folder: ReportFolder | None,
    command: str,
    runner: Runner | None = None,
):
    """The analysis of a seeded sample of the deals of a run of hands (its config
    record), written into its folder if there is one; ``command`` is the run's
    command with its ``--analyse``, ``runner`` the run's Runner (None: built from the
    record)."""
    import numpy as np

    from hokm_sim.dd import analyse as an
    from hokm_sim.report import analysis as pages_
    from hokm_sim.sim.runner import Runner, check_threads

    total, run_seed = int(cfg.get("done") or cfg["size"]), int(cfg["seed"])
    rng = np.random.default_rng([run_seed % 2**63, 17])
    sample = np.sort(rng.choice(total, size=min(deals, total), replace=False))
    runner = runner or Runner(strategy(cfg["a"], "a"), strategy(cfg["b"], "b"))
    duplicate = cfg.get("duplicate", True)
    h = an.play_deals(runner, run_seed, sample, (0, 1) if duplicate else (0,))
    result = an.analyse(h, check_threads(threads))
    result.sample = {"deals": int(len(sample)), "of": total}
    result.command = command
    if folder is not None:
        title = f"{cfg['a']} vs {cfg['b']}, seed {run_seed}: double-dummy analysis"
        pages_.write(folder.path, result, title)
        result.folder = folder.path
    return result


# --- experiments -----------------------------------------------------------------


@_checked
@_bot_timeout
def experiment(
    file: str | Path,
    *,
    threads: int | None = None,
    out: str | Path | bool | None = None,
    force: bool = False,
    progress: Progress | None = None,
) -> ExperimentResult:
    """Run an experiment file (TOML: a list of runs, or a tournament)."""
    from hokm_sim.analysis.experiment import Experiment, run_experiment
    from hokm_sim.report import pages

    path = Path(file)
    exp = Experiment.load(path, threads)
    folder = _folder(out, force, "experiment", path.stem, exp.seed)
    counter = _counter(progress, exp.deals, "deals", 2)
    command = _command("experiment", file=path)

    def report(played: tuple, stop: dict[str, str] | None = None) -> ExperimentResult:
        runs, tour = played
        partial = bool(tour and tour.get("partial")) or len(runs or ()) < len(exp.runs)
        partial = partial or any(s.partial for s in runs or ())
        if stop and runs and runs[-1].partial:
            runs[-1].data.update(stop)  # the run it stopped
        if stop and tour:
            tour = tour | stop
        data = {
            "experiment": exp.spec | {"name": exp.name},
            "runs": [s.to_dict() for s in runs] if runs else None,
            "tournament": tour,
            "partial": partial,
            **(stop or {}),
        }
        result = ExperimentResult(_with_command(data, command))
        if folder is not None:
            page = pages.experiment(exp, runs, tour, command, result.data)
            folder.save(result.to_dict(), page, command)
            result.folder = folder.path
        return result

    with _partial_kept(folder, report):
        return report(run_experiment(exp, threads, counter))


# --- single hands, speed, the strategies -------------------------------------------


@_checked
@_bot_timeout
def trace(
    a: str | Strategy = "longest",
    b: str | Strategy = "longest",
    *,
    seed: int,
    hands: int | None = None,
    matches: int | None = None,
    target: int | None = None,
    first_hakem: str | None = None,
) -> TraceResult:
    """Every card of seeded hands: deals ``0 .. hands-1``, or every hand of matches
    ``0 .. matches-1`` to ``target``, their first Hakem by house rule
    ``first_hakem``; ``a`` plays team 0 (seats 0 and 2).

    The hands are played as the result's records are read (``records()``,
    ``lines()``), a block at a time, so a trace of any length fits in memory;
    protocol bots are held to ``bot_timeout`` then too.
    """
    from hokm_sim.bots.host import bot_timeout, given_timeout
    from hokm_sim.house import first_hakem_code
    from hokm_sim.sim.runner import Runner
    from hokm_sim.sim.trace import trace_records

    seed = check_seed(seed)
    mode, size, target, rule = check_size(hands, matches, target, first_hakem, default_hands=None)
    sa, sb = strategy(a, "a"), strategy(b, "b")
    runner = Runner(sa, sb)
    counts = (
        {"hands": size, "matches": None} if mode == "hands" else {"hands": None, "matches": size}
    )
    tgt = target if mode == "matches" else None
    command = _command(
        "trace", seed=seed, a=sa.name, b=sb.name, target=tgt, first_hakem=first_hakem, **counts
    )
    data = {"a": sa.name, "b": sb.name, "seed": seed, **counts, "target": tgt}
    if mode == "matches":
        data["first_hakem"] = rule

    seconds = given_timeout()  # the limit of this call, for the hands played after it

    def play() -> Iterator[dict]:
        records = trace_records(
            runner, seed, **counts, target=target, first_hakem=first_hakem_code(rule)
        )
        while True:
            with bot_timeout(seconds):
                rec = next(records, None)
            if rec is None:
                return
            yield rec

    return TraceResult(_with_command(data, command), play)


@_checked
@_bot_timeout
def show(
    a: str | Strategy | None = None,
    b: str | Strategy | None = None,
    *,
    seed: int | None = None,
    hand: int | None = None,
    match: int | None = None,
    copy: int | None = None,
    target: int | None = None,
    first_hakem: str | None = None,
    trace: str | Path | None = None,
    line: int | None = None,
    html: str | Path | None = None,
    force: bool = False,
) -> HandResult:
    """One hand card by card: hand ``hand`` of ``seed`` (a deal, or the hand's number
    within ``match``, whose first Hakem is found by house rule ``first_hakem``)
    played by ``a`` and ``b`` (both ``"longest"`` unless given; ``copy`` 1: the
    swapped copy of the duplicate pair), or line ``line`` (default 1) of a
    ``trace`` file, which takes none of the seeded hand's parameters.

    A hand a bot stopped is kept up to the faulty card, and the result's
    ``fault`` holds the :class:`~hokm_sim.sim.runner.StrategyFault`. With
    ``html`` a page that replays the hand, every card graded double dummy, is
    written to that file (an existing file only with ``force``; see
    :class:`~hokm_sim.writing.OutputFile`).
    """
    from hokm_sim.bots.faults import replay_command
    from hokm_sim.bots.host import given_timeout
    from hokm_sim.house import first_hakem_code
    from hokm_sim.sim import trace as tr
    from hokm_sim.sim.runner import Runner
    from hokm_sim.writing import OutputFile

    page = None if html is None else OutputFile(html, force, "html")
    if trace is not None:
        seeded = {"seed": seed, "hand": hand, "match": match, "a": a, "b": b}
        seeded |= {"target": target, "copy": copy, "first_hakem": first_hakem}
        mixed = [ref(name) for name, value in seeded.items() if value is not None]
        if mixed:
            raise InputError(f"{ref('trace')} shows a hand of its file: drop {', '.join(mixed)}")
        line = check_positive(1 if line is None else line, "line")
        rec = tr.read_trace_line(Path(trace), line)
        result = HandResult(
            _with_command(
                {"record": rec, "teams": ["A", "B"]}, _command("show", trace=trace, line=line)
            )
        )
        names = None
    else:
        if line is not None:
            raise InputError(
                f"{ref('line')} picks a line of {ref('trace')} FILE: give {ref('trace')}"
            )
        if seed is None or hand is None:
            raise InputError(f"give {ref('seed')} and {ref('hand')} (or {ref('trace')})")
        seed = check_seed(seed)
        hand = check_positive(hand, "hand", zero=True)
        if match is not None:
            match = check_positive(match, "match", zero=True)
        copy = 0 if copy is None else copy
        if copy not in (0, 1):
            raise InputError(f"expected 0 or 1, got {copy!r}", "copy")
        if match is None:
            check_match_only(target, first_hakem, "match")
        tgt = 7 if target is None else check_target(target)
        rule = first_hakem_code(check_first_hakem(first_hakem))
        sa = strategy("longest" if a is None else a, "a")
        sb = strategy("longest" if b is None else b, "b")
        names = (sa.name, sb.name) if copy == 0 else (sb.name, sa.name)  # by team
        runner = Runner(sa, sb)
        rec, fault = tr.show_record(runner, seed, hand, copy, match, tgt, rule)
        command = replay_command(seed, sa.name, sb.name, copy, match, hand, tgt, rule,
                                 given_timeout())  # fmt: skip
        result = HandResult(_with_command({"record": rec, "teams": list(names)}, command), fault)
    if page is not None and result.fault is None:
        from hokm_sim.report.viewer import hand_page

        page.write_text(hand_page(analyse_hand(result.record, names)))
    return result


@_checked
@_bot_timeout
def bench(
    a: str | Strategy = "longest",
    b: str | Strategy = "longest",
    *,
    hands: int = 3_000_000,
    threads: int | None = None,
    repeat: int = 3,
    engine: str = "generic",
) -> BenchResult:
    """Whole hands per second of A against B after compilation (cached code is reused):
    the fastest of ``repeat`` runs of ``hands`` independent hands, with the median.
    ``engine`` is ``"generic"`` or ``"specialised"`` (compiled first when it is not
    cached); never the checking mode's (``HOKM_SIM_BOUNDSCHECK=1`` times that one)."""
    from hokm_sim.sim.runner import Runner, check_threads, measure

    check_positive(hands, "hands")
    check_positive(repeat, "repeat")
    nthreads = check_threads(threads)
    if engine not in ("generic", "specialised"):
        raise InputError(f"bad engine {engine!r}: expected generic or specialised", "engine")
    runner = Runner(strategy(a, "a"), strategy(b, "b"), checked=False, engine=engine)
    data = {**measure(runner, hands, nthreads, repeat=repeat), "engine": engine}
    command = _command(
        "bench",
        a=runner.a.name,
        b=runner.b.name,
        hands=hands,
        threads=nthreads,
        repeat=repeat,
        engine=engine,
    )
    return BenchResult(_with_command(data, command))


@_checked
def list_strategies() -> StrategiesResult:
    """Every built-in strategy: its name, its one-line description, its parameters (read
    from the bot files, none of which is imported)."""
    from hokm_sim.bots.registry import builtin_listing

    rows = [
        {"name": name, "description": description, "params": params}
        for name, (description, params) in builtin_listing().items()
    ]
    return StrategiesResult(_with_command({"strategies": rows}, _command("list_strategies")))


# --- reading back ---------------------------------------------------------------


@_checked
def load(folder: str | Path) -> Shown:
    """The result object of any report folder (its ``summary.json``)."""
    data = read_record(Path(folder))
    try:
        result = from_dict(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"{folder}/summary.json is not a hokm-sim summary: {exc}") from None
    result.folder = Path(folder)
    return result


# --- the results store: every result kept ---------------------------------------


@_checked
def results(
    *,
    bot: str | None = None,
    command: str | None = None,
    since: str | None = None,
    until: str | None = None,
    commit: str | None = None,
    digest: str | None = None,
    limit: int | None = None,
    store: str | Path | None = None,
):
    """The stored results (docs/results.md) as a pandas DataFrame, newest first: one row
    each, with when, what command, its bots (``role=name@commit``), headline, seed, size,
    verdict, report folder, and every headline figure with its interval (``elo``,
    ``elo_low``, ``elo_high`` ...). Filters: a bot's name, the command (``run``,
    ``regress`` ...), dates ``since``/``until`` (``YYYY-MM-DD``, UTC), the beginning of a
    bot's commit or digest; ``limit`` the newest so many (None: all). ``store`` is the
    store's file or its server's URL (``postgresql://...``; default: ``$HOKM_SIM_STORE``,
    else the user's data folder)."""
    import pandas as pd

    from hokm_sim.analysis.results import estimate_columns
    from hokm_sim.store.query import bot_label, select

    found = select(store, bot=bot, command=command, since=since, until=until, commit=commit,
                   digest=digest, limit=limit)  # fmt: skip
    table = []
    for r in found:
        row = {k: r[k] for k in ("id", "created", "kind", "headline", "command", "version",
                                 "seed", "size", "partial", "verdict", "folder")}  # fmt: skip
        row["bots"] = ", ".join(bot_label(b) for b in r["bots"])
        for key, e in r["figures"].items():
            estimate_columns(row, key, e)
        table.append(row)
    if not table:
        return pd.DataFrame()
    frame = pd.DataFrame(table).set_index("id")
    frame["created"] = pd.to_datetime(frame["created"], utc=True)
    return frame


class Imported(NamedTuple):
    """What :func:`import_results` did: report folders ``added`` to the store, and those
    ``kept``, already stored."""

    added: int
    kept: int


@_checked
def import_results(
    folders: str | Path | Sequence[str | Path], *, store: str | Path | None = None
) -> Imported:
    """Add existing report folders to the store (each folder, or each report folder in
    it: ``results/``), dated by their ``summary.json``; how many were added and how many
    kept (:class:`Imported`). Their bots get names and paths, no digest or commit: the
    files may have changed since. A folder already stored (recorded when it was
    written, with its bots' digests and commits, or imported before) keeps its row."""
    from datetime import UTC, datetime

    from hokm_sim.store import Store, row

    found: list[Path] = []
    for f in _listed(folders, "folders"):
        f = Path(f)
        if not f.is_dir():
            raise InputError(f"{f} is not a folder", "folders")
        inside = [f] if (f / "summary.json").is_file() else sorted(
            p.parent for p in f.glob("*/summary.json")
        )  # fmt: skip
        if not inside:
            raise InputError(f"{f} holds no report folder (no summary.json in it)", "folders")
        found += inside
    rows = []
    for f in found:
        record = read_record(f)
        try:
            headline = from_dict(record).headline
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{f}/summary.json is not a hokm-sim summary: {exc}") from None
        r = row(record, f, headline, live=False)
        stamp = datetime.fromtimestamp((f / "summary.json").stat().st_mtime, UTC)
        r.created = stamp.strftime("%Y-%m-%dT%H:%M:%SZ")
        rows.append(r)
    with Store(store) as s:
        added = sum(s.add_new(r) is not None for r in rows)
    return Imported(added, len(rows) - added)


@_checked
def history(
    bot: str,
    *,
    plot: str | Path | None = None,
    force: bool = False,
    store: str | Path | None = None,
) -> HistoryResult:
    """``bot``'s strength across its versions (its commits; ``bot`` is its name as
    :func:`list_strategies` gives it, or its file): ratings with intervals from
    one Bradley-Terry fit over every stored duplicate-pair comparison involving its
    versions, relative to the oldest, and the regress verdicts of each
    (docs/results.md). ``plot``: also draw it into this file (PNG, or SVG by suffix),
    replacing an existing one only with ``force``."""
    from hokm_sim.analysis.history import history as fit
    from hokm_sim.writing import OutputFile

    figure = None if plot is None else OutputFile(plot, force, "plot")
    result = HistoryResult(fit(bot, store))
    if figure is not None:
        from hokm_sim.report.plots import history_image

        svg = figure.path.suffix.lower() == ".svg"
        figure.write_bytes(history_image(result.data, "svg" if svg else "png"))
    return result


# --- serve and check-bot: a strategy as a protocol bot, a protocol bot checked -----

serve = _checked(_serve)
"""A strategy answering hokm-bot/1 (:func:`hokm_sim.serving.serve`, which ``hokm-sim serve``
calls without loading this module), its arguments checked as every API function's are."""


@_checked
def check_bot(
    spec: str,
    *,
    bot_timeout: float = 10.0,
    seed: int = 1,
    batch: int = 1000,
    on_check: Callable[[Any], None] | None = None,
):
    """Take a protocol bot through hokm-bot/1 (:mod:`hokm_sim.protocol.check`): ``spec``
    is ``exec:COMMAND``, or a hokm-sim strategy checked as ``hokm-sim serve`` serves it.
    Returns a :class:`~hokm_sim.protocol.check.CheckResult` (``exit_code`` 0 or 4)."""
    import sys

    from hokm_sim.bots import execspec
    from hokm_sim.bots.host import timeout_limits
    from hokm_sim.protocol.check import check_bot as check

    if not isinstance(spec, str):
        raise InputError(
            f"expected a strategy spec (a name, a bot file or exec:COMMAND), got {spec!r}", "spec"
        )
    if execspec.is_exec(spec):
        try:
            argv = list(execspec.split_command(spec))
        except execspec.CommandError as exc:
            raise InputError(str(exc), "spec") from None
    else:
        strategy(spec, "spec")  # a bad name fails here, in one line
        argv = [sys.executable, "-m", "hokm_sim", "serve", spec]
    timeout_limits(bot_timeout)  # refuses a timeout that is not seconds > 0
    seed = check_seed(seed)
    batch = check_positive(batch, "batch")
    return check(argv, timeout=bot_timeout, seed=seed, batch=batch, on_check=on_check)
