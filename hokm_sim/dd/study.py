"""How much does each trump heuristic give away against perfect play? (``hokm-sim dd-study``)

For each seeded deal (the engine's deals: ``hokm-sim run --hands`` deal ``d``,
Hakem ``d % 4``, who leads), the solver answers for each of the four trumps
whether the Hakem's team can force 7 tricks with every hand open. A
heuristic's call (asked exactly as the engine asks it, see
:mod:`hokm_sim.analysis.trumpstudy`) is then judged by whether its suit forces 7,
against the best suit in hindsight. Double dummy flatters the side that
knows least, so these are bounds on what a call can give, not table results.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass

import numpy as np

from hokm_sim.analysis.intervals import paired_rate_difference, wilson
from hokm_sim.bots.registry import Strategy
from hokm_sim.dd.deals import engine_deals
from hokm_sim.dd.solver import trump_study_nb
from hokm_sim.dd.table import DEFAULT_TT_BITS
from hokm_sim.sim.interrupt import Abandoned, graceful_interrupt, off_main


@dataclass
class DDStudy:
    """Per-deal arrays of a study: which trumps force 7, and each heuristic's call."""

    seed: int
    five: np.ndarray  # int64 [N]: the Hakem's first five cards
    forces: np.ndarray  # int64 [N, 4]: 1 if the Hakem's team forces 7 with trump C, D, H, S
    calls: dict[str, np.ndarray]  # heuristic -> int64 [N] suit called
    nodes: int
    seconds: float
    asked: int = 0
    """Deals asked for; more than were solved when the study was stopped (Ctrl-C)."""


def heuristic_calls(h: Strategy, seed: int, deals: int, threads: int) -> np.ndarray:
    """The suit ``h`` calls as Hakem on each deal, from the engine's study kernel."""
    from hokm_sim.analysis.trumpstudy import collect_rows
    from hokm_sim.sim.backends import Local
    from hokm_sim.sim.runner import Runner

    return collect_rows(Local(threads), Runner(h, h), seed, deals, False, None)[:, 2]


DEALS_PER_CALL = 4
"""Deals per thread in one call of the solver: well under a second of work, so that
Ctrl-C stops a study after the call in flight (what was solved is kept)."""


def collect(
    heuristics: list[Strategy],
    seed: int,
    deals: int,
    threads: int,
    counter: Callable[[int], None] | None = None,
) -> DDStudy:
    """Solve every deal with every trump and ask each heuristic for its call;
    ``counter`` is told the deals of each block solved.

    The first Ctrl-C stops after the deals in flight: the study covers the
    deals solved before it (``done`` is then below ``deals``).
    """
    hands, hakem, five = engine_deals(seed, 0, deals)
    # the calls first (quick, once compiled): Ctrl-C then stops the solver only
    calls = {h.name: heuristic_calls(h, seed, deals, threads) for h in heuristics}
    out = np.zeros((deals, 4), np.int64)
    step = max(1, threads) * DEALS_PER_CALL
    done, nodes = 0, 0
    t = time.perf_counter()
    with graceful_interrupt() as flag, suppress(Abandoned):  # Abandoned: the call is dropped
        for start in range(0, deals, step):
            end = min(deals, start + step)
            chunks = max(1, min(threads, end - start))
            counted = np.zeros(chunks, np.int64)
            off_main(
                trump_study_nb,
                hands[start:end],
                hakem[start:end],
                chunks,
                DEFAULT_TT_BITS,
                out[start:end],
                counted,
            )
            done, nodes = end, nodes + int(counted.sum())
            if counter is not None:
                counter(end - start)
            if flag.stop:
                break
    seconds = time.perf_counter() - t
    calls = {name: c[:done] for name, c in calls.items()}
    return DDStudy(seed, five[:done], out[:done], calls, nodes, seconds, deals)


def summarize(s: DDStudy) -> dict:
    """Rates with 95% intervals: perfect call, each suit on average, each heuristic."""
    n = len(s.five)
    best = s.forces.max(axis=1)
    out: dict = {
        "deals": n,
        "seed": s.seed,
        "partial": n < s.asked,
        "asked": s.asked,
        "solver": {"nodes": s.nodes, "seconds": round(s.seconds, 2)},
        "perfect": wilson(int(best.sum()), n).to_dict(),
        "any_suit": {
            "value": float(s.forces.mean()),
            "n": n,
            "note": "mean over the four suits of each deal (a uniformly random call)",
        },
        "heuristics": {},
    }
    for name, call in s.calls.items():
        got = s.forces[np.arange(n), call]
        lost = int(((best == 1) & (got == 0)).sum())
        out["heuristics"][name] = {
            "forces_7": wilson(int(got.sum()), n).to_dict(),
            # the perfect call forces 7 wherever the heuristic's does: a loss, never a gain
            "loss_vs_perfect": paired_rate_difference(lost, 0, n, low=0.0).to_dict(),
            "best_call_when_one_forces": wilson(int(got.sum()), int(best.sum())).to_dict(),
        }
    return out
