"""From a run's integer counts to the statistics people read, all from A's point of view.

:func:`summarize` is a pure function of the counts (layout in
:mod:`hokm_sim.engine.records`) and the run's configuration, so a report
recomputed from saved counts is the same report. Methods follow docs/statistics.md:
the duplicate pair is the unit of evidence for A against B; rates by role use
Wilson intervals on the hands played in that role; A minus B on the same
deals uses McNemar's exact test.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from hokm_sim.analysis import intervals, scores
from hokm_sim.analysis.results import Shown, estimate_columns
from hokm_sim.engine import records as r

POINTS = np.array(r.POINT_VALUES, dtype=np.int64)


def _num(x: float) -> float | None:
    """A float for JSON: NaN and infinities become None."""
    return float(x) if math.isfinite(x) else None


def _est(e: intervals.Estimate) -> dict[str, Any]:
    d = e.to_dict()
    return {"value": d["value"], "low": d["low"], "high": d["high"], "n": d["n"]}


def _pair_fields(ps: scores.PairStats) -> dict[str, Any]:
    """Pair score, Elo, nElo and LOS of a comparison, JSON-ready."""
    return {
        "pair_score": _est(ps.score),
        "elo": _est(ps.elo),
        "nelo": _est(ps.nelo),
        "los": _num(ps.los),
    }


def pair_counts(counts: np.ndarray) -> np.ndarray:
    """``[LL, split, WW]`` of A's duplicate deal pairs from a run's counts: both copies
    lost, one won, both won (A's hand wins, whoever was Hakem)."""
    pair = counts[r.C_PAIR : r.C_PAIR + r.C_PAIR_SIZE].reshape(6, 6)
    win = POINTS > 0
    ll = int(pair[~win][:, ~win].sum())
    ww = int(pair[win][:, win].sum())
    return np.array([ll, int(pair.sum()) - ll - ww, ww], np.int64)


def pair_classes(codes: np.ndarray) -> np.ndarray:
    """0, 1 or 2 (LL, split or WW, as :func:`pair_counts` counts them) for each
    duplicate deal's pair code as the engine writes it (``x0 * 6 + x1``: the point
    indices of A's result in the two copies)."""
    win = (POINTS > 0).astype(np.int64)
    return (win[:, None] + win[None, :]).ravel()[codes.astype(np.int64)]


def rate(k: int, n: int) -> dict[str, Any]:
    """Wilson rate of ``k`` in ``n`` with its count, or a record that says it cannot be
    estimated."""
    if n == 0:
        return {
            "value": None,
            "low": None,
            "high": None,
            "n": 0,
            "count": 0,
            "note": "no hands in this role",
        }
    out = _est(intervals.wilson(int(k), int(n)))
    out["count"] = int(k)
    return out


@dataclass(repr=False, eq=False)
class Summary(Shown):
    """Everything a run measured; ``to_dict()`` is ``summary.json``.

    ``folder`` is the report folder (None without ``out``); ``analysis`` the
    double-dummy analysis of a sample of its deals, when one was asked for.
    """

    config: dict[str, Any]
    counts: np.ndarray
    data: dict[str, Any] = field(default_factory=dict)
    folder: Path | None = None
    analysis: Any = None

    kind: ClassVar[str] = "run"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary: configuration, statistics, the raw counts, and the
        command and version that reproduce it."""
        out = {"kind": self.kind, **self.data}
        out["counts"] = [int(x) for x in self.counts]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Summary:
        """The summary of a record written by :meth:`to_dict` (``summary.json``)."""
        body = {k: v for k, v in data.items() if k not in ("kind", "counts")}
        return cls(body["config"], np.array(data["counts"], np.int64), body)

    @property
    def command(self) -> str | None:
        """The ``hokm-sim`` command that reproduces the run."""
        return self.data.get("command")

    @property
    def headline(self) -> str:
        """Strategies, size, seed and the pair score from A's point of view."""
        d = self.data
        ps = d.get("pair_score") or {}
        score = "n/a" if ps.get("value") is None else f"{ps['value']:.4f}"
        if ps.get("low") is not None:
            score += f" [{ps['low']:.4f}, {ps['high']:.4f}]"
        cfg = self.config
        size = f"{cfg.get('done', 0):,} {cfg.get('mode', 'hands').replace('hands', 'deals')}"
        partial = ", partial" if self.partial else ""
        return (
            f"{d['a']['name']} (A) vs {d['b']['name']} (B), {size}, seed "
            f"{cfg.get('seed')}: pair score {score}{partial}"
        )

    def to_frame(self):
        """The per-strategy statistics as a pandas DataFrame, one row per strategy, each
        from its own point of view: the comparison's pair score, Elo, nElo and LOS
        (A's row as reported, B's mirrored), then every rate with its interval."""
        import pandas as pd

        d = self.data
        rows = []
        for who in ("a", "b"):
            side = d[who]
            row: dict[str, Any] = {"strategy": side["name"], "side": who}
            mirrored = who == "b"
            for key, around in (("pair_score", 1.0), ("elo", 0.0), ("nelo", 0.0)):
                e = d.get(key) or {}
                estimate_columns(row, key, _mirror_record(e, around) if mirrored else e)
            los = d.get("los")
            row["los"] = None if los is None else (1.0 - los if mirrored else los)
            for key, val in side.items():
                if isinstance(val, dict) and "value" in val:
                    estimate_columns(row, key, val)
            rows.append(row)
        return pd.DataFrame(rows).set_index("strategy")

    @property
    def partial(self) -> bool:
        """True when the run was interrupted and covers only what finished."""
        return bool(self.data.get("partial"))


def _mirror_record(e: dict[str, Any], around: float) -> dict[str, Any]:
    """B's view of A's estimate record: ``around - x`` (1 - score, or -Elo), the
    interval turned round."""

    def flip(x: float | None) -> float | None:
        return None if x is None else around - x

    return {"value": flip(e.get("value")), "low": flip(e.get("high")), "high": flip(e.get("low"))}


def _mirror(e: intervals.Estimate, around: float) -> intervals.Estimate:
    """B's view of A's estimate: ``around - x`` (1 - score, or -points)."""
    return intervals.Estimate(around - e.value, around - e.high, around - e.low, e.n)


def _side(tricks: np.ndarray, who: int) -> dict[str, Any]:
    """Per-strategy rates from the tricks table, ``who`` 0 for A, 1 for B."""
    mine = tricks[who]  # this strategy is Hakem: [hakem team tricks][defender tricks]
    theirs = tricks[1 - who]  # the other one is Hakem: this one defends
    hakem_hands = int(mine.sum())
    def_hands = int(theirs.sum())
    hakem_wins = int(mine[7, :].sum())
    def_wins = int(theirs[:, 7].sum())
    kot_made = int(mine[7, 0])
    kot_conceded = int(theirs[7, 0])
    hk_inflicted = int(theirs[0, 7])
    hk_suffered = int(mine[0, 7])
    hands = hakem_hands + def_hands
    pts = (hakem_wins - kot_made) + 2 * kot_made + (def_wins - hk_inflicted) + 3 * hk_inflicted
    lost = (hakem_hands - hakem_wins - hk_suffered) + 3 * hk_suffered
    lost += (def_hands - def_wins - kot_conceded) + 2 * kot_conceded
    # Tricks this strategy's team held when the hand stopped, 0..7.
    dist = mine.sum(axis=1) + theirs.sum(axis=0)
    return {
        "hands": hands,
        "hand_win_rate": rate(hakem_wins + def_wins, hands),
        "hakem_win_rate": rate(hakem_wins, hakem_hands),
        "defender_win_rate": rate(def_wins, def_hands),
        "kot_rate": rate(kot_made, hakem_hands),
        "kot_conceded_rate": rate(kot_conceded, def_hands),
        "hakem_kot_rate": rate(hk_inflicted, def_hands),
        "hakem_kot_suffered_rate": rate(hk_suffered, hakem_hands),
        "keeps_hakem_rate": rate(hakem_wins, hakem_hands),
        "points_won": int(pts),
        "points_lost": int(lost),
        "tricks_distribution": [int(x) for x in dist],
    }


def _trump_lengths(counts: np.ndarray) -> dict[str, Any]:
    t = counts[r.C_TRUMP : r.C_TRUMP + r.C_TRUMP_SIZE].reshape(2, 14, 6, 2)
    out = {}
    for who, key in ((0, "a"), (1, "b")):
        by_len = t[who].sum(axis=1)  # [len13][won]
        out[key] = {
            "hands": [int(x) for x in by_len.sum(axis=1)],
            "wins": [int(x) for x in by_len[:, 1]],
            "first_five": [int(x) for x in t[who].sum(axis=(0, 2))],
        }
    return out


def _points_per_hand_single(tricks: np.ndarray, who: int, hands: int) -> dict[str, Any]:
    """Mean signed points per hand for one strategy with a per-hand t interval."""
    mine, theirs = tricks[who], tricks[1 - who]
    values = []
    weights = []
    for ht in range(8):
        for dt in range(8):
            for table, hakem_side in ((mine, True), (theirs, False)):
                n = int(table[ht, dt])
                if not n:
                    continue
                hakem_won = ht == 7
                loser = dt if hakem_won else ht
                pts = 1 if loser else (2 if hakem_won else 3)
                won = hakem_won if hakem_side else not hakem_won
                values.append(pts if won else -pts)
                weights.append(n)
    if hands < 2:
        return {"value": None, "low": None, "high": None, "n": hands}
    v, w = np.array(values, float), np.array(weights, float)
    mean = float(np.dot(v, w) / w.sum())
    var = float(np.dot(w, (v - mean) ** 2) / (w.sum() - 1))
    half = 1.96 * math.sqrt(var / w.sum())
    return {"value": mean, "low": mean - half, "high": mean + half, "n": hands}


def summarize(counts: np.ndarray, config: dict[str, Any]) -> Summary:
    """Turn a run's counts into its :class:`Summary` (statistics per docs/statistics.md).

    ``config`` carries ``a``, ``b`` (names), ``seed``, ``duplicate``,
    ``mode`` ("hands" or "matches"), ``deals`` (deals or matches finished),
    ``target`` and anything else worth recording; it is stored as given.
    """
    counts = np.asarray(counts, dtype=np.int64)
    tricks = counts[r.C_TRICKS : r.C_TRICKS + r.C_TRICKS_SIZE].reshape(2, 8, 8)
    hands = int(tricks.sum())
    dup = bool(config.get("duplicate", True))
    a, b = _side(tricks, 0), _side(tricks, 1)
    a["name"], b["name"] = config["a"], config["b"]
    data: dict[str, Any] = {
        "seed": config["seed"],
        "hands": hands,
        "a": a,
        "b": b,
        "config": config,
        "partial": bool(config.get("partial", False)),
        "point_of_view": "A (the first strategy): scores above 1/2 and positive Elo favour A",
    }
    if dup and config.get("mode", "hands") == "hands":
        pair = counts[r.C_PAIR : r.C_PAIR + r.C_PAIR_SIZE].reshape(6, 6)
        pair_copy = counts[r.C_PAIR_COPY : r.C_PAIR_COPY + r.C_PAIR_SIZE].reshape(6, 6)
        win_h = POINTS > 0  # index over x when A is Hakem
        ll, split, ww = (int(x) for x in pair_counts(counts))
        ps = scores.pair_score([ll, split, ww])
        pts = scores.points_stats(pair_copy)
        # McNemar on the same deals, Hakem wins: in a pair A is Hakem in one
        # copy and B in the other; B as Hakem won exactly when A, defending, lost.
        a_only = ww  # A as Hakem won, B as Hakem lost
        b_only = ll  # A as Hakem lost, B as Hakem won
        data.update(
            pairs=int(pair.sum()),
            pair_counts={"LL": ll, "split": split, "WW": ww},
            **_pair_fields(ps),
            points_per_hand=_est(pts.mean_per_hand),
            points_per_pair=_est(pts.mean_d),
            variance_reduction=_num(pts.variance_reduction),
            hakem_win_mcnemar={
                "a_only": a_only,
                "b_only": b_only,
                "both": int(pair[win_h][:, ~win_h].sum()),
                "p_value": intervals.mcnemar(a_only, b_only),
            },
        )
        a["points_per_hand"] = _est(pts.mean_per_hand)
        b["points_per_hand"] = _est(_mirror(pts.mean_per_hand, 0.0))
        # The overall hand-win rate is the mean pair score: its interval must
        # come from the pair-level variance, never from 2N "independent" hands.
        a["hand_win_rate"] = _est(ps.score) | {"count": a["hand_win_rate"]["count"]}
        b["hand_win_rate"] = _est(_mirror(ps.score, 1.0)) | {"count": b["hand_win_rate"]["count"]}
    else:
        wins = a["hand_win_rate"]["count"] if hands else 0
        ps = scores.pair_score([hands - wins, wins], (0.0, 1.0))
        data.update(
            pairs=0,
            **_pair_fields(ps),
        )
        a["points_per_hand"] = _points_per_hand_single(tricks, 0, hands)
        b["points_per_hand"] = _points_per_hand_single(tricks, 1, hands)
    data["trump_length"] = _trump_lengths(counts)
    if config.get("mode") == "matches":
        data.update(_match_stats(counts, config, a, b, dup))
    return Summary(config=config, counts=counts, data=data)


def _match_stats(counts, config, a, b, dup) -> dict[str, Any]:
    final = counts[r.C_MATCH : r.C_MATCH + r.C_MATCH_SIZE].reshape(2, r.MAX_SCORE, 3)
    lens = counts[r.C_MATCH_LEN : r.C_MATCH_LEN + r.C_MATCH_LEN_SIZE].reshape(2, r.MAX_MATCH_LEN)
    played = int(final.sum())
    a_won = int(final[1].sum())
    a["match_win_rate"] = rate(a_won, played)
    b["match_win_rate"] = rate(played - a_won, played)
    out: dict[str, Any] = {
        "matches": played,
        "match_length": {
            "mean_hands": counts[r.C_MATCH_HANDS] / played if played else None,
            "distribution": [int(x) for x in lens.sum(axis=0)],
        },
        "final_scores": {
            "a_won": {
                "loser_score": [int(x) for x in final[1].sum(axis=1)],
                "winner_over_target": [int(x) for x in final[1].sum(axis=0)],
            },
            "b_won": {
                "loser_score": [int(x) for x in final[0].sum(axis=1)],
                "winner_over_target": [int(x) for x in final[0].sum(axis=0)],
            },
        },
    }
    if dup:
        mp = counts[r.C_MATCH_PAIR : r.C_MATCH_PAIR + r.C_MATCH_PAIR_SIZE].reshape(2, 2)
        ll, ww = int(mp[0, 0]), int(mp[1, 1])
        split = int(mp.sum()) - ll - ww
        ps = scores.pair_score([ll, split, ww])
        out.update(
            match_pairs=int(mp.sum()),
            match_pair_counts={"LL": ll, "split": split, "WW": ww},
            match_pair_score=_est(ps.score),
            **_pair_fields(ps),
        )
        a["match_win_rate"]["pair_interval"] = _est(ps.score)
    else:
        ps = scores.pair_score([played - a_won, a_won], (0.0, 1.0))
        out.update(
            **_pair_fields(ps),
        )
    return out
