"""Per-hand rows of a run (``run --save-hands``): a pandas frame, written as Parquet."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from hokm_sim.engine import kernels as k
from hokm_sim.engine.rules import KIND_NAMES
from hokm_sim.sim.runner import Runner

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
