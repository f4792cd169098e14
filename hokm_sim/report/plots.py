"""Figures of a trump study, drawn from its ``summary.json`` alone (PNG and SVG).

Every figure has a title, labelled axes, a legend where several series are
drawn, and a caption line with the seed and sample size, so a figure cut
out of its report still says where it came from.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

FIGURES = ("by_longest", "regret", "ace_heatmap", "outcomes_by_length")


def _caption(fig, s: dict[str, Any]) -> None:
    fig.text(
        0.01,
        0.01,
        f"hokm-sim trump-study: {s['deals']:,} deals x 4 trumps, seed "
        f"{s['seed']}, bots: {s['player']} in every seat; 95% intervals",
        fontsize=8,
        color="0.35",
    )


def _err(d: dict[str, Any]) -> tuple[float, float, float]:
    v = d["value"] if d["value"] is not None else np.nan
    lo = d["low"] if d.get("low") is not None else v
    hi = d["high"] if d.get("high") is not None else v
    return v, v - lo, hi - v


def _save(fig, folder: Path, name: str) -> list[Path]:
    out = []
    for ext in ("png", "svg"):
        p = folder / f"{name}.{ext}"
        tmp = folder / f".{name}.tmp.{ext}"
        fig.savefig(tmp, dpi=120, bbox_inches="tight")
        tmp.replace(p)
        out.append(p)
    plt.close(fig)
    return out


def by_longest(s: dict[str, Any], folder: Path) -> list[Path]:
    """Win rate and points as Hakem by the longest suit's length among the five."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.3))
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
    _caption(fig, s)
    return _save(fig, folder, "by_longest")


def regret(s: dict[str, Any], folder: Path) -> list[Path]:
    """Points given up against the best call in hindsight, per heuristic."""
    names = [n for n in s["heuristics"] if n != "best in hindsight"]
    vals = [_err(s["heuristics"][n]["regret"]) for n in names]
    hits = [s["heuristics"][n]["best_call_rate"]["value"] for n in names]
    fig, ax = plt.subplots(figsize=(7.5, 4.3))
    bars = ax.bar(
        names,
        [v[0] for v in vals],
        yerr=[[v[1] for v in vals], [v[2] for v in vals]],
        capsize=4,
        color="tab:orange",
    )
    for b, h in zip(bars, hits, strict=True):
        ax.annotate(
            f"best call {100 * h:.0f}%",
            (b.get_x() + b.get_width() / 2, b.get_height()),
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
    _caption(fig, s)
    return _save(fig, folder, "regret")


def ace_heatmap(s: dict[str, Any], folder: Path) -> list[Path]:
    """Value of calling the suit with k cards instead of the suit holding the ace."""
    heat = np.array(
        [[np.nan if x is None else x for x in row] for row in s["ace_vs_length"]["heat"]]
    )
    counts = np.array(s["ace_vs_length"]["heat_counts"])
    fig, ax = plt.subplots(figsize=(6.8, 5.2))
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
                )
    ax.set_xticks(range(5), [str(j) for j in range(1, 6)])
    ax.set_yticks(range(5), [str(k) for k in range(1, 6)])
    ax.set(
        xlabel="cards in the suit holding the ace",
        ylabel="cards in the other suit (no ace)",
        title="Call the length or the ace? Points gained by the suit with k cards",
    )
    fig.colorbar(im, ax=ax, label="points per hand: k-card suit minus ace suit")
    _caption(fig, s)
    return _save(fig, folder, "ace_heatmap")


def outcomes_by_length(s: dict[str, Any], folder: Path) -> list[Path]:
    """Distribution of outcomes (Hakem Kot, loss, win, Kot) by the trump's final length."""
    rows = s["outcomes_by_trump_length"]
    lengths = sorted(rows, key=int)
    fig, ax = plt.subplots(figsize=(9, 4.3))
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
    ax.legend(loc="upper left", fontsize=8)
    _caption(fig, s)
    return _save(fig, folder, "outcomes_by_length")


def draw_all(s: dict[str, Any], folder: Path) -> list[Path]:
    """Draw every figure into ``folder``; returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    out: list[Path] = []
    for fn in (by_longest, regret, ace_heatmap, outcomes_by_length):
        out += fn(s, folder)
    return out
