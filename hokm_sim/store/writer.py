"""A process that adds a command's results to a results store on a server that the
command cannot write to through libpq alone (:mod:`.server`): a new store, one of
another schema version, a URL of another form, a machine where no libpq is found.
Started by the command's store thread (:func:`hokm_sim.store.prepare`), it imports
SQLAlchemy and psycopg and makes or migrates the store (:class:`~.db.Store`) while the
command works, and the command's write is one line sent and one line answered.

Why a process: SQLAlchemy and psycopg take about 0.35 s of CPU to import, and a
thread of the command would do that work holding the interpreter's lock, which the
command's own Python wants too, and which its engine keeps while it plays (numba). A
process does it on another core. Should the store be of this schema version by then
(another command made it), it writes through libpq too.

Its protocol, on its standard input and output: first the store's URL (a line, not an
argument: no password in the process list), then one JSON object per result (the
fields of a :class:`~.rows.Row`) answered by one JSON line, ``{"id": N}`` or
``{"error": "one line"}``. An error opening the store is the answer to every result.
It ends at the end of its input, which comes when the command ends, however it ends;
it sits in a session of its own, so a Ctrl-C at the terminal does not reach it (a
command interrupted still records its partial report).

    python -m hokm_sim.store.writer
"""

from __future__ import annotations

import json
import signal
import sys
from collections.abc import Callable
from typing import Any

from hokm_sim.store import server
from hokm_sim.store.location import StoreError
from hokm_sim.store.rows import Bot, Comparison, Row


def row(fields: dict[str, Any]) -> Row:
    """The :class:`~.rows.Row` of a line's fields (``dataclasses.asdict`` of one)."""
    bots = [Bot(**b) for b in fields.pop("bots")]
    comparisons = [Comparison(**c) for c in fields.pop("comparisons")]
    return Row(**fields, bots=bots, comparisons=comparisons)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def opened(where: str) -> Callable[[Row], int]:
    """What adds a row to the store at ``where``: through libpq alone where it is of
    this schema version, else through :class:`~.db.Store` (made or migrated now)."""
    conn = server.connect(where)
    if conn is not None:
        return lambda row: server.add(conn, where, row)
    from hokm_sim.store.db import Store

    return Store(where).add


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    where = sys.stdin.readline().strip()
    add, error = None, None
    try:
        add = opened(where)
    except StoreError as exc:
        error = _one_line(exc)
    except Exception as exc:  # anything else is still this one store's error, told in a line
        error = f"cannot open the results store: {_one_line(exc)}"
    for line in sys.stdin:
        answer: dict[str, Any] = {"error": error}
        if add is not None:
            try:
                answer = {"id": add(row(json.loads(line)))}
            except Exception as exc:  # StoreError's line, or what went wrong
                answer = {"error": _one_line(exc)}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
