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

The file a resume trusts is checked by :meth:`Checkpoint.load` against this
schema; anything else is a :class:`CheckpointError` of one line:

- ``format``: ``1``.
- ``total``: integer >= 1, the deals (or matches) of the whole run.
- ``done``: list of ``[start, end]`` integer pairs with ``0 <= start < end <=
  total``, not overlapping: the half-open ranges already played.
- ``counts``: list of ``N_COUNTS`` integers in ``0 .. 2**63 - 1``.
- ``config``: an object. That of a run (it has ``engine``, ``command`` or
  ``save_hands``, as ``run`` writes them) also has ``run``, an object with
  every key of :data:`RUN_RECORD` and of that type (``hands`` or ``matches``
  equal to ``total``, the other null); ``engine``, a string; ``command``, a
  string (required beside ``save_hands``); ``save_hands``, true or false;
  ``run.first_hakem``, if there (runs of matches record it), a house rule of
  :data:`hokm_sim.house.FIRST_HAKEM_METHODS` (first ace when absent);
  ``cwd``, if there, a string: the folder the run's relative bot paths are
  taken from when it is resumed (the working directory when absent).

The counts of a run checkpoint must agree with its done ranges (see
:mod:`hokm_sim.engine.records`): every hand is in the tricks, trump-length and
suit tables; ``d`` deals played are ``d`` hands (``2 d`` in duplicate) and, in
duplicate, ``d`` deal pairs; ``m`` matches are ``m`` (``2 m``) finished
matches whose hands are all the hands, and, in duplicate, ``m`` match pairs.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from hokm_sim import jsontext
from hokm_sim.engine import records as r
from hokm_sim.engine.records import N_COUNTS
from hokm_sim.errors import InputError, OutputError
from hokm_sim.house import FIRST_HAKEM_METHODS
from hokm_sim.writing import atomic_text

FILE = "checkpoint.json"
FORMAT = 1

_INT = "an integer"
RUN_RECORD: dict[str, tuple[str, bool]] = {
    "a": ("a strategy spec (string)", False),
    "b": ("a strategy spec (string)", False),
    "hands": ("a positive integer or null", True),
    "matches": ("a positive integer or null", True),
    "seed": ("an integer in 0 .. 2**64 - 1", False),
    "target": ("a positive integer", False),
    "duplicate": ("true or false", False),
    "chunk": ("a positive integer or null", True),
}
"""What ``config.run`` of a run checkpoint holds: key -> (expected value, may be null)."""


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
        self._error: OSError | OutputError | None = None

    @classmethod
    def create(cls, folder: Path, config: dict[str, Any], total: int) -> Checkpoint:
        """A fresh checkpoint (nothing done), written at once so the folder is never stale."""
        cp = cls(folder / FILE, config, total)
        cp.save()
        return cp

    @classmethod
    def load(cls, folder: Path) -> Checkpoint:
        """The checkpoint of the run in ``folder``; raises :class:`CheckpointError`.

        The file is checked against the schema of the module docstring, and a
        run's counts against its done ranges, so a damaged or edited file is
        refused in one line rather than resumed into an inconsistent report.
        """
        path = folder / FILE
        try:
            raw = jsontext.loads(path.read_bytes().decode("utf-8"))
        except FileNotFoundError:
            raise CheckpointError(f"{folder} holds no {FILE}: nothing to resume") from None
        except IsADirectoryError:
            raise CheckpointError(f"cannot read {path}: it is a folder") from None
        except OSError as exc:
            raise CheckpointError(f"cannot read {path}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise CheckpointError(f"cannot read {path}: not a JSON text file") from None
        except json.JSONDecodeError as exc:
            raise CheckpointError(f"cannot read {path}: not JSON ({exc})") from None
        if not isinstance(raw, dict) or raw.get("format") != FORMAT:
            raise CheckpointError(f"{path} is not a hokm-sim checkpoint (format {FORMAT})")
        total, done, counts, config = _check(raw)
        return cls(path, config, total, done, counts)

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
            except (OSError, OutputError) as exc:  # raised to the run at its next add or end
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


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check(raw: dict[str, Any]) -> tuple[int, list[tuple[int, int]], np.ndarray, dict]:
    """Total, done ranges, counts and config of a parsed checkpoint, checked; the
    :class:`CheckpointError` says which key is wrong."""

    def bad(what: str) -> CheckpointError:
        return CheckpointError(f"damaged checkpoint: {what}; start the run again (not resumed)")

    for key in ("total", "done", "counts", "config"):
        if key not in raw:
            raise bad(f"no {key!r}")
    total = raw["total"]
    if not _is_int(total) or total < 1:
        raise bad(f"'total' is {total!r}, expected a positive integer")
    done_raw = raw["done"]
    if not isinstance(done_raw, list):
        raise bad("'done' is not a list of [start, end] ranges")
    done: list[tuple[int, int]] = []
    for item in done_raw:
        if not (isinstance(item, list) and len(item) == 2 and all(map(_is_int, item))):
            raise bad(f"'done' holds {json.dumps(item)[:40]}, expected a [start, end] of integers")
        s, e = item
        if not 0 <= s < e <= total:
            raise bad(f"'done' range [{s}, {e}] is not inside 0..{total}")
        done.append((s, e))
    done.sort()
    merged: list[tuple[int, int]] = []
    for s, e in done:
        if merged and s < merged[-1][1]:
            raise bad(f"'done' ranges {list(merged[-1])} and {[s, e]} overlap")
        if merged and s == merged[-1][1]:
            merged[-1] = (merged[-1][0], e)
        else:
            merged.append((s, e))
    counts_raw = raw["counts"]
    if not isinstance(counts_raw, list) or len(counts_raw) != N_COUNTS:
        n = len(counts_raw) if isinstance(counts_raw, list) else "no"
        raise bad(f"'counts' holds {n} counts, expected a list of {N_COUNTS}")
    for i, x in enumerate(counts_raw):
        if not _is_int(x) or not 0 <= x < 2**63:
            raise bad(f"'counts' slot {i} is {json.dumps(x)[:40]}, expected a count >= 0")
    counts = np.array(counts_raw, np.int64)
    config = raw["config"]
    if not isinstance(config, dict):
        raise bad("'config' is not an object")
    if {"engine", "command", "save_hands"} & set(config):  # the checkpoint of a run
        _check_run(config, total, bad)
        run = config["run"]
        mode = "hands" if run["hands"] is not None else "matches"
        _check_counts(counts, sum(e - s for s, e in merged), mode, run["duplicate"], bad)
    return total, merged, counts, config


def _check_run(config: dict[str, Any], total: int, bad) -> None:
    """The run record of a run checkpoint: every key of RUN_RECORD, typed; sizes = total."""
    for key in ("engine", "command", "cwd"):
        if key in config and not isinstance(config[key], str):
            raise bad(f"'config.{key}' is {json.dumps(config[key])[:40]}, expected a string")
    if "engine" not in config:
        raise bad("no 'config.engine'")
    if "save_hands" in config and "command" not in config:  # `run` writes both
        raise bad("no 'config.command'")
    if "save_hands" in config and not isinstance(config["save_hands"], bool):
        raise bad("'config.save_hands' is not true or false")
    analyse = config.get("analyse")
    if analyse is not None and (not _is_int(analyse) or analyse < 1):
        raise bad("'config.analyse' is not a positive number of deals")
    run = config.get("run")
    if not isinstance(run, dict):
        raise bad("'config.run' is missing or not an object")
    extra = sorted(set(run) - set(RUN_RECORD) - {"first_hakem"})
    if extra:
        raise bad(f"'config.run' has unknown keys {extra}")
    if "first_hakem" in run and run["first_hakem"] not in FIRST_HAKEM_METHODS:
        rules = ", ".join(FIRST_HAKEM_METHODS)
        raise bad(f"'config.run.first_hakem' is {json.dumps(run['first_hakem'])[:40]}, "
                  f"expected one of {rules}")  # fmt: skip
    for key, (expected, nullable) in RUN_RECORD.items():
        if key not in run:
            raise bad(f"no 'config.run.{key}'")
        v = run[key]
        if v is None and nullable:
            continue
        if key in ("a", "b"):
            ok = isinstance(v, str) and bool(v.strip())
        elif key == "duplicate":
            ok = isinstance(v, bool)
        elif key == "seed":
            ok = _is_int(v) and 0 <= v < 2**64
        else:
            ok = _is_int(v) and v >= 1
        if not ok:
            raise bad(f"'config.run.{key}' is {json.dumps(v)[:40]}, expected {expected}")
    sizes = [k for k in ("hands", "matches") if run[k] is not None]
    if len(sizes) != 1:
        raise bad("'config.run' must give exactly one of hands and matches")
    if run[sizes[0]] != total:
        raise bad(f"'config.run.{sizes[0]}' is {run[sizes[0]]} but 'total' is {total}")


def _check_counts(counts: np.ndarray, done: int, mode: str, duplicate: bool, bad) -> None:
    """The counts a run of ``done`` deals (or matches) must hold (see engine.records)."""

    def block(start: int, size: int) -> int:
        return int(counts[start : start + size].sum())

    copies = 2 if duplicate else 1
    hands = block(r.C_TRICKS, r.C_TRICKS_SIZE)
    for name, start, size in (
        ("trump-length", r.C_TRUMP, r.C_TRUMP_SIZE),
        ("trump-suit", r.C_SUIT, r.C_SUIT_SIZE),
    ):
        if block(start, size) != hands:
            raise bad(f"the {name} counts hold {block(start, size):,} hands, the tricks {hands:,}")
    pairs = block(r.C_PAIR, r.C_PAIR_SIZE)
    pairs_copy = block(r.C_PAIR_COPY, r.C_PAIR_SIZE)
    matches = block(r.C_MATCH, r.C_MATCH_SIZE)
    match_len = block(r.C_MATCH_LEN, r.C_MATCH_LEN_SIZE)
    match_hands = int(counts[r.C_MATCH_HANDS])
    match_pairs = block(r.C_MATCH_PAIR, r.C_MATCH_PAIR_SIZE)
    if mode == "hands":
        expected = {
            "hands": (hands, copies * done),
            "deal pairs": (pairs, done if duplicate else 0),
            "deal pairs by copy": (pairs_copy, done if duplicate else 0),
            "matches": (matches + match_len + match_hands + match_pairs, 0),
        }
        unit = "deals"
    else:
        expected = {
            "matches": (matches, copies * done),
            "match lengths": (match_len, copies * done),
            "hands of matches": (match_hands, hands),
            "match pairs": (match_pairs, done if duplicate else 0),
            "deal pairs": (pairs + pairs_copy, 0),
        }
        unit = "matches"
    for name, (got, want) in expected.items():
        if got != want:
            raise bad(
                f"the counts hold {got:,} {name} where the done ranges ({done:,} {unit}"
                f"{', in duplicate' if duplicate else ''}) make {want:,}"
            )
