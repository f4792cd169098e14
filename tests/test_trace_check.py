"""Trace lines checked against the rules, by the one validator of ``show --trace`` and
``analyse --trace``: an impossible hand is one line naming it, exit 2, in both."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hokm_sim.cli import main
from hokm_sim.sim.trace import row_to_record

SEED = 5


def _record(runner) -> dict:
    return row_to_record(runner("longest", "random").trace_hands(SEED, 0, 1)[0], SEED)


def _breaks(rec: dict, how: str) -> str:
    """Make ``rec`` impossible in the way ``how`` names; what the error must say."""
    tricks = rec["tricks"]
    if how == "trump X":
        rec["trump"] = "X"
        return "bad trump 'X': expected C, D, H or S"
    if how == "trump 9":
        rec["trump"] = 9
        return "bad trump 9"
    if how == "card ZZ":
        tricks[2]["cards"][1] = "ZZ"
        return "trick 3: bad card 'ZZ'"
    if how == "dealt twice":
        rec["hands"][1][4] = rec["hands"][0][4]
        return f"card {rec['hands'][0][4]} dealt twice"
    if how == "led by the wrong seat":
        tricks[1]["leader"] = (tricks[1]["leader"] + 1) % 4
        return "trick 2 is led by seat"
    if how == "won by the wrong seat":
        tricks[0]["winner"] = (tricks[0]["winner"] + 2) % 4
        return "trick 1 is won by seat"
    if how == "tricks 13-13":
        rec["tricks_won"] = [13, 13]
        return "tricks_won is"
    if how == "no tricks":
        rec["tricks"] = []
        return "the hand stops before either team has 7 tricks"
    if how == "14 tricks":
        rec["tricks"] = tricks + tricks
        return "a hand has at most 13"
    if how == "wrong winner team":
        rec["winner_team"] = 1 - rec["winner_team"]
        return "winner_team is"
    if how == "wrong points":
        rec["points"] = 3
        return "points is"
    if how == "wrong kind":
        rec["kind"] = "hakem_kot" if rec["kind"] != "hakem_kot" else "normal"
        return "kind is"
    if how == "wrong dealer":
        rec["dealer"] = rec["hakem"]
        return "the dealer sits on the Hakem's left"
    if how == "wrong first five":
        rec["first_five"] = rec["hands"][rec["hakem"]][1:6]
        return "first_five are not the first five cards"
    if how == "deck of other hands":
        rec["deck"] = rec["deck"][::-1]
        return "the deck does not deal these hands"
    if how == "negative seed":
        rec["seed"] = -1
        return "seed: bad value -1"
    if how == "hakem 4":
        rec["hakem"] = 4
        return "hakem: bad value 4: expected a seat"
    if how == "scores below the points":
        rec["scores"], rec["target"] = [0, 0], 7
        return "scores [0, 0]"
    raise AssertionError(how)


BREAKS = ["trump X", "trump 9", "card ZZ", "dealt twice", "led by the wrong seat",
          "won by the wrong seat", "tricks 13-13", "no tricks", "14 tricks", "wrong winner team",
          "wrong points", "wrong kind", "wrong dealer", "wrong first five", "deck of other hands",
          "negative seed", "hakem 4", "scores below the points"]  # fmt: skip


@pytest.mark.parametrize("how", BREAKS)
def test_an_impossible_trace_line_is_refused_by_show_and_analyse(how, tmp_path, runner):
    good = _record(runner)
    bad = copy.deepcopy(good)
    says = _breaks(bad, how)
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    for args in (["show", "--trace", str(path), "--line", "2"], ["analyse", "--trace", str(path)]):
        res = CliRunner().invoke(main, args)
        assert res.exit_code == 2, (args, res.output)
        err = res.stderr.strip()
        assert err.startswith(f"Error: --trace: {path} line 2: ") and "\n" not in err, err
        assert says in err, err
    res = CliRunner().invoke(main, ["show", "--trace", str(path), "--line", "1"])
    assert res.exit_code == 0 and res.stdout.startswith(f"seed {SEED}  match 0  hand 0")


def test_show_trace_takes_no_options_of_a_seeded_hand(tmp_path, runner):
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(_record(runner)) + "\n")
    for extra in (["--seed", "3", "--hand", "1"], ["--a", "expert"], ["--copy", "1"]):
        res = CliRunner().invoke(main, ["show", "--trace", str(path), *extra])
        assert res.exit_code == 2 and "--trace shows a hand of its file: drop" in res.stderr
        assert extra[0] in res.stderr
    res = CliRunner().invoke(main, ["show", "--seed", "3", "--hand", "1", "--line", "2"])
    assert res.exit_code == 2 and "--line picks a line of --trace FILE" in res.stderr


def test_a_bad_trump_call_is_shown_as_the_number_returned(monkeypatch):
    """``wild.py`` mode 5 names suit 9 at seed 3, deal 1023, in the swapped copy."""
    monkeypatch.setenv("HOKM_SIM_BOUNDSCHECK", "1")  # the engine test_checking_mode compiles
    wild = Path(__file__).parent / "bots" / "wild.py"
    args = ["show", "--seed", "3", "--hand", "1023", "--a", f"{wild}(mode=5)", "--b", "random",
            "--copy", "1"]  # fmt: skip
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 4, res.output
    assert "trump: none (the call failed)" in res.stdout
    assert res.stdout.rstrip().endswith("stopped: seat 3 (Hakem) called bad trump suit 9")
    assert "returned bad trump suit 9 (expected 0..3" in res.stderr
