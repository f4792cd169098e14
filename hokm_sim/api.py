"""The Python API for notebooks and scripts: ``hokm_sim.run(...)`` returns a Summary.

The CLI's ``run`` is a thin shell over :func:`run`; everything a run needs
(seed drawing, batches, progress, Ctrl-C, per-hand rows) lives here.
"""

from __future__ import annotations

import secrets
import signal
import threading
from collections.abc import Callable
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from hokm_sim import __version__
from hokm_sim.checkpoint import Checkpoint
from hokm_sim.distributed import Work, check_scheduler, open_backend
from hokm_sim.engine import kernels as k
from hokm_sim.engine.records import N_COUNTS
from hokm_sim.engine.rules import KIND_NAMES
from hokm_sim.registry import Strategy, resolve
from hokm_sim.runner import Runner, check_threads, default_chunk
from hokm_sim.summary import Summary, summarize


@dataclass
class RunConfig:
    """What to play: strategies, size, seed and how.

    ``hands`` counts deals (each played twice in duplicate); ``matches``
    counts matches (likewise). ``seed`` None draws a fresh one, recorded in
    the summary. ``scheduler`` None plays on this machine's ``threads``;
    ``local:N`` or a Dask scheduler address plays on a Dask cluster in tasks
    of ``task`` deals or matches (None: sized to the cluster). Neither
    changes a single count.
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
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.hands is not None and self.matches is not None:
            raise ValueError("give --hands or --matches, not both")
        if self.hands is None and self.matches is None:
            self.hands = 1_000_000
        size = self.hands if self.hands is not None else self.matches
        if size is None or size <= 0:
            raise ValueError(f"bad size {size}: expected a positive number of deals or matches")
        if self.target <= 0:
            raise ValueError(f"bad target {self.target}: expected a positive integer")
        if self.seed is None:
            self.seed = secrets.randbits(63)
        if not 0 <= self.seed < 2**64:
            raise ValueError(f"bad seed {self.seed}: expected a non-negative integer below 2**64")
        self.threads = check_threads(self.threads)
        self.scheduler = check_scheduler(self.scheduler)
        if self.task is not None and self.task <= 0:
            raise ValueError(f"bad task size {self.task}: expected a positive number")

    @property
    def mode(self) -> str:
        """``"hands"`` or ``"matches"``."""
        return "matches" if self.matches is not None else "hands"

    @property
    def total(self) -> int:
        """Deals or matches to play."""
        return int(self.hands if self.hands is not None else self.matches)  # type: ignore[arg-type]


class _StopFlag:
    """Turns the first Ctrl-C into a request to stop after the current batch."""

    def __init__(self) -> None:
        self.stop = False

    def __call__(self, signum, frame) -> None:
        if self.stop:  # a second Ctrl-C stops at once
            raise KeyboardInterrupt
        self.stop = True


@contextmanager
def _graceful_interrupt():
    flag = _StopFlag()
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return
    old = signal.signal(signal.SIGINT, flag)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, old)


def _config_record(cfg: RunConfig, a: Strategy, b: Strategy, done: int, partial: bool) -> dict:
    return {
        "a": a.name,
        "b": b.name,
        "seed": cfg.seed,
        "mode": cfg.mode,
        "size": cfg.total,
        "done": done,
        "target": cfg.target,
        "duplicate": cfg.duplicate,
        "threads": cfg.threads,
        "scheduler": cfg.scheduler,
        "chunk": cfg.chunk
        or default_chunk(cfg.mode == "matches", cfg.total, check_threads(cfg.threads)),
        "partial": partial,
        "version": __version__,
        "strategies": {"a": a.to_dict(), "b": b.to_dict()},
        **cfg.extra,
    }


def run(
    a: str | Strategy = "expert",
    b: str | Strategy = "longest",
    *,
    hands: int | None = None,
    matches: int | None = None,
    seed: int | None = None,
    target: int = 7,
    threads: int | None = None,
    duplicate: bool = True,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    on_batch: Callable[[int, int], None] | None = None,
) -> Summary:
    """Play A against B and summarize, from A's point of view.

    >>> s = run("expert", "longest", hands=100_000, seed=1)   # doctest: +SKIP
    >>> s.to_frame()                                           # doctest: +SKIP

    ``scheduler`` plays on a Dask cluster instead of this machine's threads
    (``"local:2"`` starts two local workers; or ``"tcp://host:8786"``).
    ``progress(n)`` hears of each finished batch of ``n`` deals (or matches);
    ``on_batch(start, count)`` too, with its range (used for saving rows).
    The first Ctrl-C stops after the batch in flight and returns a summary
    marked partial; nothing finished is lost.
    """
    cfg = RunConfig(
        a=_name(a),
        b=_name(b),
        hands=hands,
        matches=matches,
        seed=seed,
        target=target,
        threads=threads,
        duplicate=duplicate,
        scheduler=scheduler,
    )
    sa = a if isinstance(a, Strategy) else resolve(a)
    sb = b if isinstance(b, Strategy) else resolve(b)
    return execute(cfg, sa, sb, progress=progress, on_batch=on_batch)


def _name(s: str | Strategy) -> str:
    return s.name if isinstance(s, Strategy) else s


RESUMABLE = ("a", "b", "hands", "matches", "seed", "target", "duplicate", "chunk")
"""RunConfig fields a checkpoint records: everything that decides the counts."""


def checkpoint_record(cfg: RunConfig, engine: str, **extra: Any) -> dict[str, Any]:
    """What a checkpoint keeps of a run to resume it: the configuration that decides
    its counts, and the engine module name (a hash of engine and bot files)."""
    return {"run": {f: getattr(cfg, f) for f in RESUMABLE}, "engine": engine, **extra}


def resume_config(record: dict[str, Any], **how: Any) -> RunConfig:
    """The RunConfig of a checkpointed run; ``how`` sets threads, scheduler or task."""
    return RunConfig(**record["run"], **how)


def execute(
    cfg: RunConfig,
    a: Strategy,
    b: Strategy,
    *,
    progress: Callable[[int], None] | None = None,
    on_batch: Callable[[int, int], None] | None = None,
    checkpoint: Checkpoint | None = None,
) -> Summary:
    """Run a validated configuration with resolved strategies (see :func:`run`).

    With a ``checkpoint`` only its pending ranges are played, from its
    counts, and every finished batch is recorded in it at once (and written
    while the next one plays): a resumed run ends with exactly the counts of
    an uninterrupted one.
    """
    if checkpoint is None:
        counts, ranges = np.zeros(N_COUNTS, np.int64), [(0, cfg.total)]
    else:
        counts, ranges = checkpoint.counts.copy(), checkpoint.pending()
    done = cfg.total - sum(n for _, n in ranges)
    work = Work(
        a,
        b,
        cfg.seed,
        matches=cfg.mode == "matches",
        target=cfg.target,
        duplicate=cfg.duplicate,
        chunk=cfg.chunk,
        per_task=cfg.task,
    )
    saving = checkpoint.saving() if checkpoint is not None else nullcontext()
    with (
        _graceful_interrupt() as flag,
        open_backend(cfg.scheduler, cfg.threads) as backend,
        saving,
    ):
        for batch in backend.batches(work, ranges):
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
    partial = done < cfg.total
    return summarize(counts, _config_record(cfg, a, b, done, partial))


HAND_COLUMNS = (
    "deal",
    "copy",
    "a_team",
    "hakem",
    "trump",
    "tricks0",
    "tricks1",
    "winner_team",
    "points",
    "kind",
    "a_points",
)


def hand_rows(runner: Runner, seed: int, start: int, count: int, duplicate: bool):
    """Per-hand rows of deals ``start .. start + count - 1`` as a pandas DataFrame."""
    import pandas as pd

    parts = []
    for copy in (0, 1) if duplicate else (0,):
        rows = runner.trace_hands(seed, start, count, copy)
        win = rows[:, k.T_WINNER]
        pts = rows[:, k.T_POINTS]
        a_team = copy
        parts.append(
            pd.DataFrame(
                {
                    "deal": rows[:, k.T_HAND],
                    "copy": np.full(len(rows), copy, np.int8),
                    "a_team": np.full(len(rows), a_team, np.int8),
                    "hakem": rows[:, k.T_HAKEM].astype(np.int8),
                    "trump": rows[:, k.T_TRUMP].astype(np.int8),
                    "tricks0": rows[:, k.T_TRICKS].astype(np.int8),
                    "tricks1": rows[:, k.T_TRICKS + 1].astype(np.int8),
                    "winner_team": win.astype(np.int8),
                    "points": pts.astype(np.int8),
                    "kind": pd.Categorical.from_codes(rows[:, k.T_KIND], KIND_NAMES),
                    "a_points": np.where(win == a_team, pts, -pts).astype(np.int8),
                }
            )
        )
    return pd.concat(parts, ignore_index=True).sort_values(["deal", "copy"], kind="stable")


class HandWriter:
    """Appends per-hand rows to a Parquet file as batches finish; renames it when closed."""

    def __init__(self, path: Path, runner: Runner, seed: int, duplicate: bool) -> None:
        self.path, self.runner, self.seed, self.duplicate = path, runner, seed, duplicate
        self.tmp = path.with_name(f".{path.name}.tmp")
        self.writer = None

    def __call__(self, start: int, count: int) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pandas(
            hand_rows(self.runner, self.seed, start, count, self.duplicate), preserve_index=False
        )
        if self.writer is None:
            self.writer = pq.ParquetWriter(self.tmp, table.schema)
        self.writer.write_table(table)

    def close(self) -> None:
        """Finish the file and move it into place."""
        if self.writer is not None:
            self.writer.close()
            self.tmp.replace(self.path)
