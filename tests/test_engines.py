"""The engines of a pair of compiled bots play the same counts: generic, specialised, and a
run that moves from one to the other at a batch boundary.

The rest of the suite plays every pair with the generic engine, the default, which calls
each bot's own compiled unit through a function pointer. Here the specialised engine of
``longest`` against ``random`` (bots inlined into the card loop) is compiled and must agree
with it count for count on two threads, in duplicate deals, as must a run that starts
generic and moves to the specialised engine midway, both by hand and through the
background compilation of ``auto``. The bots are bound in the same way for every pair
and every entry point, so one pair checks the binding: each more costs 15 to 30 s of
CPU to compile.
"""

from __future__ import annotations

import numpy as np
import pytest

from hokm_sim.bots.called import CalledEngine
from hokm_sim.bots.compiled import CALLED
from hokm_sim.bots.registry import resolve
from hokm_sim.engine.records import N_COUNTS
from hokm_sim.errors import InputError
from hokm_sim.inlining import engine_kind
from hokm_sim.sim.runner import Runner

KW = {"duplicate": True, "threads": 2, "chunk": 128}


def specialised(a: str, b: str) -> Runner:
    """The Runner of the specialised engine for ``a`` against ``b``."""
    return Runner(resolve(a), resolve(b), engine="specialised")


def _batches(runner: Runner, switch_after: int | None = None) -> np.ndarray:
    """Counts of seed 3's first 3,000 deals in batches of 600, moving ``runner`` to the
    specialised engine after batch ``switch_after``."""
    out = np.zeros(N_COUNTS, np.int64)
    for i, batch in enumerate(runner.batches(3, 3000, per_batch=600, **KW)):
        out += batch.counts
        if i == switch_after:
            runner.engine = specialised("longest", "random").engine
    return out


def test_the_specialised_engine_plays_what_the_generic_one_plays(runner):
    generic, fast = runner("longest", "random"), specialised("longest", "random")
    assert isinstance(generic.engine, CalledEngine) and generic.engine.name.endswith(CALLED)
    assert not fast.engine.name.endswith(CALLED) and fast.engine_key == generic.engine_key
    want = generic.counts(3, 3000, **KW)
    np.testing.assert_array_equal(fast.counts(3, 3000, **KW), want)
    switched = Runner(resolve("longest"), resolve("random"), engine="generic")
    np.testing.assert_array_equal(_batches(switched, switch_after=1), want)
    assert switched.engine is fast.engine


def test_auto_moves_to_the_specialised_engine_compiled_in_the_background(monkeypatch, runner):
    monkeypatch.setenv("HOKM_SIM_SPECIALISE_AFTER", "0")  # every run is long enough
    want = runner("longest", "random").counts(3, 3000, **KW)
    auto = Runner(resolve("longest"), resolve("random"))
    assert auto.kind == "auto" and isinstance(auto.engine, CalledEngine)
    out = np.zeros(N_COUNTS, np.int64)
    engines = []
    for batch in auto.batches(3, 3000, per_batch=600, **KW):
        out += batch.counts
        engines.append(type(auto.engine).__name__)
        if auto._specialiser is not None:
            assert auto._specialiser.wait(timeout=600)  # compiled by a child process
    np.testing.assert_array_equal(out, want)
    assert engines[0] == "CalledEngine" and engines[-1] == "SpecialisedEngine"
    assert auto.kind == "specialised"


def test_every_generic_pair_is_played_by_one_compiled_engine(runner):
    """What makes a new pair cheap: one compiled entry point, the bots passed in."""
    one, other = runner("longest", "random"), runner("expert", "random")
    assert one.engine.name != other.engine.name
    assert one.engine._entry("trace_hands") is other.engine._entry("trace_hands")
    assert one.engine._seats[0] is not other.engine._seats[0]


def test_a_bad_engine_is_refused_naming_the_choices(monkeypatch):
    monkeypatch.setenv("HOKM_SIM_ENGINE", "fast")
    with pytest.raises(InputError, match=r"HOKM_SIM_ENGINE='fast': expected auto, generic, spec"):
        engine_kind()
    with pytest.raises(InputError, match=r"bad engine 'inlined': expected auto, generic, spec"):
        engine_kind("inlined")
    monkeypatch.setenv("HOKM_SIM_SPECIALISE_AFTER", "soon")
    from hokm_sim.sim.specialise import specialise_after

    with pytest.raises(InputError, match="HOKM_SIM_SPECIALISE_AFTER='soon': expected seconds"):
        specialise_after()
