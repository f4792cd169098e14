"""Ctrl-C as a request: the first one stops work after the batch in flight."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class _StopFlag:
    """Turns the first Ctrl-C into a request to stop after the current batch."""

    def __init__(self) -> None:
        self.stop = False

    def __call__(self, signum, frame) -> None:
        if self.stop:  # a second Ctrl-C stops at once
            raise KeyboardInterrupt
        self.stop = True


@contextmanager
def graceful_interrupt() -> Iterator[_StopFlag]:
    """Within the block, the first Ctrl-C sets ``flag.stop``; a second one raises
    KeyboardInterrupt. Outside the main thread nothing is installed."""
    flag = _StopFlag()
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return
    old = signal.signal(signal.SIGINT, flag)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, old)
