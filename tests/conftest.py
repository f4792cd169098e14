"""Shared fixtures: one compiled Runner per strategy pair for the whole session.

Every pair of strategies is played by the engine users get by default, the generic
one, which calls each bot's own compiled unit through a function pointer: compiled
once for all pairs (``tests/test_engines.py`` compiles a specialised one). Each bot
is compiled once, in its seat module, which the tests that ask a bot one decision
call too (``hokm_checks.bot_module``). :func:`runner` keeps one Runner per pair for
the session. Bots are compiled in the fast mode only (``HOKM_SIM_BOUNDSCHECK=0``,
for subprocesses too), except in ``test_checking_mode.py``; the package's larger
helpers are compiled as functions of their own (``HOKM_SIM_INLINE=0``), which
compiles faster and plays the same cards.

Nothing here patches numba's ``Dispatcher``: any function set on that class
(even one that only passes the call on) made every compilation more than
twice as slow, so two xdist workers that need the same engine at the same
moment may both compile it.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile

# Set before numba and hokm-sim are imported (and inherited by every subprocess):
# - two numba threads at least, also on a one-core machine, so that the tests comparing
#   one thread with two compare two different things;
# - each bot compiled once, in the fast mode, in every process of the suite (the
#   checking mode would compile a new bot twice); test_checking_mode.py sets it;
# - the package's larger helpers (the solver's among them) called rather than inlined
#   (hokm_sim.inlining, read once at import): the same counts, a quicker compilation.
if int(os.environ.get("NUMBA_NUM_THREADS") or os.cpu_count() or 1) < 2:
    os.environ["NUMBA_NUM_THREADS"] = "2"
os.environ.setdefault("HOKM_SIM_BOUNDSCHECK", "0")
os.environ.setdefault("HOKM_SIM_INLINE", "0")
# No plain progress lines where standard error is not a terminal (every test's): when they
# come hangs on the machine's load, and tests count the lines a command prints;
# test_progress.py turns them on.
os.environ.setdefault("HOKM_SIM_PROGRESS_EVERY", "off")
# Bytecode is written, as Python does by default, also where the environment asks for none
# (PYTHONDONTWRITEBYTECODE, set on some machines): else each of the hundred-odd commands the
# tests start compiles every module it imports from source again, and every run of the suite
# rewrites every test file's asserts again (docs/performance.md, "The test suite").
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
# Every report the tests write goes into a results store of this process's own (and of the
# commands it starts), never into the user's (docs/results.md); removed at the end.
os.environ["HOKM_SIM_STORE"] = os.path.join(
    tempfile.mkdtemp(prefix="hokm-sim-test-store-"), "results.sqlite"
)

from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from processes import kill_holding

from hokm_sim.bots.registry import resolve
from hokm_sim.sim.runner import Runner

atexit.register(shutil.rmtree, os.path.dirname(os.environ["HOKM_SIM_STORE"]), True)
sys.dont_write_bytecode = False  # this process too: Python read the variable at its start


@cache
def _runner(a: str, b: str) -> Runner:
    return Runner(resolve(a), resolve(b))


@pytest.fixture(scope="session")
def runner() -> Callable[[str, str], Runner]:
    """``runner(a, b)``: the session's Runner for strategy specs ``a`` (team 0) and ``b``."""
    return _runner


# --- protocol bots in other languages ----------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_BOTS = ROOT / "examples" / "bots"


@pytest.fixture(scope="session")
def c_bot(tmp_path_factory) -> Callable[[str], str]:
    """``c_bot(path)``: the C protocol bot at ``path`` (relative to the repository),
    compiled once per session; skips the test when there is no C compiler."""
    import shutil
    import subprocess

    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("needs a C compiler (gcc or cc) for the C protocol bots")
    folder = tmp_path_factory.mktemp("c-bots")
    built: dict[str, str] = {}

    def build(path: str) -> str:
        if path not in built:
            exe = folder / Path(path).stem
            subprocess.run([cc, "-O2", "-o", str(exe), str(ROOT / path)], check=True)
            built[path] = str(exe)
        return built[path]

    return build


@pytest.fixture(scope="session")
def node() -> str:
    """The Node.js executable; skips the test when Node.js is missing."""
    import shutil

    exe = shutil.which("node")
    if exe is None:
        pytest.skip("needs Node.js for the JavaScript protocol bot")
    return exe


@pytest.fixture
def reap_bots(tmp_path):
    """After the test, pass or fail, kill every process whose command line names its
    ``tmp_path`` (the hokm-sim it started, the bots it gave a marker file there): a
    failed test must not leave a bot behind, least of all one that loops."""
    yield
    kill_holding(str(tmp_path))
