"""The public Python API: everything a command does, a notebook can do.

Each function validates its input (raising :class:`~hokm_sim.errors.InputError`
with one line), plays, returns a result object (``to_dict()``,
``to_frame()``, a readable ``repr``) and, given ``out``, writes a report
folder that :func:`load` reads back. The CLI is a thin shell over these.

>>> import hokm_sim
>>> s = hokm_sim.run("expert", "longest", hands=100_000, seed=1)   # doctest: +SKIP
>>> s.to_frame()                                                  # doctest: +SKIP
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hokm_sim.analysis.results import (
    CalibrationResult,
    DDStudyResult,
    ExperimentResult,
    RegressResult,
    Result,
    TournamentResult,
    TrumpStudyResult,
    from_dict,
)
from hokm_sim.analysis.summary import Summary, summarize
from hokm_sim.bots.registry import Strategy, from_object, resolve
from hokm_sim.errors import InputError, StoppedError
from hokm_sim.house import DEFAULT_FIRST_HAKEM
from hokm_sim.report import pages
from hokm_sim.report.folder import ReportFolder, read_record
from hokm_sim.report.markdown import markdown as run_markdown
from hokm_sim.sim.checkpoint import Checkpoint
from hokm_sim.sim.run import RunConfig, checkpoint_record, execute, resume_config
from hokm_sim.sim.runner import Runner
from hokm_sim.version import __version__

Progress = Callable[[int], None]

__all__ = [
    "run",
    "resume",
    "resume_plan",
    "tournament",
    "regress",
    "calibrate",
    "sprt",
    "trump_study",
    "dd_study",
    "analyse",
    "analyse_run",
    "analyse_hand",
    "experiment",
    "experiment_size",
    "experiment_seed",
    "load",
    "fresh_seed",
    "strategy",
]


def fresh_seed() -> int:
    """A new random run seed (recorded with every result)."""
    return secrets.randbits(63)


def strategy(spec: str | Strategy | object, role: str = "") -> Strategy:
    """A strategy from a spec (name, bot file, ``trump=X,play=Y``, ``name(k=v)``),
    or from a plain-Python bot object with ``choose_trump(obs)`` and ``play_card(obs)``.

    ``role`` (``"A"``, ``"B"``, ``"--baseline"`` ...) is named in the error.
    """
    if isinstance(spec, Strategy):
        return spec
    try:
        if not isinstance(spec, str):
            return from_object(spec)
        return resolve(spec)
    except InputError as exc:
        if role:
            raise type(exc)(f"{role}: {exc}") from None
        raise


def shell_command(*args: Any) -> str:
    """The command line that reproduces a result, quoted for a POSIX shell."""

    def quote(s: str) -> str:
        if re.fullmatch(r"[A-Za-z0-9_./=:,+-]+", s):
            return s
        return "'" + s.replace("'", "'\\''") + "'"

    return " ".join(quote(str(a)) for a in args)


# --- run: A against B ---------------------------------------------------------


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
    out: str | Path | None = None,
    force: bool = False,
    save_hands: bool = False,
    first_hakem: str | None = None,
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
    or ``"highest-two"`` (docs/rules.md). The first Ctrl-C stops after the batch in flight and
    returns a summary marked partial. A bot that breaks the rules raises
    :class:`~hokm_sim.sim.runner.StrategyFault`, after the partial report.
    """
    sa, sb = strategy(a, "A"), strategy(b, "B")
    if target is not None and matches is None:
        raise InputError("--target sets the score a match is played to: give it with --matches")
    if first_hakem is not None and matches is None:
        raise InputError("--first-hakem chooses a match's first Hakem: give it with --matches")
    if save_hands and matches is not None:
        raise InputError("--save-hands works with --hands runs (rows are per deal)")
    if save_hands and scheduler is not None:
        raise InputError("--save-hands runs on this machine only; drop --scheduler")
    cfg = RunConfig(
        a=sa.name,
        b=sb.name,
        hands=hands,
        matches=matches,
        seed=seed,
        target=7 if target is None else target,
        threads=threads,
        duplicate=duplicate,
        scheduler=scheduler,
        task=task,
        first_hakem=first_hakem or DEFAULT_FIRST_HAKEM,
    )
    if out is None:
        played = execute(cfg, sa, sb, progress=progress, on_batch=on_batch)
        return summarize(played.counts, played.record)
    folder = ReportFolder.create(Path(out), force)
    args = ["hokm-sim", "run", cfg.a, cfg.b, f"--{cfg.mode}", cfg.total, "--seed", cfg.seed]
    if cfg.mode == "matches":
        args += ["--target", cfg.target]
        if cfg.first_hakem != DEFAULT_FIRST_HAKEM:
            args += ["--first-hakem", cfg.first_hakem]
    if not duplicate:
        args.append("--no-duplicate")
    if save_hands:
        args.append("--save-hands")
    command = shell_command(*args)
    engine = Runner(sa, sb).engine.__name__
    record = checkpoint_record(cfg, engine, command=command, save_hands=save_hands)
    checkpoint = Checkpoint.create(folder.path, record, cfg.total)
    return _play(cfg, sa, sb, folder, checkpoint, command, save_hands, progress, on_batch)


def resume(
    folder: str | Path,
    *,
    threads: int | None = None,
    scheduler: str | None = None,
    task: int | None = None,
    progress: Progress | None = None,
) -> Summary:
    """Continue the stopped run of report folder ``folder`` from its checkpoint.

    The result is exactly that of the uninterrupted run. Refuses a folder
    whose engine or bot files changed since the run started.
    """
    path = Path(folder)
    checkpoint = Checkpoint.load(path)
    rec = checkpoint.config
    for key in ("run", "engine", "command"):
        if key not in rec:
            raise InputError(
                f"--resume: {path}/checkpoint.json lacks {key!r}: not the checkpoint of a run"
            )
    if rec.get("save_hands"):
        raise InputError(
            f"--resume: {path} was a --save-hands run, whose rows cannot be resumed; run it again"
        )
    cfg = resume_config(rec, threads=threads, scheduler=scheduler, task=task)
    sa, sb = strategy(cfg.a, "A"), strategy(cfg.b, "B")
    engine = Runner(sa, sb).engine.__name__
    if engine != rec["engine"]:
        raise InputError(
            f"--resume: the engine or a bot file changed since the run in {path} started "
            f"({rec['engine']}, now {engine}); resuming would mix two versions: start a new run"
        )
    folder_ = ReportFolder(path)
    return _play(cfg, sa, sb, folder_, checkpoint, rec["command"], False, progress, None)


def resume_plan(folder: str | Path) -> tuple[RunConfig, int]:
    """What resuming ``folder`` would play: its configuration and how much is done."""
    checkpoint = Checkpoint.load(Path(folder))
    return resume_config(checkpoint.config), checkpoint.done_count


def _play(
    cfg: RunConfig,
    sa: Strategy,
    sb: Strategy,
    folder: ReportFolder,
    checkpoint: Checkpoint,
    command: str,
    save_hands: bool,
    progress: Progress | None,
    on_batch: Callable[[int, int], None] | None,
) -> Summary:
    from hokm_sim.sim.handrows import HandWriter

    writer = None
    if save_hands:
        writer = HandWriter(folder.file("hands.parquet"), Runner(sa, sb), cfg.seed, cfg.duplicate)

    def batch_done(start: int, count: int) -> None:
        if writer is not None:
            writer(start, count)
        if on_batch is not None:
            on_batch(start, count)

    try:
        played = execute(cfg, sa, sb, progress=progress, on_batch=batch_done, checkpoint=checkpoint)
    except StoppedError as exc:
        if exc.partial is not None:
            partial = summarize(exc.partial.counts, exc.partial.record)
            folder.save(partial.to_dict(), run_markdown(partial, command), command)
        exc.folder = folder.path
        from hokm_sim.sim.backends import ClusterError

        if isinstance(exc, ClusterError):  # the cluster failed, not a bot: worth resuming
            exc.resume = shell_command("hokm-sim", "run", "--resume", folder.path)
        raise
    finally:
        if writer is not None:
            writer.close()
    summary = summarize(played.counts, played.record)
    summary.folder = folder.path
    folder.save(summary.to_dict(), run_markdown(summary, command), command)
    return summary


# --- tournament -------------------------------------------------------------------


def tournament(
    strategies: Sequence[str | Strategy],
    *,
    hands: int = 100_000,
    seed: int | None = None,
    threads: int | None = None,
    scheduler: str | None = None,
    out: str | Path | None = None,
    force: bool = False,
    progress: Progress | None = None,
) -> TournamentResult:
    """Every pair of strategies in duplicate on the same ``hands`` deals, ranked
    by Bradley-Terry ratings with bootstrap intervals."""
    from hokm_sim.analysis import tournament as tour
    from hokm_sim.sim.runner import check_threads

    if len(strategies) < 2:
        raise InputError("a tournament needs at least two strategies")
    strats = [strategy(s, f"strategy {i + 1}") for i, s in enumerate(strategies)]
    _positive(hands, "--hands")
    seed = _seed(seed)
    folder = ReportFolder.create(Path(out), force) if out is not None else None
    t = tour.play(strats, seed, hands, check_threads(threads), progress, scheduler)
    data = t.summary()
    command = shell_command(
        "hokm-sim", "tournament", *(s.name for s in strats), "--hands", hands, "--seed", seed
    )
    result = TournamentResult(data | {"command": command, "version": __version__})
    if folder is not None:
        folder.save(result.to_dict(), pages.tournament(result.data, command), command)
    return result


# --- regression checks ---------------------------------------------------------------


def regress(
    candidate: str | Strategy,
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
    target: int = 7,
    threads: int | None = None,
    scheduler: str | None = None,
    out: str | Path | None = None,
    force: bool = False,
    progress: Callable[[int, float, np.ndarray, np.ndarray], None] | None = None,
) -> RegressResult:
    """Is ``candidate`` worse than ``baseline``? A GSPRT on duplicate pairs in deal order.

    ``baseline`` is a strategy spec or ``git:REF`` (the candidate file at that
    commit). The verdict's exit code (``result.exit_code``): 0 no regression,
    1 regression, 3 inconclusive (the cap was reached).
    """
    from hokm_sim.analysis.regress import (
        SprtConfig,
        estimates,
        resolve_baseline,
        sequential,
        stop_adjusted,
    )

    seed = _seed(seed)
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
    cand = strategy(candidate, "CANDIDATE")
    cand_spec = candidate if isinstance(candidate, str) else cand.name
    if isinstance(baseline, Strategy):
        base, base_spec = baseline, baseline.name
    else:
        base_spec = baseline
        try:
            base = resolve_baseline(baseline, cand_spec)
        except InputError as exc:
            raise InputError(f"--baseline: {exc}") from None
    folder = ReportFolder.create(Path(out), force) if out is not None else None
    res = sequential(Runner(cand, base), cfg, progress)
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
        "strategies": {"candidate": cand.to_dict(), "baseline": base.to_dict()},
        "version": __version__,
    }
    command = shell_command(
        "hokm-sim",
        "regress",
        cand_spec,
        "--baseline",
        base_spec,
        "--metric",
        metric,
        "--seed",
        seed,
        "--elo0",
        elo0,
        "--elo1",
        elo1,
    )
    result = RegressResult(res.to_dict() | {"command": command})
    if folder is not None:
        folder.save(result.to_dict(), pages.regress(result.data, command), command)
    return result


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
    target: int = 7,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> CalibrationResult:
    """``name`` against itself on ``runs`` consecutive seeds: how often does the
    check call a false regression (the bounds promise about ``beta``)?"""
    from hokm_sim.analysis.intervals import wilson
    from hokm_sim.analysis.regress import SprtConfig, sequential

    first = _seed(seed)
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
    s = strategy(name, "--calibrate")
    runner = Runner(s, s)
    verdicts = {"H0": 0, "H1": 0, "inconclusive": 0}
    pairs = []
    for i in range(runs):
        cfg.seed = first + i
        res = sequential(runner, cfg)
        verdicts[res.verdict] += 1
        pairs.append(res.pairs)
        if progress:
            progress(i + 1, verdicts["H0"])
    return CalibrationResult(
        {
            "strategy": s.name,
            "runs": runs,
            "false_regressions": verdicts["H0"],
            "no_regression": verdicts["H1"],
            "inconclusive": verdicts["inconclusive"],
            "false_alarm_rate": wilson(verdicts["H0"], runs).to_dict(),
            "promised": beta,
            "mean_pairs": float(np.mean(pairs)),
            "first_seed": first,
            "version": __version__,
        }
    )


def sprt(
    counts: Sequence[int],
    *,
    metric: str = "wins",
    elo0: float = -3.0,
    elo1: float = 0.0,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> dict[str, Any]:
    """The offline SPRT: LLR and verdict of pair counts gathered elsewhere.

    ``counts``: LL, split, WW for ``metric="wins"``; 13 counts of D = -6..6
    for ``metric="points"``.
    """
    from hokm_sim.analysis.regress import EXIT_CODES, VERDICTS
    from hokm_sim.analysis.scores import pair_score
    from hokm_sim.analysis.sprt import gsprt_llr, llr_approx, sprt_bounds, sprt_verdict

    if metric not in ("wins", "points"):
        raise InputError(f"bad metric {metric!r}: expected 'wins' or 'points'")
    want = 3 if metric == "wins" else 13
    c = np.asarray(counts, dtype=np.int64)
    if c.shape != (want,) or (c < 0).any():
        raise InputError(f"expected {want} non-negative counts for {metric}, got {list(counts)}")
    if not elo0 < elo1:
        raise InputError(f"need --elo0 < --elo1, got {elo0} and {elo1}")
    if not (alpha > 0 and beta > 0 and alpha + beta < 1):
        raise InputError(f"need 0 < alpha, beta and alpha + beta < 1, got {alpha}, {beta}")
    values = np.array([0.0, 0.5, 1.0]) if metric == "wins" else np.arange(13) / 12.0
    lo, hi = sprt_bounds(alpha, beta)
    try:
        llr = float(gsprt_llr(c, values, elo0, elo1))
    except ValueError as exc:  # bounds the pair distribution cannot reach
        raise InputError(f"--elo0/--elo1: {exc}") from None
    v = sprt_verdict(llr, lo, hi)
    hyp = v if v in ("H0", "H1") else "inconclusive"
    return {
        "verdict": VERDICTS[hyp] if v != "continue" else "undecided: keep playing",
        "hypothesis_accepted": v if v != "continue" else None,
        "exit_code": EXIT_CODES[hyp],
        "llr": llr,
        "llr_approx": float(llr_approx(c, values, elo0, elo1)),
        "bounds": [lo, hi],
        "pairs": int(c.sum()),
        "elo": pair_score(c, values).elo.to_dict(),
    }


# --- studies ---------------------------------------------------------------------


def trump_study(
    player: str | Strategy = "expert",
    heuristics: Sequence[str | Strategy] = ("longest", "points", "weighted", "random", "table"),
    *,
    hands: int = 200_000,
    seed: int | None = None,
    eval_hands: int = 100_000,
    threads: int | None = None,
    scheduler: str | None = None,
    out: str | Path | None = None,
    force: bool = False,
    progress: Progress | None = None,
) -> TrumpStudyResult:
    """Which suit should the Hakem call? Every deal played with each trump, then judged.

    Per heuristic: best-call rate, regret, hand win, Kot and points as Hakem;
    breakdowns by the five-card shape; a trump table learned from the deals,
    tested on ``eval_hands`` fresh deals against the longest-suit rule. With
    ``out`` the report folder gets the figures and the learned table bot.
    """
    from hokm_sim.analysis import trumpstudy as ts
    from hokm_sim.report import plots
    from hokm_sim.report.markdown import verdict

    play = strategy(player, "--player")
    heur = [strategy(h, "--heuristics") for h in heuristics]
    if not heur:
        raise InputError("--heuristics: give at least one heuristic")
    _positive(hands, "--hands")
    _positive(eval_hands, "--eval-hands")
    seed = _seed(seed)
    folder = ReportFolder.create(Path(out), force) if out is not None else None
    data = ts.collect(play, heur, seed, hands, threads, progress, scheduler)
    s = ts.summarize(data, play.name)
    table = ts.learn_table(data)
    learned = ts.table_strategy(table, play, folder.path if folder else None)
    base = resolve(f"trump=longest,play={play.name}") if isinstance(player, str) else None
    base = base or Strategy(
        name="trump=longest,play=" + play.name,
        trump=resolve("longest").trump,
        play=play.play,
        play_params=play.play_params,
    )
    eval_seed = (seed + 0x9E3779B97F4A7C15) % 2**63  # fresh deals, not those learned from
    cfg = RunConfig(
        a=learned.name,
        b=base.name,
        hands=eval_hands,
        seed=eval_seed,
        threads=threads,
        scheduler=scheduler,
    )
    played = execute(cfg, learned, base)
    d = summarize(played.counts, played.record).data
    s["table"] = {
        "classes": len(table["classes"]),
        "file": "trump_table.json",
        "eval": {
            "a": learned.name,
            "b": base.name,
            "deals": eval_hands,
            "seed": eval_seed,
            "pair_score": d["pair_score"],
            "elo": d["elo"],
            "verdict": verdict(d),
        },
    }
    command = shell_command(
        "hokm-sim",
        "trump-study",
        "--player",
        play.name,
        "--heuristics",
        ",".join(h.name for h in heur),
        "--hands",
        hands,
        "--seed",
        seed,
        "--eval-hands",
        eval_hands,
    )
    result = TrumpStudyResult(s | {"command": command, "version": __version__})
    if folder is not None:
        plots.draw_all(result.data, folder.path)
        folder.save(result.to_dict(), pages.trump_study(result.data, command), command)
    return result


def dd_study(
    heuristics: Sequence[str | Strategy] = ("longest", "points", "weighted", "random"),
    *,
    hands: int = 200,
    seed: int | None = None,
    threads: int | None = None,
    out: str | Path | None = None,
    force: bool = False,
) -> DDStudyResult:
    """Trump calls judged by the double-dummy solver: with all hands open, can the
    Hakem's team force 7 tricks with the suit each heuristic calls?"""
    from hokm_sim.dd import study
    from hokm_sim.sim.runner import check_threads

    heur = [strategy(h, "--heuristics") for h in heuristics]
    if not heur:
        raise InputError("--heuristics: give at least one heuristic")
    _positive(hands, "--hands")
    seed = _seed(seed)
    folder = ReportFolder.create(Path(out), force) if out is not None else None
    s = study.summarize(study.collect(heur, seed, hands, check_threads(threads)))
    command = shell_command(
        "hokm-sim",
        "dd-study",
        "--heuristics",
        ",".join(h.name for h in heur),
        "--hands",
        hands,
        "--seed",
        seed,
    )
    result = DDStudyResult(s | {"command": command, "version": __version__})
    if folder is not None:
        folder.save(result.to_dict(), pages.dd_study(result.data, command), command)
    return result


def analyse(
    folder: str | Path | None = None,
    *,
    trace: str | Path | None = None,
    seed: int | None = None,
    hands: int | None = None,
    a: str | Strategy = "expert",
    b: str | Strategy = "longest",
    threads: int | None = None,
):
    """Every card of played hands graded against double-dummy play (docs/analysis.md).

    The hands are a run's saved hands (``folder``, from ``run --save-hands``;
    ``hands`` keeps the first so many deals), a trace file (``trace``), or
    deals ``0 .. hands-1`` of ``seed`` played by ``a`` and ``b`` in both
    copies. Returns a :class:`hokm_sim.dd.analyse.Analysis`: ``records()``,
    ``accuracy()``, ``to_frame()``.
    """
    from hokm_sim.dd import analyse as an
    from hokm_sim.sim.runner import check_threads

    given = [x for x in (folder, trace, seed) if x is not None]
    if len(given) != 1:
        raise InputError("give one source of hands: a report folder, --trace FILE, or --seed S")
    if hands is not None:
        _positive(hands, "--hands")
    nthreads = check_threads(threads)
    if folder is not None:
        h = an.hands_from_folder(Path(folder), hands)
    elif trace is not None:
        h = an.read_trace(Path(trace))
    else:
        if hands is None:
            raise InputError("--seed: give --hands N too (deals 0..N-1 are analysed)")
        runner = Runner(strategy(a, "--a"), strategy(b, "--b"))
        h = an.hands_from_seed(runner, _seed(seed), hands)
    return an.analyse(h, nthreads)


def analyse_hand(record: dict, teams: Sequence[str] | None = None) -> dict:
    """One hand of ``hokm-sim trace`` (a record) graded card by card: the record
    :func:`hokm_sim.dd.analyse.hand_record` gives, with ``teams`` (names by team)."""
    from hokm_sim.dd import analyse as an

    h = an.hands_from_records([(1, record)], where="hand")
    h.meta[0].pop("line", None)
    if teams is not None:
        h.meta[0]["teams"] = list(teams)
    return an.hand_record(an.analyse(h), 0)


def analyse_run(folder: str | Path, deals: int, *, threads: int | None = None) -> dict:
    """Analyse a seeded sample of ``deals`` deals (both copies) of the run in ``folder``
    and write ``analysis.json``, ``analysis.md`` and ``analysis/`` (HTML) into it."""
    from hokm_sim.dd import analyse as an
    from hokm_sim.report import analysis as pages_
    from hokm_sim.sim.runner import check_threads

    _positive(deals, "--analyse")
    path = Path(folder)
    cfg = read_record(path).get("config") or {}
    if cfg.get("mode") != "hands":
        raise InputError("--analyse works with runs of --hands (deal pairs), not --matches")
    total, run_seed = int(cfg.get("done") or cfg["size"]), int(cfg["seed"])
    rng = np.random.default_rng([run_seed % 2**63, 17])
    sample = np.sort(rng.choice(total, size=min(deals, total), replace=False))
    runner = Runner(strategy(cfg["a"], "A"), strategy(cfg["b"], "B"))
    copies = (0, 1) if cfg.get("duplicate", True) else (0,)
    h = an.play_deals(runner, run_seed, sample, copies)
    result = an.analyse(h, check_threads(threads))
    data = pages_.summarize(result) | {"sample": {"deals": int(len(sample)), "of": total}}
    command = shell_command(
        "hokm-sim",
        "run",
        cfg["a"],
        cfg["b"],
        "--hands",
        cfg["size"],
        "--seed",
        run_seed,
        "--analyse",
        deals,
    )
    title = f"{cfg['a']} vs {cfg['b']}, seed {run_seed}: double-dummy analysis"
    pages_.write(path, result, data, title, command)
    return data


def experiment(
    file: str | Path,
    *,
    threads: int | None = None,
    out: str | Path | None = None,
    force: bool = False,
    progress: Progress | None = None,
) -> ExperimentResult:
    """Run an experiment file (TOML: a list of runs, or a tournament)."""
    from hokm_sim.analysis.experiment import Experiment, run_experiment

    exp = Experiment.load(Path(file), threads)
    folder = ReportFolder.create(Path(out), force) if out is not None else None
    runs, tour = run_experiment(exp, threads, progress)
    command = shell_command("hokm-sim", "experiment", str(file))
    result = ExperimentResult(
        {
            "experiment": exp.spec | {"name": exp.name},
            "command": command,
            "version": __version__,
            "runs": [s.to_dict() for s in runs] if runs else None,
            "tournament": tour,
        }
    )
    if folder is not None:
        folder.save(result.to_dict(), pages.experiment(exp, runs, tour, command), command)
    return result


def experiment_size(file: str | Path) -> int:
    """Deals an experiment file plays (for a progress bar)."""
    from hokm_sim.analysis.experiment import Experiment

    exp = Experiment.load(Path(file))
    if exp.runs:
        return sum(c.total for c in exp.runs)
    k = len(exp.spec["strategies"])
    return int(exp.spec.get("hands", 100_000)) * k * (k - 1) // 2


def experiment_seed(file: str | Path) -> int:
    """The seed an experiment file names (runs may override it)."""
    from hokm_sim.analysis.experiment import Experiment

    return Experiment.load(Path(file)).seed


# --- reading back ---------------------------------------------------------------


def load(folder: str | Path) -> Result | Summary:
    """The result object of any report folder (its ``summary.json``)."""
    data = read_record(Path(folder))
    try:
        result = from_dict(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"{folder}/summary.json is not a hokm-sim summary: {exc}") from None
    result.folder = Path(folder)
    return result


def _seed(seed: int | None) -> int:
    if seed is None:
        return fresh_seed()
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or not 0 <= seed < 2**64:
        raise InputError(f"bad seed {seed!r}: expected a whole number in 0 .. 2**64-1")
    return int(seed)


def _positive(n: Any, name: str) -> None:
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n <= 0:
        raise InputError(f"{name}: expected a positive whole number, got {n!r}")
