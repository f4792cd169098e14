"""A bot rebuilt from another source than its file on disk is the same bot, PARAMS and all.

A git baseline, a file baseline, the tuner's copy, a Dask worker's spec, a resumed run's
spec, an experiment's relative path and the trump study's test opponent each rebuild a
strategy; each must carry the bot file's own parameter values. The bot here is
``tests/bots/toy.py``, whose play depends on its parameters: with its defaults it plays
``longest`` with a miss chance of 0.4, with every parameter 0 it plays at random, so a
baseline that lost its PARAMS plays a different bot and the regression test says so.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

import hokm_sim
from hokm_sim.analysis import tune
from hokm_sim.analysis.regress import resolve_baseline
from hokm_sim.bots.registry import Strategy, portable_spec, resolve
from hokm_sim.cli import main

TOY = Path(__file__).parent / "bots" / "toy.py"
DEFAULTS = (5.0, 5.0)


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    """A git repository holding the toy bot, committed: the bot file at HEAD."""
    if shutil.which("git") is None:
        pytest.skip("needs git")
    top = tmp_path_factory.mktemp("botrepo")
    shutil.copy(TOY, top / "toy.py")
    git = ["git", "-C", str(top), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "toy"], check=True)
    return top / "toy.py"


def _params(s: Strategy) -> tuple[tuple[float, ...], tuple[float, ...]]:
    return s.trump_params, s.play_params


def test_a_strategy_built_from_a_bots_parts_has_the_bots_defaults():
    bot = resolve(str(TOY)).play
    s = Strategy(name="parts", trump=bot, play=bot)
    assert _params(s) == (DEFAULTS, DEFAULTS)
    assert s.to_dict()["play"]["params"] == {"p0": 5.0, "p1": 5.0}
    with pytest.raises(ValueError, match=r"play_params of 'short' has 1 values; .*p0, p1"):
        Strategy(name="short", trump=bot, play=bot, play_params=(1.0,))


def test_every_rebuilt_source_keeps_the_params(repo, tmp_path):
    cand = resolve(str(repo))
    assert _params(cand) == (DEFAULTS, DEFAULTS)
    # git baseline and file baseline (a copy elsewhere)
    assert _params(resolve_baseline("git:HEAD", str(repo))) == _params(cand)
    copy = tmp_path / "old_toy.py"
    shutil.copy(repo, copy)
    assert _params(resolve_baseline(str(copy), str(repo))) == _params(cand)
    # the spec a Dask worker resolves; the spec a resumed run resolves (its recorded name)
    assert _params(resolve(portable_spec(cand))) == _params(cand)
    given = resolve(f"{repo}(p1=6)")
    assert _params(resolve(given.name)) == ((5.0, 6.0), (5.0, 6.0))
    # an experiment's bot path, relative to the experiment file
    assert _params(resolve("toy.py", repo.parent)) == _params(cand)
    # the tuner's copy at its starting point
    p = tune.parse_param("p0=0:10", cand)
    assert _params(tune.with_values(cand, [p], [p.start])) == _params(cand)
    # the trump study's test opponent: longest's call with the player's play
    play = resolve(f"{repo}(p0=4)")
    base = Strategy(name="t", trump=resolve("longest").trump, play=play.play,
                    play_params=play.play_params)  # fmt: skip
    assert base.play_params == (4.0, 5.0) and base.trump_params == ()


def _counts(a: str | Strategy) -> list[int]:
    """A's raw counts against ``longest`` on a fixed seed."""
    return hokm_sim.run(a, "longest", hands=2000, seed=5, threads=1).to_dict()["counts"]


def test_an_unedited_bot_and_its_baselines_play_identical_counts(repo, tmp_path):
    copy = tmp_path / "copy" / "toy.py"
    copy.parent.mkdir()
    shutil.copy(repo, copy)
    own = _counts(str(repo))
    assert _counts(resolve_baseline("git:HEAD", str(repo))) == own
    assert _counts(resolve_baseline(str(copy), str(repo))) == own
    # a bot that lost its PARAMS (each 0) plays at random: other counts
    assert _counts(f"{repo}(p0=0,p1=0)") != own


def test_regress_against_git_head_gives_a_verdict_and_its_record(repo):
    """The README's example after no edit: a verdict, never an internal error."""
    out = CliRunner().invoke(
        main, ["regress", str(repo), "--seed", "1", "--max-pairs", "2000", "--json"]
    )
    assert out.exit_code in (0, 3), out.output
    d = json.loads(out.output)
    assert d["exit_code"] == out.exit_code and d["config"]["baseline"] == "toy@git:HEAD"
    assert d["config"]["strategies"]["baseline"]["play"]["params"] == {"p0": 5.0, "p1": 5.0}
