"""The processes a bot started, found through Linux's ``/proc`` and ended together.

hokm-sim starts every bot with ``HOKM_SIM_BOT=<hokm-sim's pid>.<n>`` in its
environment (:data:`MARK`); what the bot starts inherits it, whatever
session or process group it moves to. :func:`end` stops (``SIGSTOP``) every
process a finder returns until no new one appears, so that none can fork
away while they are collected, then kills them all.

Run as a script (``python -I -S family.py PID``, standard library only, so
it starts in milliseconds and imports nothing of hokm-sim), it is the
*watchdog* of hokm-sim process ``PID``: it waits for its standard input, a
pipe whose other end only hokm-sim holds, to close, which happens however
hokm-sim ends, ``SIGKILL`` included, and then ends every process still
marked as one of ``PID``'s bots' (:mod:`hokm_sim.protocol.child` starts it).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable

MARK = "HOKM_SIM_BOT"
"""The environment variable every bot is started with (``<hokm-sim's pid>.<n>``, one
value a process), inherited by what it starts."""


def parents() -> dict[int, int]:
    """Every process's parent, from ``/proc`` (empty where there is none)."""
    out = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return out
    for name in entries:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:  # gone meanwhile
            continue
        out[int(name)] = int(stat[stat.rindex(b")") + 2 :].split()[1])
    return out


def mark_of(pid: int) -> str | None:
    """The value of :data:`MARK` in process ``pid``'s environment (None: none, or the
    process is gone or not ours to read)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            env = f.read().split(b"\0")
    except OSError:
        return None
    key = f"{MARK}=".encode()
    for entry in env:
        if entry.startswith(key):
            return entry[len(key) :].decode(errors="replace")
    return None


def end(find: Callable[[], set[int]], rounds: int = 20) -> set[int]:
    """Stop every process ``find()`` returns, again until it returns no new one (at most
    ``rounds`` times: a family forking as fast as it is stopped is not waited for),
    then kill them all; the processes signalled."""
    seen: set[int] = set()
    for _ in range(rounds):
        new = find() - seen - {os.getpid()}
        if not new:
            break
        for p in new:
            with contextlib.suppress(OSError):
                os.kill(p, signal.SIGSTOP)
        seen |= new
    for p in seen:
        with contextlib.suppress(OSError):
            os.kill(p, signal.SIGKILL)
    return seen


def watch(owner: int) -> None:
    """Wait until standard input closes, then end every process marked as a bot's of
    hokm-sim process ``owner`` (see the module doc)."""
    with contextlib.suppress(OSError):
        while os.read(0, 4096):
            pass
    prefix = f"{owner}."
    end(lambda: {p for p in parents() if (mark_of(p) or "").startswith(prefix)})


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is hokm-sim's to take
    watch(int(sys.argv[1]))
