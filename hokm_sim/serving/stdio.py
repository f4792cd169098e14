"""``hokm-sim serve BOT``: a strategy speaking hokm-bot/1 on standard input and output.

One message a line in, one answer a line out, until ``bye`` (answered, then
exit 0) or the end of the input. ``hello`` is answered once the strategy is
loaded and compiled (within the host's start-up limit), so that the first
``decide`` is as quick as the others (the decision limit is shorter).
Standard output carries protocol lines only: while serving, anything else
written to it (a plain-Python bot's ``print``, a library's chatter, even
from C) goes to standard error, which the host keeps for its fault messages
and never parses.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import BinaryIO

from hokm_sim.jsontext import loads
from hokm_sim.protocol.request import RequestError
from hokm_sim.protocol.wire import dumps
from hokm_sim.serving.decider import Served, ServedFault, error, reply


def serve_lines(served: Served, lines: BinaryIO, out: BinaryIO) -> int:
    """Answer each line of ``lines`` on ``out`` until ``bye`` or the end; exit status 0."""
    for line in lines:
        if not line.strip():
            continue
        try:
            answer, done = reply(served, loads(line))
        except (RequestError, ServedFault) as exc:
            answer, done = error(str(exc)), False
        except ValueError:
            answer, done = error(f"not a JSON line: {line[:60]!r}"), False
        out.write(dumps(answer))
        out.flush()
        if done:
            break
    return 0


@contextlib.contextmanager
def protocol_stdout() -> Iterator[BinaryIO]:
    """The process's standard output for protocol lines only; within the block file
    descriptor 1 and ``sys.stdout`` write to standard error."""
    sys.stdout.flush()
    out = os.fdopen(os.dup(1), "wb", buffering=0)
    saved = os.dup(1)
    os.dup2(2, 1)
    old, sys.stdout = sys.stdout, sys.stderr
    try:
        yield out
    finally:
        sys.stdout = old
        os.dup2(saved, 1)
        os.close(saved)
        out.close()


def serve_stdio(served: Served) -> int:
    """Serve on this process's standard input and output."""
    with protocol_stdout() as out:
        return serve_lines(served, sys.stdin.buffer, out)
