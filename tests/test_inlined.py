"""The engines users get, bots and card loop inlined, play what the suite's engines play.

The rest of the suite compiles engines that call their bots and their card loop
(``HOKM_SIM_INLINE=0``, set in conftest.py): the same source and the same counts
in less than half the compile time. Here the default, inlined engines of two
pairs (``longest``, the bot of most tests, and ``expert``, the largest of the
built-in bots) are compiled and must agree with the called ones count for count
in duplicate on two threads, and, for ``longest``, in matches (the match loop
inlines the card loop on its own).
"""

from __future__ import annotations

import numpy as np
import pytest

from hokm_sim.bots.compiled import CALLED, inlining
from hokm_sim.bots.registry import resolve
from hokm_sim.errors import InputError
from hokm_sim.sim.runner import Runner


def inlined(a: str, b: str) -> Runner:
    """The Runner of the default, inlined engine for ``a`` against ``b``."""
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("HOKM_SIM_INLINE")
        assert inlining()
        return Runner(resolve(a), resolve(b))


def test_the_inlined_longest_engine_plays_what_the_called_one_plays(runner):
    called, fast = runner("longest", "random"), inlined("longest", "random")
    assert called.engine.__name__.endswith(CALLED)
    assert not fast.engine.__name__.endswith(CALLED) and fast.engine_key == called.engine_key
    for kw in ({"duplicate": True}, {"matches": True, "duplicate": True, "target": 7}):
        n = 40 if kw.get("matches") else 3000
        want = called.counts(7, n, threads=2, chunk=128, **kw)
        np.testing.assert_array_equal(fast.counts(7, n, threads=2, chunk=128, **kw), want)


def test_the_inlined_expert_engine_plays_what_the_called_one_plays(runner):
    called, fast = runner("expert", "random"), inlined("expert", "random")
    want = called.counts(3, 3000, duplicate=True, threads=2, chunk=128)
    np.testing.assert_array_equal(fast.counts(3, 3000, duplicate=True, threads=2, chunk=128), want)


@pytest.mark.parametrize("value", ["2", "yes", "off"])
def test_a_bad_inline_setting_is_refused_naming_the_choices(monkeypatch, value):
    monkeypatch.setenv("HOKM_SIM_INLINE", value)
    with pytest.raises(InputError, match=r"HOKM_SIM_INLINE=.*expected 1 .* or 0"):
        inlining()
