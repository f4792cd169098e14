"""The engine's boundary (``hokm_sim/engine/boundary.py``): every kind of engine is an
:class:`Engine` called by name with the same named jobs and giving the same results;
error rows are read as faults; a command builds each pair's Runner once."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hokm_sim import api
from hokm_sim.bots import compiled
from hokm_sim.bots.called import CalledEngine
from hokm_sim.bots.compiled import SpecialisedEngine
from hokm_sim.bots.registry import resolve
from hokm_sim.bots.stepped import SteppedEngine
from hokm_sim.engine import stepper as st
from hokm_sim.engine import vector as vk
from hokm_sim.engine.boundary import (
    E_CODE,
    E_HAND,
    E_MATCH,
    E_SEAT,
    ERR_SIZE,
    Engine,
    Fault,
    Hands,
    Matches,
    Params,
    Study,
    StudyRows,
    Tally,
    TraceHands,
    TraceMatch,
    exact,
    fault_in,
    first_fault,
)
from hokm_sim.engine.kernels import TRACE_SIZE
from hokm_sim.engine.records import (
    C_MATCH_PAIR,
    C_PAIR,
    C_PAIR_SIZE,
    ERR_BAD_TRUMP,
    ERR_ILLEGAL_CARD,
    N_COUNTS,
)
from hokm_sim.engine.view import PARAM_SIZE
from hokm_sim.sim.runner import Runner

NO_PARAMS = Params(*np.zeros((2, 2, PARAM_SIZE)))  # every part plays outside: none read
PY_LONGEST = str(Path(__file__).resolve().parents[1] / "examples" / "python_bot.py")


@pytest.fixture(scope="module")
def engines(runner) -> dict[str, Runner]:
    """longest against random on each kind of engine (the Python port of longest on the
    stepped one, which plays the compiled bot's cards): pairs other tests compile too."""
    return {
        "generic": runner("longest", "random"),
        "specialised": Runner(resolve("longest"), resolve("random"), engine="specialised"),
        "stepped": Runner(resolve(PY_LONGEST), resolve("random")),
    }


def test_every_kind_of_engine_is_an_engine(engines):
    kinds = {kind: type(r.engine) for kind, r in engines.items()}
    assert kinds == {
        "generic": CalledEngine,
        "specialised": SpecialisedEngine,
        "stepped": SteppedEngine,
    }
    for r in engines.values():
        assert isinstance(r.engine, Engine)
        assert r.engine.name.startswith("hokm_engine_") and r.engine.checked is False


def _through(engine: Engine, params) -> list[np.ndarray]:
    """What each method of ``engine`` gives for the same jobs, called by name."""
    hands, matches = Tally.zeros(5, 300), Tally.zeros(3, 24)
    engine.hands(params, Hands(5, 0, 300, 64, True, -1), hands)
    engine.matches(params, Matches(7, 10, 24, 8, True, 3, 1), matches)
    study = StudyRows.zeros(40, 2)
    engine.study(params, Study(9, 20, 40, 32, True), study)
    return [
        hands.counts,
        hands.codes,
        matches.counts,
        matches.codes,
        study.rows,
        engine.trace_hands(params, TraceHands(5, 100, 6, 1, -1)),
        engine.trace_hands(params, TraceHands(5, 100, 6, 0, 2)),
        engine.trace_match(params, TraceMatch(5, 3, 1, 5, 2)),
    ]


def test_every_kind_plays_the_same_through_the_interface(engines):
    """The same jobs give the same counts, codes, study rows and trace rows on the generic
    and the stepped kinds (each chunk's row of counts too, so the chunks are the jobs'
    chunks), and the same counts and codes on the specialised kind. Its other entry
    points are left out: each is a compilation of the whole engine with the bots inlined,
    some 5 s of CPU, and they are the same kernels as the generic engine's."""
    specialised = engines["specialised"]
    got = {
        kind: _through(r.engine, r.params) for kind, r in engines.items() if r is not specialised
    }
    want = got.pop("generic")
    hands = Tally.zeros(5, 300)
    specialised.engine.hands(specialised.params, Hands(5, 0, 300, 64, True, -1), hands)
    assert np.array_equal(hands.counts, want[0]) and np.array_equal(hands.codes, want[1])
    assert want[0][:, C_PAIR : C_PAIR + C_PAIR_SIZE].sum() == 300 and (want[1] >= 0).all()
    assert want[2][:, C_MATCH_PAIR : C_MATCH_PAIR + 4].sum() == 24 and (want[3] >= 0).all()
    assert (want[4][:, 2] >= 0).all() and want[4][:, 3:7].any() and len(want[7]) >= 3
    for kind, rows in got.items():
        for i, (a, b) in enumerate(zip(want, rows, strict=True)):
            assert np.array_equal(a, b), (kind, i)


def test_each_entry_point_is_compiled_once_whatever_the_jobs_fields_are(engines):
    """Jobs of plain ints, numpy scalars of other widths or a seed below 2**63 reach the
    specialised engine's entry points with the same types (``exact``): no second
    compilation, and the same counts."""
    engine, params = engines["specialised"].engine, engines["specialised"].params
    want = Tally.zeros(2)
    engine.hands(params, Hands(np.uint64(5), 0, 100, 64, False, -1), want)
    got = Tally.zeros(2)
    engine.hands(params, Hands(5, np.int32(0), np.int64(100), 64.0, np.bool_(False), -1), got)
    assert np.array_equal(got.counts, want.counts)
    assert len(engine.module.run_hands.signatures) == 1


def test_jobs_are_cast_to_the_types_the_entry_points_are_compiled_for():
    job = exact(Hands(np.int64(5), np.int32(0), 300.0, np.int64(64), np.bool_(True), -1))
    assert [type(v) for v in job] == [np.uint64, int, int, int, bool, int]
    assert job == Hands(5, 0, 300, 64, True, -1) and type(job) is Hands
    assert type(exact(TraceMatch(2**64 - 1, 0, 1, 7, 0)).seed) is np.uint64


def test_each_table_kernel_is_compiled_once_whatever_the_calls_fields_are():
    """The stepper's ``step`` and the vector environment's ``vector_step`` take their call
    by name, cast by ``exact``: a call of plain ints and one of numpy scalars of other
    widths (a seed below 2**63 too) reach the same compiled code and play alike. The
    kernels are those every seat played outside (the one-table and all-seats
    environments' own)."""
    outside = ([None] * 4, (True,) * 4)
    step = compiled.stepper_module(*outside).step
    calls = [
        st.Step(st.M_TRACE_HANDS, np.uint64(5), False, 0, -1),
        st.Step(np.int32(st.M_TRACE_HANDS), 5, np.bool_(False), np.int8(0), np.int16(-1)),
    ]
    signatures, views = [], []
    for call in calls:
        state = st.StepState(st.new_slots(1), st.new_jobs(7, 1, 0), np.zeros(1, np.int64),
                             np.zeros(ERR_SIZE, np.int64), np.zeros(0, np.int8),
                             np.full((1, TRACE_SIZE), -1, np.int64))  # fmt: skip
        assert step(NO_PARAMS, exact(call), state) == 1
        signatures.append(len(step.func.signatures))
        views.append(state.slots.bot_view.copy())
    assert signatures[0] == signatures[1] and np.array_equal(views[0], views[1])

    vector_step = compiled.vector_module(*outside).vector_step
    calls = [
        vk.VectorStep(st.M_HANDS, np.uint64(9), -1, 15, False, False),
        vk.VectorStep(np.int8(st.M_HANDS), 9, np.int32(-1), np.uint8(15), 0, np.bool_(False)),
    ]
    signatures, views = [], []
    for call in calls:
        tables = vk.new_tables(2)
        tables.todo[:] = vk.T_START
        state = vk.VectorState(st.new_slots(2), st.new_jobs(0, 100, 0),
                               np.zeros(N_COUNTS, np.int64), np.zeros(ERR_SIZE, np.int64),
                               tables)  # fmt: skip
        assert vector_step(NO_PARAMS, exact(call), state) == 0
        signatures.append(len(vector_step.func.signatures))
        views.append((tables.views.copy(), tables.masks.copy()))
    assert signatures[0] == signatures[1]
    assert all(np.array_equal(a, b) for a, b in zip(*views, strict=True))
    assert views[0][1].any(axis=1).all()  # each table waits for the agent's decision


def _err(code: int, match: int, hand: int, seat: int = 0) -> np.ndarray:
    row = np.zeros(ERR_SIZE, np.int64)
    row[E_CODE], row[E_MATCH], row[E_HAND], row[E_SEAT] = code, match, hand, seat
    return row


def test_error_rows_are_read_as_faults_the_earliest_first():
    assert fault_in(np.zeros(ERR_SIZE, np.int64)) is None
    assert first_fault(np.zeros((3, ERR_SIZE), np.int64)) is None
    errs = np.stack(
        [
            np.zeros(ERR_SIZE, np.int64),
            _err(ERR_ILLEGAL_CARD, 9, 0, seat=3),
            _err(ERR_BAD_TRUMP, 4, 5, seat=1),
            _err(ERR_ILLEGAL_CARD, 4, 2, seat=2),
        ]
    )
    fault = first_fault(errs)
    assert fault == Fault(ERR_ILLEGAL_CARD, 4, 2, 0, 2, 0, 0)
    assert fault_in(errs[2]).code == ERR_BAD_TRUMP and fault_in(errs[2]).seat == 1


@pytest.fixture
def built(monkeypatch) -> list[tuple[str, str]]:
    """The pairs whose engine is found (hashing their bot files) from now on."""
    calls: list[tuple[str, str]] = []
    real = compiled.engine_for

    def counted(a, b, *args, **kwargs):
        calls.append((a.name, b.name))
        return real(a, b, *args, **kwargs)

    monkeypatch.setattr(compiled, "engine_for", counted)
    return calls


def test_a_run_builds_its_runner_once(built, tmp_path):
    """The engine key of the checkpoint, the rows of ``save_hands``, compiling before the
    first batch and the batches: one Runner."""
    api.run("longest", "random", hands=3000, seed=1, threads=1, out=tmp_path / "r",
            save_hands=True)  # fmt: skip
    assert built == [("longest", "random")]


def test_regress_and_tournament_build_each_pairs_runner_once(built):
    api.regress("longest", "random", max_pairs=300, check_every=100, seed=1, threads=1)
    assert built == [("longest", "random")]
    built.clear()
    api.tournament(["longest", "random"], hands=500, seed=1, threads=1)
    assert built == [("longest", "random")]
