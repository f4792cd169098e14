"""The results store: every result hokm-sim writes, kept in one database to query and compare.

:func:`keep` is the one way in: the report folder's writer calls it for every
report (and the commands that write none, ``regress --calibrate`` and the play
table's finished games, call it themselves). :mod:`.rows` reads a record into a
row, :mod:`.gitinfo` asks git where a bot's files stand, :mod:`.db` is the
SQLite database (docs/results.md), :mod:`.query` lists what is stored.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from hokm_sim.store.db import SCHEMA, Store, StoreError, data_dir, store_path
from hokm_sim.store.rows import Row, row

__all__ = ["SCHEMA", "Row", "Store", "StoreError", "data_dir", "keep", "row", "store_path"]


def keep(
    record: dict[str, Any],
    folder: str | Path | None = None,
    headline: str | None = None,
    store: str | Path | None = None,
) -> int:
    """Add the result ``record`` (written to ``folder``, if any) to the store; its id.
    The bots' files are taken to be those the result was made with: their digests and
    git state are recorded now. The store stays open for the process's next result
    (closing checkpoints the log: done once, when the process ends)."""
    return _open(store_path(store)).add(row(record, folder, headline))


_OPEN: dict[tuple[int, Path], Store] = {}


def _open(path: Path) -> Store:
    """The process's open store at ``path`` (a forked child opens its own)."""
    key = (os.getpid(), path.resolve())
    if key not in _OPEN:
        _OPEN[key] = Store(path)
    return _OPEN[key]
