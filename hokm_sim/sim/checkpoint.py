"""A run's finished work, kept in its report folder so a stopped run can be resumed.

``checkpoint.json`` holds the run's configuration (what ``--resume`` needs to
continue it), the half-open ranges of deal (or match) indices already played
and the sum of their integer counts. It is rewritten atomically (temporary
file, fsync, rename) after every finished batch or task, so a Ctrl-C, a
killed process or a lost machine loses at most the work in flight. Counts
are integers summed over ranges, so a resumed run ends with exactly the
counts of an uninterrupted one, whatever the order in which ranges finished.

A save costs a few milliseconds (mostly fsync), as much as 10% of a batch
on many cores; inside :meth:`Checkpoint.saving` a background thread writes
the latest state while the engine (which releases the GIL) plays on, and
the last state is written before the block ends. A kill then also loses
what finished during the save in progress.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from hokm_sim.engine.records import N_COUNTS
from hokm_sim.errors import InputError
from hokm_sim.writing import atomic_text

FILE = "checkpoint.json"
FORMAT = 1


class CheckpointError(InputError):
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
        self._changed = threading.Condition()
        self._version = self._saved = 0  # states recorded, and written
        self._saver: threading.Thread | None = None
        self._closing = False
        self._error: OSError | None = None

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

    def _text(self) -> str:
        payload = {
            "format": FORMAT,
            "total": self.total,
            "done": [list(r) for r in self.done],
            "counts": [int(x) for x in self.counts],
            "config": self.config,
        }
        return json.dumps(payload) + "\n"

    def save(self) -> None:
        """Write the checkpoint atomically, now."""
        atomic_text(self.path, self._text())

    @contextmanager
    def saving(self) -> Iterator[Checkpoint]:
        """Within the block, :meth:`add` hands each new state to a background writer;
        on leaving it (normally, by an error or a Ctrl-C) the last state is written."""
        self._closing, self._error = False, None
        self._saver = threading.Thread(target=self._write_latest, name="checkpoint", daemon=True)
        self._saver.start()
        try:
            yield self
        finally:
            with self._changed:
                self._closing = True
                self._changed.notify()
            self._saver.join()
            self._saver = None
        if self._error is not None:
            raise self._error

    def _write_latest(self) -> None:
        while True:
            with self._changed:
                while self._version == self._saved and not self._closing:
                    self._changed.wait()
                if self._version == self._saved:
                    return
                text, version = self._text(), self._version
            try:
                atomic_text(self.path, text)
            except OSError as exc:  # raised to the run at its next add, or at the end
                self._error = exc
                return
            with self._changed:
                self._saved = version

    def add(self, start: int, count: int, counts: np.ndarray) -> None:
        """Record deals ``start .. start + count - 1`` as done with their counts, and save
        (in the background inside :meth:`saving`).

        Raises ValueError if the range was already recorded (counting it twice
        would silently change the result), or the OSError of a failed save.
        """
        if self._error is not None:
            raise self._error
        end = start + count
        if start < 0 or end > self.total or count <= 0:
            raise InputError(f"range {start}..{end} outside 0..{self.total}")
        if any(s < end and start < e for s, e in self.done):
            raise InputError(f"range {start}..{end} is already in the checkpoint")
        merged: list[tuple[int, int]] = []
        for s, e in sorted([*self.done, (start, end)]):
            if merged and merged[-1][1] == s:
                merged[-1] = (merged[-1][0], e)
            else:
                merged.append((s, e))
        with self._changed:
            self.done = merged
            self.counts = self.counts + counts
            self._version += 1
            self._changed.notify()
        if self._saver is None:
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
