"""Ctrl-C while the engine compiles stops at once (exit 130), not after the run."""

from __future__ import annotations

import signal

from click.testing import CliRunner

from hokm_sim.cli import main
from hokm_sim.sim.runner import Runner


def test_engine_compiles_before_ctrl_c_becomes_a_stop_request(monkeypatch, tmp_path):
    """While the engine compiles, SIGINT has the handler the process had (Python's,
    which raises KeyboardInterrupt; or ignored, in a job started in the background)."""
    had = signal.getsignal(signal.SIGINT)
    seen = []

    def prepare(self, matches=False):
        seen.append(signal.getsignal(signal.SIGINT))
        raise KeyboardInterrupt  # Ctrl-C during compilation

    monkeypatch.setattr(Runner, "prepare", prepare)
    res = CliRunner().invoke(
        main, ["run", "longest", "random", "--hands", "100", "--out", str(tmp_path / "r")]
    )
    assert seen == [had]  # not yet the stop request's
    assert res.exit_code == 130
    assert res.stderr.strip() == "Aborted."
