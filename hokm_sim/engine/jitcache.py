"""numba's disk cache, keyed by the source of everything a cached function inlines.

numba keys a cached function by its own file only: a kernel of ``dd/pimc.py``
that inlines ``dd/search.py``, which inlines ``engine/rules.py``, would keep
running the old machine code after an edit to ``rules.py``. Here every
function of the package that asks for ``cache=True`` is stamped with a digest
of its file and of every file it imports, directly or not, within the
package (:func:`source_closure`): an edit to any of them makes the cached
code stale, and numba compiles anew.

The same closure keys the generated engine modules of bot pairs
(:mod:`hokm_sim.bots.compiled`): a bot's key covers its file, the files it
imports and the data files beside it, and nothing else, so editing one bot
recompiles only the engines that use it.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import sys
from functools import cache
from pathlib import Path

from numba.core import caching

PACKAGE = Path(__file__).resolve().parents[1]
"""The ``hokm_sim`` folder."""


def cache_root() -> Path:
    """Where hokm-sim keeps compiled code: ``$HOKM_SIM_CACHE`` or ``~/.cache/hokm-sim``."""
    env = os.environ.get("HOKM_SIM_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "hokm-sim"


@cache
def strategies_dir() -> Path:
    """The built-in bots' folder (``strategies/``, installed as ``hokm_sim.strategies``).

    Found by its module spec, never by importing it: the bots sit in a layer
    above everything that looks for them."""
    spec = importlib.util.find_spec("hokm_sim.strategies")
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def _module_file(name: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError, AttributeError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin).resolve()


def _imported_names(tree: ast.AST, package: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            names.add(base)
            names.update(f"{base}.{a.name}" for a in node.names)  # submodules
    return names


@cache
def _direct_imports(path: Path, roots: tuple[Path, ...]) -> tuple[Path, ...]:
    """Files under ``roots`` that ``path`` imports (parsed, never run)."""
    try:
        tree = ast.parse(path.read_bytes(), str(path))
    except (OSError, SyntaxError, ValueError):
        return ()
    package = ""
    for mod in list(sys.modules.values()):
        if getattr(mod, "__file__", None) and Path(mod.__file__).resolve() == path:
            package = getattr(mod, "__package__", "") or ""
            break
    found = set()
    for name in _imported_names(tree, package):
        if not name:
            continue
        f = _module_file(name)
        if f is not None and any(f.is_relative_to(r) for r in roots):
            found.add(f)
    return tuple(sorted(found))


def source_closure(path: str | Path, extra_roots: tuple[Path, ...] = ()) -> list[Path]:
    """``path`` and every file it imports, directly or not, inside the package (and
    inside ``extra_roots``), sorted."""
    roots = (PACKAGE, strategies_dir(), *(Path(r).resolve() for r in extra_roots))
    seen: set[Path] = set()
    todo = [Path(path).resolve()]
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        todo.extend(_direct_imports(p, roots))
    return sorted(seen)


def digest_files(files: list[Path]) -> str:
    """A hash of the files' names and bytes."""
    h = hashlib.sha256()
    for p in files:
        h.update(p.name.encode() + b"\0")
        h.update(p.read_bytes())
    return h.hexdigest()


class ClosureCacheLocator(caching._CacheLocator):
    """Cache locator for the package's own ``cache=True`` functions (the built-in bots'
    helpers included): stamped by the digest of :func:`source_closure`, stored under
    :func:`cache_root`."""

    def __init__(self, py_func, py_file: str) -> None:
        path = Path(py_file).resolve()
        self._py_file = str(path)
        self._lineno = py_func.__code__.co_firstlineno
        if path.is_relative_to(PACKAGE):
            rel = path.relative_to(PACKAGE).parent
        else:
            rel = Path("strategies") / path.relative_to(strategies_dir()).parent
        self._cache_path = str(cache_root() / "package" / rel)

    def ensure_cache_path(self) -> None:
        """Make the cache folder (numba calls this before using the locator)."""
        os.makedirs(self._cache_path, exist_ok=True)

    def get_cache_path(self) -> str:
        """The folder of this file's cached functions."""
        return self._cache_path

    def get_source_stamp(self) -> str:
        """The digest of the file and of everything it imports in the package."""
        return digest_files(source_closure(self._py_file))

    def get_disambiguator(self) -> str:
        """Tells apart functions of one name in one file."""
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file: str):
        """A locator for files of the package and of the built-in bots (``strategies/``,
        beside the package in a source checkout); None for any other file."""
        try:
            path = Path(py_file).resolve()
            inside = path.is_relative_to(PACKAGE) or path.is_relative_to(strategies_dir())
        except (OSError, ValueError):
            return None
        if not inside:
            return None
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self


def install() -> None:
    """Put :class:`ClosureCacheLocator` first among numba's cache locators (once)."""
    classes = caching.CacheImpl._locator_classes
    if ClosureCacheLocator not in classes:
        classes.insert(0, ClosureCacheLocator)
