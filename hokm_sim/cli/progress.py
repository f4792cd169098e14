"""Progress on standard error: done, rate and time left, on a terminal in one line redrawn
in place, elsewhere (a pipe, a CI log) in plain lines now and then."""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from hokm_sim.bots.compiling import listen
from hokm_sim.errors import InputError

if TYPE_CHECKING:  # the API loads numba: not before a command runs
    from hokm_sim.api import Tick


def human(n: float) -> str:
    """Compact count: 950, 12.5k, 3.20M, 1.00G."""
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(n) >= div:
            return f"{n / div:.3g}{suffix}"
    return f"{n:.0f}"


def clock(seconds: float) -> str:
    """Seconds as ``m:ss`` or ``h:mm:ss``."""
    s = int(round(seconds))
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


EVERY_VARIABLE = "HOKM_SIM_PROGRESS_EVERY"
"""Seconds between the plain progress lines where standard error is not a terminal."""


def log_every(default: float = 15.0) -> float:
    """The seconds between plain progress lines: ``$HOKM_SIM_PROGRESS_EVERY`` (``0``: at
    every tick, ``off``: none), else ``default``; an unreadable value is one line naming
    the variable (exit 2)."""
    text = os.environ.get(EVERY_VARIABLE, "").strip().lower()
    if not text:
        return default
    if text == "off":
        return math.inf
    try:
        every = float(text)
    except ValueError:
        every = math.nan
    if not every >= 0:
        raise InputError(
            f"{EVERY_VARIABLE}={text!r}: expected seconds between progress lines (0 or more) or off"
        )
    return every


class Progress:
    """The progress of long work on standard error: done, rate and time left.

    Pass it as the ``progress`` of an API function: it is called with each
    :class:`hokm_sim.api.Tick` (done, total and unit, hands per unit for a
    rate in hands per second, units done before a resumed run began, a
    note). On a terminal one line is redrawn in place at most 10 times a
    second (``enabled=True``). Elsewhere (a pipe, a CI log) the same line is
    printed as plain text, the first once the work has taken ``every``
    seconds and then at most every ``every`` seconds (:func:`log_every`), so
    that a log shows the work alive without a line per tick and a short
    command prints nothing; the line at the end follows if any was printed.
    ``enabled=False`` prints nothing. A compilation that lasts is said once
    in either mode (:data:`NOTICE_AFTER`, :data:`LOG_NOTICE_AFTER`).
    """

    NOTICE_AFTER = 1.0
    """Seconds a compilation runs before the terminal's line says what is compiling."""
    LOG_NOTICE_AFTER = 5.0
    """The same in a log (or ``every`` seconds, if fewer): loading from the disk cache
    takes a second or two, which a log need not record."""

    def __init__(
        self,
        stream: TextIO | None = None,
        enabled: bool | None = None,
        *,
        every: float | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty() if enabled is None else enabled
        self.every = math.inf
        """Seconds between plain lines (infinite: none, as on a terminal)."""
        if enabled is None and not self.live:
            self.every = log_every() if every is None else every
        self.enabled = self.live or self.every < math.inf
        self.clock = clock
        self.start = clock()
        self.tick: Tick | None = None
        self._last = 0.0
        self._logged: Tick | None = None
        self._closed = False
        self._notice: threading.Timer | None = None
        self._noticed = False
        self._unlisten = listen(self._compiling) if self.enabled else None

    def _compiling(self, what: str | None) -> None:
        """Show ``what`` is compiling once it has taken :data:`NOTICE_AFTER` seconds (in a
        log :data:`LOG_NOTICE_AFTER`); on a terminal, clear the line when it is done
        (None)."""
        if self._notice is not None:
            self._notice.cancel()
            self._notice = None
        if what is None:
            if self._noticed and self.live:
                self.stream.write("\r\033[K")
                self.stream.flush()
            self._noticed = False
            return
        after = self.NOTICE_AFTER if self.live else min(self.LOG_NOTICE_AFTER, self.every)
        if after <= 0:
            self._show(what)
            return
        self._notice = threading.Timer(after, self._show, (what,))
        self._notice.daemon = True
        self._notice.start()

    def _show(self, what: str) -> None:
        self._noticed = True
        if self.live:
            self.stream.write(f"\rcompiling {what} ...\033[K")
        else:
            self.stream.write(f"compiling {what} ...\n")
        self.stream.flush()

    def line(self) -> str:
        """The current progress line."""
        elapsed = max(self.clock() - self.start, 1e-9)
        t = self.tick
        if t is None:
            return f"starting  elapsed {clock(elapsed)}"
        rate = (t.done - t.start) / elapsed
        left = (t.total - t.done) / rate if rate > 0 else float("nan")
        pct = 100.0 * t.done / t.total if t.total else 100.0
        eta = clock(left) if left == left else "?"
        note = f"  {t.note}" if t.note else ""
        return (
            f"{pct:5.1f}%  {human(t.done)}/{human(t.total)} {t.unit}  "
            f"{human(rate * t.hands)} hands/s  elapsed {clock(elapsed)}  left {eta}{note}"
        )

    def __call__(self, tick: Tick) -> None:
        """Take the latest tick and show it: on a terminal redrawn (throttled; always at the
        end), in a log printed at most every :attr:`every` seconds."""
        self.tick = tick
        now = self.clock()
        if self.live:
            if now - self._last > 0.1 or tick.done >= tick.total:
                self._last = now
                self.stream.write("\r" + self.line() + "\033[K")
                self.stream.flush()
        elif now - max(self._last, self.start) >= self.every:
            self._last = now
            self._log()

    def _log(self) -> None:
        self._logged = self.tick
        self.stream.write(self.line() + "\n")
        self.stream.flush()

    def close(self) -> None:
        """End the progress (once: later calls do nothing, so error paths may call it): on a
        terminal a newline after the line, in a log the last tick's line if an earlier one
        was printed."""
        if self._unlisten is not None:
            self._unlisten()
            self._compiling(None)
        if not self._closed and self.tick is not None:
            if self.live:
                self.stream.write("\n")
                self.stream.flush()
            elif self._logged is not None and self._logged is not self.tick:
                self._log()
        self._closed = True

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
