"""``show`` of a hand a bot broke: the hand up to and including the faulty card."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from hokm_sim.cli import main

BOT = Path(__file__).resolve().parent / "bots" / "faulty.py"


def test_show_prints_the_hand_up_to_the_illegal_card():
    spec = f"{BOT}(mode=1)"  # from the third trick on, a card it does not hold
    res = CliRunner().invoke(main, ["show", "--seed", "1", "--hand", "0", "--a", spec])
    assert res.exit_code == 4
    out = res.stdout.splitlines()
    tricks = [line for line in out if line.startswith("trick ")]
    assert [t.split()[1] for t in tricks] == ["1", "2", "3"]
    assert "won by seat" in tricks[0] and "won by seat" in tricks[1]
    assert tricks[2].rstrip().endswith("0: 2♣!")  # seat 0's card, marked, closes the hand
    assert out[-1] == f"stopped: seat 0 [{spec}] played ILLEGAL 2♣"
    assert res.stderr.startswith("Error: strategy ") and "trick 3" in res.stderr
