"""The field: a candidate against every member in duplicate, each pairing the `run` it names.

The suite's one engine plays every pairing (tests/conftest.py); matches use longest
against random (test_run.py's).
"""

from __future__ import annotations

import json
import shlex
import signal
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from test_cli_inputs import _fails  # one line naming the problem, exit 2

import hokm_sim
from hokm_sim.analysis import field as fld
from hokm_sim.analysis.results import FieldResult
from hokm_sim.bots.registry import resolve
from hokm_sim.cli import main
from hokm_sim.engine import records as r

CANDIDATE = "expert"
PROTOBOT = Path(__file__).resolve().parent / "bots" / "protobot.py"
MEMBERS = ["random", "longest", "basic"]


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[FieldResult, object]:
    """The field as the command plays it (1,500 deals, seed 4) and its report folder."""
    out = tmp_path_factory.mktemp("field") / "a"
    res = CliRunner().invoke(
        main,
        ["field", CANDIDATE, "--field", ",".join(MEMBERS), "--hands", "1500", "--seed", "4"]
        + ["--out", str(out), "--bot-timeout", "30"],
    )
    assert res.exit_code == 0, res.output
    assert "<- weakest" in res.stdout and f"report: {out}" in res.stdout
    return hokm_sim.load(out), out


def test_each_pairing_is_the_run_with_the_same_seed(played):
    result, _ = played
    assert [p["opponent"] for p in result.data["pairs"]] == MEMBERS
    for member, pair in zip(MEMBERS, result.data["pairs"], strict=True):
        s = hokm_sim.run(CANDIDATE, member, hands=1500, seed=4)
        assert pair["wins"] == s.data["pair_score"]
        assert pair["points_per_hand"] == s.data["a"]["points_per_hand"]
        assert pair["elo"] == s.data["elo"]
        assert pair["pairs"] == 1500 and not pair["partial"]
        # points: the mean of (D + 6) / 12, D the pair's points
        assert pair["points"]["value"] == pytest.approx(0.5 + pair["points_per_hand"]["value"] / 6)


def test_the_weakest_is_the_lowest_score_and_the_command_reproduces(played, tmp_path):
    result, folder = played
    low = min(result.data["pairs"], key=lambda p: p["wins"]["value"])
    assert result.weakest["opponent"] == low["opponent"]
    assert result.weakest["value"] == low["wins"]["value"]
    assert not result.data["partial"]
    assert f"weakest {low['opponent']}" in repr(result)
    assert list(result.to_frame().index) == MEMBERS
    assert "weakest pair score" in (folder / "report.md").read_text()
    words = shlex.split(result.command)
    res = CliRunner().invoke(main, [*words[1:], "--out", str(tmp_path / "b"), "--json"])
    assert res.exit_code == 0, res.output
    again = json.loads(res.stdout)
    assert again["pairs"] == result.data["pairs"] and again["command"] == result.command
    # the limit for protocol bots is written: a slow one would fault without it
    assert result.command.endswith("--bot-timeout 30.0"), result.command


@pytest.mark.usefixtures("reap_bots")
def test_bot_timeout_is_the_limit_an_exec_bot_is_held_to(tmp_path):
    """A protocol bot that never answers hello faults after --bot-timeout, not the default
    10 s (the engine is test_exec_faults.py's, exec against the compiled random)."""
    spec = f"exec:{sys.executable} {PROTOBOT} hello-hang {tmp_path / 'hang'}"
    args = ["field", spec, "--field", "random", "--hands", "200", "--seed", "3"]
    res = CliRunner().invoke(main, [*args, "--bot-timeout", "1", "--out", str(tmp_path / "f")])
    assert res.exit_code == 4, res.output
    assert "gave no answer to hello within 1 s" in res.output, res.output
    fault = res.stderr.strip().removeprefix("Error: ").split(" (partial report: ")[0]
    assert json.loads((tmp_path / "f" / "summary.json").read_text())["fault"] == fault
    assert "the field stopped at a bot fault" in (tmp_path / "f" / "report.md").read_text()


def test_a_field_of_matches_scores_match_pairs():
    d = hokm_sim.field("longest", ["random"], matches=30, seed=2, threads=1)
    assert d.data["metric"] == "matches" and d.data["mode"] == "matches"
    s = hokm_sim.run("longest", "random", matches=30, seed=2)
    assert d.data["pairs"][0]["matches"] == s.data["pair_score"]
    assert d.weakest["value"] == s.data["pair_score"]["value"]
    assert "--matches 30" in d.command


def test_ctrl_c_keeps_the_pairings_finished(tmp_path):
    ticks = []

    def progress(tick):
        ticks.append(tick)
        if len(ticks) == 1:
            signal.raise_signal(signal.SIGINT)

    d = hokm_sim.field(
        CANDIDATE, MEMBERS, hands=200_000, seed=3, threads=1, out=tmp_path / "f", progress=progress
    )
    assert d.data["partial"] and len(d.data["pairs"]) == 1 and d.data["pairs"][0]["partial"]
    assert d.data["pairs"][0]["pairs"] < 200_000
    assert ticks[0].total == 3 * 200_000 and ticks[0].unit == "deals"
    assert hokm_sim.load(tmp_path / "f").data["partial"]


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--field", "expert,expert"], ["--field:", "names 'expert' twice"]),
        (["--field", "nosuch"], ["--field:", "strategy 1", "unknown strategy 'nosuch'"]),
        (["--metric", "matches"], ["--metric:", "goes with --matches"]),
        (["--matches", "10", "--metric", "wins"], ["--metric:", "goes with --matches"]),
        (["--hands", "10", "--matches", "10"], ["--hands", "--matches", "not both"]),
        (["--target", "3"], ["--target", "--matches"]),
        (["--bot-timeout", "-1"], ["--bot-timeout", "seconds > 0"]),
    ],
)
def test_bad_input_is_one_line(args, needles):
    _fails(["field", "expert", *args], *needles)


def test_pair_stats_on_points_has_the_thirteen_point_support():
    counts = np.zeros(r.N_COUNTS, np.int64)
    table = counts[r.C_PAIR_COPY : r.C_PAIR_COPY + r.C_PAIR_SIZE].reshape(6, 6)
    table[5, 3] = 10  # A won 3 then 1: D = 4
    table[2, 2] = 10  # A lost both plain hands: D = -2
    ps = fld.pair_stats(counts, "points")
    assert ps.score.value == pytest.approx(((4 + 6) / 12 + (-2 + 6) / 12) / 2)


def test_the_default_field_leaves_out_the_candidates_bot():
    others = [m for m in fld.FIELD if m != "sharp"]
    assert fld.default_members(resolve("sharp")) == others
    assert fld.default_members(resolve("sharp(cover=9)")) == others
    assert fld.default_members(resolve("pimc")) == list(fld.FIELD)
