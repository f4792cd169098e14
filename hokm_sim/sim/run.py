"""A run of strategy A against strategy B: what to play, and playing it.

:class:`RunConfig` says what to play; :func:`execute` plays it on a backend
(this machine's threads or Dask), records each finished batch in a
checkpoint if one is given, turns the first Ctrl-C (or ``SIGTERM``) into a
stop after the batch in flight (or, while the engine compiles, before the
first), and returns the counts with the record of what was played
(:class:`Played`). Statistics are :mod:`hokm_sim.analysis.summary`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hokm_sim.bots.registry import Strategy
from hokm_sim.engine.records import N_COUNTS
from hokm_sim.errors import StoppedError
from hokm_sim.house import DEFAULT_FIRST_HAKEM, first_hakem_code
from hokm_sim.inlining import engine_kind
from hokm_sim.sim.backends import Work, check_scheduler, open_backend
from hokm_sim.sim.checkpoint import Checkpoint
from hokm_sim.sim.checks import check_positive, check_seed, check_size, check_target
from hokm_sim.sim.interrupt import Abandoned, graceful_interrupt, raise_if_nothing_done
from hokm_sim.sim.runner import Runner, check_threads, default_chunk
from hokm_sim.version import __version__


@dataclass
class RunConfig:
    """What to play: strategies, size, seed and how.

    ``hands`` counts deals (each played twice in duplicate); ``matches``
    counts matches (likewise). ``seed`` None draws a fresh one, recorded in
    the summary. ``scheduler`` None plays on this machine's ``threads``;
    ``local:N`` or a Dask scheduler address plays on a Dask cluster in tasks
    of ``task`` deals or matches (None: sized to the cluster). Neither
    changes a single count. ``first_hakem`` is the house rule that finds a
    match's first Hakem (docs/rules.md; matches only). ``engine`` chooses the engine
    of a pair of compiled bots (:data:`~hokm_sim.inlining.ENGINES`; None: the
    default), which changes no count either.
    """

    a: str = "expert"
    b: str = "longest"
    hands: int | None = None
    matches: int | None = None
    seed: int | None = None
    target: int = 7
    threads: int | None = None
    duplicate: bool = True
    chunk: int | None = None
    scheduler: str | None = None
    task: int | None = None
    first_hakem: str = DEFAULT_FIRST_HAKEM
    engine: str | None = None

    def __post_init__(self) -> None:
        mode, size, _, _ = check_size(self.hands, self.matches)
        if mode == "hands":
            self.hands = size
        self.target = check_target(self.target)
        self.seed = check_seed(self.seed)
        self.threads = check_threads(self.threads)
        self.scheduler = check_scheduler(self.scheduler)
        if self.task is not None:
            check_positive(self.task, "task")
        first_hakem_code(self.first_hakem)
        if self.engine is not None:
            engine_kind(self.engine)

    @property
    def mode(self) -> str:
        """``"hands"`` or ``"matches"``."""
        return "matches" if self.matches is not None else "hands"

    @property
    def first_hakem_code(self) -> int:
        """The engine's code of the first-Hakem rule."""
        return first_hakem_code(self.first_hakem)

    @property
    def total(self) -> int:
        """Deals or matches to play."""
        return int(self.hands if self.hands is not None else self.matches)  # type: ignore[arg-type]


@dataclass
class Played:
    """What a run played: its counts (layout in :mod:`hokm_sim.engine.records`) and the
    record of its configuration (strategies, seed, size, ``done``, ``partial`` ...)."""

    counts: np.ndarray
    record: dict[str, Any]

    @property
    def partial(self) -> bool:
        """True when the run stopped before its end and covers only what finished."""
        return bool(self.record["partial"])


def _config_record(cfg: RunConfig, a: Strategy, b: Strategy, done: int, partial: bool) -> dict:
    rule = {"first_hakem": cfg.first_hakem} if cfg.mode == "matches" else {}
    return {
        "a": a.name,
        "b": b.name,
        "seed": cfg.seed,
        "mode": cfg.mode,
        "size": cfg.total,
        "done": done,
        "target": cfg.target,
        **rule,
        "duplicate": cfg.duplicate,
        "threads": cfg.threads,
        "scheduler": cfg.scheduler,
        "chunk": cfg.chunk
        or default_chunk(cfg.mode == "matches", cfg.total, check_threads(cfg.threads)),
        "partial": partial,
        "version": __version__,
        "strategies": {"a": a.to_dict(), "b": b.to_dict()},
    }


RESUMABLE = ("a", "b", "hands", "matches", "seed", "target", "duplicate", "chunk", "first_hakem")
"""RunConfig fields a checkpoint records: everything that decides the counts."""


def checkpoint_record(cfg: RunConfig, engine: str, **extra: Any) -> dict[str, Any]:
    """What a checkpoint keeps of a run to resume it: the configuration that decides
    its counts, the engine module name (a hash of engine and bot files) and the
    folder relative bot paths were given from (``cwd``), so that a resume from
    anywhere finds the same files."""
    run = {f: getattr(cfg, f) for f in RESUMABLE}
    return {"run": run, "engine": engine, "cwd": str(Path.cwd()), **extra}


def resume_config(record: dict[str, Any], **how: Any) -> RunConfig:
    """The RunConfig of a checkpointed run; ``how`` sets threads, scheduler, task or
    engine."""
    return RunConfig(**record["run"], **how)


def execute(
    cfg: RunConfig,
    a: Strategy,
    b: Strategy,
    *,
    progress: Callable[[int], None] | None = None,
    on_batch: Callable[[int, int], None] | None = None,
    checkpoint: Checkpoint | None = None,
    prefix: bool = False,
    runner: Runner | None = None,
) -> Played:
    """Play a validated configuration with resolved strategies.

    ``runner`` is the Runner of A against B when the caller has built it already (for
    the engine key of its checkpoint, say); None builds it here, on ``cfg.engine``. It
    is built once: what prepares the engine and what plays share it.

    With a ``checkpoint`` only its pending ranges are played, from its
    counts, and every finished batch is recorded in it at once (and written
    while the next one plays): a resumed run ends with exactly the counts of
    an uninterrupted one. A :class:`~hokm_sim.errors.StoppedError` (a bot
    fault, a failed cluster) carries what finished before it as its
    ``partial``. With ``prefix`` the batches counted are always the first deals
    (a Dask task that finishes early waits for those before it), so a stopped
    run holds exactly the counts of the shorter run of ``done`` deals.
    """
    if checkpoint is None:
        counts, ranges = np.zeros(N_COUNTS, np.int64), [(0, cfg.total)]
    else:
        counts, ranges = checkpoint.counts.copy(), checkpoint.pending()
    done = cfg.total - sum(n for _, n in ranges)
    work = Work(
        cfg.seed,
        matches=cfg.mode == "matches",
        target=cfg.target,
        duplicate=cfg.duplicate,
        chunk=cfg.chunk,
        per_task=cfg.task,
        first_hakem=cfg.first_hakem_code,
    )
    saving = checkpoint.saving() if checkpoint is not None else nullcontext()
    began = False  # to play: no stop came while the engine compiled
    try:
        with (
            graceful_interrupt() as flag,
            open_backend(cfg.scheduler, cfg.threads) as backend,
            saving,
            suppress(Abandoned),  # Ctrl-C, and a batch that would not end: it is dropped
        ):
            runner = runner or Runner(a, b, engine=cfg.engine)
            if cfg.scheduler is None:  # compiled first: a stop meanwhile plays nothing
                runner.prepare(cfg.mode == "matches")
            began = not flag.stop
            for batch in backend.batches(runner, work, ranges, ordered=prefix) if began else ():
                counts += batch.counts
                done += batch.count
                if checkpoint is not None:
                    checkpoint.add(batch.start, batch.count, batch.counts)
                if on_batch:
                    on_batch(batch.start, batch.count)
                if progress:
                    progress(batch.count)
                if flag.stop:
                    break
    except StoppedError as exc:
        # what finished before the stop, for the partial report
        exc.partial = Played(counts, _config_record(cfg, a, b, done, True))
        raise
    if not began:
        raise_if_nothing_done(flag, done)
    return Played(counts, _config_record(cfg, a, b, done, done < cfg.total))
