"""A candidate against every bot of a field in duplicate: its weakest pair score says it all.

A bot tuned against one opponent can learn that opponent's slips rather
than the game. The field is a set of sound players in different styles
(:data:`FIELD`: ``expert``, ``sharp`` and the five style bots of
docs/bots.md); the candidate plays each of them on the same seeded deals (or matches), each
pairing exactly the ``run`` of the candidate against that bot with the same
seed, and the one number worth quoting is the **weakest** of its pair
scores: the candidate is as strong against everyone as it is against that
one bot.

Scores, all from the candidate's point of view (docs/statistics.md):

- ``wins``: the duplicate pair score on hand wins (``run``'s pair score);
- ``points``: the pair score on hand points, the mean of ``(D + 6) / 12`` with
  ``D`` the pair's signed points (``1/2 + points per hand / 6``);
- ``matches``: with whole matches, the match pair score.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from hokm_sim.analysis import scores
from hokm_sim.analysis.results import estimate_text
from hokm_sim.analysis.summary import Summary, pair_counts, summarize
from hokm_sim.bots.registry import Strategy
from hokm_sim.engine import records as r
from hokm_sim.errors import InputError, StoppedError, ref
from hokm_sim.sim.run import RunConfig, execute

FIELD = ("expert", "sharp", "drawer", "eager", "signal", "kots", "cautious")
"""The default field: ``expert``, the strongest heuristic (``sharp``) and the five style bots."""
METRICS = ("wins", "points", "matches")
"""What a pair score is taken on (see the module docstring)."""


def pair_stats(counts: np.ndarray, metric: str) -> scores.PairStats:
    """The pair score on ``metric`` (``wins`` or ``points``) of a duplicate run's counts."""
    if metric == "points":
        pair_copy = counts[r.C_PAIR_COPY : r.C_PAIR_COPY + r.C_PAIR_SIZE].reshape(6, 6)
        return scores.pair_score(*scores.points_pair_distribution(pair_copy))
    return scores.pair_score(pair_counts(counts))


def pair_entry(summary: Summary) -> dict[str, Any]:
    """One pairing of the field: its scores on every metric the run has, Elo, points."""
    d = summary.data
    entry: dict[str, Any] = {
        "opponent": d["b"]["name"],
        "pairs": d.get("match_pairs", d.get("pairs")),
        "partial": summary.partial,
        "points_per_hand": d["a"]["points_per_hand"],
        "elo": d["elo"],
    }
    if d["config"].get("mode") == "matches":
        entry["matches"] = d["pair_score"]
        entry["match_win_rate"] = d["a"]["match_win_rate"]
    else:
        entry["wins"] = d["pair_score"]
        entry["points"] = pair_stats(summary.counts, "points").score.to_dict()
    return entry


def weakest(pairs: list[dict[str, Any]], metric: str) -> dict[str, Any] | None:
    """The pairing with the lowest score on ``metric`` (the first of equal ones)."""
    scored = [p for p in pairs if p.get(metric, {}).get("value") is not None]
    if not scored:
        return None
    return min(scored, key=lambda p: p[metric]["value"])


def default_members(candidate: Strategy) -> list[str]:
    """The default field of ``candidate``: :data:`FIELD` without the candidate's own bot
    (``sharp(cover=9)`` plays the field but ``sharp``)."""
    from hokm_sim.bots.registry import resolve

    def bots(s: Strategy) -> tuple[str, str]:
        return (str(s.trump.path), str(s.play.path))

    return [m for m in FIELD if bots(resolve(m)) != bots(candidate)]


@dataclass
class FieldConfig:
    """What to play: the candidate against each member, ``hands`` deals or ``matches``
    to ``target``, on the deals of ``seed``; ``metric`` is the score of the weakest."""

    candidate: str
    members: list[str]
    hands: int | None = None
    matches: int | None = None
    seed: int | None = None
    target: int = 7
    threads: int | None = None
    metric: str | None = None

    def __post_init__(self) -> None:
        if not self.members:
            raise InputError("the field is empty: give at least one opponent", "members")
        if len(set(self.members)) != len(self.members):
            dup = next(m for m in self.members if self.members.count(m) > 1)
            raise InputError(f"the field names {dup!r} twice", "members")
        if self.metric is None:
            self.metric = "matches" if self.matches is not None else "wins"
        if self.metric not in METRICS:
            raise InputError(
                f"unknown metric {self.metric!r}; valid: {', '.join(METRICS)}", "metric"
            )
        if (self.metric == "matches") != (self.matches is not None):
            raise InputError(
                f"matches goes with {ref('matches')}, and wins or points with {ref('hands')}",
                "metric",
            )

    @property
    def mode(self) -> str:
        """``"hands"`` or ``"matches"``."""
        return "matches" if self.matches is not None else "hands"

    def run_config(self, member: str) -> RunConfig:
        """The ``run`` of the candidate against ``member`` that the field plays."""
        return RunConfig(
            a=self.candidate,
            b=member,
            hands=self.hands,
            matches=self.matches,
            seed=self.seed,
            target=self.target,
            threads=self.threads,
        )


def record(
    cfg: FieldConfig, candidate: Strategy, members: list[Strategy], pairs: list[dict[str, Any]]
) -> dict[str, Any]:
    """The field's record from the pairings played so far (partial if not all, or not
    all to their end)."""
    low = weakest(pairs, cfg.metric or "wins")
    return {
        "candidate": candidate.name,
        "members": [m.name for m in members],
        "seed": cfg.seed,
        "mode": cfg.mode,
        "size": cfg.matches if cfg.matches is not None else cfg.hands,
        "target": cfg.target,
        "metric": cfg.metric,
        "pairs": pairs,
        "weakest": None if low is None else {"opponent": low["opponent"], **low[cfg.metric]},
        "partial": len(pairs) < len(members) or any(p["partial"] for p in pairs),
        "strategies": {
            "candidate": candidate.to_dict(),
            "members": [m.to_dict() for m in members],
        },
    }


def play(
    cfg: FieldConfig,
    candidate: Strategy,
    members: list[Strategy],
    *,
    progress: Callable[[int], None] | None = None,
    on_pair: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Play the candidate against each member in turn; the field's record.

    Each pairing is :func:`~hokm_sim.sim.run.execute` of
    :meth:`FieldConfig.run_config`, so its numbers are those of that ``run``.
    The first Ctrl-C stops the pairing in flight after its batch; the record
    then holds the pairings finished and that one, marked partial, and no
    more. A :class:`~hokm_sim.errors.StoppedError` (a bot fault) leaves with
    the field's record so far as its ``partial``. ``on_pair`` is told of each
    pairing as it finishes.
    """
    pairs: list[dict[str, Any]] = []
    for member in members:
        try:
            played = execute(cfg.run_config(member.name), candidate, member, progress=progress)
        except StoppedError as exc:
            if exc.partial is not None and exc.partial.record["done"]:
                pairs.append(pair_entry(summarize(exc.partial.counts, exc.partial.record)))
            exc.partial = record(cfg, candidate, members, pairs)
            raise
        pairs.append(pair_entry(summarize(played.counts, played.record)))
        if on_pair:
            on_pair(pairs[-1])
        if played.partial:
            break
    return record(cfg, candidate, members, pairs)


def format_field(d: dict[str, Any]) -> str:
    """The field's table as text: one line per opponent, the weakest marked."""
    metric = d["metric"]
    what = {"wins": "hand wins", "points": "hand points", "matches": "match wins"}[metric]
    unit = "matches" if d["mode"] == "matches" else "deals"
    w = max([8, *(len(p["opponent"]) for p in d["pairs"])])
    lines = [
        f"{d['candidate']} against a field of {len(d['members'])}, {d['size']:,} {unit} each "
        f"in duplicate, seed {d['seed']}" + (" (partial)" if d["partial"] else ""),
        "",
        f"{'opponent':<{w}}  {'pair score on ' + what:<28}  {'points per hand':<26}  "
        f"Elo ({'matches' if metric == 'matches' else 'hand wins'})",
    ]
    low = d["weakest"]
    for p in d["pairs"]:
        mark = "  <- weakest" if low and p["opponent"] == low["opponent"] else ""
        score = estimate_text(p[metric], "{:.4f}")
        points = estimate_text(p["points_per_hand"], "{:+.4f}")
        elo = estimate_text(p["elo"], "{:+.1f}")
        lines.append(f"{p['opponent']:<{w}}  {score:<28}  {points:<26}  {elo}{mark}")
    if low:
        lines += [
            "",
            f"weakest pair score: {estimate_text(low, '{:.4f}')} against {low['opponent']}",
        ]
    return "\n".join(lines)
