"""The progress line: what it shows, that it stays silent when off, one newline at the end."""

from __future__ import annotations

import io
import json
import math

import pytest
from click.testing import CliRunner

from hokm_sim.api import Tick
from hokm_sim.cli.progress import EVERY_VARIABLE, Progress, clock, human, log_every


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


class _Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_off_a_terminal_plain_lines_come_at_most_every_interval_and_the_end_once():
    out, t = io.StringIO(), _Clock()  # a StringIO is no terminal: plain lines
    p = Progress(stream=out, every=10, clock=t)
    for at, done in ((1, 10), (9.9, 90), (10, 100), (15, 150), (20.5, 205), (22, 220)):
        t.now = 100.0 + at
        p(Tick(done, 1000, "deals", hands=2))
    t.now = 125.0
    p(Tick(1000, 1000, "deals", hands=2))
    p.close()
    p.close()
    lines = out.getvalue().splitlines(keepends=True)
    assert all(x.endswith("\n") and "\r" not in x and "\x1b" not in x for x in lines)
    assert [x.split()[1] for x in lines] == ["100/1k", "205/1k", "1k/1k"]  # 10 s, 20.5 s, end
    assert lines[0].startswith(" 10.0%  100/1k deals  20 hands/s  elapsed 0:10  left 1:30")


def test_off_a_terminal_a_short_run_prints_nothing():
    out, t = io.StringIO(), _Clock()
    p = Progress(stream=out, every=10, clock=t)
    for at in (1, 5, 9):
        t.now = 100.0 + at
        p(Tick(at, 9))
    p.close()
    assert out.getvalue() == ""


def test_off_a_terminal_a_compilation_that_lasts_is_said_once(monkeypatch):
    from hokm_sim.bots.compiling import compiling

    monkeypatch.setattr(Progress, "LOG_NOTICE_AFTER", 0.0)  # said at once: no waiting
    out = io.StringIO()
    with Progress(stream=out, every=10), compiling("bot x (once per version of its file)"):
        pass
    assert out.getvalue() == "compiling bot x (once per version of its file) ...\n"
    quiet = io.StringIO()
    with Progress(stream=quiet, every=float("inf")), compiling("bot x"):
        pass  # no plain lines at all (HOKM_SIM_PROGRESS_EVERY=off): no notice either
    assert quiet.getvalue() == ""


@pytest.mark.parametrize(("value", "every"), [("0", 0.0), ("12.5", 12.5), ("off", math.inf)])
def test_the_interval_is_read_from_the_environment(monkeypatch, value, every):
    monkeypatch.setenv(EVERY_VARIABLE, value)
    assert log_every() == every
    assert Progress(stream=io.StringIO()).every == every


def test_a_command_in_a_pipe_prints_plain_lines_on_stderr_and_clean_json_on_stdout(tmp_path):
    from hokm_sim.cli import main

    args = ["run", "longest", "random", "--hands", "200", "--json", "--out", str(tmp_path / "r")]
    res = CliRunner().invoke(main, args, env={EVERY_VARIABLE: "0"})  # a line at every tick
    assert res.exit_code == 0, res.output
    json.loads(res.stdout)  # nothing but the JSON
    lines = res.stderr.splitlines()
    assert lines and lines[-1].startswith("100.0%  200/200 deals") and "left 0:00" in lines[-1]
    assert "\r" not in res.stderr and "\x1b" not in res.stderr


def test_a_bad_interval_is_one_line_naming_the_variable():
    from hokm_sim.cli import main

    res = CliRunner().invoke(main, ["run", "--hands", "10"], env={EVERY_VARIABLE: "soon"})
    assert res.exit_code == 2
    assert res.stderr.splitlines() == [
        f"Error: {EVERY_VARIABLE}='soon': expected seconds between progress lines (0 or more) "
        "or off"
    ]
