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

Schema
------
Every key, its type and its range; anything else is an
:class:`ExperimentError` of one line naming the key (and the run's number)::

    key          type              range / meaning                        kinds
    name         string            the report's title (default: file name) both
    question     string            what the experiment answers            both
    description  string            a paragraph for the report             both
    kind         string            "runs" (default) or "tournament"       both
    seed         integer           0 .. 2**64 - 1 (default 1)             both
    hands        integer           >= 1 deals (runs: 1,000,000 unless     both
                                   matches; tournament: 100,000)
    sort         string            "elo"                                  runs
    matches      integer           >= 1 matches, instead of hands         runs
    target       integer           >= 1 points to win a match (7)         runs
    runs         array of tables   at least one [[runs]]                  runs
    strategies   array of strings  at least 2 strategy specs              tournament

    [[runs]]     a, b (strategy spec strings, required); hands, matches,
                 target, seed as above (override the top-level value; a
                 run's matches replaces the top-level hands and the other
                 way round); duplicate (true or false, default true)

Sizes are TOML integers (``200000`` or ``200_000``); ``1.5`` or ``"200k"``
are refused, as are ``"no"`` for a boolean and a number for a strategy.
A relative bot file path in a strategy spec is taken from the experiment
file's own folder, so the file runs the same from any working directory.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hokm_sim.analysis import tournament
from hokm_sim.analysis.summary import Summary, summarize
from hokm_sim.bots.registry import resolve
from hokm_sim.errors import InputError, StoppedError
from hokm_sim.sim.checks import check_positive, check_size, check_target
from hokm_sim.sim.run import RunConfig, execute

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
KINDS = ("runs", "tournament")
ONLY_RUNS = {"matches", "target", "runs", "sort"}
ONLY_TOURNAMENT = {"strategies"}
SORTS = ("elo",)
INTEGER = 'a TOML integer such as 200000 or 200_000 (not 1.5, 2e5 or "200k")'


class ExperimentError(InputError):
    """An experiment file that cannot be run; the message names the problem."""


def _show(value: Any) -> str:
    """A value as the file wrote it, short."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Checker:
    """Type and range checks of one file; every failure names ``path``, the run and the key."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, key: str, value: Any, problem: str, run: int | None = None) -> ExperimentError:
        where = f"run {run}: " if run is not None else ""
        return ExperimentError(f"{self.path}: {where}{key} = {_show(value)}: {problem}")

    def text(self, d: dict, key: str, run: int | None = None) -> None:
        if key in d and not isinstance(d[key], str):
            raise self.fail(key, d[key], "expected a string", run)

    def size(self, d: dict, key: str, run: int | None = None) -> None:
        if key not in d:
            return
        v = d[key]
        unit = "deals" if key == "hands" else "matches"
        if not _is_int(v):
            raise self.fail(
                key, v, f"bad size; expected a whole number of {unit} as {INTEGER}", run
            )
        self.checked(check_positive, d, key, run, "bad size")

    def target(self, d: dict, run: int | None = None) -> None:
        if "target" in d and not _is_int(d["target"]):
            raise self.fail("target", d["target"], f"bad target; expected {INTEGER}", run)
        self.checked(check_target, d, "target", run, "bad target")

    def checked(self, check: Any, d: dict, key: str, run: int | None, what: str) -> None:
        """``check(d[key], key)``, the check the API and the command line make (one
        place for the ranges), its error told as this file's."""
        if key in d:
            try:
                check(d[key], key)
            except InputError as exc:
                raise self.fail(key, d[key], f"{what}; {exc.message}", run) from None

    def match_rules(self, merged: dict, run: int) -> None:
        """A run's sizes and target as the API takes them: a target only with matches."""
        try:
            check_size(merged.get("hands"), merged.get("matches"), merged.get("target"))
        except InputError as exc:
            where = f"{self.path}: run {run}: "
            raise ExperimentError(where + exc.render(lambda name: name)) from None

    def seed(self, d: dict, run: int | None = None) -> None:
        if "seed" not in d:
            return
        v = d["seed"]
        if not _is_int(v) or not 0 <= v < 2**64:
            raise self.fail("seed", v, "bad seed; expected an integer in 0 .. 2**64 - 1", run)

    def boolean(self, d: dict, key: str, run: int | None = None) -> None:
        if key in d and not isinstance(d[key], bool):
            raise self.fail(key, d[key], "expected true or false (TOML booleans, unquoted)", run)

    def strategy(self, key: str, value: Any, run: int | None = None) -> None:
        if not isinstance(value, str):
            raise self.fail(key, value, 'expected a strategy spec string such as "expert"', run)
        try:
            resolve(value, self.path.parent)
        except InputError as exc:
            raise self.fail(key, value, str(exc), run) from None


def _read(path: Path) -> dict[str, Any]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ExperimentError(f"cannot read experiment {path}: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ExperimentError(
            f"cannot read experiment {path}: not a text file (TOML is UTF-8 text)"
        ) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ExperimentError(f"cannot read experiment {path}: not TOML: {exc}") from None


@dataclass
class Experiment:
    """A parsed experiment file."""

    path: Path
    spec: dict[str, Any]
    runs: list[RunConfig] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path, threads: int | None = None) -> Experiment:
        """Parse and validate ``path`` against the schema of the module docstring;
        raises :class:`ExperimentError` naming the key (and the run) at fault."""
        path = Path(path)
        spec = _read(path)
        check = _Checker(path)
        unknown = set(spec) - TOP_KEYS
        if unknown:
            raise ExperimentError(
                f"{path}: unknown keys {sorted(unknown)}; valid: {sorted(TOP_KEYS)}"
            )
        for key in ("name", "question", "description", "kind", "sort"):
            check.text(spec, key)
        kind = spec.get("kind", "runs")
        if kind not in KINDS:
            raise check.fail("kind", kind, "bad kind; valid: 'runs', 'tournament'")
        if spec.get("sort", "elo") not in SORTS:
            raise check.fail("sort", spec["sort"], "bad sort; valid: 'elo'")
        check.seed(spec)
        check.size(spec, "hands")
        check.size(spec, "matches")
        check.target(spec)
        if "hands" in spec and "matches" in spec:
            raise ExperimentError(f"{path}: give hands or matches at the top, not both")
        exp = cls(path, spec)
        if kind == "tournament":
            misplaced = sorted(ONLY_RUNS & set(spec))
            if misplaced:
                raise ExperimentError(
                    f'{path}: {misplaced[0]} is not used by kind = "tournament"; '
                    "a tournament takes strategies, hands and seed"
                )
            strategies = spec.get("strategies", [])
            if not isinstance(strategies, list):
                raise check.fail("strategies", strategies, "expected an array of strategy specs")
            if len(strategies) < 2:
                raise ExperimentError(f"{path}: a tournament needs at least 2 strategies")
            for i, s in enumerate(strategies):
                check.strategy(f"strategies[{i}]", s)
            return exp
        misplaced = sorted(ONLY_TOURNAMENT & set(spec))
        if misplaced:
            raise ExperimentError(
                f'{path}: strategies is used by kind = "tournament" only; give [[runs]]'
            )
        runs = spec.get("runs")
        if not runs:
            raise ExperimentError(f"{path}: no [[runs]] given")
        if not isinstance(runs, list):
            raise check.fail("runs", runs, "expected [[runs]] tables")
        for i, run in enumerate(runs, 1):
            if not isinstance(run, dict):
                raise check.fail("runs", run, f"run {i} is not a [[runs]] table")
            bad = set(run) - RUN_KEYS
            if bad:
                raise ExperimentError(
                    f"{path}: run {i}: unknown keys {sorted(bad)}; valid: {sorted(RUN_KEYS)}"
                )
            for key in ("a", "b"):
                if key not in run:
                    raise ExperimentError(f"{path}: run {i}: no {key} (a strategy spec) given")
                check.strategy(key, run[key], i)
            check.size(run, "hands", i)
            check.size(run, "matches", i)
            check.target(run, i)
            check.seed(run, i)
            check.boolean(run, "duplicate", i)
            if "hands" in run and "matches" in run:
                raise ExperimentError(f"{path}: run {i}: give hands or matches, not both")
            merged = {k: spec[k] for k in ("hands", "matches", "target", "seed") if k in spec}
            if "matches" in run:
                merged.pop("hands", None)
            if "hands" in run:
                merged.pop("matches", None)
            merged.update(run)
            check.match_rules(merged, i)
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
        return exp

    @property
    def seed(self) -> int:
        """The experiment's seed (runs may override it)."""
        return int(self.spec.get("seed", 1))

    @property
    def deals(self) -> int:
        """Deals (or matches) the experiment plays in all: for a progress bar."""
        if self.runs:
            return sum(c.total for c in self.runs)
        k = len(self.spec["strategies"])
        return int(self.spec.get("hands", 100_000)) * k * (k - 1) // 2

    @property
    def name(self) -> str:
        """The experiment's title."""
        return self.spec.get("name", self.path.stem)


def run_experiment(
    exp: Experiment, threads: int | None = None, progress=None
) -> tuple[list[Summary] | None, dict | None]:
    """Play the experiment: its run summaries, or its tournament summary.

    A run stopped by Ctrl-C ends the experiment there: the runs so far are
    returned, the last one partial. A :class:`~hokm_sim.errors.StoppedError`
    carries them (or the tournament so far) as its ``partial``, in the form
    returned here.
    """
    if exp.spec.get("kind", "runs") == "tournament":
        strategies = [resolve(s, exp.path.parent) for s in exp.spec["strategies"]]
        try:
            t = tournament.play(
                strategies,
                int(exp.spec.get("seed", 1)),
                int(exp.spec.get("hands", 100_000)),
                threads,
                progress,
            )
        except StoppedError as exc:
            exc.partial = (None, exc.partial.summary())
            raise
        return None, t.summary()
    out: list[Summary] = []
    for cfg in exp.runs:
        a, b = resolve(cfg.a, exp.path.parent), resolve(cfg.b, exp.path.parent)
        try:
            played = execute(cfg, a, b, progress=progress)
        except StoppedError as exc:
            part = exc.partial
            exc.partial = ([*out, summarize(part.counts, part.record)], None)
            raise
        out.append(summarize(played.counts, played.record))
        if played.partial:  # Ctrl-C: the experiment stops with this run
            break
    return out, None
