"""A one-line progress display on standard error: done, rate and time left."""

from __future__ import annotations

import sys
import time
from typing import TextIO


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
    """Progress of ``total`` units of work, redrawn in place at most 10 times a second.

    ``unit`` names what is counted (deals, matches); ``per_unit`` hands per
    unit, so the rate is shown in hands per second. Silent unless ``enabled``
    (by default: when standard error is a terminal). ``initial`` units were
    done before (a resumed run): counted as done, not in the rate.
    """

    def __init__(
        self,
        total: int,
        unit: str = "deals",
        per_unit: int = 1,
        stream: TextIO | None = None,
        enabled: bool | None = None,
        initial: int = 0,
    ) -> None:
        self.total, self.unit, self.per_unit = total, unit, per_unit
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.done = self.initial = initial
        self.start = time.perf_counter()
        self._last = 0.0
        self._closed = False

    def line(self) -> str:
        """The current progress line."""
        elapsed = max(time.perf_counter() - self.start, 1e-9)
        rate = (self.done - self.initial) / elapsed
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        pct = 100.0 * self.done / self.total if self.total else 100.0
        eta = clock(left) if left == left else "?"
        return (
            f"{pct:5.1f}%  {human(self.done)}/{human(self.total)} {self.unit}  "
            f"{human(rate * self.per_unit)} hands/s  elapsed {clock(elapsed)}  left {eta}"
        )

    def update(self, n: int, extra: str = "") -> None:
        """Add ``n`` finished units and redraw (throttled)."""
        self.done += n
        now = time.perf_counter()
        if self.enabled and (now - self._last > 0.1 or self.done >= self.total):
            self._last = now
            self.stream.write("\r" + self.line() + (f"  {extra}" if extra else "") + "\033[K")
            self.stream.flush()

    def close(self) -> None:
        """End the progress line (once: later calls do nothing, so error paths may call it)."""
        if self.enabled and not self._closed:
            self.stream.write("\n")
            self.stream.flush()
        self._closed = True

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
