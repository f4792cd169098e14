"""The engine against the C reference program (``hokm_ref.c``, see docs/performance.md).

The engine deals with the same stream scheme as the C program and the
longest bot plays the same heuristic, so with that bot in every seat the
deterministic game must reproduce C's result histogram exactly. The random
bots draw from different streams in the two programs, so for them only the
rates are compared, within sampling error. Skipped without ``gcc`` or the file.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from hokm_sim.engine import records as rc

C_SOURCE = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "hokm_ref.c"
N = 200_000
SEED = 5


@pytest.fixture(scope="module")
def hokm_ref(tmp_path_factory) -> Path:
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc is not installed")
    if not C_SOURCE.is_file():
        pytest.skip(f"{C_SOURCE} is missing")
    exe = tmp_path_factory.mktemp("c") / "hokm_ref"
    subprocess.run([gcc, "-O2", "-o", str(exe), str(C_SOURCE)], check=True, capture_output=True)
    return exe


def _run_c(exe: Path, mode: str) -> dict[str, list[int]]:
    out = subprocess.run([str(exe), str(N), str(SEED), mode], check=True, capture_output=True,
                         text=True, timeout=120).stdout  # fmt: skip
    hist = {}
    for name in ("hist_hakem_won", "hist_hakem_lost"):
        m = re.search(rf"^{name}\[[^\]]*\]=([\d,]+)$", out, re.M)
        assert m, f"no {name} in the C output:\n{out}"
        hist[name] = [int(x) for x in m.group(1).split(",")]
        assert len(hist[name]) == 7
    assert sum(hist["hist_hakem_won"]) + sum(hist["hist_hakem_lost"]) == N
    return hist


def _engine_hist(runner, a: str, b: str) -> dict[str, list[int]]:
    """The engine's histogram in C's layout: [Hakem team won / lost][loser's tricks 0..6]."""
    counts = runner(a, b).counts(SEED, N, duplicate=False)
    tricks = counts[rc.C_TRICKS : rc.C_TRICKS + rc.C_TRICKS_SIZE].reshape(2, 8, 8).sum(axis=0)
    assert tricks.sum() == N
    won = [int(tricks[7, lost]) for lost in range(7)]  # [Hakem team 7][defenders 0..6]
    lost = [int(tricks[hakem, 7]) for hakem in range(7)]  # [Hakem team 0..6][defenders 7]
    return {"hist_hakem_won": won, "hist_hakem_lost": lost}


def test_longest_reproduces_the_c_heuristic_exactly(hokm_ref, runner):
    assert _engine_hist(runner, "longest", "longest") == _run_c(hokm_ref, "heur")


def _rates(hist: dict[str, list[int]]) -> dict[str, float]:
    won, lost = np.array(hist["hist_hakem_won"]), np.array(hist["hist_hakem_lost"])
    return {"hakem_win": won.sum() / N, "kot": won[0] / N, "hakem_kot": lost[0] / N}


def test_random_matches_the_c_random_bots_statistically(hokm_ref, runner):
    c = _rates(_run_c(hokm_ref, "rand"))
    e = _rates(_engine_hist(runner, "random", "random"))
    for key in c:
        p = (c[key] + e[key]) / 2
        sigma = math.sqrt(2 * p * (1 - p) / N)  # difference of two independent rates
        assert abs(c[key] - e[key]) < 4 * sigma, (key, c[key], e[key])
    # The README's figures for random bots, loosely.
    assert abs(e["hakem_win"] - 0.502) < 0.01
    assert 0.006 < e["kot"] < 0.011 and 0.006 < e["hakem_kot"] < 0.011
