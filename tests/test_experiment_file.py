"""Experiment files are checked against their schema: every bad value is one line naming
the key (and the run), exit 2, never a traceback and never a silent reinterpretation."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from hokm_sim import api
from hokm_sim.analysis.experiment import Experiment, ExperimentError
from hokm_sim.cli import main
from hokm_sim.errors import InputError

RUN = '[[runs]]\na = "longest"\nb = "random"\n'

BAD = [
    # (file text, words the one line must hold)
    (f"hands = 1.5\n{RUN}", ["hands = 1.5", "bad size", "integer"]),
    (f'hands = "100k"\n{RUN}', ['hands = "100k"', "integer"]),
    (f"{RUN}hands = 2e5\n", ["run 1", "hands = 200000.0", "integer"]),
    (f'{RUN}duplicate = "no"\n', ["run 1", 'duplicate = "no"', "true or false"]),
    (f"{RUN}duplicate = 0\n", ["run 1", "duplicate = 0", "true or false"]),
    (f'{RUN}{RUN}matches = "3"\n', ["run 2", 'matches = "3"', "integer"]),
    (f'{RUN}target = "seven"\n', ["run 1", 'target = "seven"', "target"]),
    (f"{RUN}target = 0\n", ["run 1", "target = 0", "positive"]),
    (f'seed = "x"\n{RUN}', ['seed = "x"', "bad seed"]),
    (f"seed = -1\n{RUN}", ["seed = -1", "bad seed"]),
    ('[[runs]]\na = 3\nb = "random"\n', ["run 1", "a = 3", "strategy spec"]),
    ('[[runs]]\na = "longest"\nb = ["random"]\n', ["run 1", 'b = ["random"]', "strategy"]),
    ('[[runs]]\na = "longest"\n', ["run 1", "no b"]),
    ('[[runs]]\na = "longest"\nb = "nosuch"\n', ["run 1", 'b = "nosuch"', "valid names"]),
    ("name = 5\n" + RUN, ["name = 5", "string"]),
    (f'sort = "speed"\n{RUN}', ['sort = "speed"', "elo"]),
    (f"hands = 10\nmatches = 10\n{RUN}", ["hands or matches"]),
    (f"{RUN}hands = 10\nmatches = 10\n", ["run 1", "hands or matches"]),
    ("runs = [1, 2]\n", ["runs = 1", "run 1"]),
    ('runs = "x"\n', ['runs = "x"']),
    ('kind = "tournament"\nstrategies = ["longest", 5]\n', ["strategies[1] = 5", "strategy"]),
    ('kind = "tournament"\nstrategies = "longest"\n', ['strategies = "longest"', "array"]),
    ('kind = "tournament"\nstrategies = ["longest", "random"]\nhands = 0.5\n', ["hands = 0.5"]),
    (
        'kind = "tournament"\nstrategies = ["longest", "random"]\ntarget = 7\n',
        ["target", "tournament"],
    ),
    (f'strategies = ["longest", "random"]\n{RUN}', ["strategies", "tournament"]),
    ("kind = 3\n" + RUN, ["kind = 3"]),
]


@pytest.mark.parametrize("text, words", BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_bad_values_are_one_line_naming_the_key(tmp_path, text, words):
    spec = tmp_path / "bad.toml"
    spec.write_text(text)
    with pytest.raises(InputError) as info:
        api.experiment(spec)
    assert isinstance(info.value, ExperimentError)
    msg = str(info.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg, (w, msg)


@pytest.mark.parametrize("text, words", BAD[:12:3], ids=[f"cli{i}" for i in range(4)])
def test_cli_bad_value_exit_2_one_line(tmp_path, text, words):
    spec = tmp_path / "bad.toml"
    spec.write_text(text)
    res = CliRunner().invoke(main, ["experiment", str(spec)])
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and words[0] in lines[0]
    assert "Traceback" not in res.output


def test_binary_and_unreadable_files(tmp_path):
    spec = tmp_path / "bin.toml"
    spec.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(ExperimentError, match="not a text file"):
        api.experiment(spec)
    res = CliRunner().invoke(main, ["experiment", str(spec)])
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1
    assert "Traceback" not in res.output and "not a text file" in res.output
    spec.write_bytes(b"hands = 1\x00\n")  # UTF-8, but not TOML
    with pytest.raises(ExperimentError, match=re.escape("not TOML")):
        api.experiment(spec)


def test_good_files_parse_to_what_they_say(tmp_path):
    spec = tmp_path / "ok.toml"
    spec.write_text(
        "seed = 3\nhands = 2_000\n"
        f"{RUN}"
        f"{RUN}duplicate = false\nhands = 500\n"
        f"{RUN}matches = 40\ntarget = 5\n"
    )
    exp = Experiment.load(spec)
    got = [(c.hands, c.matches, c.duplicate, c.target, c.seed) for c in exp.runs]
    assert got == [(2000, None, True, 7, 3), (500, None, False, 7, 3), (None, 40, True, 5, 3)]
    top = tmp_path / "m.toml"
    top.write_text(f"matches = 30\n{RUN}{RUN}hands = 100\n")
    got = [(c.hands, c.matches) for c in Experiment.load(top).runs]
    assert got == [(None, 30), (100, None)]


def test_the_command_prints_a_line_per_run_and_the_report_path(tmp_path):
    """``experiment`` prints its runs in aligned columns and where the report is, as
    ``run`` does, not report.md: no markdown table rules, code fences or headings."""
    spec = tmp_path / "e.toml"
    spec.write_text(f'name = "tiny"\nquestion = "q?"\nseed = 3\nhands = 20\n{RUN}')
    out = tmp_path / "r"
    res = CliRunner().invoke(main, ["experiment", str(spec), "--out", str(out)])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[:2] == ["tiny", "Question: q?"] and lines[-1] == f"report: {out}"
    for mark in ("|", "```", "#"):
        assert mark not in res.stdout, mark
    head, row = lines[-3:-1]
    assert head.split()[:4] == ["A", "B", "duplicate", "hands"]
    assert row.split()[:4] == ["longest", "random", "yes", "40"]
    assert head.index("pair score") == row.index(row.split()[4])  # aligned columns
    assert "| longest | random |" in (out / "report.md").read_text()
