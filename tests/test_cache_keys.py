"""Cache keys cover what cached code inlines, and nothing more.

numba keys a cached function by its own file; the package's locator
(:mod:`hokm_sim.engine.jitcache`) stamps it with every file it imports in the
package, so an edit to ``engine/rules.py`` reaches a cached kernel that
inlines it. Bot engines are keyed by the bot's own import closure, so an edit
to one bot recompiles only the engines that use it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from hokm_sim.bots import compiled
from hokm_sim.bots.registry import builtin_bots, builtin_dir
from hokm_sim.sources import PACKAGE, source_closure

PROBE = """
from numba import njit
from hokm_sim.engine.rules import beats


@njit(cache=True)
def ruff_wins():
    return beats(0, 25, 0)  # the two of clubs (trump) on the ace of diamonds
"""


CALL = "print(p.ruff_wins(), p.ruff_wins.stats.cache_hits and 1 or 0)"
EDIT = ("    return cs == trump\n", "    return False\n")  # in engine/rules.py's beats


def _run(pkg: Path, cache: Path, before_call: str = "") -> tuple[str, str]:
    code = f"from hokm_sim.dd import probe_cache as p; {before_call}{CALL}"
    env = dict(os.environ, PYTHONPATH=str(pkg), HOKM_SIM_CACHE=str(cache))
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, cwd=pkg
    )
    result, hit = out.stdout.split()
    return result, hit


def _package_copy(tmp_path: Path) -> Path:
    pkg = tmp_path / "pkg"
    shutil.copytree(
        PACKAGE, pkg / "hokm_sim", ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc")
    )
    (pkg / "hokm_sim" / "dd" / "probe_cache.py").write_text(PROBE)
    return pkg


def test_edit_to_an_inlined_module_reaches_a_cached_kernel(tmp_path):
    pkg = _package_copy(tmp_path)
    cache = tmp_path / "cache"
    assert _run(pkg, cache) == ("True", "0")  # compiled
    assert _run(pkg, cache) == ("True", "1")  # loaded from the cache
    rules = pkg / "hokm_sim" / "engine" / "rules.py"
    text = rules.read_text()
    assert EDIT[0] in text
    rules.write_text(text.replace(*EDIT))
    assert _run(pkg, cache) == ("False", "0")  # the edit took effect: compiled anew


def test_an_edit_while_a_process_runs_is_never_cached_as_the_new_source(tmp_path):
    """The stamp is worked out at the first call, after the edit; the process runs the
    code it imported, and that code must not be stored under the edited file's stamp."""
    pkg = _package_copy(tmp_path)
    cache = tmp_path / "cache"
    edit = (
        "from pathlib import Path; f = Path('hokm_sim/engine/rules.py'); "
        f"f.write_text(f.read_text().replace(*{EDIT!r})); "
    )
    assert _run(pkg, cache, before_call=edit) == ("True", "0")  # the code in memory
    assert _run(pkg, cache) == ("False", "0")  # the edited code, compiled: not the stale one
    assert _run(pkg, cache) == ("False", "1")


def test_engine_key_covers_what_the_kernels_import():
    names = {p.relative_to(PACKAGE).as_posix() for p in source_closure(compiled._KERNELS)}
    assert {"engine/kernels.py", "engine/play.py", "engine/rules.py", "engine/rng.py"} <= names


def test_a_bot_key_covers_its_imports_and_no_other_bot():
    bots = builtin_bots()
    here = builtin_dir().resolve()

    def closure(name: str) -> set[str]:
        return {p.name for p in source_closure(bots[name].path) if p.is_relative_to(here)}

    assert closure("random") == {"random.py"}
    assert closure("basic") == {"basic.py", "_tips.py"}
    assert "expert.py" in closure("pimc")  # pimc plays like expert where it does not search
    pimc_lib = {p.name for p in source_closure(bots["pimc"].path) if p.is_relative_to(PACKAGE)}
    assert {"pimc.py", "solver.py", "search.py", "rules.py"} <= pimc_lib  # the solver it inlines
    for name in bots:
        others = {f"{n}.py" for n in bots} - {f"{name}.py"}
        built_on_others = ("pimc", "pimcmix", "pimcnet", "table", "sharp", "neural")
        if name not in built_on_others:
            assert not closure(name) & others, name


def test_no_cached_kernel_is_keyed_by_the_whole_package():
    """``from hokm_sim import x`` in a module of cached kernels would put
    ``hokm_sim/__init__.py`` in its closure, and through the lazy API import there
    every module: each edit anywhere would recompile it, and finding the closure
    imports the whole package (seconds of a ``hokm-sim serve``'s start)."""
    top = {PACKAGE / "__init__.py", PACKAGE / "api.py"}
    cached = [p for p in sorted(PACKAGE.rglob("*.py")) if "cache=True" in p.read_text()]
    assert PACKAGE / "protocol" / "answers.py" in cached
    for path in cached:
        assert not top & set(source_closure(path)), path.relative_to(PACKAGE)


def test_a_package_function_numba_cannot_cache_is_a_warning_naming_its_file():
    """numba warns, naming the file, when a compiled function cannot be cached (lifted
    loops, or dynamic globals, as with ``NUMBA_OPT=0``); for the package's functions
    the warning must come out as numba's own, not as an error of the locator."""
    from types import SimpleNamespace

    import pytest
    from numba.core import caching
    from numba.core.errors import NumbaWarning

    from hokm_sim.engine import rules

    impl = caching.CompileResultCacheImpl(rules.beats.py_func)
    lifted = SimpleNamespace(can_cache=False)
    cres = SimpleNamespace(lifted=(lifted,), fndesc=SimpleNamespace(qualname="rules.beats"))
    with pytest.warns(NumbaWarning, match="Cannot cache compiled function .beats."):
        assert impl.check_cachable(cres) is False
