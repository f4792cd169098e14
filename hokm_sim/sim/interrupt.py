"""Ctrl-C as a request, and a main thread that hears it whatever a bot does.

The first Ctrl-C (or ``SIGTERM`` or ``SIGHUP``, taken the same way) within
:func:`graceful_interrupt` stops work after the batch in flight; a second one
stops at once (``KeyboardInterrupt``, or :class:`~hokm_sim.errors.Terminated`).
A command's exit code is 128 + the signal that stopped it
(:func:`stop_signal`): 130 for Ctrl-C, 143 for ``SIGTERM``.

A work's engines are compiled (or loaded) inside the block too, off the
main thread like every engine call, so a stop asked for while numba compiles
(which nothing can interrupt) is heard at once: the compilation is left
behind after :data:`GRACE` seconds, or plays nothing when it ends sooner; a
work kept so from playing with nothing done raises the stop
(:func:`raise_if_nothing_done`).

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

from hokm_sim.errors import Terminated

GRACE = 1.5
"""Seconds a stop request waits for the engine call in flight before leaving it."""
_POLL = 0.05

T = TypeVar("T")


class Abandoned(KeyboardInterrupt):
    """Ctrl-C, and the engine call in flight left running: what finished before it is
    all there is. A KeyboardInterrupt, so whatever does not expect it stops as on Ctrl-C."""


STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals taken as a request to stop: Ctrl-C, ``SIGTERM`` and a hang-up (where
the system has them)."""
_heard = [signal.SIGINT]


def interruption(signum: int) -> KeyboardInterrupt:
    """The exception that stops work at once on signal ``signum``."""
    return KeyboardInterrupt() if signum == signal.SIGINT else Terminated(signum)


def stop_signal() -> int:
    """The signal of the latest stop request (Ctrl-C's ``SIGINT`` if none came):
    a command stopped by it exits with 128 + it."""
    return int(_heard[0])


class _StopFlag:
    """Turns the first of :data:`STOP_SIGNALS` into a request to stop after the
    current batch."""

    def __init__(self) -> None:
        self.stop = False
        self.since: float | None = None

    def __call__(self, signum, frame) -> None:
        _heard[0] = signum
        if self.stop:  # a second one stops at once
            raise interruption(signum)
        self.stop, self.since = True, time.monotonic()


_flags: list[_StopFlag] = []
_left: list[threading.Thread] = []


@contextmanager
def graceful_interrupt() -> Iterator[_StopFlag]:
    """Within the block, the first of :data:`STOP_SIGNALS` sets ``flag.stop``; a second
    one raises KeyboardInterrupt (:class:`~hokm_sim.errors.Terminated` for
    ``SIGTERM`` and ``SIGHUP``). Ctrl-C is heard even where the process was started
    with it ignored (a job a script started in the background): a stop asked for
    is a stop; the others are left ignored where they were (``nohup``).
    Outside the main thread nothing is installed."""
    flag = _StopFlag()
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return
    old = {
        s: signal.signal(s, flag)
        for s in STOP_SIGNALS
        if s == signal.SIGINT or signal.getsignal(s) is not signal.SIG_IGN
    }
    _flags.append(flag)
    try:
        yield flag
    finally:
        _flags.remove(flag)
        for s, handler in old.items():
            signal.signal(s, handler)


def raise_if_nothing_done(flag: _StopFlag, done: int) -> None:
    """For a work that a stop kept from playing (it came while the engines compiled):
    if nothing at all is done (``done``, resumed work included), raise the stop
    (:func:`interruption`), since there is no report to keep."""
    if flag.stop and done == 0:
        raise interruption(_heard[0])


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
