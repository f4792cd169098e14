"""Strategies that break the rules: caught where the reference says, reported replayably.

The bot file ``tests/bots/faulty.py`` breaks the rules in the way its
``mode`` parameter says (highest card whatever the led suit, a card it does
not hold, trump suit 7, or random faults). One file serves every case, so
one compiled engine per seating (and it stays cached on disk between runs).

- The engine stops at the first bad card or suit: every card before it is
  legal by the reference, and the bad one is not.
- ``trace``, ``show`` and ``bench`` exit with code 1 and one ``Error:`` line
  naming the strategy spec, seed, hand, trick and card, with a
  ``hokm-sim show ...`` hint; running the hint gives the same error.
- ``Runner.counts`` (hands and matches, duplicate or not) and the trace
  methods raise :class:`StrategyFault` with the same information.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hokm_checks import check_partial_plays, check_row, error_plays

from hokm_sim import reference as ref
from hokm_sim.cards import card_str
from hokm_sim.cli import main
from hokm_sim.engine import kernels as k
from hokm_sim.engine.boundary import TraceHands
from hokm_sim.engine.records import ERR_BAD_TRUMP, ERR_ILLEGAL_CARD
from hokm_sim.sim.runner import StrategyFault

BOT = Path(__file__).resolve().parent / "bots" / "faulty.py"
SEED = 11


def spec(mode: int) -> str:
    return f"{BOT}(mode={mode})"


CLEAN = spec(5)
"""The opponent: faulty.py playing by the rules (one engine for every seating)."""


def raw_rows(r, seed: int, count: int, copy: int = 0, start: int = 0) -> np.ndarray:
    """Trace rows straight from the engine, stopping at (and keeping) an error row."""
    return r.engine.trace_hands(r.params, TraceHands(seed, start, count, copy, -1))


def first_fault(r, seed: int, count: int = 200, copy: int = 0) -> np.ndarray:
    """The error row of the first faulty deal; the rows before it must be valid hands."""
    rows = raw_rows(r, seed, count, copy)
    assert rows[-1, k.T_ERROR] != 0, "no strategy error in the traced deals"
    for row in rows[:-1]:
        check_row(row, seed)
    return rows[-1]


def fault_text(row: np.ndarray) -> tuple[int, str]:
    """(hand, what the message must say about the trick and card) for an error row."""
    code, seat, trick, card = (
        int(x) for x in row[[k.T_ERROR, k.T_ERR_SEAT, k.T_ERR_TRICK, k.T_ERR_CARD]]
    )
    if code == ERR_BAD_TRUMP:
        return int(row[k.T_HAND]), f"bad trump suit {card}"
    shown = card_str(card) if 0 <= card < 52 else str(card)
    return int(row[k.T_HAND]), f"illegal card {shown} (seat {seat})"


# --------------------------------------------------------------------------- engine


@pytest.mark.parametrize("mode", [0, 1, 3])
@pytest.mark.parametrize("faulty_side", ["a", "b"])
def test_engine_stops_at_the_first_illegal_card(runner, mode, faulty_side):
    pair = (spec(mode), CLEAN) if faulty_side == "a" else (CLEAN, spec(mode))
    r = runner(*pair)
    for seed in (SEED, SEED + 1, SEED + 2):
        row = first_fault(r, seed)
        code, seat, trick, card = (
            int(x) for x in row[[k.T_ERROR, k.T_ERR_SEAT, k.T_ERR_TRICK, k.T_ERR_CARD]]
        )
        assert code == ERR_ILLEGAL_CARD
        assert seat % 2 == (0 if faulty_side == "a" else 1), "the fault is blamed on the wrong team"
        deck = [int(c) for c in row[k.T_DECK : k.T_DECK + 52]]
        plays = error_plays(row)
        check_partial_plays(deck, int(row[k.T_HAKEM]), int(row[k.T_TRUMP]), plays, seat, trick,
                            card)  # fmt: skip
        if mode == 1:  # legal lowest cards for two tricks, then a card not held
            assert trick == 2 and card not in _held(row, seat, plays)


def _held(row: np.ndarray, seat: int, plays: list[int]) -> set[int]:
    deck = [int(c) for c in row[k.T_DECK : k.T_DECK + 52]]
    return set(ref.deal(deck, int(row[k.T_HAKEM]))[seat]) - set(plays)


@pytest.mark.parametrize("faulty_side", ["a", "b"])
def test_engine_catches_a_bad_trump_suit(runner, faulty_side):
    pair = (spec(2), CLEAN) if faulty_side == "a" else (CLEAN, spec(2))
    rows = raw_rows(runner(*pair), SEED, 50)
    # Deal d's Hakem is seat d % 4: the first deal with the faulty side as Hakem stops the run.
    first = 0 if faulty_side == "a" else 1
    assert rows.shape[0] == first + 1
    for row in rows[:-1]:
        check_row(row, SEED)
    err = rows[-1, [k.T_ERROR, k.T_ERR_SEAT, k.T_ERR_TRICK, k.T_ERR_CARD]].tolist()
    assert err == [ERR_BAD_TRUMP, first, -1, 7]


# --------------------------------------------------------------------------- Runner


def test_runner_trace_hands_raises_strategy_fault(runner):
    r = runner(spec(0), CLEAN)
    row = first_fault(r, SEED)
    hand = int(row[k.T_HAND])
    with pytest.raises(StrategyFault) as info:
        r.trace_hands(SEED, 0, 200)
    exc = info.value
    assert (exc.strategy, exc.seed, exc.match, exc.hand) == (spec(0), SEED, None, hand)
    assert (exc.seat, exc.trick, exc.card) == tuple(
        int(x) for x in row[[k.T_ERR_SEAT, k.T_ERR_TRICK, k.T_ERR_CARD]]
    )
    _check_message(str(exc), spec(0), SEED, row)
    assert exc.replay == f"hokm-sim show --seed {SEED} --hand {hand} --a '{spec(0)}' --b '{CLEAN}'"


def _check_message(
    msg: str, strategy: str, seed: int, row: np.ndarray, replay: bool = True
) -> str | None:
    """Check a fault message names everything; return its replay hint (None, and none
    given, where ``replay`` is false: the message of the replay itself)."""
    assert "\n" not in msg
    hand, what = fault_text(row)
    trick = int(row[k.T_ERR_TRICK])
    assert repr(strategy) in msg or f"'{strategy}'" in msg
    assert f"seed {seed}," in msg
    assert f"hand {hand}," in msg
    assert what in msg, (what, msg)
    assert re.search(f"trick {trick + 1}(;|$)", msg) if trick >= 0 else ("trump" in msg)
    if not replay:
        assert "replay it with" not in msg
        return None
    hint = msg.split("replay it with: ", 1)[1]
    assert hint.startswith("hokm-sim show ")
    return hint


@pytest.mark.parametrize(
    ("pair", "faulty"),
    [((0, None), "a"), ((None, 1), "b"), ((None, 2), "b")],
    ids=["highest-card-as-A", "not-held-as-B", "bad-trump-as-B"],
)
@pytest.mark.parametrize("duplicate", [False, True])
def test_runner_counts_raises_a_replayable_fault(runner, pair, faulty, duplicate):
    a, b = (spec(m) if m is not None else CLEAN for m in pair)
    r = runner(a, b)
    with pytest.raises(StrategyFault) as info:
        r.counts(SEED, 20_000, duplicate=duplicate)
    exc = info.value
    assert exc.strategy == (a if faulty == "a" else b)
    # Without duplicate the fault is the first in deal order, as a trace finds it.
    if not duplicate:
        row = first_fault(r, SEED)
        assert exc.hand == int(row[k.T_HAND])
        hint = _check_message(str(exc), exc.strategy, SEED, row)
    else:
        assert f"{exc.strategy!r}" in str(exc) and f"seed {SEED}, hand {exc.hand}," in str(exc)
        assert f"trick {exc.trick + 1};" in str(exc) if exc.trick >= 0 else "trump" in str(exc)
        hint = exc.replay
    result = _invoke(shlex.split(hint)[1:])
    assert result.exit_code == 4
    assert _error_line(result) == _as_replayed(exc), "the replay hint gives another error"


def test_duplicate_copy_fault_is_replayed_from_the_swapped_copy(runner):
    """Bad trump as B: copy 0 of deal 0 is fine (A is Hakem), the swapped copy is not."""
    r = runner(CLEAN, spec(2))
    with pytest.raises(StrategyFault) as info:
        r.counts(SEED, 1000, duplicate=True, threads=1)
    exc = info.value
    assert (exc.hand, exc.seat, exc.trick, exc.card) == (0, 0, -1, 7)
    assert f"--a '{CLEAN}' --b '{spec(2)}' --copy 1" in exc.replay
    assert _error_line(_invoke(shlex.split(exc.replay)[1:])) == _as_replayed(exc)


def test_random_fault_in_duplicate_copy_replays(runner):
    r = runner(CLEAN, spec(3))
    found = 0
    for seed in range(8):
        try:
            r.counts(seed, 2000, duplicate=True, threads=1)
        except StrategyFault as exc:
            if "--copy 1" in exc.replay:  # the fault was in the swapped copy
                found += 1
                result = _invoke(shlex.split(exc.replay)[1:])
                assert _error_line(result) == _as_replayed(exc), (str(exc), result.output)
    assert found, "no fault in a swapped copy among these seeds"


@pytest.mark.parametrize("duplicate", [False, True])
def test_match_fault_is_replayed_by_show_match(runner, duplicate):
    r = runner(spec(1), CLEAN)
    with pytest.raises(StrategyFault) as info:
        r.counts(SEED, 500, matches=True, target=3, duplicate=duplicate)
    exc = info.value
    assert exc.strategy == spec(1) and exc.match is not None and exc.trick == 2
    assert f"match {exc.match}, hand {exc.hand}," in str(exc)
    assert "--match" in exc.replay and "--target 3" in exc.replay
    assert _error_line(_invoke(shlex.split(exc.replay)[1:])) == _as_replayed(exc)
    with pytest.raises(StrategyFault) as again:
        r.trace_match(SEED, exc.match, 3, int(f"--a '{spec(1)}'" not in exc.replay))
    assert str(again.value) == str(exc)


# --------------------------------------------------------------------------- CLI


def _as_replayed(exc: StrategyFault) -> str:
    """The error line of the show command ``exc`` names: ``exc``'s own, less that command
    (it is the one that ran)."""
    return f"Error: {str(exc).removesuffix(f'; replay it with: {exc.replay}')}"


def _invoke(args: list[str]):
    return CliRunner().invoke(main, args)


def _error_line(result) -> str:
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


CASES = {
    "highest-card-as-A": (0, "a"),
    "not-held-as-B": (1, "b"),
    "bad-trump-as-A": (2, "a"),
    "bad-trump-as-B": (2, "b"),
}


@pytest.mark.parametrize("command", ["trace", "show", "bench"])
@pytest.mark.parametrize("case", list(CASES))
def test_cli_reports_a_fault_in_one_line_and_replays_it(runner, command, case):
    mode, side = CASES[case]
    a, b = (spec(mode), CLEAN) if side == "a" else (CLEAN, spec(mode))
    seed = 1 if command == "bench" else SEED  # bench times seed 1
    row = first_fault(runner(a, b), seed)
    hand = int(row[k.T_HAND])
    args = {
        "trace": ["trace", "--seed", str(seed), "--hands", "200"],
        "show": ["show", "--seed", str(seed), "--hand", str(hand)],
        "bench": ["bench", "--hands", "20000", "--threads", "1"],
    }[command] + ["--a", a, "--b", b]
    result = _invoke(args)
    assert result.exit_code == 4, (result.output, result.exception)
    if command == "show":  # the hand up to and including the faulty card, then the error
        assert "stopped: seat" in result.stdout
    else:
        assert result.stdout == ""
    line = _error_line(result)
    assert line.startswith("Error: strategy ")
    # show is the replay: the command it would name is the one that ran
    hint = _check_message(line, spec(mode), seed, row, replay=command != "show")
    if hint is None:
        return
    replay = _invoke(shlex.split(hint)[1:])
    assert replay.exit_code == 4
    assert _error_line(replay) == line.removesuffix(f"; replay it with: {hint}")


ALLOCATING_BOT = '''"""Allocates an array in every decision."""

import numpy as np

from hokm_sim.bots.botkit import V_LEGAL, lowest, njit


@njit
def choose_trump(view, params, mem, rng):
    return 0


@njit
def play_card(view, params, mem, rng):
    scratch = np.zeros(4, np.int64)
    scratch[0] = lowest(view[V_LEGAL])
    return scratch[0]
'''

MISTYPED_BOT = '''"""Adds a string to a card."""

from hokm_sim.bots.botkit import V_LEGAL, lowest, njit


@njit
def choose_trump(view, params, mem, rng):
    return 0


@njit
def play_card(view, params, mem, rng):
    return lowest(view[V_LEGAL]) + "x"
'''


LETTER_TRUMP_BOT = '''"""Names trump by its letter, not its number."""

from hokm_sim.bots.botkit import V_LEGAL, lowest, njit


@njit
def choose_trump(view, params, mem, rng):
    return "C"


@njit
def play_card(view, params, mem, rng):
    return lowest(view[V_LEGAL])
'''


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        (ALLOCATING_BOT, "allocates memory inside a decision"),
        (MISTYPED_BOT, "No implementation"),
        (MISTYPED_BOT.replace('+ "x"', "+ undefined_name"), "'undefined_name' is not defined"),
    ],
)
def test_a_bot_that_does_not_compile_is_one_line_naming_its_file(
    tmp_path, monkeypatch, source, reason
):
    monkeypatch.setenv("HOKM_SIM_INLINE", "1")  # inlined, as users get it, a bot may not allocate
    bot = tmp_path / "broken_bot.py"
    bot.write_text(source)
    res = CliRunner().invoke(
        main, ["trace", "--seed", "1", "--hands", "2", "--a", str(bot), "--b", "random"]
    )
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1, res.output
    assert lines[0].startswith("Error: a strategy does not compile into the engine at ")
    assert "broken_bot.py line " in lines[0] and reason in lines[0]


def test_a_decision_returning_no_int_is_named_with_its_line_and_what_it_must_return(
    tmp_path, monkeypatch
):
    """numba rejects the return where the engine's generated module takes it, not in the
    bot: the line still names the bot file, the return's line and what the decision
    returns, and nothing of the engine's own variables."""
    monkeypatch.setenv("HOKM_SIM_INLINE", "1")
    bot = tmp_path / "letter_bot.py"
    bot.write_text(LETTER_TRUMP_BOT)
    res = CliRunner().invoke(
        main, ["trace", "--seed", "1", "--hands", "2", "--a", str(bot), "--b", "random"]
    )
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1, res.output
    assert lines[0].startswith(
        f"Error: a strategy does not compile into the engine at {bot} line 8: "
    )
    assert "choose_trump must return an int suit 0..3" in lines[0]
    assert "return_value" not in lines[0] and "defined at" not in lines[0]
