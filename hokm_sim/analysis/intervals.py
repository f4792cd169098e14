"""Estimates with intervals, computed from counts: proportions, paired rates, the pair bootstrap.

The simulator aggregates exact integer counts in compiled code, so every
function of ``hokm_sim.analysis`` takes counts (how many duplicate pairs
ended with each pair score, a joint table of points, discordant-pair counts,
a crosstable) and never needs per-sample arrays, except the bootstrap, which
expands counts into samples itself. The methods are those of
docs/statistics.md; this module holds the result type of every estimate
(:class:`Estimate`), the checks of count distributions the other statistics
modules share, and the intervals of single rates.

Robustness
    Every function accepts empty and extreme counts (``n = 0``, all wins, all
    losses, a single outcome, zero variance) without raising. What cannot be
    estimated comes back as NaN, or as an :class:`Estimate` whose
    :attr:`Estimate.estimable` or :attr:`Estimate.has_interval` is False,
    never as a made-up ``0 ± 0``. Malformed input (negative counts, lengths
    that disagree, scores outside ``[0, 1]``) is a usage error and raises
    :class:`ValueError`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

__all__ = [
    "NAN",
    "Estimate",
    "bootstrap_pairs",
    "count_distribution",
    "json_float",
    "mcnemar",
    "paired_rate_difference",
    "weighted_moments",
    "wilson",
]

NAN = math.nan


def json_float(x: float) -> float | None:
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
            "value": json_float(self.value),
            "low": json_float(self.low),
            "high": json_float(self.high),
            "n": int(self.n),
        }


# ---------------------------------------------------------------------------
# Input checking
# ---------------------------------------------------------------------------


def count_distribution(
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


def weighted_moments(
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
    ``b ~ Binomial(b + c, 1/2)``, a symmetric distribution, so the p-value is
    twice the tail ``P(X <= min(b, c))``: the regularized incomplete beta
    function ``I_{1/2}(n - k, k + 1)`` (``scipy.special.betaincc``; the same
    value as ``scipy.stats.binomtest`` up to the last bits, without loading
    ``scipy.stats``).

    Returns
    -------
    float
        The p-value; 1.0 when ``b`` and ``c`` are equal or one apart (none
        at all included): no result is less extreme.
    """
    if b < 0 or c < 0:
        raise ValueError(f"discordant counts must be non-negative, got {b}, {c}")
    n, k = int(b + c), int(min(b, c))
    if 2 * k + 1 >= n:  # b == c, or one apart: the least extreme results there are
        return 1.0
    return min(1.0, 2.0 * float(special.betaincc(k + 1, n - k, 0.5)))


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
# Bootstrap over pairs
# ---------------------------------------------------------------------------


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
    from scipy import stats as sps  # loaded only by the tournament's bootstrap

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
