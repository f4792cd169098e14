"""Ctrl-C as a request, and a main thread that hears it whatever a bot does.

The first Ctrl-C within :func:`graceful_interrupt` stops work after the batch
in flight; a second one stops at once.

A bot can hang (a Python ``while True``, an ``@njit`` loop that never ends),
and a numba function that runs without the GIL cannot be interrupted at all.
So the engine never runs in the main thread: :func:`off_main` runs each
engine call in a thread of its own while the main thread waits, able to take
Ctrl-C at any moment. When a stop was asked for and the call has not ended
:data:`GRACE` seconds later (or on Ctrl-C outside :func:`graceful_interrupt`),
the main thread leaves the call behind (:class:`Abandoned`) and goes on to
keep what finished; the command then ends the process without waiting for
the thread (:func:`abandoned` tells it to).
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import numba

GRACE = 1.5
"""Seconds a stop request waits for the engine call in flight before leaving it."""
_POLL = 0.05

T = TypeVar("T")


class Abandoned(KeyboardInterrupt):
    """Ctrl-C, and the engine call in flight left running: what finished before it is
    all there is. A KeyboardInterrupt, so whatever does not expect it stops as on Ctrl-C."""


class _StopFlag:
    """Turns the first Ctrl-C into a request to stop after the current batch."""

    def __init__(self) -> None:
        self.stop = False
        self.since: float | None = None

    def __call__(self, signum, frame) -> None:
        if self.stop:  # a second Ctrl-C stops at once
            raise KeyboardInterrupt
        self.stop, self.since = True, time.monotonic()


_flags: list[_StopFlag] = []
_left: list[threading.Thread] = []


@contextmanager
def graceful_interrupt() -> Iterator[_StopFlag]:
    """Within the block, the first Ctrl-C sets ``flag.stop``; a second one raises
    KeyboardInterrupt. Outside the main thread nothing is installed."""
    flag = _StopFlag()
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return
    old = signal.signal(signal.SIGINT, flag)
    _flags.append(flag)
    try:
        yield flag
    finally:
        _flags.remove(flag)
        signal.signal(signal.SIGINT, old)


def off_main(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` (an engine call, which runs bots) in a thread of its own, the
    calling main thread waiting and taking Ctrl-C.

    The thread gets the caller's numba thread count and parallel chunk size
    (both are per thread in numba). What bots print goes to standard error
    for the call's duration, so a command's own output stays parseable.
    Raises :class:`Abandoned` (see the module doc), or what ``fn`` raised.
    Outside the main thread, ``fn`` simply runs.
    """
    if threading.current_thread() is not threading.main_thread():
        return fn(*args)
    threads, chunk = numba.get_num_threads(), numba.get_parallel_chunksize()
    box: dict[str, Any] = {}
    done = threading.Event()

    def work() -> None:
        try:
            numba.set_num_threads(threads)
            numba.set_parallel_chunksize(chunk)
            box["value"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            box["error"] = exc
        finally:
            done.set()

    thread = threading.Thread(target=work, name="hokm-sim engine", daemon=True)
    stdout, sys.stdout = sys.stdout, sys.stderr
    try:
        thread.start()
        while not done.wait(_POLL):
            if any(f.stop and time.monotonic() - (f.since or 0.0) > GRACE for f in _flags):
                raise Abandoned
    except KeyboardInterrupt:
        if not done.is_set():
            _left.append(thread)
        raise
    finally:
        sys.stdout = stdout
    if "error" in box:
        raise box["error"]
    return box["value"]


def abandoned() -> bool:
    """Whether an engine call was left running: the process must end without
    waiting for its threads (``os._exit`` once the output is flushed)."""
    return any(t.is_alive() for t in _left)
