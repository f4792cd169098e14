"""A run's finished work, kept in its report folder so a stopped run can be resumed.

``checkpoint.json`` holds the run's configuration (what ``--resume`` needs to
continue it), the half-open ranges of deal (or match) indices already played
and the sum of their integer counts. It is rewritten atomically (temporary
file, fsync, rename) after every finished batch or task, so a Ctrl-C, a
killed process or a lost machine loses at most the work in flight. Counts
are integers summed over ranges, so a resumed run ends with exactly the
counts of an uninterrupted one, whatever the order in which ranges finished.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from hokm_sim.engine.records import N_COUNTS
from hokm_sim.writing import atomic_text

FILE = "checkpoint.json"
FORMAT = 1


class CheckpointError(ValueError):
    """A checkpoint that is missing, unreadable or does not fit this run."""


class Checkpoint:
    """Done ranges and summed counts of one run of ``total`` deals or matches."""

    def __init__(
        self,
        path: Path,
        config: dict[str, Any],
        total: int,
        done: list[tuple[int, int]] | None = None,
        counts: np.ndarray | None = None,
    ) -> None:
        self.path, self.config, self.total = path, config, total
        self.done: list[tuple[int, int]] = list(done or [])
        self.counts = np.zeros(N_COUNTS, np.int64) if counts is None else counts

    @classmethod
    def create(cls, folder: Path, config: dict[str, Any], total: int) -> Checkpoint:
        """A fresh checkpoint (nothing done), written at once so the folder is never stale."""
        cp = cls(folder / FILE, config, total)
        cp.save()
        return cp

    @classmethod
    def load(cls, folder: Path) -> Checkpoint:
        """The checkpoint of the run in ``folder``; raises :class:`CheckpointError`."""
        path = folder / FILE
        try:
            raw = json.loads(path.read_text())
        except FileNotFoundError:
            raise CheckpointError(f"{folder} holds no {FILE}: nothing to resume") from None
        except (OSError, json.JSONDecodeError) as exc:
            raise CheckpointError(f"cannot read {path}: {exc}") from None
        if not isinstance(raw, dict) or raw.get("format") != FORMAT:
            raise CheckpointError(f"{path} is not a hokm-sim checkpoint (format {FORMAT})")
        counts = np.array(raw["counts"], np.int64)
        if counts.shape != (N_COUNTS,):
            raise CheckpointError(f"{path} holds {counts.size} counts, expected {N_COUNTS}")
        done = [(int(s), int(e)) for s, e in raw["done"]]
        return cls(path, raw["config"], int(raw["total"]), done, counts)

    def save(self) -> None:
        """Write the checkpoint atomically."""
        payload = {
            "format": FORMAT,
            "total": self.total,
            "done": [list(r) for r in self.done],
            "counts": [int(x) for x in self.counts],
            "config": self.config,
        }
        atomic_text(self.path, json.dumps(payload) + "\n")

    def add(self, start: int, count: int, counts: np.ndarray) -> None:
        """Record deals ``start .. start + count - 1`` as done with their counts, and save.

        Raises ValueError if the range was already recorded (counting it twice
        would silently change the result).
        """
        end = start + count
        if start < 0 or end > self.total or count <= 0:
            raise ValueError(f"range {start}..{end} outside 0..{self.total}")
        if any(s < end and start < e for s, e in self.done):
            raise ValueError(f"range {start}..{end} is already in the checkpoint")
        merged: list[tuple[int, int]] = []
        for s, e in sorted([*self.done, (start, end)]):
            if merged and merged[-1][1] == s:
                merged[-1] = (merged[-1][0], e)
            else:
                merged.append((s, e))
        self.done = merged
        self.counts = self.counts + counts
        self.save()

    @property
    def done_count(self) -> int:
        """Deals (or matches) already played."""
        return sum(e - s for s, e in self.done)

    def pending(self) -> list[tuple[int, int]]:
        """The ranges still to play, as ``(start, count)`` in index order."""
        out, at = [], 0
        for s, e in self.done:
            if s > at:
                out.append((at, s - at))
            at = e
        if at < self.total:
            out.append((at, self.total - at))
        return out
