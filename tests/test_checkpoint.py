"""checkpoint.json: done ranges merge in any order, counts add up, saves are atomic."""

from __future__ import annotations

import json

import numpy as np
import pytest

from hokm_sim.engine.records import N_COUNTS
from hokm_sim.sim.checkpoint import Checkpoint, CheckpointError


def counts(x: int) -> np.ndarray:
    return np.full(N_COUNTS, x, np.int64)


def test_ranges_in_any_order_merge_and_counts_add(tmp_path):
    cp = Checkpoint.create(tmp_path, {"run": {"seed": 1}}, 100)
    assert cp.pending() == [(0, 100)] and Checkpoint.load(tmp_path).done == []
    cp.add(40, 20, counts(2))
    cp.add(90, 10, counts(3))
    assert cp.pending() == [(0, 40), (60, 30)]
    cp.add(0, 40, counts(5))
    assert cp.done == [(0, 60), (90, 100)] and cp.done_count == 70
    back = Checkpoint.load(tmp_path)  # saved at every add outside saving()
    assert back.done == cp.done and np.array_equal(back.counts, counts(10))
    assert back.config == {"run": {"seed": 1}} and back.pending() == [(60, 30)]
    with pytest.raises(ValueError, match="already"):
        cp.add(50, 20, counts(1))
    with pytest.raises(ValueError, match="outside"):
        cp.add(95, 10, counts(1))
    assert cp.done_count == 70 and np.array_equal(cp.counts, counts(10))


def test_background_saving_writes_the_last_state(tmp_path):
    cp = Checkpoint.create(tmp_path, {}, 10_000)
    with cp.saving():
        for s in range(0, 10_000, 100):
            cp.add(s, 100, counts(1))
    back = Checkpoint.load(tmp_path)
    assert back.done == [(0, 10_000)] and np.array_equal(back.counts, counts(100))
    assert [p.name for p in tmp_path.iterdir()] == ["checkpoint.json"]  # no temporary left


def test_unreadable_checkpoints(tmp_path):
    with pytest.raises(CheckpointError, match="nothing to resume"):
        Checkpoint.load(tmp_path)
    (tmp_path / "checkpoint.json").write_text("{not json")
    with pytest.raises(CheckpointError, match="cannot read"):
        Checkpoint.load(tmp_path)
    (tmp_path / "checkpoint.json").write_text(json.dumps({"format": 99}))
    with pytest.raises(CheckpointError, match="not a hokm-sim checkpoint"):
        Checkpoint.load(tmp_path)
