"""Sequential regression checks: verdicts, exit codes, git baselines, calibration, sprt."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from hokm_sim.analysis import sprt
from hokm_sim.analysis.regress import SprtConfig, metric_support, sequential, stop_adjusted
from hokm_sim.bots.registry import resolve
from hokm_sim.cli import main
from hokm_sim.sim.runner import Runner

REPO = Path(__file__).resolve().parents[1]


def test_random_against_longest_is_a_regression_quickly():
    res = CliRunner().invoke(
        main, ["regress", "random", "--baseline", "longest", "--seed", "1", "--json"]
    )
    assert res.exit_code == 1, res.output
    d = json.loads(res.output)
    assert d["verdict"] == "regression" and d["pairs"] <= 2000
    assert d["llr"] <= d["bounds"][0]
    assert d["raw"]["elo"]["value"] < -100
    assert d["stop_adjusted"]["elo"] is not None


def test_stop_adjusted_elo_removes_the_bias_of_stopping_at_a_bound():
    """Replays that can only stop at the cap (one check) have no stopping bias: the
    mean of their scores is the true score within four standard errors. A test
    that stops when the LLR first crosses a bound stops on lucky runs: the naive
    score overstates a clear gain and understates a clear loss, and the adjusted
    score moves back towards the truth from the side it stopped on."""
    values = np.array([0.0, 0.5, 1.0])
    counts = np.array([2500, 4000, 3500])
    capped = stop_adjusted(counts, values, SprtConfig(max_pairs=100, check_every=100, seed=3))
    p = counts / counts.sum()
    sd = float(np.sqrt(p @ (values - p @ values) ** 2))
    assert abs(capped["bias"]) < 4 * sd / np.sqrt(100 * capped["sims"])
    cfg = SprtConfig(max_pairs=100_000, check_every=10, seed=3)  # H0 -3 nElo, H1 0
    gain, loss = np.array([2900, 4000, 3100]), np.array([3100, 4000, 2900])
    up, down = stop_adjusted(gain, values, cfg), stop_adjusted(loss, values, cfg)
    assert up == stop_adjusted(gain, values, cfg)  # seeded
    assert up["bias"] > 0 and up["score"] < 0.51
    assert down["bias"] < 0 and down["score"] > 0.49


def test_verdict_independent_of_threads():
    runner = Runner(resolve("random"), resolve("longest"))
    r1 = sequential(runner, SprtConfig(seed=4, threads=1))
    r2 = sequential(runner, SprtConfig(seed=4, threads=2))
    assert (r1.verdict, r1.pairs, r1.counts, r1.llr) == (r2.verdict, r2.pairs, r2.counts, r2.llr)


def test_cap_gives_inconclusive():
    """random against itself within +-1 Elo: 300 pairs cannot tell, so the cap decides."""
    args = ["regress", "random", "--baseline", "random", "--seed", "1", "--max-pairs", "300"]
    res = CliRunner().invoke(main, [*args, "--elo0", "-1", "--elo1", "1"])
    assert res.exit_code == 3, res.output
    assert res.output.startswith("INCONCLUSIVE")
    d = json.loads(
        CliRunner().invoke(main, [*args, "--elo0", "-1", "--elo1", "1", "--json"]).output
    )
    assert d["verdict"] == "inconclusive" and d["pairs"] == 300
    assert d["bounds"][0] < d["llr"] < d["bounds"][1]


def test_metric_support_maps_codes():
    codes, values, n = metric_support("wins")
    # code = i * 6 + j with x from (-3, -2, -1, 1, 2, 3): both lost -> 0, both won -> 2
    assert codes[0] == 0 and codes[5 * 6 + 5] == 2 and codes[0 * 6 + 5] == 1
    codes, values, n = metric_support("points")
    assert codes[0] == 0 and codes[35] == 12 and values[6] == 0.5
    with pytest.raises(ValueError, match="wins, points, matches"):
        metric_support("elo")


def test_self_calibration_never_false_alarms_for_a_deterministic_bot():
    res = CliRunner().invoke(
        main, ["regress", "--calibrate", "longest", "--runs", "3", "--seed", "5", "--json"]
    )
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    # Identical deterministic bots mirror each other: every pair is split, H1 is accepted.
    assert d["false_regressions"] == 0 and d["no_regression"] == 3


def test_sprt_calculator():
    res = CliRunner().invoke(main, ["sprt", "--wins", "3100,13200,3700"])
    assert res.exit_code == 0 and res.output.startswith("NO REGRESSION")
    llr = sprt.gsprt_llr([3100, 13200, 3700])
    assert f"{llr:.4f}" in res.output
    res = CliRunner().invoke(main, ["sprt", "--wins", "3700,13200,3100"])
    assert res.exit_code == 1 and res.output.startswith("REGRESSION")
    res = CliRunner().invoke(main, ["sprt", "--wins", "0,0,0"])
    assert res.exit_code == 3


POINTS = [0, 1, 5, 40, 200, 900, 1500, 950, 210, 45, 6, 1, 0]
"""Pair counts of D = -6..6 (the help's example): A a little better than B."""


@pytest.mark.parametrize(
    ("counts", "code", "verdict"),
    [
        ([10 * c for c in POINTS], 0, "NO REGRESSION"),  # ten times the evidence: H1
        ([10 * c for c in POINTS[::-1]], 1, "REGRESSION"),  # the mirror image: H0
        (POINTS, 3, "UNDECIDED"),  # too few pairs to tell
    ],
)
def test_sprt_calculator_points(counts, code, verdict):
    res = CliRunner().invoke(main, ["sprt", "--points", ",".join(map(str, counts))])
    assert res.exit_code == code, res.output
    assert res.output.startswith(verdict)
    d = json.loads(
        CliRunner().invoke(main, ["sprt", "--points", ",".join(map(str, counts)), "--json"]).output
    )
    assert d["exit_code"] == code and d["pairs"] == sum(counts)


@pytest.mark.parametrize(
    "args",
    [
        ["sprt"],
        ["sprt", "--wins", "1,2"],
        ["sprt", "--wins", "a,b,c"],
        ["sprt", "--wins", "1,2,3", "--elo0", "1", "--elo1", "0"],
        ["regress"],
        ["regress", "random", "--baseline", "nosuch"],
        ["regress", "random", "--baseline", "git:HEAD"],
    ],
)
def test_bad_input(args):
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2, res.output
    assert len(res.output.strip().splitlines()) == 1 and "Traceback" not in res.output


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_ci_recipe_end_to_end(tmp_path):
    """The README's CI flow: a bot made worse after a commit is caught against git:HEAD."""
    repo = tmp_path / "botrepo"
    (repo / "strategies").mkdir(parents=True)
    good = (REPO / "strategies" / "longest.py").read_text()
    bot = repo / "strategies" / "my_bot.py"
    bot.write_text(good)
    git = ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "good bot"], check=True)
    # Weaken it: always play the lowest legal card.
    bad = good.replace(
        "    hand = view[V_HAND]\n    trump = view[V_TRUMP]\n    led = view[V_LED]\n",
        "    return lowest(view[V_LEGAL])\n",
    )
    assert bad != good
    bad = bad.replace(
        "from hokm_sim.bots.botkit import (", "from hokm_sim.bots.botkit import (\n    V_LEGAL,"
    )
    bot.write_text(bad)
    res = CliRunner().invoke(
        main, ["regress", str(bot), "--baseline", "git:HEAD", "--seed", "1", "--json"]
    )
    assert res.exit_code == 1, res.output
    d = json.loads(res.output)
    assert d["config"]["baseline"] == "my_bot@git:HEAD"
    # Unchanged file against its own commit: no regression. The weakened bot is the one
    # committed, so this pair compiles the small bot twice instead of longest twice.
    subprocess.run([*git, "commit", "-qam", "weaker bot"], check=True)
    res = CliRunner().invoke(main, ["regress", str(bot), "--baseline", "git:HEAD", "--seed", "1"])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(main, ["regress", str(bot), "--baseline", "git:nosuchref"])
    assert res.exit_code == 2 and "git:nosuchref" in res.output


def test_gsprt_matches_counts_from_codes():
    """Pairs consumed in deal order: the LLR equals the LLR of the final counts."""
    runner = Runner(resolve("random"), resolve("longest"))
    res = sequential(runner, SprtConfig(seed=2))
    values = np.array(res.values)
    assert res.llr == pytest.approx(sprt.gsprt_llr(np.array(res.counts), values))
    assert sum(res.counts) == res.pairs


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_git_ref_is_checked_before_git_reads_it_and_helpers_come_from_the_ref(tmp_path):
    from hokm_sim.analysis.regress import git_baseline
    from hokm_sim.bots.registry import import_bot_file

    repo = tmp_path / "repo"
    (repo / "bots").mkdir(parents=True)
    bot = repo / "bots" / "bot.py"
    bot.write_text(
        '"""Plays through its helper."""\nfrom helper import pick\n\n\n'
        "def choose_trump(obs):\n    return 0\n\n\ndef play_card(obs):\n    return pick(obs)\n"
    )
    (repo / "bots" / "helper.py").write_text("def pick(obs):\n    return 'committed'\n")
    git = ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "bot"], check=True)
    (repo / "bots" / "helper.py").write_text("def pick(obs):\n    return 'edited'\n")
    old = import_bot_file(git_baseline(bot, "HEAD"))
    assert old.play_card(None) == "committed"  # the baseline's helper is the committed one
    assert import_bot_file(bot).play_card(None) == "edited"
    written = tmp_path / "written"
    for ref, says in [
        (f"--output={written}", "not a git revision"),
        ("", "git: names no commit; give git:REF"),
        ("nosuchref", f"git:nosuchref names no commit of the repository {repo}"),
        ("HEAD bad", "not a git revision"),
    ]:
        res = CliRunner().invoke(main, ["regress", str(bot), "--baseline", f"git:{ref}"])
        assert res.exit_code == 2, (ref, res.output)
        err = res.stderr.strip()
        assert err.startswith("Error: --baseline: ") and says in err and "\n" not in err, err
    assert not written.exists()  # git never saw the ref as an option
