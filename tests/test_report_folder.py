"""Report folders taken by one run at a time, and given back when a run fails before
it played anything."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from click.testing import CliRunner
from test_strategy_faults import MISTYPED_BOT  # a bot that fails to compile

from hokm_sim.cli import main
from hokm_sim.errors import InputError
from hokm_sim.report.folder import ReportFolder

RUN = ["run", "longest", "random", "--hands", "50", "--seed", "1", "--threads", "1"]


def _invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_folder_being_written_is_refused_to_a_second_run(tmp_path):
    out = tmp_path / "conc"
    holder = ReportFolder.create(out)  # a run that has just taken the new folder
    res = _invoke(*RUN, "--out", out)
    assert res.exit_code == 2, res.output
    assert res.stderr.strip() == (
        f"Error: --out: report folder {out} is being written by another hokm-sim run; "
        "wait for it or choose another folder"
    )
    with pytest.raises(InputError, match="being written by another"):
        ReportFolder.create(out, force=True)
    del holder  # that run ends: the folder is free
    assert _invoke(*RUN, "--out", out).exit_code == 0


def test_the_lock_holds_across_processes_and_for_resume(tmp_path):
    out = tmp_path / "done"
    assert _invoke(*RUN, "--out", out).exit_code == 0
    code = textwrap.dedent(
        f"""
        import sys
        from hokm_sim.report.folder import ReportFolder
        f = ReportFolder.take({str(out)!r})  # as a --resume of it does
        print("held", flush=True)
        sys.stdin.read()
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert proc.stdout.readline() == "held\n"
        for args in (["run", "--resume", out], [*RUN, "--out", out, "--force"]):
            res = _invoke(*args)
            assert res.exit_code == 2 and "being written by another hokm-sim run" in res.stderr
    finally:
        proc.communicate("", timeout=60)
    assert _invoke(*RUN, "--out", out, "--force").exit_code == 0


def test_a_run_that_fails_before_playing_leaves_no_folder(tmp_path):
    bot = tmp_path / "broken.py"
    bot.write_text(MISTYPED_BOT)
    out = tmp_path / "r"
    res = _invoke("run", bot, "random", "--hands", 50, "--out", out)
    assert res.exit_code == 2 and "does not compile into the engine" in res.stderr
    assert not out.exists()  # no lone checkpoint.json to refuse the next command
    assert _invoke(*RUN, "--out", out).exit_code == 0
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "notes.txt").write_text("mine")
    res = _invoke("run", bot, "random", "--hands", 50, "--out", kept, "--force")
    assert res.exit_code == 2
    assert [p.name for p in kept.iterdir()] == ["notes.txt"]  # the user's own file stays
