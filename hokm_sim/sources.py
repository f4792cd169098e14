"""The package's source files: where they lie, what each imports, and their digest.

Compiled code is keyed by the source it was compiled from (the package's
cached kernels in :mod:`hokm_sim.engine.jitcache`, the engines of bot pairs
in :mod:`hokm_sim.bots.compiled`): a file and every file it imports, directly
or not, within the package, among the built-in bots or beside a bot file
(:func:`source_closure`). Imports are read with :mod:`ast`, never by running
the files, and nothing here imports numba, so that finding a built-in bot or
listing them costs no engine.

Files of the package and of the built-in bots are taken to stay as they were
imported while a process runs, so their digests are computed once per process
(:func:`package_digest`), and :func:`changed_since_start` says when one was
edited after all; a user's bot file is read anew every time it is keyed.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import importlib.util
import os
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
"""The ``hokm_sim`` folder."""


@cache
def strategies_dir() -> Path:
    """The built-in bots' folder (``strategies/``, installed as ``hokm_sim.strategies``).

    Found by its module spec, never by importing it: the bots sit in a layer
    above everything that looks for them."""
    spec = importlib.util.find_spec("hokm_sim.strategies")
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def _package_roots() -> tuple[tuple[Path, str], ...]:
    """The folders of the package's own modules and the dotted name of each
    (the built-in bots first: in an installed copy they lie inside the package)."""
    return ((strategies_dir(), "hokm_sim.strategies"), (PACKAGE, "hokm_sim"))


def in_package(path: Path) -> bool:
    """Whether the resolved ``path`` is a file of the package or of the built-in bots."""
    return any(path.is_relative_to(root) for root, _ in _package_roots())


def _package_of(path: Path, roots: tuple[Path, ...]) -> str:
    """The package a module file belongs to, from its place under the roots: what its
    relative imports are relative to (``""`` for a file directly in a bot's folder)."""
    named = [*_package_roots(), *((r, "") for r in roots)]
    for root, name in named:
        if path.is_relative_to(root):
            return ".".join(filter(None, (name, *path.relative_to(root).parent.parts)))
    return ""


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


def _package_module_file(name: str) -> Path | None:
    """The file of module ``name`` of the package or of the built-in bots, found from
    the name alone; None for a name that is not one (an attribute, another package)."""
    for root, prefix in _package_roots():
        if name == prefix or name.startswith(prefix + "."):
            base = root.joinpath(*name[len(prefix) :].split(".")[1:])
            for f in (base / "__init__.py", base.with_name(base.name + ".py")):
                if f.is_file():
                    return f.resolve()
            return None
    return None


def _module_file(name: str) -> Path | None:
    if name.partition(".")[0] == "hokm_sim":
        return _package_module_file(name)
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError, AttributeError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin).resolve()


@cache
def _imports_in(path: Path, source: bytes, roots: tuple[Path, ...]) -> tuple[Path, ...]:
    """Files under the package or ``roots`` that the module ``path`` with text ``source``
    imports."""
    try:
        tree = ast.parse(source, str(path))
    except (SyntaxError, ValueError):
        return ()
    found = set()
    for name in _imported_names(tree, _package_of(path, roots)):
        f = _module_file(name) if name else None
        if f is not None and (in_package(f) or any(f.is_relative_to(r) for r in roots)):
            found.add(f)
    return tuple(sorted(found))


def source_closure(path: str | Path, extra_roots: tuple[Path, ...] = ()) -> list[Path]:
    """``path`` and every file it imports, directly or not, inside the package (and
    inside ``extra_roots``), sorted."""
    roots = tuple(Path(r).resolve() for r in extra_roots)
    seen: set[Path] = set()
    todo = [Path(path).resolve()]
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        with contextlib.suppress(OSError):  # a file that is gone imports nothing
            todo.extend(_imports_in(p, p.read_bytes(), roots))
    return sorted(seen)


def digest_files(files: list[Path]) -> str:
    """A hash of the files' names and bytes."""
    h = hashlib.sha256()
    for p in files:
        h.update(p.name.encode() + b"\0")
        h.update(p.read_bytes())
    return h.hexdigest()


@cache
def package_digest(path: Path) -> str:
    """:func:`digest_files` of the :func:`source_closure` of a file of the package or of
    the built-in bots, computed once per process."""
    return digest_files(source_closure(path))


def _stats(folder: Path) -> dict[Path, tuple[int, int]]:
    """Size and modification time of every Python file under ``folder``."""
    out = {}
    for top, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if name.endswith(".py"):
                st = os.stat(os.path.join(top, name))
                out[Path(top, name)] = (st.st_size, st.st_mtime_ns)
    return out


_AT_START: dict[Path, tuple[int, int]] = {}


def note_start() -> None:
    """Remember the size and modification time of the package's files (once), for
    :func:`changed_since_start`: a stat of each, no reading."""
    if not _AT_START:
        for root, _ in _package_roots():
            _AT_START.update(_stats(root))


def changed_since_start(files: list[Path]) -> bool:
    """Whether any of the package's ``files`` changed (or appeared) since
    :func:`note_start`: the code this process imported from it may be older than its
    bytes."""
    for f in files:
        try:
            st = f.stat()
        except OSError:
            return True
        if _AT_START.get(f) != (st.st_size, st.st_mtime_ns):
            return True
    return False
