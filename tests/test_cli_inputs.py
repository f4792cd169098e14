"""Inputs a new user tries: sizes, seeds, output paths, options that do not go together.

Each bad one is one line naming the problem and exit code 2, never a traceback;
each good one is taken as meant.
"""

from __future__ import annotations

import json
import os
import stat

import click
import pytest
from click.testing import CliRunner

from hokm_sim.cli import main
from hokm_sim.cli.options import SIZE


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1000", 1000),
        ("1e6", 10**6),
        ("10k", 10_000),
        ("2.5k", 2500),
        ("1.5M", 1_500_000),
        ("2G", 2 * 10**9),
        ("1_000", 1000),
        ("0.5k", 500),
    ],
)
def test_sizes_people_write(text, value):
    assert SIZE.convert(text, None, None) == value


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("inf", "not a count"),
        ("nan", "not a count"),
        ("1e400", "not a count"),
        ("1.5", "not a whole number"),
        ("0", "must be positive"),
        ("-3", "not a count"),
        ("1e30", "too large"),
        ("ten", "not a count"),
        ("", "not a count"),
    ],
)
def test_bad_sizes(text, why):
    with pytest.raises(click.BadParameter, match=why):
        SIZE.convert(text, None, None)


def _reports() -> set[str]:
    """The report folders under ``results/`` of the working directory, where commands
    without ``--out`` write."""
    return set(os.listdir("results")) if os.path.isdir("results") else set()


def _fails(args: list, *needles: str) -> str:
    """Bad input: exit 2, one line naming the problem, and no report folder begun."""
    before = _reports()
    res = CliRunner().invoke(main, [str(a) for a in args])
    assert res.exit_code == 2, (res.exit_code, res.output)
    assert _reports() <= before, f"bad input left {sorted(_reports() - before)} in results/"
    err = res.stderr.strip()
    assert err.startswith("Error:") and "\n" not in err and "Traceback" not in err, err
    for n in needles:
        assert n in err, err
    return err


@pytest.mark.parametrize("size", ["inf", "nan", "1e400"])
def test_run_refuses_sizes_that_are_not_counts(size):
    _fails(["run", "--hands", size], "--hands", "not a count")


def test_dd_study_takes_sizes_and_full_range_seeds(tmp_path):
    res = CliRunner().invoke(
        main,
        ["dd-study", "--hands", "1k", "--seed", str(2**64), "--out", str(tmp_path / "d")],
    )
    assert res.exit_code == 2 and "2**64" in res.stderr  # the same limit as every command


def test_target_without_matches_is_refused(tmp_path):
    _fails(["run", "--hands", "100", "--target", "5", "--out", str(tmp_path / "r")], "--target")
    _fails(["trace", "--seed", "1", "--hands", "1", "--target", "5"], "--target")


def test_trace_output_under_a_file(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    _fails(["trace", "--seed", "1", "--hands", "1", "-o", str(blocker / "t.jsonl")], "--output")


def test_show_refuses_a_huge_hand_index():
    err = _fails(["show", "--seed", "1", "--hand", str(2**70)], "--hand", "too large")
    assert "strategy" not in err


def test_show_trace_line_checks(tmp_path):
    f = tmp_path / "t.jsonl"
    f.write_text('{"not": "a hand"}\n')
    _fails(["show", "--trace", str(f)], "not a hand written by hokm-sim trace")
    _fails(["show", "--trace", str(f), "--line", "3"], "has 1 lines")
    f.write_bytes(b"\xff\xfe\x00binary")
    _fails(["show", "--trace", str(f)], "--trace")


def test_report_files_get_the_users_file_mode(tmp_path):
    old = os.umask(0o022)
    try:
        out = tmp_path / "r"
        res = CliRunner().invoke(
            main, ["run", "longest", "random", "--hands", "200", "--seed", "1", "--out", str(out)]
        )
        assert res.exit_code == 0, res.output
        t = tmp_path / "t.jsonl"
        res = CliRunner().invoke(main, ["trace", "--seed", "1", "--hands", "2", "-o", str(t)])
        assert res.exit_code == 0, res.output
    finally:
        os.umask(old)
    for f in [out / "summary.json", out / "report.md", out / "checkpoint.json", t]:
        assert stat.S_IMODE(f.stat().st_mode) == 0o644, f


def test_force_clears_what_an_earlier_report_wrote(tmp_path):
    out = tmp_path / "r"
    args = ["run", "longest", "random", "--hands", "200", "--seed", "1", "--out", str(out)]
    assert CliRunner().invoke(main, [*args, "--save-hands"]).exit_code == 0
    assert (out / "hands.parquet").exists()
    (out / "notes.txt").write_text("mine")
    _fails(args, "already exists", "--force")
    res = CliRunner().invoke(main, [*args, "--force"])
    assert res.exit_code == 0, res.output
    assert not (out / "hands.parquet").exists()  # nothing stale beside the new report
    assert (out / "notes.txt").read_text() == "mine"  # and nothing that was not ours
    assert json.loads((out / "summary.json").read_text())["config"]["seed"] == 1


@pytest.mark.parametrize("cmd", [["run", "--hands", "10"], ["trump-study", "--hands", "10"],
                                 ["tournament", "longest", "random", "--hands", "10"]])  # fmt: skip
@pytest.mark.parametrize("out", ["", "  "])
def test_an_empty_out_folder_is_refused(cmd, out, tmp_path, monkeypatch):
    """An empty --out would be the working directory (and --force would clear it)."""
    monkeypatch.chdir(tmp_path)
    _fails([*cmd, "--out", out, "--force"], "--out", "not an empty one")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("cmd", [["run", "--hands", "10"], ["dd-study", "--hands", "2"]])
def test_out_dash_is_refused_as_no_folder(cmd, tmp_path, monkeypatch):
    """``-`` is standard output to ``-o``; a report folder cannot be that, nor a folder
    named ``-`` by surprise (``./-`` names one)."""
    monkeypatch.chdir(tmp_path)
    _fails([*cmd, "--out", "-"], "--out", "standard output", "./-")
    assert list(tmp_path.iterdir()) == []


DEEP = "[" * 100_000 + "\n"
"""A line of JSON nested far deeper than Python's parser can follow."""


def test_dd_refuses_text_that_is_not_utf8_or_nested_too_deeply(tmp_path):
    binary = tmp_path / "deals.bin"
    binary.write_bytes(b'{"hands": [], "trump": "H", "leader": 0}\n\xff\xfe\x00\x81 junk\n')
    _fails(["dd", str(binary)], "not UTF-8 text")
    res = CliRunner().invoke(main, ["dd"], input=binary.read_bytes())  # standard input
    assert res.exit_code == 2 and res.stderr.startswith("Error: the input is not UTF-8 text")
    deep = tmp_path / "deep.jsonl"
    deep.write_text(DEEP)
    _fails(["dd", str(deep)], "line 1: bad JSON: nested too deeply")


def test_traces_and_report_folders_nested_too_deeply_are_refused(tmp_path):
    deep = tmp_path / "deep.jsonl"
    deep.write_text(DEEP)
    _fails(["show", "--trace", str(deep)], "is not JSON")
    _fails(["analyse", "--trace", str(deep)], "not a JSON object")
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "summary.json").write_text(DEEP)
    _fails(["plot", str(folder)], "cannot be read")
