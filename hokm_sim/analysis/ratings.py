"""Ratings of a tournament: Bradley-Terry from a crosstable, its bootstrap, Holm's correction.

The crosstable holds mean pair scores and pair counts of every pairing
(docs/statistics.md, "Tournaments"); ratings are on the Elo scale and sum to 0.

A fit is a problem of a few ratings, so BLAS runs on one thread while fitting
(``threadpoolctl``): OpenBLAS's pool of threads, woken for every step of
L-BFGS-B, cost a bootstrap of 200 fits an order of magnitude more CPU time
than the fits themselves.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special
from threadpoolctl import threadpool_limits

from hokm_sim.analysis.intervals import NAN, Estimate

__all__ = ["bradley_terry", "bradley_terry_each", "bradley_terry_intervals", "holm"]

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
    with threadpool_limits(limits=1, user_api="blas"):
        return _fit(score_matrix, pairs_matrix, prior_pairs)


def bradley_terry_each(
    crosstables: Iterable[tuple[ArrayLike, ArrayLike]], *, prior_pairs: float = 0.5
) -> NDArray[np.float64]:
    """:func:`bradley_terry` of each crosstable ``(score_matrix, pairs_matrix)``, one row
    each, with BLAS limited once for all of them (a bootstrap's many small fits)."""
    with threadpool_limits(limits=1, user_api="blas"):
        return np.array([_fit(s, w, prior_pairs) for s, w in crosstables])


def _fit(score_matrix: ArrayLike, pairs_matrix: ArrayLike, prior_pairs: float) -> NDArray:
    """:func:`bradley_terry` without the BLAS limit (the caller holds it)."""
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

    from scipy import optimize  # loaded by the tournaments that fit ratings, not at import

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
    with threadpool_limits(limits=1, user_api="blas"):
        point = _fit(score_matrix, pairs_matrix, prior_pairs)
        boots = [_fit(sm, pm, prior_pairs) for sm, pm in resamples]
    w = np.asarray(pairs_matrix, dtype=float)
    played = (w.sum(axis=1) - np.diag(w)) if w.size else np.zeros(0)
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
    """Holm step-down correction of pairwise p-values.

    With the ``m`` p-values sorted, ``p_(1) <= ... <= p_(m)``, the adjusted
    ``p_(i)`` is ``max over j <= i of (m - j + 1) p_(j)``, at most 1; the
    hypotheses rejected are those before the first ``p_(i) > alpha / (m - i + 1)``.
    The same as statsmodels' ``multipletests(method="holm")``, which the tests
    check it against, without loading statsmodels (about half a second) for it.

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
    ok = np.flatnonzero(~np.isnan(p))
    if np.any((p[ok] < 0) | (p[ok] > 1)):
        raise ValueError("p-values must lie in [0, 1]")
    order = ok[np.argsort(p[ok], kind="stable")]
    ps = p[order]
    factors = np.arange(ps.size, 0, -1)
    above = np.flatnonzero(ps > alpha / factors)
    reject[order[: above[0] if above.size else ps.size]] = True
    adjusted[order] = np.minimum(np.maximum.accumulate(ps * factors), 1.0)
    return reject, adjusted
