"""numba's disk cache, keyed by the source of everything a cached function inlines.

numba keys a cached function by its own file only: a kernel of ``dd/pimc.py``
that inlines ``dd/search.py``, which inlines ``engine/rules.py``, would keep
running the old machine code after an edit to ``rules.py``. Here every
function of the package that asks for ``cache=True`` is stamped with a digest
of its file and of every file it imports, directly or not, within the
package (:func:`hokm_sim.source_closure`): an edit to any of them
makes the cached code stale, and numba compiles anew.

The stamp is worked out when numba first looks in the cache (a call that
needs the machine code), never when a module defines its functions, so
importing the engine reads and hashes nothing; once per file and process. A
file of the package edited after the process started (the code in memory may
then be older than the file) gets a stamp that matches no cache, so this
process compiles what it runs and stores nothing another process could load.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from numba.core import caching

from hokm_sim.inlining import HELPERS

# By its module path: `from hokm_sim import sources` would put hokm_sim/__init__.py, and
# through its lazy API every module, into the key of every kernel (test_cache_keys.py).
from hokm_sim.sources import (
    PACKAGE,
    changed_since_start,
    in_package,
    note_start,
    package_digest,
    source_closure,
    strategies_dir,
)


def cache_root() -> Path:
    """Where hokm-sim keeps compiled code: ``$HOKM_SIM_CACHE`` or ``~/.cache/hokm-sim``."""
    env = os.environ.get("HOKM_SIM_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "hokm-sim"


def package_cache() -> Path:
    """Where the package's own cached functions are kept: ``package`` under
    :func:`cache_root`, or ``package-called`` when the package's larger helpers are compiled as
    calls (:data:`hokm_sim.inlining.HELPERS`), so that neither mode loads the
    other's machine code (numba's cache index does not record inlining)."""
    return cache_root() / ("package" if HELPERS == "always" else "package-called")


class Stamp:
    """The source stamp of one file's cached functions, worked out when numba first
    compares it with a cache index or writes it into one.

    numba asks for a stamp when a module defines a ``cache=True`` function;
    this stands in for the string until it is needed, and pickles as that
    string, so the index files are numba's own.
    """

    __slots__ = ("_path",)

    def __init__(self, path: Path) -> None:
        self._path = path

    def value(self) -> str:
        """The digest of the file and of everything it imports in the package."""
        return _stamp(self._path)

    def __eq__(self, other: object) -> bool:
        return self.value() == (other.value() if isinstance(other, Stamp) else other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.value())

    def __reduce__(self):
        return (str, (self.value(),))

    def __repr__(self) -> str:
        return f"Stamp({str(self._path)!r})"


_PROCESS = os.urandom(8).hex()
"""A name of this process that no other has: part of a stamp that must match nothing."""


@cache
def _stamp(path: Path) -> str:
    """:class:`Stamp`'s value for ``path``, once per process."""
    digest = package_digest(path)
    if changed_since_start(source_closure(path)):
        return f"{digest} changed while process {_PROCESS} ran"
    return digest


@cache
def _resolved(py_file: str) -> Path:
    return Path(py_file).resolve()


class ClosureCacheLocator(caching._CacheLocator):
    """Cache locator for the package's own ``cache=True`` functions (the built-in bots'
    helpers included): stamped by the digest of their source closure (a
    :class:`Stamp`), stored under :func:`cache_root`."""

    def __init__(self, py_func, path: Path) -> None:
        self._path = path
        self._py_file = str(path)  # numba names it in its "cannot cache" warning
        self._lineno = py_func.__code__.co_firstlineno
        if path.is_relative_to(PACKAGE):
            rel = path.relative_to(PACKAGE).parent
        else:
            rel = Path("strategies") / path.relative_to(strategies_dir()).parent
        self._cache_path = str(package_cache() / rel)

    def ensure_cache_path(self) -> None:
        """Make the cache folder (numba calls this before using the locator)."""
        os.makedirs(self._cache_path, exist_ok=True)

    def get_cache_path(self) -> str:
        """The folder of this file's cached functions."""
        return self._cache_path

    def get_source_stamp(self) -> Stamp:
        """The digest of the file and of everything it imports in the package, worked
        out when first compared."""
        return Stamp(self._path)

    def get_disambiguator(self) -> str:
        """Tells apart functions of one name in one file."""
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file: str):
        """A locator for files of the package and of the built-in bots (``strategies/``,
        beside the package in a source checkout); None for any other file."""
        try:
            path = _resolved(py_file)
            inside = in_package(path)
        except (OSError, ValueError):
            return None
        if not inside:
            return None
        self = cls(py_func, path)
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self


def install() -> None:
    """Put :class:`ClosureCacheLocator` first among numba's cache locators (once), and
    note the package's files as they are (see :func:`hokm_sim.note_start`)."""
    classes = caching.CacheImpl._locator_classes
    if ClosureCacheLocator not in classes:
        note_start()
        classes.insert(0, ClosureCacheLocator)
