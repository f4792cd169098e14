"""`run --resume` trusts checkpoint.json only after checking it: a damaged or edited file
(random bytes, missing keys, wrong types, ranges that do not fit, counts that disagree
with the done ranges) is one line and exit 2, never a traceback or an inconsistent report."""

from __future__ import annotations

import copy
import json
import os
import shutil

import numpy as np
import pytest
from click.testing import CliRunner

from hokm_sim.cli import main
from hokm_sim.engine import records as r
from hokm_sim.sim.checkpoint import Checkpoint, CheckpointError


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """The report folder of a real small run, and its checkpoint as JSON."""
    out = tmp_path_factory.mktemp("cp") / "run"
    res = CliRunner().invoke(
        main,
        ["run", "longest", "random", "--hands", "20k", "--seed", "1", "--out", str(out)]
        + ["--threads", "1"],  # the suite's common pair: its engine is compiled anyway
    )
    assert res.exit_code == 0, res.output
    return out, json.loads((out / "checkpoint.json").read_text())


def _set(d: dict, path: str, value) -> dict:
    d = copy.deepcopy(d)
    *head, last = path.split(".")
    at = d
    for k in head:
        at = at[k]
    if value is DELETE:
        del at[last]
    else:
        at[last] = value
    return d


DELETE = object()
TOTAL = 20_000


def _counts_plus(raw: dict, slot: int, by: int) -> list[int]:
    c = list(raw["counts"])
    c[slot] += by
    return c


DAMAGE = {
    "random bytes": lambda raw: os.urandom(4096),
    "truncated": lambda raw: json.dumps(raw).encode()[:200],
    "a list": lambda raw: b"[1, 2, 3]",
    "nested too deep": lambda raw: b"[" * 200_000,
    "no counts": lambda raw: _set(raw, "counts", DELETE),
    "no done": lambda raw: _set(raw, "done", DELETE),
    "no total": lambda raw: _set(raw, "total", DELETE),
    "no config": lambda raw: _set(raw, "config", DELETE),
    "total a string": lambda raw: _set(raw, "total", "20000"),
    "total true": lambda raw: _set(raw, "total", True),
    "done not a list": lambda raw: _set(raw, "done", "0-20000"),
    "done triple": lambda raw: _set(raw, "done", [[0, 20000, 1]]),
    "done floats": lambda raw: _set(raw, "done", [[0.0, 20000.0]]),
    "done outside": lambda raw: _set(raw, "done", [[0, 30000]]),
    "done negative": lambda raw: _set(raw, "done", [[-5, 20000]]),
    "done empty range": lambda raw: _set(raw, "done", [[0, 20000], [5, 5]]),
    "done overlapping": lambda raw: _set(raw, "done", [[0, 15000], [10000, 20000]]),
    "done edited shorter": lambda raw: _set(raw, "done", [[0, 10000]]),
    "done edited split": lambda raw: _set(raw, "done", [[0, 5000], [15000, 20000]]),
    "counts short": lambda raw: _set(raw, "counts", raw["counts"][:-1]),
    "counts a string": lambda raw: _set(raw, "counts", "many"),
    "count a string": lambda raw: _set(raw, "counts", ["1"] + raw["counts"][1:]),
    "count a float": lambda raw: _set(raw, "counts", [0.5] + raw["counts"][1:]),
    "count negative": lambda raw: _set(raw, "counts", [-1] + raw["counts"][1:]),
    "count huge": lambda raw: _set(raw, "counts", [2**70] + raw["counts"][1:]),
    "one hand more": lambda raw: _set(raw, "counts", _counts_plus(raw, r.C_TRICKS + 7, 1)),
    "one pair more": lambda raw: _set(raw, "counts", _counts_plus(raw, r.C_PAIR, 1)),
    "a match in a hands run": lambda raw: _set(raw, "counts", _counts_plus(raw, r.C_MATCH, 1)),
    "config a list": lambda raw: _set(raw, "config", [1]),
    "no engine": lambda raw: _set(raw, "config.engine", DELETE),
    "no command": lambda raw: _set(raw, "config.command", DELETE),
    "engine a number": lambda raw: _set(raw, "config.engine", 5),
    "no run": lambda raw: _set(raw, "config.run", DELETE),
    "run a string": lambda raw: _set(raw, "config.run", "expert"),
    "no run seed": lambda raw: _set(raw, "config.run.seed", DELETE),
    "seed a string": lambda raw: _set(raw, "config.run.seed", "1"),
    "seed negative": lambda raw: _set(raw, "config.run.seed", -1),
    "strategy a number": lambda raw: _set(raw, "config.run.a", 3),
    "duplicate a string": lambda raw: _set(raw, "config.run.duplicate", "yes"),
    "duplicate flipped": lambda raw: _set(raw, "config.run.duplicate", False),
    "hands not the total": lambda raw: _set(raw, "config.run.hands", 30000),
    "hands and matches": lambda raw: _set(raw, "config.run.matches", 20000),
    "matches instead of hands": lambda raw: _set(
        _set(raw, "config.run.hands", None), "config.run.matches", 20000
    ),
    "target zero": lambda raw: _set(raw, "config.run.target", 0),
    "unknown run key": lambda raw: _set(raw, "config.run.colour", "red"),
    "unknown first-Hakem rule": lambda raw: _set(raw, "config.run.first_hakem", "two-aces"),
    "save_hands a string": lambda raw: _set(raw, "config.save_hands", "no"),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_damaged_checkpoint_is_one_line_and_exit_2(finished, tmp_path, damage):
    out, raw = finished
    folder = tmp_path / "run"
    shutil.copytree(out, folder)
    bad = DAMAGE[damage](raw)
    data = bad if isinstance(bad, bytes) else json.dumps(bad).encode()
    (folder / "checkpoint.json").write_bytes(data)
    with pytest.raises(CheckpointError) as info:
        Checkpoint.load(folder)
    assert "\n" not in str(info.value)
    res = CliRunner().invoke(main, ["run", "--resume", str(folder), "--threads", "1"])
    assert res.exit_code == 2, (damage, res.output)
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), res.output
    assert "Traceback" not in res.output and "checkpoint" in lines[0]
    assert json.loads((folder / "summary.json").read_text()) == json.loads(
        (out / "summary.json").read_text()
    )  # the report is left as it was


def test_the_real_checkpoint_and_its_consistent_edits_load(finished, tmp_path):
    out, raw = finished
    cp = Checkpoint.load(out)
    assert cp.done == [(0, TOTAL)] and cp.done_count == TOTAL
    hands = int(cp.counts[r.C_TRICKS : r.C_TRICKS + r.C_TRICKS_SIZE].sum())
    assert hands == 2 * TOTAL  # duplicate: two hands a deal
    # Adjacent ranges, in any order, are one range; a fresh checkpoint is consistent.
    folder = tmp_path / "ok"
    folder.mkdir()
    fresh = _set(raw, "done", [])
    fresh["counts"] = [0] * r.N_COUNTS
    (folder / "checkpoint.json").write_text(json.dumps(fresh))
    assert Checkpoint.load(folder).pending() == [(0, TOTAL)]
    split = _set(raw, "done", [[12000, 20000], [0, 12000]])
    (folder / "checkpoint.json").write_text(json.dumps(split))
    back = Checkpoint.load(folder)
    assert back.done == [(0, TOTAL)] and np.array_equal(back.counts, cp.counts)
    # a checkpoint written before the first-Hakem house rules has no rule: first ace
    assert raw["config"]["run"]["first_hakem"] == "first-ace"
    (folder / "checkpoint.json").write_text(json.dumps(_set(raw, "config.run.first_hakem", DELETE)))
    assert Checkpoint.load(folder).done == [(0, TOTAL)]


@pytest.mark.parametrize("key", ["engine", "command"])
def test_resume_needs_the_run_keys(tmp_path, key):
    folder = tmp_path / "r"
    args = ["run", "longest", "random", "--hands", "300", "--seed", "1", "--threads", "1"]
    res = CliRunner().invoke(main, [*args, "--out", str(folder)])
    assert res.exit_code == 0, res.output
    f = folder / "checkpoint.json"
    data = json.loads(f.read_text())
    data["config"].pop(key)
    data["config"].pop("save_hands", None)
    f.write_text(json.dumps(data))
    res = CliRunner().invoke(main, ["run", "--resume", str(folder)])
    assert res.exit_code == 2, res.output
    assert key in res.stderr and res.stderr.count("\n") == 1, res.stderr
