"""Figures of a trump study and of a tuning run, drawn from ``summary.json`` alone (PNG and SVG).

Every figure has a title, labelled axes, a legend where several series are
drawn, and a caption line with the seed and sample size, so a figure cut
out of its report still says where it came from.

Figures are :class:`matplotlib.figure.Figure` objects with their own Agg
canvas, never pyplot's: importing or using this module leaves the caller's
backend and open figures alone (a notebook keeps its inline figures), and
nothing is registered in pyplot that would need closing. Files are written
whole or not at all (:func:`hokm_sim.writing.atomic_bytes`).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from hokm_sim.writing import atomic_bytes

FIGURES = ("by_longest", "regret", "ace_heatmap", "outcomes_by_length")
DPI = 120
CAPTION_GAP = 6  # points between the lowest text of the axes and the caption


def _figure(width: float, height: float) -> Figure:
    """A figure with constrained layout on its own Agg canvas (no pyplot)."""
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _study_caption(fig: Figure, s: dict[str, Any]) -> None:
    """The trump study's provenance line (:func:`_caption`)."""
    _caption(
        fig,
        f"hokm-sim trump-study: {s['deals']:,} deals x 4 trumps, seed "
        f"{s['seed']}, bots: {s['player']} in every seat; 95% intervals",
    )


def _caption(fig: Figure, text: str) -> None:
    """The provenance line, placed below everything the axes draw (tick labels,
    x label, colorbar), so it never overlaps them; the saved file's tight box
    grows to hold it."""
    renderer = fig.canvas.get_renderer()
    fig.canvas.draw()  # run the layout so the axes' boxes are final
    boxes = [ax.get_tightbbox(renderer) for ax in fig.axes]
    bottom = min(b.y0 for b in boxes if b is not None)  # pixels from the figure's bottom
    left = min(b.x0 for b in boxes if b is not None)
    gap = CAPTION_GAP * fig.dpi / 72
    fig.text(
        max(left, 0) / fig.bbox.width,
        (bottom - gap) / fig.bbox.height,
        text,
        fontsize=8,
        color="0.35",
        ha="left",
        va="top",
    )


def _err(d: dict[str, Any]) -> tuple[float, float, float]:
    v = d["value"] if d["value"] is not None else np.nan
    lo = d["low"] if d.get("low") is not None else v
    hi = d["high"] if d.get("high") is not None else v
    return v, v - lo, hi - v


def _save(fig: Figure, folder: Path, name: str) -> list[Path]:
    """Write ``name.png`` and ``name.svg`` into ``folder``, each atomically."""
    out = []
    for ext in ("png", "svg"):
        path = folder / f"{name}.{ext}"
        buf = io.BytesIO()
        # no date in the SVG: the same summary draws the same file
        meta = {"Date": None} if ext == "svg" else None
        fig.savefig(buf, format=ext, dpi=DPI, bbox_inches="tight", metadata=meta)
        atomic_bytes(path, buf.getvalue())
        out.append(path)
    return out


def by_longest(s: dict[str, Any], folder: Path) -> list[Path]:
    """Win rate and points as Hakem by the longest suit's length among the five."""
    fig = _figure(11, 4.3)
    axes = fig.subplots(1, 2)
    lengths = [str(L) for L in range(1, 6)]
    for i, (name, rows) in enumerate(s["by_longest"].items()):
        x = np.arange(1, 6) + (i - 1.5) * 0.07
        for ax, key in zip(axes, ("hand_win_rate", "points_per_hand"), strict=True):
            vals = [_err(rows[L][key]) for L in lengths]
            ax.errorbar(
                x,
                [v[0] for v in vals],
                yerr=[[v[1] for v in vals], [v[2] for v in vals]],
                marker="o",
                capsize=3,
                label=name,
            )
    axes[0].set(
        title="Hand-win rate as Hakem",
        xlabel="longest suit among the five (cards)",
        ylabel="hand-win rate",
    )
    axes[1].set(
        title="Points per hand as Hakem",
        xlabel="longest suit among the five (cards)",
        ylabel="signed points per hand",
    )
    for ax in axes:
        ax.set_xticks(range(1, 6))
        ax.grid(alpha=0.3)
    axes[0].legend(title="trump heuristic")
    fig.suptitle("Does length beat high cards? Hakem results by the five cards' longest suit")
    _study_caption(fig, s)
    return _save(fig, folder, "by_longest")


def regret(s: dict[str, Any], folder: Path) -> list[Path]:
    """Points given up against the best call in hindsight, per heuristic."""
    names = [n for n in s["heuristics"] if n != "best in hindsight"]
    vals = [_err(s["heuristics"][n]["regret"]) for n in names]
    hits = [s["heuristics"][n]["best_call_rate"]["value"] for n in names]
    fig = _figure(7.5, 4.3)
    ax = fig.subplots()
    bars = ax.bar(
        names,
        [v[0] for v in vals],
        yerr=[[v[1] for v in vals], [v[2] for v in vals]],
        capsize=4,
        color="tab:orange",
    )
    for b, h, v in zip(bars, hits, vals, strict=True):
        top = v[0] + (v[2] if np.isfinite(v[2]) else 0.0)  # above the interval's cap
        ax.annotate(
            f"best call {100 * h:.0f}%",
            (b.get_x() + b.get_width() / 2, top),
            ha="center",
            va="bottom",
            fontsize=8,
            xytext=(0, 4),
            textcoords="offset points",
        )
    ax.set(
        title="Regret: points per hand given up against the best trump in hindsight",
        xlabel="trump heuristic",
        ylabel="points per hand lost to the best call",
    )
    ax.grid(axis="y", alpha=0.3)
    ax.margins(y=0.12)  # room for the labels above the tallest bar
    _study_caption(fig, s)
    return _save(fig, folder, "regret")


def ace_heatmap(s: dict[str, Any], folder: Path) -> list[Path]:
    """Value of calling the suit with k cards instead of the suit holding the ace."""
    heat = np.array(
        [[np.nan if x is None else x for x in row] for row in s["ace_vs_length"]["heat"]]
    )
    counts = np.array(s["ace_vs_length"]["heat_counts"])
    fig = _figure(6.8, 5.2)
    ax = fig.subplots()
    lim = np.nanmax(np.abs(heat)) if np.isfinite(heat).any() else 1.0
    im = ax.imshow(heat, cmap="RdBu", vmin=-lim, vmax=lim, origin="lower")
    for k in range(5):
        for j in range(5):
            if counts[k, j] > 0:
                ax.text(
                    j,
                    k,
                    f"{heat[k, j]:+.2f}\n({counts[k, j]:,})",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if abs(heat[k, j]) > 0.6 * lim else "black",
                )
    ax.set_xticks(range(5), [str(j) for j in range(1, 6)])
    ax.set_yticks(range(5), [str(k) for k in range(1, 6)])
    ax.set(
        xlabel="cards in the suit holding the ace",
        ylabel="cards in the other suit (no ace)",
        title="Call the length or the ace? Points gained by the suit with k cards",
    )
    fig.colorbar(im, ax=ax, label="points per hand: k-card suit minus ace suit")
    _study_caption(fig, s)
    return _save(fig, folder, "ace_heatmap")


def outcomes_by_length(s: dict[str, Any], folder: Path) -> list[Path]:
    """Distribution of outcomes (Hakem Kot, loss, win, Kot) by the trump's final length."""
    rows = s["outcomes_by_trump_length"]
    lengths = sorted(rows, key=int)
    fig = _figure(9, 4.3)
    ax = fig.subplots()
    bottom = np.zeros(len(lengths))
    for key, label, color in (
        ("hakem_kot", "Hakem Kot (-3)", "tab:red"),
        ("loss", "lost (-1)", "tab:orange"),
        ("win", "won (+1)", "tab:green"),
        ("kot", "Kot (+2)", "tab:blue"),
    ):
        vals = np.array([rows[L][key] for L in lengths])
        ax.bar(lengths, vals, bottom=bottom, label=label, color=color)
        bottom += vals
    ax.set(
        title="Outcome of the hand by the trump's length in the Hakem's 13 cards",
        xlabel="trumps among the Hakem's 13 cards",
        ylabel="share of hands",
    )
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)  # beside the bars
    _study_caption(fig, s)
    return _save(fig, folder, "outcomes_by_length")


def draw_all(s: dict[str, Any], folder: Path) -> list[Path]:
    """Draw every figure into ``folder``; returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    out: list[Path] = []
    for fn in (by_longest, regret, ace_heatmap, outcomes_by_length):
        out += fn(s, folder)
    return out


TUNE_WINDOW = 10
"""Iterations in the running mean of the tuning figure's score."""


def tune_run(d: dict[str, Any], folder: Path) -> list[Path]:
    """A tuning run: each parameter's estimate by iteration, and the score near it."""
    hist = d["history"]
    n = len(d["params"])
    fig = _figure(8, 1.8 * (n + 1) + 0.6)
    axes = fig.subplots(n + 1, 1, sharex=True, squeeze=False)[:, 0]
    it = [0] + [h["iteration"] for h in hist]
    for i, p in enumerate(d["params"]):
        ax = axes[i]
        ax.plot(it, [p["start"]] + [h["values"][i] for h in hist], color="tab:blue")
        ax.axhline(p["start"], ls="--", lw=0.8, color="0.6", label="start")
        ax.set_ylim(p["low"], p["high"])
        ax.set_ylabel(p["name"])
        ax.grid(alpha=0.3)
    axes[0].legend(loc="upper right", fontsize=8)
    mid = np.array([(h["plus"] + h["minus"]) / 2 for h in hist])
    ax = axes[-1]
    ax.plot(it[1:], mid, ".", alpha=0.35, color="tab:orange", label="mean of the two sides")
    if len(mid):
        w = min(TUNE_WINDOW, len(mid))
        run = np.convolve(mid, np.ones(w) / w, mode="valid")
        ax.plot(it[w:], run, color="tab:red", label=f"running mean of {w}")
    ax.set(xlabel="iteration", ylabel=f"pair score ({d['metric']})")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.suptitle(f"SPSA: {d['bot']}")
    _caption(
        fig,
        f"hokm-sim tune: against {', '.join(d['against'])}; {d['pairs']:,} deals x 2 an "
        f"iteration, seed {d['seed']}",
    )
    return _save(fig, folder, "tune")
