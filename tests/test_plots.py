"""Trump-study figures: drawn without pyplot, so a notebook's backend and figures are safe."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("matplotlib")


def _summary() -> dict:
    """A small trump-study summary with the keys the figures read (some values missing)."""

    def est(v, half=0.02):
        if v is None:
            return {"value": None, "low": None, "high": None}
        return {"value": v, "low": v - half, "high": v + half}

    names = ["longest", "points", "random"]
    by_longest = {
        n: {
            str(L): {
                "hand_win_rate": est(0.4 + 0.1 * L - 0.05 * i),
                "points_per_hand": est(None if (L == 1 and i == 0) else 0.1 * L - 0.1 * i),
            }
            for L in range(1, 6)
        }
        for i, n in enumerate(names)
    }
    heuristics = {
        n: {"regret": est(0.5 + 0.1 * i), "best_call_rate": {"value": 0.7 - 0.05 * i}}
        for i, n in enumerate(names)
    }
    heuristics["best in hindsight"] = {"regret": est(0.0), "best_call_rate": {"value": 1.0}}
    heat = [[None if j >= 4 - k else 0.1 * (k - j) for j in range(5)] for k in range(5)]
    counts = [[0 if x is None else 100 * (k + 1) for x in row] for k, row in enumerate(heat)]
    outcomes = {
        str(L): {
            "hakem_kot": 0.01,
            "loss": 0.6 - 0.06 * L,
            "win": 0.37 + 0.05 * L,
            "kot": 0.02 + 0.01 * L,
        }
        for L in range(10)
    }
    return {
        "deals": 1000,
        "seed": 1,
        "player": "expert",
        "by_longest": by_longest,
        "heuristics": heuristics,
        "ace_vs_length": {"heat": heat, "heat_counts": counts},
        "outcomes_by_trump_length": outcomes,
    }


def test_import_and_drawing_leave_the_users_backend_and_figures_alone(tmp_path):
    """A notebook's backend must not be switched to Agg and its open figures must stay
    open: a fresh interpreter, so the import is a first import."""
    code = textwrap.dedent(
        """
        import json, sys
        from pathlib import Path
        import matplotlib
        matplotlib.use("svg")  # any backend but Agg, as a notebook's inline one
        import matplotlib.pyplot as plt
        fig = plt.figure()
        before = matplotlib.get_backend()
        from hokm_sim.report import plots
        assert matplotlib.get_backend() == before, (before, matplotlib.get_backend())
        assert plt.fignum_exists(fig.number), "the user's figure was closed by the import"
        s = json.loads(Path(sys.argv[1]).read_text())
        Path(sys.argv[2]).mkdir()
        plots.regret(s, Path(sys.argv[2]))
        assert matplotlib.get_backend() == before, (before, matplotlib.get_backend())
        assert plt.get_fignums() == [fig.number], plt.get_fignums()
        print("ok")
        """
    )
    import json

    src = tmp_path / "summary.json"
    src.write_text(json.dumps(_summary()))
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    res = subprocess.run(
        [sys.executable, "-c", code, str(src), str(tmp_path / "figs")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stderr[-2000:]


def test_draw_all_writes_every_figure_atomically(tmp_path):
    from hokm_sim.report import plots

    out = tmp_path / "figs"
    files = plots.draw_all(_summary(), out)
    expected = {out / f"{n}.{e}" for n in plots.FIGURES for e in ("png", "svg")}
    assert set(files) == expected
    for f in files:
        data = f.read_bytes()
        assert len(data) > 1000
        assert data.startswith(b"\x89PNG") if f.suffix == ".png" else b"<svg" in data
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in expected)  # no temp
    mask = os.umask(0o022)
    os.umask(mask)
    assert all((f.stat().st_mode & 0o777) == (0o666 & ~mask) for f in files)


def test_caption_sits_below_the_x_label(monkeypatch):
    """The provenance caption must not overlap any axes text (the x label above all)."""
    from matplotlib.figure import Figure

    from hokm_sim.report import plots

    drawn: list[Figure] = []
    monkeypatch.setattr(plots, "_save", lambda fig, folder, name: drawn.append(fig) or [])
    s = _summary()
    for fn in (plots.by_longest, plots.regret, plots.ace_heatmap, plots.outcomes_by_length):
        fn(s, None)
    assert len(drawn) == 4
    for fig in drawn:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        caption = fig.texts[-1]
        assert caption.get_text().startswith("hokm-sim trump-study:")
        cap = caption.get_window_extent(renderer)
        for ax in fig.axes:
            box = ax.get_tightbbox(renderer)
            assert cap.y1 <= box.y0, (ax.get_title(), ax.get_xlabel(), cap, box)
