"""A p-value that underflowed to 0 is written as a bound in report.md, never ``p = 0``."""

from __future__ import annotations

import math

import numpy as np
import pytest

from hokm_sim.analysis.summary import summarize
from hokm_sim.engine import records as r
from hokm_sim.report.markdown import markdown


def _one_sided(pairs: int, b_wins_too: int = 0):
    """A duplicate run where A, as Hakem, wins 7-3 on every deal and defends to win on
    every deal except ``b_wins_too`` of them: A's Hakem wins are never matched by B's."""
    c = np.zeros(r.N_COUNTS, np.int64)
    lost = b_wins_too
    c[r.C_TRICKS + (0 * 8 + 7) * 8 + 3] = pairs  # A Hakem, 7 tricks to 3
    c[r.C_TRICKS + (1 * 8 + 3) * 8 + 7] = pairs - lost  # B Hakem, loses 3 to 7
    c[r.C_TRICKS + (1 * 8 + 7) * 8 + 3] += lost  # B Hakem wins
    c[r.C_PAIR + 3 * 6 + 3] = pairs - lost  # +1 as Hakem, +1 defending
    c[r.C_PAIR + 3 * 6 + 2] = lost  # +1 as Hakem, -1 defending
    c[r.C_PAIR_COPY + 3 * 6 + 3] = pairs - lost
    c[r.C_PAIR_COPY + 3 * 6 + 2] = lost
    c[r.C_TRUMP + ((0 * 14 + 5) * 6 + 3) * 2 + 1] = pairs
    c[r.C_TRUMP + ((1 * 14 + 5) * 6 + 3) * 2 + 0] = pairs - lost
    c[r.C_TRUMP + ((1 * 14 + 5) * 6 + 3) * 2 + 1] = lost
    c[r.C_SUIT + 0] = c[r.C_SUIT + 4] = pairs
    config = {"a": "x", "b": "y", "seed": 1, "duplicate": True, "mode": "hands", "deals": pairs}
    return summarize(c, config | {"target": 7})


def _mcnemar_line(summary) -> str:
    lines = [x for x in markdown(summary, "hokm-sim run x y").splitlines() if "McNemar" in x]
    assert len(lines) == 1
    return lines[0]


def test_an_underflowed_p_value_is_a_bound():
    s = _one_sided(5000)
    assert s.data["hakem_win_mcnemar"]["p_value"] == 0.0  # 2 * 0.5**5000 underflows
    line = _mcnemar_line(s)
    assert line.endswith("p < 1e-300") and "p = 0" not in line


def test_ordinary_p_values_keep_three_digits():
    s = _one_sided(20, b_wins_too=10)
    p = s.data["hakem_win_mcnemar"]["p_value"]
    assert 0 < p < 1
    assert _mcnemar_line(s).endswith(f"p = {p:.3g}")


@pytest.mark.parametrize(
    "p, text",
    [
        (0.0, "p < 1e-300"),
        (5e-324, "p < 1e-300"),
        (1e-300, "p = 1e-300"),
        (0.0123456, "p = 0.0123"),
        (1.0, "p = 1"),
        (math.nan, "p = n/a"),
        (None, "p = n/a"),
    ],
)
def test_p_text(p, text):
    from hokm_sim.report.markdown import p_text

    assert p_text(p) == text
