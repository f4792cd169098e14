"""The progress line: what it shows, that it stays silent when off, one newline at the end."""

from __future__ import annotations

import io

from hokm_sim.api import Tick
from hokm_sim.cli.progress import Progress, clock, human


def test_counts_and_clock_are_compact():
    assert [human(x) for x in (950, 12_500, 3_200_000, 1e9)] == ["950", "12.5k", "3.2M", "1G"]
    assert clock(65) == "1:05" and clock(3725) == "1:02:05"


def test_the_line_shows_done_rate_time_left_and_the_note_and_ends_once():
    out = io.StringIO()
    p = Progress(stream=out, enabled=True)
    p(Tick(1000, 1000, "deals", hands=2, note="LLR +1.000"))
    line = out.getvalue()
    assert line.startswith("\r100.0%  1k/1k deals") and "hands/s" in line and "left 0:00" in line
    assert line.rstrip("\x1b[K").endswith("LLR +1.000")
    p.close()
    p.close()  # error paths may close again: still one newline
    assert out.getvalue().count("\n") == 1


def test_a_resumed_run_counts_earlier_work_as_done_but_not_in_the_rate():
    p = Progress(enabled=False)
    p(Tick(50, 100, start=50))
    assert p.line().startswith(" 50.0%  50/100 deals  0 hands/s")


def test_off_it_writes_nothing():
    out = io.StringIO()
    p = Progress(stream=out, enabled=False)
    p(Tick(10, 10))
    p.close()
    assert out.getvalue() == ""
