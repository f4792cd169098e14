"""The results store: every result hokm-sim writes, kept in one database to query and compare.

:func:`begin` (and :func:`keep`, which is it at once) is the one way in: the
report folder's writer calls it for every report (and the commands that write
none, ``regress --calibrate`` and the play table's finished games, call
:func:`keep` themselves). :mod:`.rows` reads a record into a row,
:mod:`.gitinfo` asks git where a bot's files stand, :mod:`.db` is the SQLite
database (docs/results.md), :mod:`.query` lists what is stored.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hokm_sim.store import rows
from hokm_sim.store.db import SCHEMA, Store, StoreError, data_dir, store_path
from hokm_sim.store.rows import Row, row

__all__ = ["SCHEMA", "Row", "Store", "StoreError", "begin", "data_dir", "keep", "row", "store_path"]


def begin(
    record: dict[str, Any], folder: str | Path | None = None, store: str | Path | None = None
) -> Callable[[str | None], int]:
    """Start adding the result ``record`` (written to ``folder``, if any): its bots'
    digests are taken and git is asked now, in the background; the function returned,
    called with the result's headline once the rest of the report is written, adds the
    row (one transaction) and gives its id. The bots' files are taken to be those the
    result was made with. The store stays open for the process's next result (closing
    checkpoints the log: done once, when the process ends)."""
    path = store_path(store)
    pending, fill = rows.start(record, folder)

    def add(headline: str | None = None) -> int:
        fill()
        pending.headline = headline
        return _open(path).add(pending)

    return add


def keep(
    record: dict[str, Any],
    folder: str | Path | None = None,
    headline: str | None = None,
    store: str | Path | None = None,
) -> int:
    """Add the result ``record`` to the store at once (:func:`begin`); its id."""
    return begin(record, folder, store)(headline)


_OPEN: dict[tuple[int, Path], Store] = {}


def _open(path: Path) -> Store:
    """The process's open store at ``path`` (a forked child opens its own)."""
    key = (os.getpid(), path.resolve())
    if key not in _OPEN:
        _OPEN[key] = Store(path)
    return _OPEN[key]
