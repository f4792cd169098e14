"""The Hakem's question: with these five cards, which suit should I call?

Every seeded deal is played four times, once with each suit as trump, with
the same bots in every seat (:func:`collect`); each heuristic is asked only
for its call. From that, per heuristic: how often it calls the best suit in
hindsight, the points it gives up against the best (regret), its hand-win,
Kot and points as Hakem, and breakdowns by the five-card shape. A learned
table (:func:`learn_table`) maps each abstracted five-card class to the best
call; the ``table`` bot plays it. All values are the Hakem team's signed
points of the hand (-3 .. +2).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from hokm_sim.analysis.summary import rate
from hokm_sim.bots.botkit import suit_counts_rank_sums
from hokm_sim.bots.registry import Strategy
from hokm_sim.sim.backends import Backend, open_backend
from hokm_sim.sim.runner import HAND_CHUNK, Runner

STUDY_COLUMNS = 11
"""Columns of a study row (see ``kernels.study_chunk``)."""


@dataclass
class StudyData:
    """Per-deal arrays of a study: masks, values of each trump, each heuristic's call."""

    seed: int
    five: np.ndarray  # int64 [N]: the Hakem's first five cards
    hand: np.ndarray  # int64 [N]: the Hakem's 13 cards
    points: np.ndarray  # int64 [N, 4]: Hakem team's signed points with trump C, D, H, S
    tricks: np.ndarray  # int64 [N, 4]: Hakem team's tricks
    calls: dict[str, np.ndarray]  # heuristic -> int64 [N] suit called


def study_rows(runner: Runner, seed: int, start: int, count: int, suits: bool) -> np.ndarray:
    """Study rows of deals ``start .. start + count - 1`` (``kernels.study_chunk``),
    on the threads numba is set to; raises :class:`StrategyFault` at a strategy error."""
    from hokm_sim.engine import kernels as k

    out = np.zeros((count, STUDY_COLUMNS), np.int64)
    errs = np.zeros((-(-count // HAND_CHUNK), k.ERR_SIZE), np.int64)
    runner.call(
        "run_study",
        runner.params_a,
        runner.params_b,
        np.uint64(seed),
        start,
        count,
        HAND_CHUNK,
        suits,
        out,
        errs,
    )
    bad = np.flatnonzero(errs[:, k.E_CODE])
    if bad.size:
        raise runner._fault(errs[bad.min()], seed, False, 7)
    return out


@dataclass(frozen=True)
class StudyChunk:
    """The backend task of a study: the rows of one range of deals."""

    seed: int
    suits: bool

    def __call__(self, runner: Runner, start: int, count: int) -> np.ndarray:
        return study_rows(runner, self.seed, start, count, self.suits)


def collect_rows(
    backend: Backend,
    strategy: Strategy,
    seed: int,
    n: int,
    suits: bool,
    progress: Callable[[int], None] | None,
) -> np.ndarray:
    """Study rows of deals ``0 .. n - 1``, placed by deal index: each row depends
    only on its deal, so they are the same whatever the backend or task size."""
    out = np.zeros((n, STUDY_COLUMNS), np.int64)
    task = StudyChunk(seed, suits)
    for start, rows in backend.map(strategy, strategy, task, [(0, n)], ordered=False):
        out[start : start + len(rows)] = rows
        if progress:
            progress(len(rows) * (4 if suits else 1))
    return out


def collect(
    player: Strategy,
    heuristics: list[Strategy],
    seed: int,
    deals: int,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    scheduler: str | None = None,
) -> StudyData:
    """Play every deal with each trump (``player`` in all seats) and ask each heuristic.

    ``scheduler`` (``local:N`` or a Dask address) plays the deals as Dask
    tasks instead of on this machine's ``threads``; the rows are the same.
    """
    with open_backend(scheduler, threads) as backend:
        out = collect_rows(backend, player, seed, deals, True, progress)
        calls = {}
        for h in heuristics:
            caller = Strategy(
                name=h.name,
                trump=h.trump,
                play=player.play,
                trump_params=h.trump_params,
                play_params=player.play_params,
            )
            calls[h.name] = collect_rows(backend, caller, seed, deals, False, progress)[:, 2]
    return StudyData(seed, out[:, 0], out[:, 1], out[:, 3:7], out[:, 7:11], calls)


# --- features of five cards (vectorized) ------------------------------------


def suit_counts(masks: np.ndarray) -> np.ndarray:
    """[N, 4] cards per suit."""
    return np.stack(
        [np.bitwise_count((masks >> (13 * s)) & 0x1FFF) for s in range(4)], axis=1
    ).astype(np.int64)


def suit_has(masks: np.ndarray, rank: int) -> np.ndarray:
    """[N, 4] whether each suit holds the card of ``rank`` (12 = ace)."""
    return np.stack([(masks >> (13 * s + rank)) & 1 for s in range(4)], axis=1).astype(bool)


def top_bucket(masks: np.ndarray) -> np.ndarray:
    """[N, 4] 3 if the suit holds the ace, 2 its top is K/Q, 1 J/T, 0 lower or empty."""
    out = np.zeros((len(masks), 4), np.int64)
    for s in range(4):
        bits = (masks >> (13 * s)) & 0x1FFF
        top = np.where(bits > 0, np.floor(np.log2(np.maximum(bits, 1))).astype(np.int64), -1)
        out[:, s] = np.select([top == 12, top >= 10, top >= 8], [3, 2, 1], 0)
    return out


def suit_keys(five: np.ndarray) -> np.ndarray:
    """[N, 4] abstract key of each suit among the five: ``count * 4 + top bucket``."""
    return suit_counts(five) * 4 + top_bucket(five)


def class_codes(keys: np.ndarray) -> np.ndarray:
    """[N] code of a five-card class: the four suit keys sorted, in base 24."""
    k = -np.sort(-keys, axis=1)
    return ((k[:, 0] * 24 + k[:, 1]) * 24 + k[:, 2]) * 24 + k[:, 3]


# --- statistics --------------------------------------------------------------


def _mean_ci(x: np.ndarray) -> dict[str, Any]:
    n = int(x.size)
    if n == 0:
        return {"value": None, "low": None, "high": None, "n": 0}
    m = float(x.mean())
    if n < 2:
        return {"value": m, "low": None, "high": None, "n": n}
    half = 1.96 * float(x.std(ddof=1)) / math.sqrt(n)
    return {"value": m, "low": m - half, "high": m + half, "n": n}


def _chosen(data: StudyData, name: str) -> np.ndarray:
    return data.points[np.arange(len(data.five)), data.calls[name]]


def heuristic_table(data: StudyData) -> dict[str, Any]:
    """Per heuristic (and the hindsight best): hits, regret, win, Kot, points as Hakem."""
    best = data.points.max(axis=1)
    out = {}
    for name in list(data.calls) + ["best in hindsight"]:
        v = best if name == "best in hindsight" else _chosen(data, name)
        n = len(v)
        out[name] = {
            "best_call_rate": rate(int((v == best).sum()), n),
            "regret": _mean_ci((best - v).astype(float)),
            "hand_win_rate": rate(int((v > 0).sum()), n),
            "kot_rate": rate(int((v == 2).sum()), n),
            "points_per_hand": _mean_ci(v.astype(float)),
        }
    return out


def by_longest(data: StudyData) -> dict[str, Any]:
    """Win rate and points per heuristic by the length of the longest suit among the five."""
    length = suit_counts(data.five).max(axis=1)
    out: dict[str, Any] = {}
    for name in data.calls:
        v = _chosen(data, name)
        out[name] = {
            str(L): {
                "hand_win_rate": rate(int((v[length == L] > 0).sum()), int((length == L).sum())),
                "points_per_hand": _mean_ci(v[length == L].astype(float)),
            }
            for L in range(1, 6)
        }
    return out


def longest_suit(five: np.ndarray) -> np.ndarray:
    """[N] the suit the ``longest`` bot calls from each five cards (its own rule:
    most cards, ties by higher rank sum, then lower suit), so the breakdowns below
    describe the suit that bot calls."""
    out = np.empty(len(five), np.int64)
    _longest_nb(np.ascontiguousarray(five, dtype=np.int64), out)
    return out


@njit(cache=True)
def _longest_nb(five, out):
    for i in range(five.size):
        out[i] = suit_counts_rank_sums(five[i])[0]


def _call_cell(v: np.ndarray, best: np.ndarray) -> dict[str, Any]:
    return {
        "n": int(v.size),
        "points_per_hand": _mean_ci(v.astype(float)),
        "hand_win_rate": rate(int((v > 0).sum()), int(v.size)),
        "best_call_rate": rate(int((v == best).sum()), int(v.size)),
        "regret": _mean_ci((best - v).astype(float)),
    }


def by_longest_honours(data: StudyData) -> dict[str, Any]:
    """Calling the longest suit, by its length and the high cards held in it.

    For each length L (1..5) of the longest suit among the five (ties as the
    ``longest`` bot breaks them): the value of calling it split by how many
    of A K Q J it holds (``highs``) and by whether it holds the ace
    (``ace``). Each cell has its deal count, points per hand, hand-win rate,
    how often it was the best call in hindsight and the regret, with
    intervals; cells with no deal are left out.
    """
    n = len(data.five)
    suit = longest_suit(data.five)
    bits = (data.five >> (13 * suit)) & 0x1FFF
    length = np.bitwise_count(bits).astype(np.int64)
    highs = np.bitwise_count(bits >> 9).astype(np.int64)
    ace = ((bits >> 12) & 1).astype(bool)
    v = data.points[np.arange(n), suit]
    best = data.points.max(axis=1)
    out: dict[str, Any] = {}
    for L in range(1, 6):
        at = length == L
        if not at.any():
            continue
        out[str(L)] = {
            "all": _call_cell(v[at], best[at]),
            "highs": {
                str(h): _call_cell(v[at & (highs == h)], best[at & (highs == h)])
                for h in range(5)
                if (at & (highs == h)).any()
            },
            "ace": {
                key: _call_cell(v[at & (ace == held)], best[at & (ace == held)])
                for key, held in (("held", True), ("not_held", False))
                if (at & (ace == held)).any()
            },
        }
    return out


def ace_vs_length(data: StudyData) -> dict[str, Any]:
    """Calling the suit with k cards (no ace) against the suit holding the ace.

    ``heat[k][j]``: mean over deals whose five hold a suit of k cards without
    the ace and the ace in a suit of j cards, of ``points(k-suit) -
    points(ace suit)``. ``alone``: the ace alone (j = 1) against three or four
    small cards (nothing above the ten), with a paired interval.
    """
    counts = suit_counts(data.five)
    aces = suit_has(data.five, 12)
    tops = top_bucket(data.five)
    n = len(data.five)
    rows = np.arange(n)
    has_ace = aces.any(axis=1)
    ace_suit = np.argmax(aces, axis=1)
    ace_len = counts[rows, ace_suit]
    heat = np.full((5, 5), np.nan)
    num = np.zeros((5, 5), np.int64)
    for k in range(1, 6):
        for j in range(1, 6):
            diffs = []
            for s in range(4):
                sel = has_ace & (counts[:, s] == k) & ~aces[:, s] & (ace_len == j)
                diffs.append(data.points[sel, s] - data.points[sel, ace_suit[sel]])
            d = np.concatenate(diffs)
            num[k - 1, j - 1] = d.size
            if d.size:
                heat[k - 1, j - 1] = d.mean()
    alone = {}
    for k in (3, 4):
        diffs = []
        for s in range(4):
            sel = (
                has_ace
                & (ace_len == 1)
                & (counts[:, s] == k)
                & (tops[:, s] <= 1)
                & ~((data.five >> (13 * s + 9)) & 1).astype(bool)
            )
            diffs.append(data.points[sel, s] - data.points[sel, ace_suit[sel]])
        d = np.concatenate(diffs).astype(float)
        alone[str(k)] = _mean_ci(d)
    return {
        "heat": [[None if math.isnan(x) else float(x) for x in row] for row in heat],
        "heat_counts": num.tolist(),
        "small_cards_minus_ace_alone": alone,
    }


def outcomes_by_length(data: StudyData) -> dict[str, Any]:
    """Share of Hakem Kot, loss, win and Kot by the trump's length in the Hakem's 13 cards."""
    length = suit_counts(data.hand)  # [N, 4]
    out = {}
    for L in range(0, 14):
        sel = length == L
        v = data.points[sel]
        if v.size == 0:
            continue
        out[str(L)] = {
            "n": int(v.size),
            "hakem_kot": float((v == -3).mean()),
            "loss": float((v == -1).mean()),
            "win": float((v == 1).mean()),
            "kot": float((v == 2).mean()),
        }
    return out


# --- the learned trump table ---------------------------------------------------


def learn_table(data: StudyData) -> dict[str, Any]:
    """Best call for every five-card class seen: the suit key with the highest mean value."""
    keys = suit_keys(data.five)
    codes = class_codes(keys)
    table: dict[int, dict[int, list[float]]] = {}
    order = np.argsort(codes, kind="stable")
    codes_s, keys_s, pts_s = codes[order], keys[order], data.points[order]
    bounds = np.flatnonzero(np.diff(codes_s)) + 1
    for lo, hi in zip(np.r_[0, bounds], np.r_[bounds, len(codes_s)], strict=True):
        kk, pp = keys_s[lo:hi].ravel(), pts_s[lo:hi].ravel().astype(float)
        sums = np.bincount(kk, weights=pp, minlength=24)
        cnt = np.bincount(kk, minlength=24)
        mean = np.where(cnt > 0, sums / np.maximum(cnt, 1), -np.inf)
        table[int(codes_s[lo])] = {"best": int(np.argmax(mean)), "deals": int(hi - lo)}
    return {
        "about": "best trump call per five-card class; key of a suit = count * 4 + top "
        "(3 ace, 2 K/Q, 1 J/T, 0 lower); class = the four keys sorted, base 24",
        "seed": data.seed,
        "deals": int(len(codes)),
        "classes": [[c, v["best"], v["deals"]] for c, v in sorted(table.items())],
    }


def write_table_bot(folder: Path, table: dict[str, Any]) -> Path:
    """Write ``trump_table.json`` and a copy of the ``table`` bot beside it; return the bot."""
    from hokm_sim.bots.registry import builtin_dir
    from hokm_sim.writing import atomic_text

    atomic_text(folder / "trump_table.json", json.dumps(table) + "\n")
    bot = folder / "table_bot.py"
    atomic_text(bot, (builtin_dir() / "table.py").read_text())
    return bot


def table_strategy(table: dict[str, Any], player: Strategy, folder: Path | None) -> Strategy:
    """The learned table as a strategy: its trump call, ``player``'s card play.

    The bot plays from a copy in the cache named by the digest of the table,
    so that a study run again (the command its report records) plays the
    same engine, compiled once; a report ``folder`` gets a copy of its own
    to keep.
    """
    import hashlib

    from hokm_sim.bots.compiled import cache_dir
    from hokm_sim.bots.registry import resolve

    digest = hashlib.sha256(json.dumps(table).encode()).hexdigest()[:16]
    learned = resolve(str(write_table_bot(cache_dir() / "tables" / digest, table)))
    if folder is not None:
        write_table_bot(folder, table)
    return Strategy(
        name="trump=learned table,play=" + player.name,
        trump=learned.trump,
        play=player.play,
        play_params=player.play_params,
    )


def summarize(data: StudyData, player: str) -> dict[str, Any]:
    """Everything the report and the plots need, JSON-ready."""
    return {
        "seed": data.seed,
        "deals": int(len(data.five)),
        "hands": int(4 * len(data.five)),
        "player": player,
        "heuristics": heuristic_table(data),
        "by_longest": by_longest(data),
        "by_longest_honours": by_longest_honours(data),
        "ace_vs_length": ace_vs_length(data),
        "outcomes_by_trump_length": outcomes_by_length(data),
        "point_of_view": "the Hakem's team; points are signed (-3 Hakem Kot .. +2 Kot)",
    }
