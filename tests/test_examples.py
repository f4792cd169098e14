"""The examples run as their README says."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from hokm_sim.bots.registry import resolve

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_api_tour_runs(tmp_path, capsys, monkeypatch):
    spec = importlib.util.spec_from_file_location("api_tour", EXAMPLES / "api_tour.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    monkeypatch.setattr(mod.hokm_sim, "run", _small_run(mod.hokm_sim.run))
    mod.main(2000, tmp_path / "run")
    out = capsys.readouterr().out
    assert "pair score" in out and "read back from" in out


def _small_run(run):
    def small(a, b, **kw):  # the pair the rest of the suite compiles, on one thread
        return run("longest", "random", **kw | {"threads": 1})

    return small


def test_example_bot_loads_with_its_parameter():
    s = resolve(f"{EXAMPLES / 'my_bot.py'}(greed=0)")
    assert s.play.params == {"greed": 1.0} and s.play_params[0] == 0.0
