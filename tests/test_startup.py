"""What starting hokm-sim loads: each command imports what it uses when it uses it.

Importing ``hokm_sim`` or ``hokm_sim.api``, ``hokm-sim --help`` and
``hokm-sim strategies`` load no statistics library, no plotting, no pandas and
no engine; resolving a strategy name imports that bot file alone; importing
the engine and the solver compiles nothing and hashes no source (the cache
stamps are worked out when numba first opens a cache). Each check runs in a
fresh process and reads ``sys.modules``: docs/performance.md gives the times.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("scipy", "statsmodels", "pandas", "matplotlib", "pyarrow", "numba")
STEPPER = "hokm_sim.engine.stepper"


def _loaded(code: str) -> dict:
    """Run ``code`` in a new interpreter; it ends by printing one JSON line, read back."""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def _heavy_after(statement: str, also: tuple[str, ...] = ()) -> list[str]:
    names = (*HEAVY, STEPPER, *also)
    return _loaded(
        f"import json, sys\n{statement}\n"
        f"print(json.dumps(sorted(m for m in {names!r} if m in sys.modules)))"
    )


@pytest.mark.parametrize("module", ["hokm_sim", "hokm_sim.api", "hokm_sim.cli"])
def test_importing_loads_no_heavy_library(module):
    assert _heavy_after(f"import {module}") == []


@pytest.mark.parametrize("args", [["--help"], ["strategies"]])
def test_help_and_the_strategy_list_load_no_engine(args):
    run = (
        "from hokm_sim.cli import main\n"
        f"sys.argv = ['hokm-sim', *{args!r}]\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    assert exc.code == 0, exc.code"
    )
    assert _heavy_after(run, also=("numpy", "hokm_sim.engine")) == []


def test_a_strategy_name_imports_its_own_bot_file_only():
    found = _loaded(
        "import json, sys\n"
        "from hokm_sim.bots.registry import resolve\n"
        "s = resolve('trump=longest,play=random')\n"
        "print(json.dumps({'bots': sorted(m.split('_')[2] for m in sys.modules\n"
        "                                  if m.startswith('hokm_bot_')),\n"
        "                  'dd': 'hokm_sim.dd' in sys.modules}))"
    )
    assert found == {"bots": ["longest", "random"], "dd": False}


def test_importing_the_engine_compiles_and_hashes_nothing():
    found = _loaded(
        "import json\n"
        "import hokm_sim.bots.compiled, hokm_sim.dd.analyse, hokm_sim.strategies._pimc\n"
        "from hokm_sim import sources\n"
        "from hokm_sim.engine import jitcache, play, stepper\n"
        "from hokm_sim.dd import solver\n"
        "print(json.dumps({'stamps': jitcache._stamp.cache_info().currsize,\n"
        "                  'digests': sources.package_digest.cache_info().currsize,\n"
        "                  'compiled': len(play.first_hakem_deck.signatures)\n"
        "                              + len(solver.reach_nb.signatures)}))"
    )
    assert found == {"stamps": 0, "digests": 0, "compiled": 0}


def test_a_cached_engine_loads_without_numbas_compiler_set_up(runner, tmp_path):
    """A warm ``run`` links the cached engine with numba's runtime alone: none of the
    modules numba's full set-up of its compiler imports (its numpy implementations,
    which load ``scipy.linalg``) is loaded."""
    runner("longest", "random").prepare()  # compiled, or loaded, in the session's cache
    found = _loaded(
        "import json, sys\n"
        "from hokm_sim.cli import main\n"
        "sys.argv = ['hokm-sim', 'run', 'longest', 'random', '--hands', '50', '--seed', '3',\n"
        f"            '--out', {str(tmp_path / 'run')!r}]\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    assert exc.code == 0, exc.code\n"
        "print(json.dumps(sorted(m for m in ('numba.np.arraymath', 'scipy.linalg')\n"
        "                        if m in sys.modules)))"
    )
    assert found == []


def test_trace_records_are_written_and_read_without_compiling_the_rules(runner, tmp_path):
    """Turning an engine's row into a trace record and checking a record read back use
    the rules' Python functions: a ``trace`` or ``show --trace`` compiles nothing of the
    engine's rules (a jitted rule called from Python is compiled anew in every process)."""
    import numpy as np

    from hokm_sim.sim.trace import row_to_record

    row = runner("longest", "random").trace_hands(5, 0, 1)[0]
    np.save(tmp_path / "row.npy", row)
    (tmp_path / "hands.jsonl").write_text(json.dumps(row_to_record(row, 5)) + "\n")
    found = _loaded(
        "import json\n"
        "import numpy as np\n"
        "from hokm_sim.engine import rules\n"
        "from pathlib import Path\n"
        "from hokm_sim.sim.trace import read_trace_line, row_to_record\n"
        f"folder = Path({str(tmp_path)!r})\n"
        "rec = row_to_record(np.load(folder / 'row.npy'), 5)\n"
        "assert read_trace_line(folder / 'hands.jsonl', 1) == rec\n"
        "print(json.dumps([f for f in ('dealer_of', 'hand_score', 'beats', 'legal_mask')\n"
        "                  if getattr(rules, f).signatures]))"
    )
    assert found == []


UNDEFINED = (
    "declare i64 @hokm_sim_no_such_symbol()\n"
    "define i64 @f() {\n  %x = call i64 @hokm_sim_no_such_symbol()\n  ret i64 %x\n}\n"
)
DEFINED = (  # malloc is the process's; llvm.* are LLVM's own
    "declare i8* @malloc(i64)\ndeclare void @llvm.trap()\n"
    "define i8* @f() {\n  %p = call i8* @malloc(i64 8)\n  ret i8* %p\n}\n"
)


@pytest.mark.parametrize(
    ("ir", "objectmode", "full"),
    [(UNDEFINED, False, True), (DEFINED, True, True), (DEFINED, False, False)],
    ids=["undefined-symbol", "object-mode", "nopython-defined"],
)
def test_a_cache_entry_gets_numbas_full_set_up_when_its_code_needs_it(
    monkeypatch, ir, objectmode, full
):
    """Machine code that calls a symbol nothing defines yet (one a module of numba
    defines when imported), or object-mode code, is loaded after numba's full set-up of
    its compiler; other code with the runtime alone."""
    from llvmlite import binding as llvm
    from numba.core.registry import cpu_target

    from hokm_sim.engine import quickload

    context = cpu_target.target_context
    refreshed = []
    monkeypatch.setattr(context, "refresh", lambda: refreshed.append(True))
    parts = {
        "libdata": ("f", "object", (b"", llvm.parse_assembly(ir).as_bitcode())),
        "objectmode": objectmode,
        "lifted": (),
        "reload_init": [],
    }
    quickload._prepare(context, tuple(parts.get(name) for name in quickload._FIELDS))
    assert refreshed == ([True] if full else [])
