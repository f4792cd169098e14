"""The Python API in a few lines: what ``hokm-sim run`` does, from a script or notebook.

python examples/api_tour.py [DEALS]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import hokm_sim


def main(deals: int = 100_000, folder: Path | None = None) -> None:
    """Compare ``expert`` with ``longest`` in duplicate, print the table, read it back."""
    folder = folder or Path(tempfile.mkdtemp(prefix="hokm-sim-tour-")) / "run"
    summary = hokm_sim.run("expert", "longest", hands=deals, seed=1, out=folder)
    print(summary)  # one line: who, how many deals, the pair score with its interval
    frame = summary.to_frame()  # one row per strategy, each rate with its 95% interval
    print(frame[["hand_win_rate", "hand_win_rate_low", "hand_win_rate_high"]])
    again = hokm_sim.load(folder)  # any report folder reads back as the object that wrote it
    print("read back from", folder, "->", again)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
