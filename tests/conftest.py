"""Shared fixtures: one compiled Runner per strategy pair for the whole session.

Compiling an engine for a strategy pair costs seconds per entry point the
first time (then it is loaded from the on-disk cache), so every test module
asks :func:`runner` for its pairs instead of building its own, and the suite
keeps to a few pairs: ``longest``/``random`` (and the reverse), ``longest``
against itself, ``random`` against itself, ``expert``/``random``, and
``tests/bots/every.py`` (every built-in bot behind one parameter) for what
must see every bot. Engines are compiled in the fast mode only
(``HOKM_SIM_BOUNDSCHECK=0``, for subprocesses too), except in
``test_checking_mode.py``.

Under pytest-xdist two workers often need the same engine at the same
moment; :func:`_compile_once` makes the second wait for the first and load
its machine code from the disk cache instead of compiling it again.
"""

from __future__ import annotations

import os

# Two numba threads at least, also on a one-core machine, so that the tests comparing
# one thread with two compare two different things. Set before numba is imported.
if int(os.environ.get("NUMBA_NUM_THREADS") or os.cpu_count() or 1) < 2:
    os.environ["NUMBA_NUM_THREADS"] = "2"

import contextlib
import fcntl
import hashlib
import os
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from numba.core.caching import Cache
from numba.core.compiler_lock import global_compiler_lock
from numba.core.dispatcher import Dispatcher
from processes import kill_holding

from hokm_sim.bots.registry import resolve
from hokm_sim.sim.runner import Runner

# Each pair is compiled once, in the fast mode, in every process of the suite (the
# checking mode would compile a new bot's pair twice); test_checking_mode.py sets it.
os.environ.setdefault("HOKM_SIM_BOUNDSCHECK", "0")


@cache
def _runner(a: str, b: str) -> Runner:
    return Runner(resolve(a), resolve(b))


@pytest.fixture(scope="session")
def runner() -> Callable[[str, str], Runner]:
    """``runner(a, b)``: the session's Runner for strategy specs ``a`` (team 0) and ``b``."""
    return _runner


# --- one compilation per cached function across the xdist workers --------------------

_LOCKS = Path(tempfile.gettempdir()) / "hokm-sim-test-compile-locks"
_held: set[str] = set()


@contextlib.contextmanager
def _cache_lock(key: str):
    """An exclusive lock on ``key`` across processes (re-entrant within this one)."""
    if key in _held:
        yield
        return
    _LOCKS.mkdir(exist_ok=True)
    name = hashlib.sha1(key.encode()).hexdigest()
    with open(_LOCKS / name, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        _held.add(key)
        try:
            yield
        finally:
            _held.discard(key)
            fcntl.flock(f, fcntl.LOCK_UN)


def _compile_once(compile_: Callable) -> Callable:
    """Wrap ``Dispatcher.compile`` of disk-cached functions in a lock on their cache index.

    numba looks in its disk cache first: the worker that waited finds the
    machine code the other one just saved. Functions without a disk cache
    compile as usual.
    """

    def compile(self: Dispatcher, sig):
        cache_ = getattr(self, "_cache", None)
        index = getattr(getattr(cache_, "_cache_file", None), "_index_path", None)
        if not isinstance(cache_, Cache) or index is None:
            return compile_(self, sig)
        # numba's own lock first, as compile_ takes it: one thread of this process at a
        # time holds file locks, taken from caller to callee, so no two processes wait
        # on each other.
        with global_compiler_lock, _cache_lock(index):
            return compile_(self, sig)

    compile.__wrapped__ = compile_
    return compile


Dispatcher.compile = _compile_once(Dispatcher.compile)


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
