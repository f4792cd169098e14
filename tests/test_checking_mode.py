"""The checking mode: numba's bounds checks for the first run of a new or edited bot file
and for ``regress``; a compiled bot that writes out of bounds is a bot fault (exit 4).

One engine is compiled here: ``tests/bots/wild.py`` against ``random``, checked.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from hokm_sim.bots import compiled
from hokm_sim.bots.registry import resolve
from hokm_sim.cli import main
from hokm_sim.errors import InputError

WILD = str(Path(__file__).parent / "bots" / "wild.py")


@pytest.fixture
def policy(monkeypatch):
    """The default policy (no HOKM_SIM_BOUNDSCHECK), as in a fresh process."""
    monkeypatch.delenv("HOKM_SIM_BOUNDSCHECK", raising=False)
    monkeypatch.setattr(compiled, "_checked_here", set())
    return monkeypatch


def test_a_new_bot_file_is_checked_on_its_first_run_only(policy, tmp_path):
    bot = tmp_path / "mine.py"
    shutil.copy(WILD, bot)
    new, rnd = resolve(str(bot)), resolve("random")
    first = compiled.engine_for(new, rnd)
    assert first.name.endswith(compiled.CHECKED) and first.checked is True
    assert compiled.engine_for(new, rnd) is first  # this process keeps it
    policy.setattr(compiled, "_checked_here", set())  # the next process
    later = compiled.engine_for(new, rnd)
    assert not later.name.endswith(compiled.CHECKED) and later.checked is False
    assert compiled.engine_key(first) == compiled.engine_key(later)  # one key: resumable
    bot.write_text(bot.read_text() + "\n# edited\n")
    edited = compiled.engine_for(resolve(str(bot)), rnd)
    assert edited.name.endswith(compiled.CHECKED)
    assert compiled.engine_key(edited) != compiled.engine_key(later)


def test_built_in_pairs_are_never_checked_unless_asked(policy):
    a, b = resolve("longest"), resolve("random")
    assert not compiled.engine_for(a, b).name.endswith(compiled.CHECKED)
    assert compiled.engine_for(a, b, checked=True).name.endswith(compiled.CHECKED)
    policy.setenv("HOKM_SIM_BOUNDSCHECK", "1")
    assert compiled.engine_for(a, b, checked=False).name.endswith(compiled.CHECKED)
    policy.setenv("HOKM_SIM_BOUNDSCHECK", "yes")
    with pytest.raises(InputError, match="expected 1 .check. or 0"):
        compiled.engine_for(a, b)


def test_regress_plays_in_the_checking_mode(policy):
    from hokm_sim import api
    from hokm_sim.analysis import regress

    seen = []

    class Backend:
        def batches(self, runner, work, ranges, ordered=True):
            seen.append(runner.engine.checked)
            return iter(())

    class Open:
        def __enter__(self):
            return Backend()

        def __exit__(self, *exc):
            return False

    policy.setattr(regress, "open_backend", lambda scheduler, threads: Open())
    api.regress(WILD, "random", max_pairs=100, seed=1)
    assert seen == [True]


@pytest.mark.parametrize(("mode", "array"), [(1, "mem"), (2, "params"), (3, "view")])
def test_out_of_bounds_is_a_bot_fault_in_the_checking_mode(monkeypatch, tmp_path, mode, array):
    monkeypatch.setenv("HOKM_SIM_BOUNDSCHECK", "1")
    out = tmp_path / "r"
    args = ["run", f"{WILD}(mode={mode})", "random", "--hands", "300", "--seed", "1",
            "--threads", "1", "--out", str(out)]  # fmt: skip
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 4, (array, res.output)
    err = res.stderr.strip()
    assert "\n" not in err and "raised IndexError: index is out of bounds" in err
    assert "at seed 1, hand 0" in err and f"(partial report: {out})" in err


def test_a_bot_that_fails_its_check_is_checked_again(policy, tmp_path):
    """A first run stopped by a bounds fault has not shown the bot sound: the next
    process checks it again rather than playing it unchecked."""
    bot = tmp_path / "mine.py"
    shutil.copy(WILD, bot)
    args = ["run", f"{bot}(mode=1)", "random", "--hands", "300", "--seed", "1",
            "--threads", "1", "--out", str(tmp_path / "r")]  # fmt: skip
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 4 and "IndexError" in res.stderr, res.output
    policy.setattr(compiled, "_checked_here", set())  # the next process
    assert compiled.engine_for(resolve(str(bot)), resolve("random")).checked is True


def test_a_served_bot_file_is_checked_on_its_first_use(policy, tmp_path):
    """``hokm-sim serve`` (and an environment's seat) of a new bot file: its own seat
    module, checked the first time, where an index out of bounds is an error line."""
    from test_serve import table_requests

    from hokm_sim.serving.decider import Served, ServedFault, reply

    bot = tmp_path / "mine.py"
    shutil.copy(WILD, bot)
    first = compiled.seat_module(resolve(str(bot)).play)
    assert first.__name__.endswith(compiled.CHECKED) and first.BOUNDSCHECK is True
    card = next(q for q, _ in table_requests("longest", 1) if q["kind"] == "card")
    served = Served(resolve(f"{bot}(mode=1)"))
    with pytest.raises(ServedFault, match="raised IndexError: index is out of bounds"):
        reply(served, {"type": "decide", "requests": [card]})
    policy.setattr(compiled, "_checked_here", set())  # the next process
    assert not compiled.seat_module(resolve(str(bot)).play).__name__.endswith(compiled.CHECKED)
