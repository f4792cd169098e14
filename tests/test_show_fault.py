"""``show`` of a hand a bot broke: the hand up to and including the faulty card, or up to
the fault of a protocol (``exec:``) bot, which plays no card."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
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
    assert "replay it with" not in res.stderr  # this is the replay: the hand is shown above


PROTOBOT = Path(__file__).resolve().parent / "bots" / "protobot.py"


@pytest.mark.parametrize(
    ("mode", "what"),
    [
        ("illegal", "answered 2C, a card it does not hold, not one of its legal cards "),
        ("garbage", "answered a line that is not JSON: 'this is not json'"),
        ("exit", "exited with status 3 before bye; its last stderr line: 'boom: cannot go on'"),
    ],
)
def test_show_of_a_protocol_bot_fault_prints_the_hand_up_to_it(mode, what):
    """The replay command of an ``exec:`` bot's fault shows the cards played up to it
    (it repeated the fault and showed no hand); the fault goes to seat 1 at the first
    message of trick 3 (``protobot.py``), so seat 0's lead is the last card."""
    spec = f"exec:{sys.executable} {PROTOBOT} {mode}"
    args = ["show", "--seed", "3", "--hand", "0", "--a", spec, "--b", "random", "--copy", "1"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 4, res.output
    out = res.stdout.splitlines()
    tricks = [line for line in out if line.startswith("trick ")]
    assert [t.split()[1] for t in tricks] == ["1", "2", "3"]
    assert "won by seat" in tricks[1] and tricks[2].split()[2:] == ["0:", "J♠"]
    assert out[-1].startswith(f"stopped: seat 1 [{spec}] {what}")
    assert res.stderr.startswith(f"Error: strategy {spec!r} {what}")
    assert "trick 3" in res.stderr and "replay it with" not in res.stderr


def test_show_of_a_protocol_bot_that_fails_its_trump_call():
    spec = f"exec:{sys.executable} {PROTOBOT} suit"
    args = ["show", "--seed", "3", "--hand", "1", "--a", spec, "--b", "random", "--copy", "1"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 4, res.output
    out = res.stdout.splitlines()
    assert "trump: none (the call failed)" in out[1]
    assert not [line for line in out if line.startswith("trick ")]
    assert out[-1].startswith(f"stopped: seat 1 [{spec}] answered")
    assert "at trump choice" in res.stderr


def test_show_of_a_protocol_bot_fault_in_a_match():
    """Hands of the match before the fault are whole; the faulty one stops at it."""
    spec = f"exec:{sys.executable} {PROTOBOT} illegal"
    head = ["show", "--seed", "3", "--match", "0", "--a", spec, "--b", "random", "--copy", "1"]
    res = CliRunner().invoke(main, [*head, "--hand", "0"])
    assert res.exit_code == 4, res.output
    assert res.stdout.splitlines()[-1].startswith(f"stopped: seat 1 [{spec}] answered 2C")
    assert "match 0, hand 0, trick 3" in res.stderr
