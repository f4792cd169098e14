"""Saying what is compiling while it compiles, to whoever listens (the command line's
progress line).

A new or edited bot, a first install or a pair's specialised engine costs a
compilation of seconds to a minute, which a person at a terminal should not
mistake for a hang. The code that compiles wraps the work in :func:`compiling`
with a short description; a listener (:func:`listen`, as
:class:`hokm_sim.cli.progress.Progress` does on a terminal or in a log) is told when
it starts and ends, and decides whether to show it. Nothing is printed otherwise: a
library call stays quiet.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

Listener = Callable[[str | None], None]
"""Told the description when a compilation starts, and None when it has ended."""

_listeners: list[Listener] = []


def listen(fn: Listener) -> Callable[[], None]:
    """Tell ``fn`` of every compilation from now on; returns the function that stops it."""
    _listeners.append(fn)

    def stop() -> None:
        if fn in _listeners:
            _listeners.remove(fn)

    return stop


@contextmanager
def compiling(what: str) -> Iterator[None]:
    """Within the block, ``what`` is being compiled (or loaded from the disk cache, which
    takes a moment: listeners show only what lasts)."""
    for fn in list(_listeners):
        fn(what)
    try:
        yield
    finally:
        for fn in list(_listeners):
            fn(None)
