"""The engines users get, bots and card loop inlined, play what the suite's engines play.

The rest of the suite plays every pair with the engine that calls its bots
through function pointers (``HOKM_SIM_INLINE=0``, set in conftest.py). Here the
default, inlined engine of ``longest`` against ``random`` is compiled and must
agree with it count for count on two threads, in duplicate deals. The bots are
bound in the same way for every pair and every entry point (the match loop
runs the same card loop as the deals loop), so one pair in one entry point
checks the binding: each more costs 15 to 30 s of CPU to compile.
"""

from __future__ import annotations

import numpy as np
import pytest

from hokm_sim.bots.compiled import CALLED
from hokm_sim.bots.registry import resolve
from hokm_sim.errors import InputError
from hokm_sim.inlining import inlining
from hokm_sim.sim.runner import Runner


def inlined(a: str, b: str) -> Runner:
    """The Runner of the default, inlined engine for ``a`` against ``b``."""
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("HOKM_SIM_INLINE")
        assert inlining()
        return Runner(resolve(a), resolve(b))


def test_the_inlined_engine_plays_what_the_called_one_plays(runner):
    called, fast = runner("longest", "random"), inlined("longest", "random")
    assert called.engine.__name__.endswith(CALLED)
    assert not fast.engine.__name__.endswith(CALLED) and fast.engine_key == called.engine_key
    kw = {"duplicate": True, "threads": 2, "chunk": 128}
    np.testing.assert_array_equal(fast.counts(3, 3000, **kw), called.counts(3, 3000, **kw))


def test_every_called_pair_is_played_by_one_compiled_engine(runner):
    """What makes the suite's pairs cheap: one compiled entry point, the bots passed in."""
    one, other = runner("longest", "random"), runner("expert", "random")
    assert one.engine.__name__ != other.engine.__name__
    assert one.engine.trace_hands.func is other.engine.trace_hands.func
    assert one.engine.trace_hands.args[0] is not other.engine.trace_hands.args[0]


@pytest.mark.parametrize("value", ["2", "yes", "off"])
def test_a_bad_inline_setting_is_refused_naming_the_choices(monkeypatch, value):
    monkeypatch.setenv("HOKM_SIM_INLINE", value)
    with pytest.raises(InputError, match=r"HOKM_SIM_INLINE=.*expected 1 .* or 0"):
        inlining()
