"""A bot that raises inside the engine: one line naming it, the seed and the deal,
exit code 4 (never 1, which regress uses for "regression"), a partial report.

The raising bot is ``tests/bots/faulty.py`` in its mode 4, against its mode 5 (the rules kept): the
engine of the strategy-fault tests (tests/test_strategy_faults.py), compiled once.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from hokm_sim.cli import main

RAISER = f"{Path(__file__).parent / 'bots' / 'faulty.py'}(mode=4)"
CLEAN = f"{Path(__file__).parent / 'bots' / 'faulty.py'}(mode=5)"
"""Its opponent, the same file playing by the rules: the strategy-fault tests' engine."""


def test_run_reports_the_raising_bot_with_exit_4(tmp_path):
    out = tmp_path / "r"
    res = CliRunner().invoke(
        main,
        [
            "run",
            RAISER,
            CLEAN,
            "--hands",
            "3000",
            "--seed",
            "1",
            "--threads",
            "1",
            "--out",
            str(out),
        ],
    )
    assert res.exit_code == 4, res.output
    err = res.stderr.strip()
    assert "\n" not in err and "Traceback" not in err
    assert "raised ValueError: boom" in err and "seed 1, hand 0" in err and RAISER in err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["partial"] is True  # the partial report is kept


def test_regress_reports_the_raising_bot_with_exit_4():
    res = CliRunner().invoke(
        main, ["regress", RAISER, "--baseline", CLEAN, "--seed", "1", "--threads", "1"]
    )
    assert res.exit_code == 4, res.output
    assert "raised ValueError: boom" in res.stderr
