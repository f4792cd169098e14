"""Experiment files: a TOML spec of runs or a tournament, run into one report.

An experiment is reproducible from its file alone: strategies, sizes, seed,
target. Two kinds:

``kind = "runs"``: a list of comparisons::

    name = "Which single tip gains the most?"
    seed = 1
    hands = 200000            # default size of every run
    [[runs]]
    a = "aces"
    b = "basic"
    [[runs]]
    a = "ruff"
    b = "basic"
    duplicate = false         # any run field: a, b, hands, matches, target, duplicate

``kind = "tournament"``: ``strategies = [...]`` with ``hands``.

``sort = "elo"`` orders the runs' comparison table by Elo. ``question``
states what the experiment answers; the report repeats it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hokm_sim.analysis import tournament
from hokm_sim.analysis.comparison import RunConfig, execute
from hokm_sim.analysis.summary import Summary
from hokm_sim.bots.registry import resolve
from hokm_sim.errors import InputError

RUN_KEYS = {"a", "b", "hands", "matches", "target", "duplicate", "seed"}
TOP_KEYS = {
    "name",
    "question",
    "kind",
    "seed",
    "hands",
    "matches",
    "target",
    "runs",
    "strategies",
    "sort",
    "description",
}


class ExperimentError(InputError):
    """An experiment file that cannot be run; the message names the problem."""


@dataclass
class Experiment:
    """A parsed experiment file."""

    path: Path
    spec: dict[str, Any]
    runs: list[RunConfig] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path, threads: int | None = None) -> Experiment:
        """Parse and validate ``path``; raises :class:`ExperimentError`."""
        try:
            spec = tomllib.loads(path.read_text())
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ExperimentError(f"cannot read experiment {path}: {exc}") from None
        unknown = set(spec) - TOP_KEYS
        if unknown:
            raise ExperimentError(
                f"{path}: unknown keys {sorted(unknown)}; valid: {sorted(TOP_KEYS)}"
            )
        kind = spec.get("kind", "runs")
        if kind not in ("runs", "tournament"):
            raise ExperimentError(f"{path}: bad kind {kind!r}; valid: 'runs', 'tournament'")
        exp = cls(path, spec)
        if kind == "tournament":
            if len(spec.get("strategies", [])) < 2:
                raise ExperimentError(f"{path}: a tournament needs at least 2 strategies")
            for s in spec["strategies"]:
                resolve(s)
            return exp
        if not spec.get("runs"):
            raise ExperimentError(f"{path}: no [[runs]] given")
        for i, run in enumerate(spec["runs"], 1):
            bad = set(run) - RUN_KEYS
            if bad:
                raise ExperimentError(
                    f"{path}: run {i}: unknown keys {sorted(bad)}; valid: {sorted(RUN_KEYS)}"
                )
            merged = {k: spec[k] for k in ("hands", "matches", "target", "seed") if k in spec}
            merged.update(run)
            if "matches" in run and "hands" not in run:
                merged.pop("hands", None)
            try:
                resolve(merged.get("a", "")), resolve(merged.get("b", ""))
                exp.runs.append(
                    RunConfig(
                        a=merged["a"],
                        b=merged["b"],
                        hands=merged.get("hands"),
                        matches=merged.get("matches"),
                        seed=merged.get("seed"),
                        target=merged.get("target", 7),
                        duplicate=merged.get("duplicate", True),
                        threads=threads,
                    )
                )
            except (KeyError, ValueError) as exc:
                raise ExperimentError(f"{path}: run {i}: {exc}") from None
        return exp

    @property
    def seed(self) -> int:
        """The experiment's seed (runs may override it)."""
        return int(self.spec.get("seed", 1))

    @property
    def name(self) -> str:
        """The experiment's title."""
        return self.spec.get("name", self.path.stem)


def run_experiment(
    exp: Experiment, threads: int | None = None, progress=None
) -> tuple[list[Summary] | None, dict | None]:
    """Play the experiment: its run summaries, or its tournament summary."""
    if exp.spec.get("kind", "runs") == "tournament":
        strategies = [resolve(s) for s in exp.spec["strategies"]]
        t = tournament.play(
            strategies,
            int(exp.spec.get("seed", 1)),
            int(exp.spec.get("hands", 100_000)),
            threads,
            progress,
        )
        return None, t.summary()
    out = []
    for cfg in exp.runs:
        out.append(execute(cfg, resolve(cfg.a), resolve(cfg.b), progress=progress))
    return out, None
