"""A one-line progress display on standard error: done, rate and time left."""

from __future__ import annotations

import sys
import threading
import time
from typing import TYPE_CHECKING, TextIO

from hokm_sim.bots.compiling import listen

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


class Progress:
    """The progress of long work on one line, redrawn in place at most 10 times a second.

    Pass it as the ``progress`` of an API function: it is called with each
    :class:`hokm_sim.api.Tick` (done, total and unit, hands per unit for a
    rate in hands per second, units done before a resumed run began, a
    note). Silent unless ``enabled`` (by default: when standard error is a
    terminal).
    """

    NOTICE_AFTER = 1.0
    """Seconds a compilation runs before the line says what is compiling."""

    def __init__(self, stream: TextIO | None = None, enabled: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.start = time.perf_counter()
        self.tick: Tick | None = None
        self._last = 0.0
        self._closed = False
        self._notice: threading.Timer | None = None
        self._noticed = False
        self._unlisten = listen(self._compiling) if self.enabled else None

    def _compiling(self, what: str | None) -> None:
        """Show ``what`` is compiling once it has taken :data:`NOTICE_AFTER` seconds; clear
        the line when it is done (None)."""
        if self._notice is not None:
            self._notice.cancel()
            self._notice = None
        if what is None:
            if self._noticed:
                self._noticed = False
                self.stream.write("\r\033[K")
                self.stream.flush()
            return
        self._notice = threading.Timer(self.NOTICE_AFTER, self._show, (what,))
        self._notice.daemon = True
        self._notice.start()

    def _show(self, what: str) -> None:
        self._noticed = True
        self.stream.write(f"\rcompiling {what} ...\033[K")
        self.stream.flush()

    def line(self) -> str:
        """The current progress line."""
        elapsed = max(time.perf_counter() - self.start, 1e-9)
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
        """Take the latest tick and redraw (throttled; always at the end)."""
        self.tick = tick
        now = time.perf_counter()
        if self.enabled and (now - self._last > 0.1 or tick.done >= tick.total):
            self._last = now
            self.stream.write("\r" + self.line() + "\033[K")
            self.stream.flush()

    def close(self) -> None:
        """End the progress line (once: later calls do nothing, so error paths may call it)."""
        if self._unlisten is not None:
            self._unlisten()
            self._compiling(None)
        if self.enabled and not self._closed and self.tick is not None:
            self.stream.write("\n")
            self.stream.flush()
        self._closed = True

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
