"""Plain-Python bots: the same cards as compiled bots, in every command, with faults located.

The bots live at fixed paths (``examples/``, ``tests/bots/``). Most tests
put Python bots against each other (``pyrandom.py`` draws exactly what the
compiled ``random`` draws), so they share the one stepper with no compiled
part, which the environments use too; one test mixes in the compiled
``random``.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import hokm_sim
from hokm_sim.bots.registry import StrategyError, resolve
from hokm_sim.cli import main
from hokm_sim.engine import kernels as k
from hokm_sim.sim.runner import Runner

ROOT = Path(__file__).resolve().parents[1]
PY_LONGEST = str(ROOT / "examples" / "python_bot.py")
BOTS = Path(__file__).parent / "bots"
FAULTY = str(BOTS / "pyfaulty.py")
PYBATCH = str(BOTS / "pybatch.py")
PYRANDOM = str(BOTS / "pyrandom.py")


@pytest.mark.parametrize("threads", [1, 2])
def test_python_port_of_longest_gives_the_compiled_bots_counts(threads):
    """At a table with a compiled bot (each copy of a duplicate pair seats the Python
    bot on either team), deals and matches."""
    py, nb, rnd = resolve(PY_LONGEST), resolve("longest"), resolve("random")
    got = Runner(py, rnd).counts(11, 1500, threads=threads, chunk=256)
    assert (got == Runner(nb, rnd).counts(11, 1500, threads=threads, chunk=256)).all()
    got = Runner(py, rnd).counts(11, 40, matches=True, threads=threads, chunk=8)
    assert (got == Runner(nb, rnd).counts(11, 40, matches=True, threads=threads, chunk=8)).all()


def test_python_ports_trace_card_for_card():
    """Python longest against Python random: the compiled pair's trace rows."""
    py, nb = (resolve(PY_LONGEST), resolve(PYRANDOM)), (resolve("longest"), resolve("random"))
    assert (Runner(*py).trace_hands(5, 10, 30) == Runner(*nb).trace_hands(5, 10, 30)).all()
    for copy in (0, 1):
        got = Runner(*py).trace_match(5, 2, 7, copy=copy)
        assert (got == Runner(*nb).trace_match(5, 2, 7, copy=copy)).all()


def test_batched_and_per_decision_ports_of_random_play_the_compiled_random():
    """Same streams, same memory: a batched bot and a bot deciding one hand at a
    time both play what the compiled bot plays, and neither the number of hands in
    flight nor the threads change a count."""
    rnd = resolve("random")
    want = Runner(rnd, rnd).counts(3, 600, threads=1)
    runner = Runner(resolve(PYBATCH), resolve(PYRANDOM))
    assert (runner.counts(3, 600, threads=1) == want).all()
    runner.engine.slots = 7
    assert (runner.counts(3, 600, threads=2, chunk=100) == want).all()


def test_python_bots_against_each_other_and_a_bot_object(tmp_path):
    class Lowest:
        """Lowest legal card; clubs."""

        def choose_trump(self, obs):
            return 0

        def play_card(self, obs):
            return obs.legal_cards[0]

    s = hokm_sim.run(Lowest(), PYRANDOM, hands=300, seed=2, threads=1, out=tmp_path / "r")
    assert s.to_dict()["config"]["a"] == "Lowest"
    assert 0 < s.to_dict()["pair_score"]["value"] < 1 if "pair_score" in s.to_dict() else True
    with pytest.raises(StrategyError, match="lacks play_card"):
        hokm_sim.strategy(object.__new__(type("NoPlay", (), {"choose_trump": lambda s, o: 0})))


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        (f"{FAULTY}(mode=1)", "raised ValueError: boom (seat 1) at seed 1, hand 0, trick 3"),
        (f"{FAULTY}(mode=2)", "played illegal card"),
        (f"{FAULTY}(mode=3)", "returned 'AS' (str), not an integer (seat 1) at seed 1, hand 0"),
        (f"{FAULTY}(mode=4)", "(float), not an integer"),
        (f"{FAULTY}(mode=5)", "returned bad trump suit 7"),
        (f"{PYBATCH}(mode=1)", "raised RuntimeError: batch boom (in a batch of"),
        (f"{PYBATCH}(mode=2)", "returned shape"),
        (f"{PYBATCH}(mode=3)", "returned dtype float64; expected integers"),
    ],
)
def test_a_faulty_python_bot_is_one_line_and_exit_4(spec, says, tmp_path):
    out = tmp_path / "r"
    res = _run("run", spec, PYRANDOM, "--hands", 500, "--seed", 1, "--threads", 1, "--out", out)
    assert res.exit_code == 4, res.output
    err = res.stderr.strip()
    assert "\n" not in err and "Traceback" not in err
    assert says in err and "replay it with: hokm-sim show --seed 1" in err
    assert json.loads((out / "summary.json").read_text())["partial"] is True


def test_the_replay_command_shows_the_python_fault(tmp_path):
    res = _run("run", f"{FAULTY}(mode=1)", PYRANDOM, "--hands", 100, "--seed", 1, "--threads", 1,
               "--out", tmp_path / "r")  # fmt: skip
    replay = res.stderr.split("replay it with: hokm-sim ")[1].split(" (partial report")[0]
    shown = _run(*shlex.split(replay))
    assert shown.exit_code == 4 and "boom" in shown.stderr
    assert "trick 3" in shown.stderr


def test_every_command_takes_a_python_bot(tmp_path):
    res = _run("trace", "--seed", 4, "--hands", 3, "--a", PY_LONGEST, "--b", PYRANDOM)
    assert res.exit_code == 0, res.output
    lines = [json.loads(x) for x in res.output.splitlines()]
    assert len(lines) == 3 and lines[0]["seed"] == 4
    res = _run("show", "--seed", 4, "--hand", 1, "--a", PY_LONGEST, "--b", PYRANDOM)
    assert res.exit_code == 0 and "trick" in res.output.lower()
    res = _run("tournament", PYRANDOM, PYBATCH, PY_LONGEST, "--hands", 300, "--seed", 1,
               "--threads", 1, "--out", tmp_path / "t")  # fmt: skip
    assert res.exit_code == 0, res.output
    spec = tmp_path / "e.toml"
    spec.write_text(
        f'name = "py"\nquestion = "q"\nseed = 4\nhands = 300\n[[runs]]\na = "{PY_LONGEST}"\n'
        f'b = "{PYRANDOM}"\n'
    )
    res = _run("experiment", spec, "--out", tmp_path / "x")
    assert res.exit_code == 0, res.output
    res = _run("regress", PYBATCH, "--baseline", PYRANDOM, "--seed", 1, "--threads", 1,
               "--max-pairs", 1000, "--json")  # fmt: skip
    d = json.loads(res.output)  # twins: never a regression, and 1,000 pairs decide nothing
    assert res.exit_code == d["exit_code"] == 3 and d["pairs"] == 1000
    res = _run("run", PY_LONGEST, PYRANDOM, "--matches", 10, "--seed", 1, "--threads", 1,
               "--out", tmp_path / "m")  # fmt: skip
    assert res.exit_code == 0, res.output


def test_a_python_bot_regresses_against_its_own_commit():
    res = _run("regress", PY_LONGEST, "--baseline", "git:HEAD", "--seed", 1, "--threads", 1)
    assert res.exit_code == 0, res.output


def test_trace_rows_of_python_tables_are_complete():
    rows = Runner(resolve(PYRANDOM), resolve(PYBATCH)).trace_hands(1, 0, 5)
    assert rows.shape == (5, k.TRACE_SIZE) and (rows[:, k.T_ERROR] == 0).all()
    assert np.all(rows[:, k.T_PLAYS] >= 0)


def test_a_bot_object_is_refused_for_a_cluster_in_one_line():
    from hokm_sim.errors import InputError
    from hokm_sim.sim.backends import portable_spec

    class Clubs:
        def choose_trump(self, obs):
            return 0

        def play_card(self, obs):
            return obs.legal_cards[0]

    with pytest.raises(InputError, match="bot object, which lives in this process only"):
        portable_spec(hokm_sim.strategy(Clubs()))
    assert portable_spec(resolve(PYRANDOM)).startswith("trump=")


BLAS_BOT = '''"""A batched numpy bot with a matrix product in every decision (a small network)."""
import numpy as np
from threadpoolctl import threadpool_info

from hokm_sim.bots.pyrules import batched

W = np.random.default_rng(0).random((432, 52))
SEEN = set()


@batched
def choose_trump(obs):
    return np.zeros(len(obs), np.int64)


@batched
def play_card(obs):
    SEEN.update(i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas")
    return np.where(obs.legal_mask, obs.features() @ W, -np.inf).argmax(axis=1)
'''


def test_bots_decide_with_blas_on_one_thread(tmp_path):
    """A pool of BLAS threads woken in every small decision made such a bot 10x slower."""
    from threadpoolctl import threadpool_info

    from hokm_sim.bots.registry import import_bot_file

    def blas() -> list[int]:
        return [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]

    bot = tmp_path / "net.py"
    bot.write_text(BLAS_BOT)
    before = blas()
    hokm_sim.run(str(bot), PYRANDOM, hands=50, seed=1, threads=1)
    seen = import_bot_file(bot).SEEN
    assert seen == {1}
    assert set(blas()) == set(before)  # given back afterwards (other libraries may load)
