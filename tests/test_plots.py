"""Trump-study figures: drawn without pyplot, so a notebook's backend and figures are safe."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

pytest.importorskip("matplotlib")


def _summary() -> dict:
    """A small trump-study summary with the keys the figures read (some values missing, some
    cells too small for a value: longest suit 5, a corner of the heatmap, 9 trumps)."""

    def est(v, half=0.02, n=1000):
        if v is None:
            return {"value": None, "low": None, "high": None, "n": 0}
        if n < 30:
            return {"value": v, "low": None, "high": None, "n": n}
        return {"value": v, "low": v - half, "high": v + half, "n": n}

    names = ["longest", "points", "random"]
    by_longest = {
        n: {
            str(L): {
                "hand_win_rate": est(0.4 + 0.1 * L - 0.05 * i, n=10 if L == 5 else 1000),
                "points_per_hand": est(
                    None if (L == 1 and i == 0) else 0.1 * L - 0.1 * i, n=10 if L == 5 else 1000
                ),
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
    counts[3][0] = 10  # too few for a value
    outcomes = {}
    for L in range(10):
        n = 5 if L == 9 else 1000
        shares = {"hakem_kot": 0.01, "loss": 0.6 - 0.06 * L, "win": 0.37 + 0.05 * L}
        shares["kot"] = 1 - sum(shares.values())
        below = np.cumsum([shares[k] for k in ("hakem_kot", "loss", "win")])
        outcomes[str(L)] = {
            "n": n,
            **shares,
            "at_most": {
                k: est(float(b), 0.01, n)
                for k, b in zip(("hakem_kot", "loss", "win"), below, strict=True)
            },
        }
    return {
        "deals": 1000,
        "seed": 1,
        "player": "expert",
        "by_longest": by_longest,
        "heuristics": heuristics,
        "ace_vs_length": {
            "heat": heat,
            "heat_low": [[None if x is None else x - 0.05 for x in row] for row in heat],
            "heat_high": [[None if x is None else x + 0.05 for x in row] for row in heat],
            "heat_counts": counts,
        },
        "outcomes_by_trump_length": outcomes,
    }


def _drawn(monkeypatch, s: dict) -> dict:
    """Each trump-study figure of ``s``, drawn and not saved, by its name."""
    from matplotlib.figure import Figure

    from hokm_sim.report import plots

    drawn: dict[str, Figure] = {}
    monkeypatch.setattr(plots, "_save", lambda fig, folder, name: drawn.update({name: fig}) or [])
    for fn in (plots.by_longest, plots.regret, plots.ace_heatmap, plots.outcomes_by_length):
        fn(s, None)
    assert set(drawn) == set(plots.FIGURES)
    return drawn


def _caption(fig) -> str:
    return fig.texts[-1].get_text()


def _error_bars(ax) -> list:
    """The drawn error bars of ``ax``: one vertical segment each, finite ones only."""
    from matplotlib.container import ErrorbarContainer

    segments = []
    for c in ax.containers:
        if isinstance(c, ErrorbarContainer):
            for lines in c.lines[2]:
                segments += [s for s in lines.get_segments() if np.isfinite(s).all()]
    return segments


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


def test_every_caption_says_what_is_drawn(monkeypatch):
    """Say what is shown, show what is said: a footer naming error bars has them (one per
    cell with enough hands), one naming intervals in the cells has them written there."""
    figs = _drawn(monkeypatch, _summary())
    for name in ("by_longest", "regret", "outcomes_by_length"):
        assert "error bars: 95% intervals" in _caption(figs[name]), name
    # by_longest: 3 heuristics x lengths 1..4 (5 too few); one point per hand has no value
    assert [len(_error_bars(ax)) for ax in figs["by_longest"].axes] == [12, 11]
    hollow = [ln for ax in figs["by_longest"].axes for ln in ax.lines
              if ln.get_markerfacecolor() == "none" and len(ln.get_xdata())]  # fmt: skip
    drawn = [np.round(ln.get_xdata()[np.isfinite(ln.get_ydata())]).tolist() for ln in hollow]
    assert drawn == [[5.0]] * 6  # each heuristic's length 5, on each axis
    assert "hollow markers: fewer than 30 hands, no interval" in _caption(figs["by_longest"])
    assert len(_error_bars(figs["regret"].axes[0])) == 3
    assert "fewer than" not in _caption(figs["regret"])  # no small cell, no note of one
    # outcomes: three boundaries (the fourth is 1) of each length but the small 9
    ax = figs["outcomes_by_length"].axes[0]
    bars = _error_bars(ax)
    assert len(bars) == 3 * 9
    s = _summary()["outcomes_by_trump_length"]
    tops = sorted(round(seg[1][1], 6) for seg in bars)
    want = sorted(round(s[L]["at_most"][k]["high"], 6) for L in map(str, range(9))
                  for k in ("hakem_kot", "loss", "win"))  # fmt: skip
    assert tops == want
    assert "faded: fewer than 30 hands" in _caption(figs["outcomes_by_length"])
    faded = {round(p.get_x() + p.get_width() / 2) for p in ax.patches if p.get_alpha() == 0.35}
    assert faded == {9}
    # the heatmap writes its interval into every cell with enough values
    heat = figs["ace_heatmap"]
    cells = [t.get_text() for t in heat.axes[0].texts]
    assert "in a cell: mean [95% interval] (count); grey: fewer than 30" in _caption(heat)
    assert "—\n(10)" in cells
    shown = [c for c in cells if not c.startswith("—")]
    assert len(shown) == 9 and all(c.count("[") == 1 and c.count("(") == 1 for c in shown)
    assert "+0.20\n[+0.15, +0.25]\n(300)" in cells


def test_a_summary_without_intervals_says_so(monkeypatch):
    """A summary recorded before the heatmap and the outcome bars had intervals: their
    figures draw none and their footers say none, rather than "95% intervals"."""
    s = _summary()
    for key in ("heat_low", "heat_high"):
        del s["ace_vs_length"][key]
    for row in s["outcomes_by_trump_length"].values():
        del row["at_most"]
    figs = _drawn(monkeypatch, s)
    assert "95%" not in _caption(figs["ace_heatmap"])
    assert "in a cell: mean (count)" in _caption(figs["ace_heatmap"])
    assert not any("[" in t.get_text() for t in figs["ace_heatmap"].axes[0].texts)
    assert "no intervals" in _caption(figs["outcomes_by_length"])
    assert _error_bars(figs["outcomes_by_length"].axes[0]) == []
