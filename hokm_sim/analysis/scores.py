"""One comparison of A against B: pair scores, Elo, normalised Elo, LOS and points.

Point of view
    Every number is from strategy **A**'s point of view: a pair score of 1
    means A won both copies of the deal, a positive Elo means A is stronger.

The unit of evidence is the duplicate pair
    Each seeded deal is played twice with the teams swapped. The two hands of
    a pair share their cards and are strongly dependent, so variances are
    always pair-level variances over ``N`` pairs, never binomial variances
    over ``2N`` hands.

Conventions chosen where docs/statistics.md leaves room (see each docstring):

- ``pair_score`` uses the unbiased sample variance (``ddof=1``) of the pair
  scores, as docs/statistics.md says "sample variance" (the SPRT of
  :mod:`hokm_sim.analysis.sprt` works with the distribution itself).
- An Elo interval is the score interval mapped through ``E``; its
  :attr:`Estimate.half_width` is docs/statistics.md's ``Elo ± = (E(hi) - E(lo)) / 2``.
- Before taking Elo, the score and its interval ends are clamped into
  ``[eps, 1 - eps]``, ``eps`` half the smallest step a mean of ``N`` pairs
  can take away from 0 or 1, so Elo is finite and monotone in the score.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

from hokm_sim.analysis.intervals import (
    NAN,
    Estimate,
    count_distribution,
    json_float,
    weighted_moments,
)

__all__ = [
    "ELO_PER_NELO_UNIT",
    "HAND_WIN_VALUES",
    "PairStats",
    "PointsStats",
    "elo_from_score",
    "los",
    "nelo",
    "nelo_to_score",
    "pair_score",
    "points_pair_distribution",
    "points_stats",
    "score_from_elo",
]

ELO_PER_NELO_UNIT = 800.0 / math.log(10.0)
"""``800 / ln 10``: normalised Elo per unit of ``(s - 1/2) / sqrt(2 var_pair)``."""

HAND_WIN_VALUES: tuple[float, float, float] = (0.0, 0.5, 1.0)
"""Pair scores from hand wins, in count order (LL, one win each, WW)."""


# ---------------------------------------------------------------------------
# Result types
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PairStats:
    """Summary of one A-versus-B comparison from its pair-score distribution.

    Attributes
    ----------
    n
        Number of duplicate pairs.
    score
        Mean pair score ``s`` with the interval ``s ± z sqrt(var / N)``.
    variance
        Pair-level sample variance of the pair scores (``ddof`` as requested).
    elo
        Logistic Elo ``E(s)`` with the score interval mapped through ``E``;
        ``elo.half_width`` is docs/statistics.md's ``(E(hi) - E(lo)) / 2``.
    nelo
        Normalised Elo ``(s - 1/2) / sqrt(2 var) * 800 / ln 10`` with the
        score interval mapped the same way.
    los
        Likelihood of superiority ``Φ((s - 1/2) / sqrt(var / N))``.
    elo_clamped
        True when ``s`` was 0 or 1 and Elo was taken at the clamped score, so
        ``elo.value`` is a bound rather than an estimate.
    """

    n: int
    score: Estimate
    variance: float
    elo: Estimate
    nelo: Estimate
    los: float
    elo_clamped: bool

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (NaN and ±inf become ``None``)."""
        return {
            "n": self.n,
            "score": self.score.to_dict(),
            "variance": json_float(self.variance),
            "elo": self.elo.to_dict(),
            "nelo": self.nelo.to_dict(),
            "los": json_float(self.los),
            "elo_clamped": self.elo_clamped,
        }


@dataclass(frozen=True)
class PointsStats:
    """Points of a duplicate comparison, ``D = x1 + x2`` per pair (A's signed points).

    Attributes
    ----------
    n
        Number of duplicate pairs.
    mean_d
        Mean of ``D`` with the t interval ``mean ± t s_D / sqrt(N)``.
    mean_per_hand
        Mean points per hand ``mean(D) / 2`` with the same (halved) interval.
    mean_x1, mean_x2
        Mean of A's points in the first copy (A on team 0) and in the second.
    var_x1, var_x2, var_d
        Sample variances (``ddof=1``) of ``x1``, ``x2`` and ``D``.
    variance_reduction
        ``(var(x1) + var(x2)) / var(D)``: how many times smaller the variance
        of a pair sum is than if the two copies were independent hands. NaN
        when ``var(D) = 0`` or fewer than two pairs.
    """

    n: int
    mean_d: Estimate
    mean_per_hand: Estimate
    mean_x1: float
    mean_x2: float
    var_x1: float
    var_x2: float
    var_d: float
    variance_reduction: float

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (NaN and ±inf become ``None``)."""
        out: dict[str, Any] = {}
        for key, val in asdict(self).items():
            if isinstance(val, dict):
                out[key] = getattr(self, key).to_dict()
            elif isinstance(val, float):
                out[key] = json_float(val)
            else:
                out[key] = val
        return out


# ---------------------------------------------------------------------------
# Scalar helpers: Elo, normalised Elo, LOS
# ---------------------------------------------------------------------------


def elo_from_score(s: float) -> float:
    """Logistic Elo ``E(s) = -400 log10(1/s - 1)`` of an expected score ``s``.

    Parameters
    ----------
    s
        Expected score in ``[0, 1]``.

    Returns
    -------
    float
        The Elo difference; ``-inf`` at 0, ``+inf`` at 1 and NaN outside
        ``[0, 1]`` or for NaN (no clamping here; :func:`pair_score` clamps).
        Antisymmetric: ``E(1 - s) = -E(s)``.
    """
    if not (0.0 <= s <= 1.0):
        return NAN
    # 400 * log10(s / (1 - s)) = 400 / ln 10 * logit(s); logit handles 0 and 1.
    return float(400.0 / math.log(10.0) * special.logit(s))


def score_from_elo(elo: float) -> float:
    """Expected score ``σ(Δ) = 1 / (1 + 10^(-Δ/400))`` of an Elo difference."""
    return float(special.expit(elo * math.log(10.0) / 400.0))


def nelo(s: float, var: float) -> float:
    """Normalised Elo ``(s - 1/2) / sqrt(2 var) * 800 / ln 10`` of pair scores.

    The pair score variance ``var`` is per pair; ``2 var`` is the matching
    per-hand scale, so nElo does not depend on how much card luck duplicate
    removed. NaN when ``var`` is 0, negative or NaN (no scale: nothing to
    normalise by).
    """
    if not (var > 0.0) or math.isnan(s):
        return NAN
    return (s - 0.5) / math.sqrt(2.0 * var) * ELO_PER_NELO_UNIT


def nelo_to_score(nelo: float, var: float) -> float:
    """Pair score with normalised Elo ``nelo`` at pair variance ``var``.

    Inverse of :func:`nelo`: ``s = 1/2 + nelo * sqrt(2 var) * ln 10 / 800``.
    With ``var = 0`` every nElo maps to ``1/2``.
    """
    if math.isnan(var) or var < 0:
        return NAN
    return 0.5 + nelo * math.sqrt(2.0 * var) / ELO_PER_NELO_UNIT


def los(s: float, var: float, n: float) -> float:
    """Likelihood of superiority ``Φ((s - 1/2) / sqrt(var / n))`` of A over B.

    Parameters
    ----------
    s
        Mean pair score.
    var
        Pair-level variance.
    n
        Number of pairs.

    Returns
    -------
    float
        The probability (under a normal approximation with a flat prior) that
        A is stronger than B. NaN without data (``n <= 0`` or NaN inputs).
        With zero variance the limit is used: 1 if ``s > 1/2``, 0 if
        ``s < 1/2`` and 1/2 if ``s = 1/2`` (all pairs identical: no side is
        favoured).
    """
    if not (n > 0) or math.isnan(s) or math.isnan(var) or var < 0:
        return NAN
    if var == 0.0:
        return 1.0 if s > 0.5 else 0.0 if s < 0.5 else 0.5
    return float(special.ndtr((s - 0.5) / math.sqrt(var / n)))  # the normal CDF


# ---------------------------------------------------------------------------
# One comparison: pair scores and points
# ---------------------------------------------------------------------------


def _elo_clamp_eps(v: NDArray[np.float64], n: float) -> float:
    """Half the smallest step away from 0 or 1 that a mean of ``n`` pairs can take.

    With hand wins (values 0, 1/2, 1) the step is ``1/(2n)`` and this is
    ``1/(4n)``; with the 13 point values it is ``1/(24n)``. Every attainable
    mean strictly inside (0, 1) is at least twice this far from the ends, so
    clamping to ``[eps, 1 - eps]`` moves only the scores 0 and 1 and interval
    ends within ``eps`` of (or beyond) them. One clamp for value and ends
    keeps Elo monotone in the score: no interval end can exceed the Elo given
    to a perfect record.
    """
    inner_low = v[v > 0.0]
    inner_high = v[v < 1.0]
    step_low = float(inner_low.min()) if inner_low.size else 1.0
    step_high = float(1.0 - inner_high.max()) if inner_high.size else 1.0
    return min(step_low, step_high) / (2.0 * n)


def pair_score(
    counts: Sequence[float] | ArrayLike,
    values: Sequence[float] | ArrayLike = HAND_WIN_VALUES,
    *,
    z: float = 1.96,
    ddof: int = 1,
) -> PairStats:
    """Score, Elo, normalised Elo and LOS of A against B from pair-score counts.

    Parameters
    ----------
    counts
        ``counts[i]`` = number of duplicate pairs whose score (A's point of
        view) was ``values[i]``. For hand wins: ``(LL, split, WW)``.
    values
        Pair-score values in ``[0, 1]``; default ``(0, 1/2, 1)``. For points
        use :func:`points_pair_distribution` (13 values ``(D + 6) / 12``).
    z
        Normal quantile of the intervals (1.96 for 95%).
    ddof
        Delta degrees of freedom of the pair variance (1: unbiased sample
        variance, as docs/statistics.md asks; 0: the empirical distribution's).

    Returns
    -------
    PairStats
        With ``N = 0`` nothing is estimable; with ``N <= ddof`` pairs or zero
        variance the point values are given but the intervals, nElo are NaN
        (and LOS takes its zero-variance limit, see :func:`los`). Elo is kept
        finite by clamping the score and the interval ends into
        ``[eps, 1 - eps]`` (half a step inside the attainable range, see
        :func:`_elo_clamp_eps`); ``elo_clamped`` says when the point value
        itself (a score of 0 or 1) was clamped.
    """
    c, v = count_distribution(counts, values)
    total, s, var = weighted_moments(c, v, ddof)
    n = int(round(total))
    if total <= 0:
        empty = Estimate.missing(0)
        return PairStats(0, empty, NAN, empty, empty, NAN, False)

    eps = _elo_clamp_eps(v, total)

    def clamp(x: float) -> float:
        return min(max(x, eps), 1.0 - eps)

    clamped = not (eps <= s <= 1.0 - eps)
    elo_value = elo_from_score(clamp(s))
    if var > 0.0:  # False for NaN too
        half = z * math.sqrt(var / total)
        lo, hi = s - half, s + half
        score = Estimate(s, lo, hi, n)
        elo = Estimate(elo_value, elo_from_score(clamp(lo)), elo_from_score(clamp(hi)), n)
        ne = nelo(s, var)
        nelo_est = Estimate(ne, nelo(lo, var), nelo(hi, var), n)
    else:
        score = Estimate.missing(n, s)
        elo = Estimate.missing(n, elo_value)
        nelo_est = Estimate.missing(n)
    return PairStats(n, score, var, elo, nelo_est, los(s, var, total), clamped)


def _check_joint(
    joint_counts: ArrayLike, x_values: Sequence[float] | ArrayLike
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Validate a K×K joint count table against K point values."""
    j = np.asarray(joint_counts, dtype=float)
    x = np.asarray(x_values, dtype=float).reshape(-1)
    if j.shape != (x.size, x.size):
        raise ValueError(f"joint_counts must have shape {(x.size, x.size)}, got {j.shape}")
    if not np.all(np.isfinite(j)) or np.any(j < 0):
        raise ValueError("joint_counts must be finite and non-negative")
    if not np.all(np.isfinite(x)):
        raise ValueError("x_values must be finite")
    return j, x


def points_stats(
    joint_counts: ArrayLike,
    x_values: Sequence[float] | ArrayLike = (-3, -2, -1, 1, 2, 3),
    *,
    confidence: float = 0.95,
) -> PointsStats:
    """Mean points per duplicate pair and what duplicate bought, from a joint table.

    Parameters
    ----------
    joint_counts
        ``joint_counts[i, j]`` = number of pairs where A scored ``x_values[i]``
        in the first copy (A on team 0) and ``x_values[j]`` in the second
        (teams swapped). Points are A's signed points of the hand.
    x_values
        The point values; default ``±1, ±2, ±3``.
    confidence
        Level of the t interval.

    Returns
    -------
    PointsStats
        Mean of ``D = x1 + x2`` with ``mean ± t_{N-1} s_D / sqrt(N)``, the
        per-hand mean ``mean(D) / 2``, and the variance-reduction factor
        ``(var(x1) + var(x2)) / var(D)``. Intervals are NaN with fewer than
        two pairs or when every pair has the same ``D``.
    """
    j, x = _check_joint(joint_counts, x_values)
    c1, c2 = j.sum(axis=1), j.sum(axis=0)
    d_grid = x[:, None] + x[None, :]
    total, mean_x1, var_x1 = weighted_moments(c1, x, 1)
    _, mean_x2, var_x2 = weighted_moments(c2, x, 1)
    _, mean_d, var_d = weighted_moments(j.ravel(), d_grid.ravel(), 1)
    n = int(round(total))
    if var_d > 0.0:
        t = float(special.stdtrit(total - 1.0, 0.5 + confidence / 2.0))  # Student's t quantile
        half = t * math.sqrt(var_d / total)
        d_est = Estimate(mean_d, mean_d - half, mean_d + half, n)
        hand_est = Estimate(mean_d / 2.0, (mean_d - half) / 2.0, (mean_d + half) / 2.0, n)
        vrf = (var_x1 + var_x2) / var_d
    else:
        d_est = Estimate.missing(n, mean_d)
        hand_est = Estimate.missing(n, mean_d / 2.0)
        vrf = NAN
    return PointsStats(n, d_est, hand_est, mean_x1, mean_x2, var_x1, var_x2, var_d, vrf)


def points_pair_distribution(
    joint_counts: ArrayLike,
    x_values: Sequence[float] | ArrayLike = (-3, -2, -1, 1, 2, 3),
    *,
    max_points: int = 3,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Pair-score distribution of points: counts of ``D`` on the full support.

    Turns the joint table of :func:`points_stats` into ``(counts, values)``
    for :func:`pair_score` and :func:`gsprt_llr`: ``D = x1 + x2`` ranges over
    every integer in ``[-2m, 2m]`` (``m = max_points``; 13 values for Hokm)
    and is mapped to the score ``(D + 2m) / 4m``, i.e. ``(D + 6) / 12``.
    Values of ``D`` that never occurred are kept with count 0, because the
    GSPRT puts its pseudo-count on every point of the support.
    """
    j, x = _check_joint(joint_counts, x_values)
    if np.any(x != np.round(x)) or np.any(np.abs(x) > max_points):
        raise ValueError(f"x_values must be integers in [-{max_points}, {max_points}]")
    d = np.arange(-2 * max_points, 2 * max_points + 1)
    counts = np.zeros(d.size)
    idx = (x[:, None] + x[None, :]).astype(int) + 2 * max_points
    np.add.at(counts, idx.ravel(), j.ravel())
    return counts, (d + 2.0 * max_points) / (4.0 * max_points)
