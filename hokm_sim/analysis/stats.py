"""Statistics for comparing Hokm strategies, computed from counts.

This module implements ``shared/STATS.md``. The simulator aggregates exact
integer counts in compiled code, so every function here takes counts (how
many duplicate pairs ended with each pair score, a joint table of points,
discordant-pair counts, a crosstable) and never needs per-sample arrays,
except the bootstraps, which expand counts into samples themselves.

Point of view
    Every number is from strategy **A**'s point of view: a pair score of 1
    means A won both copies of the deal, a positive Elo means A is stronger.

The unit of evidence is the duplicate pair
    Each seeded deal is played twice with the teams swapped. The two hands of
    a pair share their cards and are strongly dependent, so variances are
    always pair-level variances over ``N`` pairs, never binomial variances
    over ``2N`` hands.

Robustness
    Every function accepts empty and extreme counts (``n = 0``, all wins, all
    losses, a single outcome, zero variance) without raising. What cannot be
    estimated comes back as NaN, or as an :class:`Estimate` whose
    :attr:`Estimate.estimable` or :attr:`Estimate.has_interval` is False,
    never as a made-up ``0 ± 0``. Malformed input (negative counts, lengths
    that disagree, scores outside ``[0, 1]``) is a usage error and raises
    :class:`ValueError`.

Conventions chosen where STATS.md leaves room (see each docstring):

- ``pair_score`` uses the unbiased sample variance (``ddof=1``) of the pair
  scores, as STATS.md says "sample variance"; the SPRT works with the
  (regularised) empirical distribution ``p_i`` itself, which is what the
  generalised likelihood ratio is written in: its hypotheses fix the t-value
  ``(mu - 1/2) / sigma`` of the pair distribution, as fishtest's
  ``LLR_normalized`` does, and :func:`llr_approx` takes the sample t-value
  from the mean and variance of ``p``.
- An Elo interval is the score interval mapped through ``E``; its
  :attr:`Estimate.half_width` is STATS.md's ``Elo ± = (E(hi) - E(lo)) / 2``.
- Before taking Elo, the score and its interval ends are clamped into
  ``[eps, 1 - eps]``, ``eps`` half the smallest step a mean of ``N`` pairs
  can take away from 0 or 1, so Elo is finite and monotone in the score.
- The GSPRT multiplies by the true number of pairs ``N`` while the ``p_i``
  come from the counts with zeros replaced by ``1e-3``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import optimize, special
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests

__all__ = [
    "ELO_PER_NELO_UNIT",
    "GSPRT_TOL",
    "GSPRT_ZERO_COUNT",
    "HAND_WIN_VALUES",
    "Estimate",
    "PairStats",
    "PointsStats",
    "SprtVerdict",
    "bootstrap_pairs",
    "bradley_terry",
    "bradley_terry_intervals",
    "elo_from_score",
    "gsprt_llr",
    "holm",
    "llr_approx",
    "los",
    "mcnemar",
    "nelo",
    "nelo_to_score",
    "pair_score",
    "paired_rate_difference",
    "points_pair_distribution",
    "points_stats",
    "score_from_elo",
    "sprt_bounds",
    "sprt_expected_pairs",
    "sprt_verdict",
    "wilson",
]

NAN = math.nan

ELO_PER_NELO_UNIT = 800.0 / math.log(10.0)
"""``800 / ln 10``: normalised Elo per unit of ``(s - 1/2) / sqrt(2 var_pair)``."""

HAND_WIN_VALUES: tuple[float, float, float] = (0.0, 0.5, 1.0)
"""Pair scores from hand wins, in count order (LL, one win each, WW)."""

GSPRT_ZERO_COUNT = 1e-3
"""Pseudo-count that replaces an empty cell of the pair-score distribution in the GSPRT."""

SprtVerdict = Literal["H0", "H1", "continue", "inconclusive"]


# ---------------------------------------------------------------------------
# Result types
# ---------------------------------------------------------------------------


def _json_float(x: float) -> float | None:
    """A float for JSON: non-finite values (NaN, ±inf) become ``None``."""
    return float(x) if math.isfinite(x) else None


@dataclass(frozen=True)
class Estimate:
    """A point estimate with an interval and the sample size behind it.

    Attributes
    ----------
    value
        The point estimate (NaN when nothing can be estimated).
    low, high
        Interval ends (NaN when no interval can be given, e.g. a single pair
        or zero variance). Not necessarily symmetric around ``value``.
    n
        Number of independent samples (duplicate pairs, deals, ...) used.
    """

    value: float
    low: float
    high: float
    n: int

    @classmethod
    def missing(cls, n: int = 0, value: float = NAN) -> Estimate:
        """An estimate with no interval: ``value`` (NaN by default), NaN bounds."""
        return cls(float(value), NAN, NAN, int(n))

    @property
    def estimable(self) -> bool:
        """False when there were no samples or the value is NaN/infinite."""
        return self.n > 0 and math.isfinite(self.value)

    @property
    def has_interval(self) -> bool:
        """True when the value and both interval ends are finite numbers."""
        return self.estimable and math.isfinite(self.low) and math.isfinite(self.high)

    @property
    def half_width(self) -> float:
        """``(high - low) / 2``: the "±" to print; NaN without an interval."""
        return (self.high - self.low) / 2.0 if self.has_interval else NAN

    def to_dict(self) -> dict[str, float | int | None]:
        """``{"value", "low", "high", "n"}`` with NaN and ±inf mapped to ``None`` for JSON."""
        return {
            "value": _json_float(self.value),
            "low": _json_float(self.low),
            "high": _json_float(self.high),
            "n": int(self.n),
        }


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
        ``elo.half_width`` is STATS.md's ``(E(hi) - E(lo)) / 2``.
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
            "variance": _json_float(self.variance),
            "elo": self.elo.to_dict(),
            "nelo": self.nelo.to_dict(),
            "los": _json_float(self.los),
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
                out[key] = _json_float(val)
            else:
                out[key] = val
        return out


# ---------------------------------------------------------------------------
# Input checking
# ---------------------------------------------------------------------------


def _counts_values(
    counts: ArrayLike, values: ArrayLike, *, unit_scores: bool = True
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Validate a count distribution: equal 1-D lengths, counts >= 0 and finite.

    With ``unit_scores`` the values must lie in ``[0, 1]`` (pair scores).
    """
    c = np.asarray(counts, dtype=float).reshape(-1)
    v = np.asarray(values, dtype=float)
    if v.ndim != 1:
        raise ValueError(f"values must be one-dimensional, got shape {v.shape}")
    if c.shape != v.shape:
        raise ValueError(f"counts and values differ in length: {c.size} vs {v.size}")
    if not np.all(np.isfinite(c)) or np.any(c < 0):
        raise ValueError("counts must be finite and non-negative")
    if not np.all(np.isfinite(v)):
        raise ValueError("values must be finite")
    if unit_scores and (np.any(v < 0) or np.any(v > 1)):
        raise ValueError("pair-score values must lie in [0, 1]")
    return c, v


def _weighted_moments(
    c: NDArray[np.float64], v: NDArray[np.float64], ddof: int
) -> tuple[float, float, float]:
    """Total, mean and variance (``ddof``) of values ``v`` with counts ``c``.

    Mean is NaN when the total is 0, variance NaN when ``total - ddof <= 0``.
    """
    total = float(c.sum())
    if total <= 0:
        return 0.0, NAN, NAN
    mean = float(np.dot(c, v) / total)
    denom = total - ddof
    if denom <= 0:
        return total, mean, NAN
    var = float(np.dot(c, (v - mean) ** 2) / denom)
    return total, mean, max(var, 0.0)


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
    return float(sps.norm.cdf((s - 0.5) / math.sqrt(var / n)))


# ---------------------------------------------------------------------------
# Proportions
# ---------------------------------------------------------------------------


def wilson(successes: int, n: int, z: float = 1.96) -> Estimate:
    """Wilson score interval for a proportion of independent trials.

    ``(p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``. Use it for
    per-strategy rates where each pair contributes one independent trial
    (e.g. hands won as Hakem); never for the ``2N`` hands of ``N`` pairs.

    Parameters
    ----------
    successes
        Number of successes, ``0 <= successes <= n``.
    n
        Number of trials.
    z
        Normal quantile (1.96 for 95%).

    Returns
    -------
    Estimate
        ``value = successes / n`` and the Wilson interval, which always lies
        in ``[0, 1]`` and contains the value. Not estimable when ``n = 0``.
    """
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got {successes}/{n}")
    if n == 0:
        return Estimate.missing(0)
    p = successes / n
    z2n = z * z / n
    denom = 1.0 + z2n
    center = (p + z2n / 2.0) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2n / (4.0 * n)) / denom
    # Exact ends at the boundaries (the formula gives them up to rounding).
    low = 0.0 if successes == 0 else min(max(center - half, 0.0), p)
    high = 1.0 if successes == n else max(min(center + half, 1.0), p)
    return Estimate(p, low, high, int(n))


def mcnemar(b: int, c: int) -> float:
    """Exact McNemar test: two-sided binomial p-value on the discordant pairs.

    For a rate measured for A and for B on the same deals, ``b`` counts deals
    where A succeeded and B did not, ``c`` the reverse. Under "no difference"
    ``b ~ Binomial(b + c, 1/2)``.

    Returns
    -------
    float
        The p-value; 1.0 when there are no discordant pairs (the observed
        result is the least extreme possible).
    """
    if b < 0 or c < 0:
        raise ValueError(f"discordant counts must be non-negative, got {b}, {c}")
    if b + c == 0:
        return 1.0
    return float(sps.binomtest(int(b), int(b + c), 0.5).pvalue)


def paired_rate_difference(b: int, c: int, n: int, z: float = 1.96) -> Estimate:
    """Rate of A minus rate of B on the same ``n`` deals, with a paired Wald interval.

    ``value = (b - c) / n`` with ``b``, ``c`` the discordant counts as in
    :func:`mcnemar`; the standard error uses the paired variance
    ``((b + c)/n - ((b - c)/n)²) / n``. Pair it with :func:`mcnemar` for the
    test. No interval when ``n < 2`` or the variance is 0 (e.g. no
    discordant deals), rather than a fake ``0 ± 0``.
    """
    if b < 0 or c < 0 or n < b + c:
        raise ValueError(f"need b, c >= 0 and b + c <= n, got b={b}, c={c}, n={n}")
    if n == 0:
        return Estimate.missing(0)
    d = (b - c) / n
    var = ((b + c) / n - d * d) / n
    if n < 2 or var <= 0.0:
        return Estimate.missing(n, d)
    half = z * math.sqrt(var)
    return Estimate(d, d - half, d + half, int(n))


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
        variance, as STATS.md asks; 0: the empirical distribution's).

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
    c, v = _counts_values(counts, values)
    total, s, var = _weighted_moments(c, v, ddof)
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
    total, mean_x1, var_x1 = _weighted_moments(c1, x, 1)
    _, mean_x2, var_x2 = _weighted_moments(c2, x, 1)
    _, mean_d, var_d = _weighted_moments(j.ravel(), d_grid.ravel(), 1)
    n = int(round(total))
    if var_d > 0.0:
        t = float(sps.t.ppf(0.5 + confidence / 2.0, total - 1.0))
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


def bootstrap_pairs(
    counts: Sequence[float] | ArrayLike,
    values: Sequence[float] | ArrayLike,
    statistic: Callable[[NDArray[np.float64]], float] | None = None,
    *,
    confidence: float = 0.95,
    n_resamples: int = 9999,
    seed: int = 0,
    method: Literal["percentile", "basic", "BCa"] = "percentile",
) -> Estimate:
    """Bootstrap interval that resamples whole duplicate pairs.

    For small ``N`` or statistics with no simple standard error (ratios).
    The count distribution is expanded into one row per pair and the pairs
    are resampled with replacement (``scipy.stats.bootstrap``); the two
    hands of a pair always stay together.

    Parameters
    ----------
    counts
        ``counts[k]`` = number of pairs with outcome ``values[k]`` (integers).
    values
        Outcomes: shape ``(K,)`` for a single number per pair, or ``(K, m)``
        for several numbers per pair (e.g. ``(D, hands won)`` for a ratio).
    statistic
        Maps the resampled pairs, shape ``(N,)`` or ``(N, m)``, to a float.
        Default: the mean (only for one number per pair).
    confidence
        Interval level.
    n_resamples
        Number of bootstrap resamples.
    seed
        Seed of the resampling; the same inputs and seed give the same result.
    method
        ``scipy.stats.bootstrap`` method. Percentile by default: with a few
        discrete outcomes BCa's jackknife acceleration is often degenerate.

    Returns
    -------
    Estimate
        ``value`` is the statistic on the observed pairs. No interval when
        there are fewer than two pairs or all pairs are identical (every
        resample would be the same), or when the bootstrap returns NaN.
    """
    c = np.asarray(counts, dtype=float).reshape(-1)
    v = np.asarray(values, dtype=float)
    if v.ndim not in (1, 2) or v.shape[0] != c.size:
        raise ValueError(f"values must have shape (K,) or (K, m) with K={c.size}")
    if np.any(c < 0) or np.any(c != np.round(c)):
        raise ValueError("bootstrap counts must be non-negative integers")
    if statistic is None and v.ndim != 1:
        raise ValueError("give a statistic for several numbers per pair")
    samples = np.repeat(v, c.astype(np.int64), axis=0)
    n = samples.shape[0]
    if n == 0:
        return Estimate.missing(0)
    stat: Callable[[NDArray[np.float64]], float] = (
        statistic if statistic is not None else (lambda a: float(np.mean(a)))
    )
    value = float(stat(samples))
    occupied = c > 0
    if n < 2 or int(occupied.sum()) < 2:
        return Estimate.missing(n, value)
    rng = np.random.default_rng(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=RuntimeWarning)
        warnings.simplefilter("ignore", category=sps.DegenerateDataWarning)
        if statistic is None:
            res = sps.bootstrap(
                (samples,),
                np.mean,
                n_resamples=n_resamples,
                confidence_level=confidence,
                method=method,
                rng=rng,
            )
        else:
            res = sps.bootstrap(
                (np.arange(n),),
                lambda idx: stat(samples[idx]),
                vectorized=False,
                n_resamples=n_resamples,
                confidence_level=confidence,
                method=method,
                rng=rng,
            )
    low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    if not (math.isfinite(low) and math.isfinite(high)):
        return Estimate.missing(n, value)
    return Estimate(value, low, high, n)


# ---------------------------------------------------------------------------
# SPRT
# ---------------------------------------------------------------------------


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's SPRT bounds ``(a, b) = (ln(β / (1 - α)), ln((1 - β) / α))``.

    ``LLR <= a`` accepts H0, ``LLR >= b`` accepts H1; ``±2.944`` for
    ``α = β = 0.05``.
    """
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0 and alpha + beta < 1.0):
        raise ValueError(f"need 0 < alpha, beta and alpha + beta < 1, got {alpha}, {beta}")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def sprt_verdict(llr: float, a: float, b: float, *, at_cap: bool = False) -> SprtVerdict:
    """Verdict of an SPRT from its current LLR and bounds.

    Returns ``"H0"`` if ``llr <= a``, ``"H1"`` if ``llr >= b``, else
    ``"continue"``; with ``at_cap=True`` (the run reached its cap) an open
    test is ``"inconclusive"`` instead. A NaN LLR never decides.
    """
    if llr <= a:
        return "H0"
    if llr >= b:
        return "H1"
    return "inconclusive" if at_cap else "continue"


GSPRT_TOL = 1e-9
"""The t-value fit stops when no probability moves by more than this (STATS.md)."""

_GSPRT_MAX_ITER = 1000
_GSPRT_WALK_FITS = 200


def _nelo_to_t(nelo: float) -> float:
    """Pair-level t-value ``nElo · sqrt(2) · ln 10 / 800`` of a normalised Elo."""
    return nelo * math.sqrt(2.0) / ELO_PER_NELO_UNIT


def _gsprt_setup(
    counts: ArrayLike, values: ArrayLike, nelo0: float, nelo1: float
) -> tuple[float, NDArray[np.float64], NDArray[np.float64], float, float] | None:
    """Regularised distribution and the two hypothesised t-values, or None if undecidable.

    Returns ``(N, p, a, t0, t1)`` where ``N`` is the true number of pairs,
    ``p`` the distribution with zero counts replaced by ``GSPRT_ZERO_COUNT``
    and ``t_j`` the pair-level t-values of ``nelo0`` and ``nelo1``. None when
    ``N = 0`` or the support has a single value (no scale, nothing to test).
    A support of two or more values must have values on both sides of 1/2:
    otherwise the t-value of every distribution on it has one sign and the
    hypotheses cannot both be fitted.
    """
    c, a = _counts_values(counts, values)
    if np.unique(a).size != a.size:
        raise ValueError("GSPRT support values must be distinct")
    if not (math.isfinite(nelo0) and math.isfinite(nelo1)):
        raise ValueError(f"nElo bounds must be finite, got {nelo0}, {nelo1}")
    if a.size < 2:
        return None
    if not float(a.min()) < 0.5 < float(a.max()):
        raise ValueError(
            f"GSPRT support ({float(a.min())}, ..., {float(a.max())}) must have values "
            "below and above 1/2"
        )
    n = float(c.sum())
    if n <= 0:
        return None
    reg = np.where(c > 0, c, GSPRT_ZERO_COUNT)
    p = reg / reg.sum()
    return n, p, a, _nelo_to_t(nelo0), _nelo_to_t(nelo1)


def _secular_denominators(p: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """``1 + x b_i`` at the root ``x`` of ``Σ p_i b_i / (1 + x b_i) = 0`` (all ``p_i > 0``).

    The root with every ``1 + x b_i > 0`` exists when ``b`` takes both signs
    and is unique: on the admissible interval the sum decreases strictly from
    ``+inf`` to ``-inf``, and the root lies on the side of 0 given by the sign
    of ``Σ p_i b_i``, towards the pole ``-1/b_k`` of the extreme ``b_k`` on
    the other side. With a nearly degenerate ``p`` the root sits next to that
    pole (``1 + x b_k`` as small as ``p_k``), where ``x`` itself cannot
    resolve the denominators. So the root is found in ``u = 1 + x b_k``:
    ``1 + x b_i = (1 - r_i) + u r_i`` with ``r_i = b_i / b_k <= 1``, which
    keeps full relative precision however small ``u`` is. The pole is
    approached geometrically until the sign changes, then ``brentq`` refines.

    Raises
    ------
    ValueError
        When ``b`` does not take both signs (no root: the hypothesis cannot be
        fitted to this distribution).
    """
    f0 = float(np.dot(p, b))
    if f0 == 0.0:
        return np.ones_like(b)
    k = int(np.argmin(b)) if f0 > 0 else int(np.argmax(b))
    bk = float(b[k])
    if not (bk < 0.0 if f0 > 0 else bk > 0.0):
        raise ValueError("the hypothesised t-value cannot be fitted to this distribution")
    r = b / bk
    one_minus_r = np.where(b == bk, 0.0, 1.0 - r)
    pb = p * b
    positive = f0 > 0

    def g(u: float) -> float:
        return float(np.sum(pb / (one_minus_r + u * r)))

    g1 = g(1.0)  # f0 again, up to rounding
    if (g1 <= 0.0) if positive else (g1 >= 0.0):
        return np.ones_like(b)  # |f0| is rounding noise: the root is x = 0
    hi, lo = 1.0, 0.5
    while True:
        gl = g(lo)
        if gl == 0.0:
            return one_minus_r + lo * r
        if (gl < 0.0) if positive else (gl > 0.0):
            break
        hi, lo = lo, lo / 2.0
        if lo == 0.0:  # pragma: no cover - the pole term dominates long before
            return one_minus_r + hi * r
    u = optimize.brentq(g, lo, hi, xtol=1e-300, rtol=4.0 * np.finfo(float).eps)
    return one_minus_r + float(u) * r


def _fit_t_value(
    p: NDArray[np.float64], a: NDArray[np.float64], t: float, q: NDArray[np.float64]
) -> NDArray[np.float64] | None:
    """STATS.md's fixed-point iteration for the t-value fit, from ``q``; None if it fails.

    With ``mu`` and ``sigma`` of the current ``q`` set
    ``b_i = a_i - 1/2 - t sigma (1 + ((mu - a_i) / sigma)²) / 2``, solve
    ``Σ p_i b_i / (1 + x b_i) = 0`` for ``x`` and set ``q_i = p_i / (1 + x b_i)``;
    stop when no ``q_i`` moves by more than ``GSPRT_TOL``. Fails (None) when
    some ``b`` does not take both signs, so that the equation has no root, or
    after ``_GSPRT_MAX_ITER`` steps.
    """
    for _ in range(_GSPRT_MAX_ITER):
        mu = float(np.dot(q, a))
        dev2 = (a - mu) ** 2
        var = float(np.dot(q, dev2))
        sigma = math.sqrt(var)
        # t sigma (1 + z²) / 2 with z = (mu - a) / sigma, written without dividing by sigma
        b = a - 0.5 - t * (var + dev2) / (2.0 * sigma)
        try:
            new = p / _secular_denominators(p, b)
        except ValueError:
            return None
        new /= new.sum()
        moved = float(np.max(np.abs(new - q)))
        q = new
        if moved < GSPRT_TOL:
            return q
    return None  # pragma: no cover - converges in tens of steps on every input tried


def _two_point(a: NDArray[np.float64], t: float) -> NDArray[np.float64]:
    """The distribution on the two ends of the support with t-value ``t``.

    Mass ``w`` on ``hi`` and ``1 - w`` on ``lo``: with ``c = (1/2 - lo) / (hi - lo)``
    the t-value is ``(w - c) / sqrt(w (1 - w))``, and ``t`` is reached at
    ``w = (2c + t² + t sqrt(4c (1 - c) + t²)) / (2 (1 + t²))``.
    """
    lo, hi = int(np.argmin(a)), int(np.argmax(a))
    c = (0.5 - float(a[lo])) / float(a[hi] - a[lo])
    w = (2.0 * c + t * t + t * math.sqrt(4.0 * c * (1.0 - c) + t * t)) / (2.0 * (1.0 + t * t))
    q = np.zeros(a.size)
    q[lo], q[hi] = 1.0 - w, w
    return q


def _mle_t_value(p: NDArray[np.float64], a: NDArray[np.float64], t: float) -> NDArray[np.float64]:
    """Distribution on support ``a`` closest to ``p`` with t-value ``(mu - 1/2) / sigma = t``.

    Maximum likelihood ``max Σ p_i ln q_i`` under the constraint, by the
    fixed-point iteration of STATS.md (fishtest's ``MLE_t_value``) started
    from the uniform ``q`` (:func:`_fit_t_value`).

    From the uniform start the first step has no root once ``|t|`` is large
    (about ``|nElo| > 200`` on ``(0, 1/2, 1)``), although such t-values are
    attainable. Then the same iteration starts from the two-point
    distribution on the ends of the support with t-value ``t``
    (:func:`_two_point`, mixed with 0.1% of the uniform so no ``q_i`` is 0);
    if that fails too, the fit walks to ``t`` from ``t = 0`` (which always
    fits: ``b_i = a_i - 1/2``), each fit started from the previous one, with
    the step halved whenever a fit fails. Where several ways work they agree.

    Raises
    ------
    ValueError
        When the walk does not reach ``t`` within ``_GSPRT_WALK_FITS`` fits:
        only for bounds of hundreds of nElo on nearly degenerate counts (e.g.
        nElo -1000 on 10^5 pairs that all split), never for the few nElo an
        SPRT is run with.
    """
    uniform = np.full(p.size, 1.0 / p.size)
    q = _fit_t_value(p, a, t, uniform)
    if q is not None:
        return q
    q = _fit_t_value(p, a, t, 0.999 * _two_point(a, t) + 0.001 * uniform)
    if q is not None:
        return q
    done = 0.0
    q = _fit_t_value(p, a, 0.0, uniform)
    step = 0.25 * math.copysign(1.0, t)
    for _ in range(_GSPRT_WALK_FITS):
        if q is None or done == t:
            break
        nxt = t if abs(t - done) <= abs(step) else done + step
        fit = _fit_t_value(p, a, nxt, q)
        if fit is None:
            step /= 2.0
        else:
            q, done = fit, nxt
    if q is None or done != t:
        nelo = t * ELO_PER_NELO_UNIT / math.sqrt(2.0)
        raise ValueError(
            f"cannot fit the hypothesised t-value {t:.6g} (nElo {nelo:.6g}) to this "
            "distribution: the nElo bounds are too far from 0 for these counts"
        )
    return q


def gsprt_llr(
    counts: Sequence[float] | ArrayLike,
    values: Sequence[float] | ArrayLike = HAND_WIN_VALUES,
    nelo0: float = -3.0,
    nelo1: float = 0.0,
) -> float:
    """Generalised SPRT log-likelihood ratio of H1 (``nelo1``) against H0 (``nelo0``).

    Implements STATS.md, the normalised-Elo statistic as fishtest's
    ``LLR_normalized`` uses it: the hypotheses fix the t-value
    ``t = (mu - 1/2) / sigma`` of the pair-score distribution at
    ``t_j = nElo_j · sqrt(2) · ln 10 / 800``. Zero counts are replaced by
    ``1e-3`` and ``p_i = count_i / Σ count``; for each ``t_j`` the
    distribution ``q_j`` on the same support closest to ``p`` (maximum
    likelihood) with t-value ``t_j`` is found by STATS.md's iteration
    (:func:`_mle_t_value`); and ``LLR = N Σ p_i ln(q_1i / q_0i)``.

    Because the hypotheses fix ``t`` and not the mean, a distribution with
    almost no spread is strong evidence: 10,000 lost pairs and nothing else
    give about -121, far beyond the bound -2.94, where converting nElo to a
    mean with the sample variance gave almost nothing.

    Parameters
    ----------
    counts
        Pair counts per support value (the true integer counts).
    values
        Support: ``(0, 1/2, 1)`` for hand wins, the 13 values
        ``(D + 6) / 12`` for points (:func:`points_pair_distribution`).
        Distinct values in ``[0, 1]``, some below and some above 1/2.
    nelo0, nelo1
        Normalised Elo of H0 and H1 (STATS.md: -3 and 0).

    Returns
    -------
    float
        The LLR; positive favours H1. ``N`` is the true number of pairs (not
        the regularised total, as fishtest uses; they differ by ``1e-3`` per
        empty cell), so ``N = 0`` gives exactly 0. A support with a single
        value has no scale and no information: 0.0 as well.

    Raises
    ------
    ValueError
        For malformed input, a support without values on both sides of 1/2,
        or (only for nElo bounds of many hundreds) a hypothesis the
        iteration cannot fit.
    """
    setup = _gsprt_setup(counts, values, nelo0, nelo1)
    if setup is None:
        return 0.0
    n, p, a, t0, t1 = setup
    q0 = _mle_t_value(p, a, t0)
    q1 = q0 if t1 == t0 else _mle_t_value(p, a, t1)
    return float(n * np.sum(p * (np.log(q1) - np.log(q0))))


def llr_approx(
    counts: Sequence[float] | ArrayLike,
    values: Sequence[float] | ArrayLike = HAND_WIN_VALUES,
    nelo0: float = -3.0,
    nelo1: float = 0.0,
) -> float:
    """STATS.md's approximation ``(N/2) ln((1 + (t - t0)²) / (1 + (t - t1)²))`` of the LLR.

    ``t = (mu - 1/2) / sigma`` is the sample t-value of the regularised
    distribution ``p`` (mean and variance of ``p`` itself), ``t_j`` the
    hypotheses' t-values; same ``N`` and regularisation as
    :func:`gsprt_llr`, and the same as fishtest's ``LLR_normalized_alt`` for
    three outcomes. Close to :func:`gsprt_llr` when ``t`` is small and the
    distribution has a reasonable shape; far from it at the extremes (all
    losses: about -0.09 instead of -121 for 10,000 pairs). Meant for checking
    and for quick replays, never for a verdict.
    """
    setup = _gsprt_setup(counts, values, nelo0, nelo1)
    if setup is None:
        return 0.0
    n, p, a, t0, t1 = setup
    mu = float(np.dot(p, a))
    t = (mu - 0.5) / math.sqrt(float(np.dot(p, (a - mu) ** 2)))
    return n / 2.0 * (math.log1p((t - t0) ** 2) - math.log1p((t - t1) ** 2))


def sprt_expected_pairs(
    nelo: float,
    nelo0: float = -3.0,
    nelo1: float = 0.0,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> float:
    """Expected number of pairs an SPRT runs when the true normalised Elo is ``nelo``.

    Brownian approximation without overshoot: per pair the LLR has drift
    ``μ = 2 c² Δ (nelo - (nelo0 + nelo1) / 2)`` and variance ``σ² = 2 c² Δ²``
    with ``Δ = nelo1 - nelo0`` and ``c = ln 10 / 800``, independent of the
    pair variance. With ``P`` the probability of reaching ``b`` first,
    ``E[N] = (P b + (1 - P) a) / μ``, and ``-a b / σ²`` when ``μ = 0``. Use
    it to size the run cap (STATS.md: about ten times the expected length).
    """
    a, b = sprt_bounds(alpha, beta)
    delta = nelo1 - nelo0
    if delta == 0.0:
        return math.inf
    c = 1.0 / ELO_PER_NELO_UNIT
    mu = 2.0 * c * c * delta * (nelo - (nelo0 + nelo1) / 2.0)
    sigma2 = 2.0 * c * c * delta * delta
    k = 2.0 * mu / sigma2  # = 2 (nelo - mid) / Δ
    if abs(k) < 1e-9:
        return -a * b / sigma2
    # P(hit b first) = (1 - e^{-k a}) / (e^{-k b} - e^{-k a}), computed stably.
    p_b = -math.expm1(-k * a) / (math.exp(-k * b) - math.exp(-k * a))
    return (p_b * b + (1.0 - p_b) * a) / mu


# ---------------------------------------------------------------------------
# Tournaments
# ---------------------------------------------------------------------------

_NAT_PER_ELO = math.log(10.0) / 400.0


def _bt_inputs(
    score_matrix: ArrayLike, pairs_matrix: ArrayLike
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Validate a crosstable; returns scores (0.5 where no pairs) and pair counts."""
    s = np.array(score_matrix, dtype=float)
    w = np.array(pairs_matrix, dtype=float)
    if s.ndim != 2 or s.shape[0] != s.shape[1] or s.shape != w.shape:
        raise ValueError(f"need square matrices of equal shape, got {s.shape} and {w.shape}")
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError("pairs_matrix must be finite and non-negative")
    if not np.allclose(w, w.T):
        raise ValueError("pairs_matrix must be symmetric (a crosstable)")
    played = w > 0
    np.fill_diagonal(played, False)
    if np.any(~np.isfinite(s[played])) or np.any((s[played] < 0) | (s[played] > 1)):
        raise ValueError("scores must lie in [0, 1] where pairs were played")
    s = np.where(played, s, 0.5)
    if not np.allclose((s + s.T)[played], 1.0, atol=1e-9):
        raise ValueError("score_matrix must satisfy S[i, j] + S[j, i] = 1 (a crosstable)")
    return s, w


def bradley_terry(
    score_matrix: ArrayLike,
    pairs_matrix: ArrayLike,
    *,
    prior_pairs: float = 0.5,
) -> NDArray[np.float64]:
    """Logistic Bradley-Terry ratings (Elo scale, summing to 0) from a crosstable.

    Maximises ``Σ_{i<j} N_ij [s_ij ln σ(R_i - R_j) + (1 - s_ij) ln(1 - σ(R_i - R_j))]``
    with ``σ(Δ) = 1 / (1 + 10^(-Δ/400))`` under ``Σ R = 0``
    (``scipy.optimize.minimize``, L-BFGS-B with the analytic gradient, over
    ``n - 1`` free ratings).

    Parameters
    ----------
    score_matrix
        ``S[i, j]`` = mean pair score of i against j (i's point of view);
        must satisfy ``S[i, j] + S[j, i] = 1`` where pairs were played.
        Entries without pairs (and the diagonal) are ignored and may be NaN.
    pairs_matrix
        ``N[i, j]`` = number of duplicate pairs i and j played; symmetric.
        Only the upper triangle is used, so a mirrored crosstable counts
        each pairing once.
    prior_pairs
        Virtual pairs scored 1/2 added to *every* pairing (played or not).
        Without it the maximum likelihood does not exist when a player wins
        (or loses) everything, and ratings of players not connected by games
        are not identified. The default, half a pair, moves ratings by a
        negligible amount once pairings have hundreds of pairs, while a
        strategy with a perfect record over ``N`` pairs against everyone gets
        a large finite rating. With ``prior_pairs = 0`` such ratings are
        wherever the optimiser stopped: do not report them.

    Returns
    -------
    numpy.ndarray
        Ratings in Elo, one per player, summing to 0 (zeros if nothing is
        known; empty for an empty crosstable).
    """
    s, w = _bt_inputs(score_matrix, pairs_matrix)
    if prior_pairs < 0 or not math.isfinite(prior_pairs):
        raise ValueError("prior_pairs must be finite and non-negative")
    k = s.shape[0]
    if k <= 1:
        return np.zeros(k)
    iu, ju = np.triu_indices(k, 1)
    n_ij = w[iu, ju] + prior_pairs
    s_ij = np.divide(
        w[iu, ju] * s[iu, ju] + prior_pairs / 2.0,
        n_ij,
        out=np.full(n_ij.shape, 0.5),
        where=n_ij > 0,
    )
    keep = n_ij > 0
    if not np.any(keep):
        return np.zeros(k)
    iu, ju, n_ij, s_ij = iu[keep], ju[keep], n_ij[keep], s_ij[keep]
    scale = float(n_ij.sum())  # normalise so tolerances do not depend on N

    def full(u: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.append(u, -u.sum())

    def loss(u: NDArray[np.float64]) -> tuple[float, NDArray[np.float64]]:
        r = full(u)
        x = r[iu] - r[ju]
        # -[s ln σ(x) + (1 - s) ln σ(-x)] with ln σ(x) = -log(1 + e^-x)
        val = np.sum(n_ij * (s_ij * np.logaddexp(0.0, -x) + (1.0 - s_ij) * np.logaddexp(0.0, x)))
        gx = n_ij * (special.expit(x) - s_ij)
        g = np.zeros(k)
        np.add.at(g, iu, gx)
        np.add.at(g, ju, -gx)
        # chain rule through r_k = -Σ u
        return float(val) / scale, (g[:-1] - g[-1]) / scale

    res = optimize.minimize(
        loss,
        np.zeros(k - 1),
        jac=True,
        method="L-BFGS-B",
        options={"gtol": 1e-12, "ftol": 1e-15, "maxiter": 10_000},
    )
    ratings = full(np.asarray(res.x, dtype=float)) / _NAT_PER_ELO
    return ratings - ratings.mean()


def bradley_terry_intervals(
    score_matrix: ArrayLike,
    pairs_matrix: ArrayLike,
    resamples: Iterable[tuple[ArrayLike, ArrayLike]],
    *,
    confidence: float = 0.95,
    prior_pairs: float = 0.5,
) -> list[Estimate]:
    """Bradley-Terry ratings with percentile bootstrap intervals.

    The caller resamples deal indices with replacement (so every pairing is
    resampled on the same deals, as in the tournament) and passes the
    resulting crosstables; each is refitted with :func:`bradley_terry`.

    Parameters
    ----------
    score_matrix, pairs_matrix
        The observed crosstable (gives the point ratings).
    resamples
        Crosstables ``(score_matrix, pairs_matrix)`` of bootstrap resamples.
    confidence
        Level of the percentile intervals.
    prior_pairs
        As in :func:`bradley_terry`.

    Returns
    -------
    list of Estimate
        One per player, ``n`` = pairs that player played. No interval when
        no resamples were given.
    """
    point = bradley_terry(score_matrix, pairs_matrix, prior_pairs=prior_pairs)
    w = np.asarray(pairs_matrix, dtype=float)
    played = (w.sum(axis=1) - np.diag(w)) if w.size else np.zeros(0)
    boots = [bradley_terry(sm, pm, prior_pairs=prior_pairs) for sm, pm in resamples]
    if not boots:
        return [Estimate.missing(int(round(m)), r) for r, m in zip(point, played, strict=True)]
    arr = np.vstack(boots)
    tail = (1.0 - confidence) / 2.0 * 100.0
    low = np.percentile(arr, tail, axis=0)
    high = np.percentile(arr, 100.0 - tail, axis=0)
    return [
        Estimate(float(r), float(lo), float(hi), int(round(m)))
        for r, lo, hi, m in zip(point, low, high, played, strict=True)
    ]


def holm(
    pvalues: Sequence[float] | ArrayLike, alpha: float = 0.05
) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
    """Holm step-down correction of pairwise p-values (statsmodels ``multipletests``).

    Parameters
    ----------
    pvalues
        Raw p-values, any order. NaN entries (tests that could not be run)
        are left out of the correction and come back as NaN, not rejected.
    alpha
        Family-wise error rate.

    Returns
    -------
    (reject, adjusted)
        Boolean rejections and Holm-adjusted p-values, in input order.
    """
    p = np.asarray(pvalues, dtype=float).reshape(-1)
    reject = np.zeros(p.size, dtype=bool)
    adjusted = np.full(p.size, NAN)
    ok = ~np.isnan(p)
    if np.any((p[ok] < 0) | (p[ok] > 1)):
        raise ValueError("p-values must lie in [0, 1]")
    if np.any(ok):
        rej, adj, _, _ = multipletests(p[ok], alpha=alpha, method="holm")
        reject[ok] = rej
        adjusted[ok] = adj
    return reject, adjusted
