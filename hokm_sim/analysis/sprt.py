"""The sequential probability ratio test of a regression check, in normalised Elo.

Wald's bounds, the generalised log-likelihood ratio of docs/statistics.md
(its hypotheses fix the t-value ``(mu - 1/2) / sigma`` of the pair-score
distribution, as fishtest's ``LLR_normalized`` does), its quick
approximation, the verdict and the expected length of a test.

Conventions chosen where docs/statistics.md leaves room (see each docstring):

- The SPRT works with the (regularised) empirical distribution ``p_i``
  itself, which is what the generalised likelihood ratio is written in, and
  :func:`llr_approx` takes the sample t-value from the mean and variance of
  ``p``.
- The GSPRT multiplies by the true number of pairs ``N`` while the ``p_i``
  come from the counts with zeros replaced by ``1e-3``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import optimize

from hokm_sim.analysis.intervals import count_distribution
from hokm_sim.analysis.scores import ELO_PER_NELO_UNIT, HAND_WIN_VALUES

__all__ = [
    "GSPRT_TOL",
    "GSPRT_ZERO_COUNT",
    "SprtVerdict",
    "gsprt_llr",
    "llr_approx",
    "sprt_bounds",
    "sprt_expected_pairs",
    "sprt_verdict",
]

GSPRT_ZERO_COUNT = 1e-3
"""Pseudo-count that replaces an empty cell of the pair-score distribution in the GSPRT."""

SprtVerdict = Literal["H0", "H1", "continue", "inconclusive"]


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
"""The t-value fit stops when no probability moves by more than this (docs/statistics.md)."""

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
    c, a = count_distribution(counts, values)
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
    """docs/statistics.md's fixed-point iteration for the t-value fit, from ``q``; None if it fails.

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
    fixed-point iteration of docs/statistics.md (fishtest's ``MLE_t_value``) started
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

    Implements docs/statistics.md, the normalised-Elo statistic as fishtest's
    ``LLR_normalized`` uses it: the hypotheses fix the t-value
    ``t = (mu - 1/2) / sigma`` of the pair-score distribution at
    ``t_j = nElo_j · sqrt(2) · ln 10 / 800``. Zero counts are replaced by
    ``1e-3`` and ``p_i = count_i / Σ count``; for each ``t_j`` the
    distribution ``q_j`` on the same support closest to ``p`` (maximum
    likelihood) with t-value ``t_j`` is found by docs/statistics.md's iteration
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
        Normalised Elo of H0 and H1 (docs/statistics.md: -3 and 0).

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
    """The approximation ``(N/2) ln((1 + (t - t0)²) / (1 + (t - t1)²))`` of the LLR.

    ``t = (mu - 1/2) / sigma`` is the sample t-value of the regularised
    distribution ``p`` (mean and variance of ``p`` itself), ``t_j`` the
    hypotheses' t-values (docs/statistics.md); same ``N`` and regularisation as
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


def llr_approx_rows(
    counts: ArrayLike,
    values: Sequence[float] | ArrayLike = HAND_WIN_VALUES,
    nelo0: float = -3.0,
    nelo1: float = 0.0,
) -> NDArray[np.float64]:
    """:func:`llr_approx` of every row of ``counts`` (one count vector a row) at once,
    the support and bounds checked once: for replaying a test many times
    (:func:`hokm_sim.analysis.regress.stop_adjusted`). Equal to :func:`llr_approx`
    row by row up to rounding (sums in another order); 0 for a row of no pairs."""
    c = np.asarray(counts, dtype=float)
    if c.ndim != 2:
        raise ValueError(f"counts must be two-dimensional, got shape {c.shape}")
    setup = _gsprt_setup(np.ones(c.shape[1]), values, nelo0, nelo1)
    if setup is None:
        return np.zeros(len(c))
    if not np.all(np.isfinite(c)) or np.any(c < 0):
        raise ValueError("counts must be finite and non-negative")
    _, _, a, t0, t1 = setup
    n = c.sum(axis=1)
    reg = np.where(c > 0, c, GSPRT_ZERO_COUNT)
    p = reg / reg.sum(axis=1, keepdims=True)
    mu = p @ a
    t = (mu - 0.5) / np.sqrt((p * (a[None, :] - mu[:, None]) ** 2).sum(axis=1))
    llr = n / 2.0 * (np.log1p((t - t0) ** 2) - np.log1p((t - t1) ** 2))
    return np.where(n > 0, llr, 0.0)


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
    it to size the run cap (docs/statistics.md: about ten times the expected length).
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
