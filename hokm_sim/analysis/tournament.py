"""Round robins: every pair of strategies in duplicate on the same seeded deals.

Each pairing plays deals ``0 .. N-1`` of the same seed, cut into blocks of
deal indices. Per block the pair-score counts are kept, so ratings get
bootstrap intervals by resampling whole blocks of deals (the same blocks for
every pairing, since all pairings saw the same deals). Ratings are logistic
Bradley-Terry by maximum likelihood (docs/statistics.md); pairwise tests are
Holm-corrected.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

import numpy as np

from hokm_sim.analysis.ratings import bradley_terry, bradley_terry_intervals, holm
from hokm_sim.analysis.scores import pair_score
from hokm_sim.analysis.summary import pair_classes
from hokm_sim.bots.registry import Strategy
from hokm_sim.errors import StoppedError
from hokm_sim.sim.backends import Work, open_backend
from hokm_sim.sim.interrupt import Abandoned, graceful_interrupt, raise_if_nothing_done
from hokm_sim.sim.runner import Runner

N_BLOCKS = 32
"""Blocks of deal indices per pairing: the units the bootstrap resamples."""


@dataclass
class Tournament:
    """Blocks of pair counts per pairing and everything derived from them."""

    names: list[str]
    seed: int
    deals: int
    blocks: np.ndarray  # [i, j, block, 3]: LL/split/WW of i against j (i < j filled)
    done: int | None = None
    """Deals played over all pairings when the tournament stopped early (None: all)."""

    def matrices(self, weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Score and pair-count crosstables, optionally with block weights (bootstrap)."""
        w = np.ones(self.blocks.shape[2]) if weights is None else weights
        c = np.einsum("ijkv,k->ijv", self.blocks, w)  # filled for i < j only
        n_up = c.sum(axis=2)
        s_up = np.where(n_up > 0, (0.5 * c[..., 1] + c[..., 2]) / np.maximum(n_up, 1), 0.0)
        score = s_up + np.where(n_up.T > 0, 1.0 - s_up.T, 0.0)
        return score, n_up + n_up.T

    def summary(self, resamples: int = 200) -> dict[str, Any]:
        """Crosstable with intervals, LOS matrix, Bradley-Terry ratings and ranking."""
        k = len(self.names)
        cross: list[list[Any]] = [[None] * k for _ in range(k)]
        los = [[None] * k for _ in range(k)]
        pvals: dict[tuple[int, int], float] = {}
        for i, j in itertools.combinations(range(k), 2):
            c = self.blocks[i, j].sum(axis=0)
            ps = pair_score(c)
            e = ps.score.to_dict()
            cross[i][j] = e
            cross[j][i] = {
                "value": None if e["value"] is None else 1 - e["value"],
                "low": None if e["high"] is None else 1 - e["high"],
                "high": None if e["low"] is None else 1 - e["low"],
                "n": e["n"],
            }
            lv = ps.los if math.isfinite(ps.los) else None
            los[i][j] = lv
            los[j][i] = None if lv is None else 1 - lv
            if lv is not None:
                pvals[(i, j)] = 2 * min(lv, 1 - lv)
        score, n = self.matrices()
        ratings = bradley_terry(score, n)
        rng = np.random.default_rng(self.seed)
        nb = self.blocks.shape[2]
        samples = []
        for _ in range(resamples):
            w = np.bincount(rng.integers(0, nb, nb), minlength=nb).astype(float)
            samples.append(self.matrices(w))
        intervals = bradley_terry_intervals(score, n, samples)
        keys = list(pvals)
        reject, adjusted = holm([pvals[x] for x in keys]) if keys else ([], [])
        tests = [
            {
                "a": self.names[i],
                "b": self.names[j],
                "p_value": pvals[(i, j)],
                "p_holm": float(adj),
                "significant": bool(rej),
            }
            for (i, j), rej, adj in zip(keys, reject, adjusted, strict=True)
        ]
        order = np.argsort(-ratings)
        return {
            "names": self.names,
            "seed": self.seed,
            "deals": self.deals,
            "hands_per_pairing": 2 * self.deals,
            "crosstable": cross,
            "los": los,
            "ratings": [
                {
                    "rank": rank + 1,
                    "name": self.names[i],
                    "elo": float(ratings[i]),
                    "low": intervals[i].to_dict()["low"],
                    "high": intervals[i].to_dict()["high"],
                }
                for rank, i in enumerate(order)
            ],
            "tests": tests,
            "point_of_view": "row strategy against column strategy",
            "partial": self.done is not None,
            "done": self.done,
        }


def play(
    strategies: list[Strategy],
    seed: int,
    deals: int,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    scheduler: str | None = None,
) -> Tournament:
    """Play every pairing in duplicate on deals ``0 .. deals-1`` of ``seed``.

    Pairings play one after the other, each on this machine's ``threads`` or
    on the Dask ``scheduler``, in the batches ``run`` plays the same deals in (a
    protocol bot gets the same batched messages); each deal's pair outcome
    (the engine's pair codes) goes to its block.
    """
    k = len(strategies)
    nb = min(N_BLOCKS, deals)
    edges = np.linspace(0, deals, nb + 1).astype(np.int64)
    blocks = np.zeros((k, k, nb, 3), np.int64)
    pairings = list(itertools.combinations(range(k), 2))
    played = [0]  # deals of all pairings played, for a partial tournament
    began = False  # to play: no stop came while the engines compiled

    def so_far(partial: bool) -> Tournament:
        names = [s.name for s in strategies]
        return Tournament(names, seed, deals, blocks, played[0] if partial else None)

    try:
        with (
            graceful_interrupt() as flag,
            open_backend(scheduler, threads) as backend,
            suppress(Abandoned),  # Ctrl-C, and a batch that would not end: it is dropped
        ):
            runners: dict[tuple[int, int], Runner] = {}  # each pairing's, built once
            for i, j in pairings if scheduler is None else ():  # a stop meanwhile plays nothing
                if not flag.stop:
                    runners[i, j] = Runner(strategies[i], strategies[j])
                    runners[i, j].prepare()
            began = not flag.stop
            work = Work(seed, codes=True)
            for i, j in pairings if began else ():
                runner = runners.get((i, j)) or Runner(strategies[i], strategies[j])
                for batch in backend.batches(runner, work, [(0, deals)]):
                    deal = np.arange(batch.start, batch.start + batch.count)
                    block = np.searchsorted(edges, deal, side="right") - 1
                    np.add.at(blocks[i, j], (block, pair_classes(batch.codes)), 1)
                    played[0] += batch.count
                    if progress:
                        progress(batch.count)
                    if flag.stop:
                        return so_far(True)
    except StoppedError as exc:
        exc.partial = so_far(True)  # what finished before the stop, for the partial report
        raise
    if not began:
        raise_if_nothing_done(flag, played[0])
    return so_far(played[0] < deals * len(pairings))


def format_summary(s: dict[str, Any]) -> str:
    """Ranking, crosstable of pair scores and LOS matrix as text."""
    names = s["names"]
    w = max(8, max(len(n) for n in names))
    lines = [
        f"tournament of {len(names)} strategies, {s['deals']:,} deals per pairing in "
        f"duplicate, seed {s['seed']}",
        "",
        "ranking (Bradley-Terry Elo, 95% bootstrap):",
    ]
    if s.get("partial"):
        pairings = len(names) * (len(names) - 1) // 2
        lines[1:1] = [
            f"partial: stopped after {s['done']:,} of {s['deals'] * pairings:,} deals "
            "(pairings in order; a pairing not reached has no games)"
        ]
    for row in s["ratings"]:
        lo = "?" if row["low"] is None else f"{row['low']:+.1f}"
        hi = "?" if row["high"] is None else f"{row['high']:+.1f}"
        lines.append(f"  {row['rank']:>2}. {row['name']:<{w}} {row['elo']:+7.1f} [{lo}, {hi}]")
    lines += ["", "pair score of row against column [95% interval]:"]
    lines.append(" " * (w + 2) + "".join(f"{n[:20]:>24}" for n in names))
    for i, n in enumerate(names):
        cells = []
        for j in range(len(names)):
            e = s["crosstable"][i][j]
            if i == j or e is None or e["value"] is None:
                cells.append(f"{'-':>24}")
            elif e["low"] is None:
                cells.append(f"{e['value']:>24.4f}")
            else:
                cells.append(f"{e['value']:.3f} [{e['low']:.3f},{e['high']:.3f}]".rjust(24))
        lines.append(f"{n:<{w}}  " + "".join(cells))
    lines += ["", "likelihood of superiority (row better than column):"]
    lines.append(" " * (w + 2) + "".join(f"{n[:10]:>12}" for n in names))
    for i, n in enumerate(names):
        cells = [
            f"{'-':>12}"
            if (i == j or s["los"][i][j] is None)
            else f"{100 * s['los'][i][j]:>11.1f}%"
            for j in range(len(names))
        ]
        lines.append(f"{n:<{w}}  " + "".join(cells))
    sig = [t for t in s["tests"] if t["significant"]]
    lines += [
        "",
        f"{len(sig)} of {len(s['tests'])} pairings differ after Holm's correction (alpha 0.05).",
    ]
    return "\n".join(lines)
