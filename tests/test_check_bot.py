"""``hokm-sim check-bot``: conformant bots pass every step, faulty ones fail where they break.

The positions cover every kind of request (tests the generator too); the
example bots pass; ``tests/bots/protobot.py`` in its faulty modes fails the
step its fault belongs to, the steps after a dead bot are skipped, and the
exit code is 0 or 4.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from hokm_sim import reference as ref
from hokm_sim.cli import main
from hokm_sim.protocol.check import KINDS, check_bot, positions
from hokm_sim.protocol.wire import CARD_INDEX

ROOT = Path(__file__).resolve().parents[1]
PROTOBOT = ROOT / "tests" / "bots" / "protobot.py"


def test_positions_cover_every_kind_and_are_legal():
    reqs = positions(3, 300)
    seen = Counter(k for _, kinds in reqs for k in kinds)
    assert all(seen[k] > 0 for k in KINDS)
    assert len({r["id"] for r, _ in reqs}) == 300 and positions(3, 300) == reqs
    for r, kinds in reqs:
        if r["kind"] == "card":
            plays = [CARD_INDEX[c] for c in r["plays"]]
            trick = plays[len(plays) - len(plays) % 4 :]
            hand = [CARD_INDEX[c] for c in r["hand"]]
            assert sorted(CARD_INDEX[c] for c in r["legal"]) == ref.legal_cards(sorted(hand), trick)
        if "the last trick" in kinds:
            assert len(r["hand"]) == 1 and r["tricks"] == [6, 6]


@pytest.mark.parametrize("lang", ["c", "js"])
def test_the_example_bots_are_conformant(lang, c_bot, node):
    argv = ([c_bot("examples/bots/longest.c")] if lang == "c"
            else [node, str(ROOT / "examples" / "bots" / "longest.js")])  # fmt: skip
    res = check_bot(argv, batch=200, singles=20)
    assert res.passed, [c for c in res.checks if not c.ok]
    assert res.hello["name"] == f"longest.{lang}" and len(res.single) == 27


@pytest.mark.parametrize(
    ("mode", "failed", "what"),
    [
        ("illegal", "a batch of", "not one of its legal cards"),
        ("garbage", "a batch of", "not JSON"),
        ("hello-protocol", "starts and answers hello", "speaks protocol 'hokm-bot/2'"),
        ("exit", "a batch of", "exited with status 3 before bye"),
    ],
)
def test_faulty_bots_fail_the_step_of_their_fault(mode, failed, what):
    res = check_bot([sys.executable, str(PROTOBOT), mode], timeout=30, batch=200, singles=5)
    bad = [c for c in res.checks if c.ok is False]
    assert bad and bad[0].name.startswith(failed) and what in bad[0].detail
    assert res.exit_code == 4
    if mode in ("exit", "hello-protocol"):  # the bot is gone: the rest is skipped
        after = res.checks[res.checks.index(bad[0]) + 1 :]
        assert after and all(c.ok is None for c in after)


def test_a_bot_answering_from_elsewhere_than_the_request_fails():
    res = check_bot([sys.executable, str(ROOT / "tests" / "bots" / "protorandom.py")],
                    timeout=30, batch=300, singles=5)  # fmt: skip
    bad = [c for c in res.checks if c.ok is False]
    assert [c.name for c in bad] == ["the same batch in reverse order gets the same answers"]
    assert "answer from the request alone" in bad[0].detail


def test_the_command_prints_each_step_and_exits_0_or_4(c_bot):
    cli = CliRunner()
    res = cli.invoke(main, ["check-bot", f"exec:{c_bot('examples/bots/longest.c')}",
                            "--batch", "100"])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "12 of 12 checks passed: conformant" in res.output
    assert "time per decision: median" in res.output
    res = cli.invoke(main, ["check-bot", f"exec:{sys.executable} {PROTOBOT} illegal", "--json"])
    assert res.exit_code == 4
    assert json.loads(res.output)["passed"] is False
    res = cli.invoke(main, ["check-bot", "no-such-bot"])
    assert res.exit_code == 2 and res.output.count("\n") == 1 and "unknown strategy" in res.output
    res = cli.invoke(main, ["check-bot", "exec:./no/such/program"])
    assert res.exit_code == 2 and "does not exist" in res.output


def test_a_hokm_sim_strategy_is_checked_as_served():
    cli = CliRunner()
    res = cli.invoke(main, ["check-bot", "longest", "--batch", "100", "--bot-timeout", "120"])
    assert res.exit_code == 0, res.output
    assert "longest 0." in res.output  # the served bot's hello: name and version
