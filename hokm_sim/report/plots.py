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
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from hokm_sim.writing import atomic_bytes

FIGURES = ("by_longest", "regret", "ace_heatmap", "outcomes_by_length")
"""The trump study's figures (:func:`draw_all`); a tuning run's one is ``tune``."""
FORMATS = ("png", "svg")
"""The files each figure is saved as (:func:`figure_files`)."""
DPI = 120
CAPTION_GAP = 6  # points between the lowest text of the axes and the caption


def _figure(width: float, height: float) -> Figure:
    """A figure with constrained layout on its own Agg canvas (no pyplot)."""
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _study_caption(fig: Figure, s: dict[str, Any], shows: str) -> None:
    """The trump study's provenance line (:func:`_caption`), ending with what the figure
    draws of the intervals and of the cells too small for a value (``shows``)."""
    _caption(
        fig,
        f"hokm-sim trump-study: {s['deals']:,} deals x 4 trumps, seed "
        f"{s['seed']}, bots: {s['player']} in every seat; {shows}",
    )


def _few_note(few: bool, mark: str) -> str:
    """The caption's words for the cells drawn as ``mark`` (fewer than ``MIN_CELL``
    hands, no interval), or nothing when the figure has none."""
    from hokm_sim.analysis.trumpstudy import MIN_CELL

    return f"; {mark}: fewer than {MIN_CELL} hands, no interval" if few else ""


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


def figure_files(folder: Path, names: Iterable[str]) -> list[Path]:
    """The files in ``folder`` of the figures ``names``: each one in every format."""
    return [folder / f"{name}.{ext}" for name in names for ext in FORMATS]


def _save(fig: Figure, folder: Path, name: str) -> list[Path]:
    """Write ``name.png`` and ``name.svg`` into ``folder``, each atomically."""
    out = []
    for path in figure_files(folder, [name]):
        ext = path.suffix[1:]
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
    from hokm_sim.analysis.trumpstudy import too_few

    any_few = False
    for i, (name, rows) in enumerate(s["by_longest"].items()):
        x = np.arange(1, 6) + (i - 1.5) * 0.07
        color = f"C{i}"
        for ax, key in zip(axes, ("hand_win_rate", "points_per_hand"), strict=True):
            few = np.array([too_few(rows[L][key]) for L in lengths])
            any_few |= bool(few.any())
            vals = np.array([_err(rows[L][key]) for L in lengths])
            ax.errorbar(
                x[~few],
                vals[~few, 0],
                yerr=vals[~few, 1:].T,
                marker="o",
                capsize=3,
                color=color,
                label=name,
            )
            ax.plot(x[few], vals[few, 0], "o", mfc="none", color=color)  # no interval
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
    _study_caption(fig, s, "error bars: 95% intervals" + _few_note(any_few, "hollow markers"))
    return _save(fig, folder, "by_longest")


def regret(s: dict[str, Any], folder: Path) -> list[Path]:
    """Points given up against the best call in hindsight, per heuristic."""
    from hokm_sim.analysis.trumpstudy import too_few

    names = [n for n in s["heuristics"] if n != "best in hindsight"]
    few = np.array([too_few(s["heuristics"][n]["regret"]) for n in names], bool)
    vals = np.array([_err(s["heuristics"][n]["regret"]) for n in names]).reshape(-1, 3)
    vals[few, 1:] = np.nan  # no error bar
    hits = [s["heuristics"][n]["best_call_rate"]["value"] for n in names]
    fig = _figure(7.5, 4.3)
    ax = fig.subplots()
    bars = ax.bar(
        names,
        vals[:, 0],
        yerr=vals[:, 1:].T,
        capsize=4,
        color="tab:orange",
    )
    for b, f in zip(bars, few, strict=True):
        if f:
            b.set(alpha=0.35, hatch="//")
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
    _study_caption(fig, s, "error bars: 95% intervals" + _few_note(any(few), "hatched"))
    return _save(fig, folder, "regret")


def ace_heatmap(s: dict[str, Any], folder: Path) -> list[Path]:
    """Value of calling the suit with k cards instead of the suit holding the ace.

    Each cell says its mean, its 95% interval (when the summary has them) and its
    count; a cell of fewer than ``MIN_CELL`` values is grey with its count only, and
    plays no part in the colour scale.
    """
    from hokm_sim.analysis.trumpstudy import MIN_CELL

    av = s["ace_vs_length"]

    def grid(key: str) -> np.ndarray:
        return np.array([[np.nan if x is None else x for x in row] for row in av[key]])

    counts = np.array(av["heat_counts"])
    few = (counts > 0) & (counts < MIN_CELL)
    heat = np.where(few, np.nan, grid("heat"))
    ranged = "heat_low" in av  # a summary written before the intervals were recorded has none
    low, high = (grid("heat_low"), grid("heat_high")) if ranged else (heat, heat)
    fig = _figure(6.8, 5.2)
    ax = fig.subplots()
    lim = np.nanmax(np.abs(heat)) if np.isfinite(heat).any() else 1.0
    im = ax.imshow(heat, cmap="RdBu", vmin=-lim, vmax=lim, origin="lower")
    for k in range(5):
        for j in range(5):
            if few[k, j]:
                ax.add_patch(Rectangle((j - 0.5, k - 0.5), 1, 1, color="0.88"))
                text, color = f"—\n({counts[k, j]:,})", "0.35"
            elif counts[k, j] > 0:
                interval = f"\n[{low[k, j]:+.2f}, {high[k, j]:+.2f}]" if ranged else ""
                text = f"{heat[k, j]:+.2f}{interval}\n({counts[k, j]:,})"
                color = "white" if abs(heat[k, j]) > 0.6 * lim else "black"
            else:
                continue
            ax.text(j, k, text, ha="center", va="center", fontsize=6.5, color=color)
    ax.set_xticks(range(5), [str(j) for j in range(1, 6)])
    ax.set_yticks(range(5), [str(k) for k in range(1, 6)])
    ax.set(
        xlabel="cards in the suit holding the ace",
        ylabel="cards in the other suit (no ace)",
        title="Call the length or the ace? Points gained by the suit with k cards",
    )
    fig.colorbar(im, ax=ax, label="points per hand: k-card suit minus ace suit")
    shows = "in a cell: mean [95% interval] (count)" if ranged else "in a cell: mean (count)"
    if few.any():
        shows += f"; grey: fewer than {MIN_CELL}, no value"
    _study_caption(fig, s, shows)
    return _save(fig, folder, "ace_heatmap")


def outcomes_by_length(s: dict[str, Any], folder: Path) -> list[Path]:
    """Distribution of outcomes (Hakem Kot, loss, win, Kot) by the trump's final length.

    Each boundary between two outcomes is a share of hands (Hakem Kot; lost or worse;
    anything but Kot): its error bar is that share's 95% interval, when the summary has
    them. A length of fewer than ``MIN_CELL`` hands is faded, with no error bars; every
    length's count is under its label.
    """
    from hokm_sim.analysis.trumpstudy import too_few

    rows = s["outcomes_by_trump_length"]
    lengths = sorted(rows, key=int)
    few = np.array([too_few(rows[L]) for L in lengths])
    ranged = all("at_most" in rows[L] for L in lengths)
    fig = _figure(9, 4.6)
    ax = fig.subplots()
    x = np.arange(len(lengths))
    bottom = np.zeros(len(lengths))
    for key, label, color in (
        ("hakem_kot", "Hakem Kot (-3)", "tab:red"),
        ("loss", "lost (-1)", "tab:orange"),
        ("win", "won (+1)", "tab:green"),
        ("kot", "Kot (+2)", "tab:blue"),
    ):
        vals = np.array([rows[L][key] for L in lengths])
        bars = ax.bar(x, vals, bottom=bottom, label=label, color=color)
        for b, f in zip(bars, few, strict=True):
            if f:
                b.set(alpha=0.35)
        bottom += vals
        if ranged and key != "kot":  # the top boundary is 1, with nothing to estimate
            at = np.array([_err(rows[L]["at_most"][key]) for L in lengths])
            ax.errorbar(
                x[~few],
                at[~few, 0],
                yerr=at[~few, 1:].T,
                fmt="none",
                ecolor="black",
                elinewidth=0.9,
                capsize=3,
            )
    ax.set_xticks(x, [f"{L}\n({rows[L]['n']:,})" for L in lengths], fontsize=8)
    ax.set(
        title="Outcome of the hand by the trump's length in the Hakem's 13 cards",
        xlabel="trumps among the Hakem's 13 cards (hands)",
        ylabel="share of hands",
    )
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)  # beside the bars
    shows = (
        "error bars: 95% intervals of the share of hands below each boundary"
        if ranged
        else "no intervals"
    )
    _study_caption(fig, s, shows + _few_note(bool(few.any()), "faded"))
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


def history_image(d: dict[str, Any], ext: str = "png") -> bytes:
    """A bot's history (:mod:`hokm_sim.analysis.history`) drawn as ``ext`` (png or svg):
    each version's Elo against the oldest, with its 95% interval, oldest first."""
    versions = d["versions"]
    fig = _figure(max(5.0, 0.7 * len(versions) + 2.5), 3.6)
    ax = fig.subplots()
    x = np.arange(len(versions))
    v, lo, hi = np.array([_err(e["elo"]) for e in versions]).T
    ax.errorbar(x, v, yerr=[lo, hi], fmt="o-", capsize=4, color="tab:blue")
    ax.axhline(0, ls="--", lw=0.8, color="0.6")
    ax.set_xticks(x, [e["version"] for e in versions], rotation=30, ha="right")
    ax.set(xlabel="version (commit; + files changed since)", ylabel=f"Elo vs {d['anchor']}")
    ax.grid(alpha=0.3)
    fig.suptitle(f"{d['bot']} across its versions")
    _caption(fig, f"hokm-sim history {d['bot']}: {d['comparisons']} stored comparisons, "
                  f"one Bradley-Terry fit, {d['resamples']} bootstrap resamples")  # fmt: skip
    buf = io.BytesIO()
    fig.savefig(buf, format=ext, dpi=DPI, bbox_inches="tight",
                metadata={"Date": None} if ext == "svg" else None)  # fmt: skip
    return buf.getvalue()
