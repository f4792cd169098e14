"""Regression checks for bot changes: a sequential test (GSPRT) on duplicate pairs.

A candidate plays its baseline in duplicate; pairs are consumed strictly in
deal order and the log-likelihood ratio is checked every ``check_every``
pairs, so the verdict and the stopping point depend only on the seed, never
on threads or batches (docs/statistics.md). Hypotheses are in normalized Elo:
H0 ``nelo0`` (default -3: the candidate is worse, a regression) against H1
``nelo1`` (default 0: no regression).

Baselines may come from git: ``git:REF`` loads the candidate file as it was
at ``REF`` (``git show REF:path``), so an uncommitted change can be checked
against the last commit; for an ``exec:`` candidate, the tracked files its
command names, with their folders, as they were at ``REF``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import numbers
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from hokm_sim.analysis import scores, sprt
from hokm_sim.bots import compiled, execspec
from hokm_sim.bots.registry import QUOTES, BotFile, Strategy, StrategyError, resolve
from hokm_sim.errors import InputError, StoppedError, ref
from hokm_sim.sim.backends import Work, check_scheduler, open_backend
from hokm_sim.sim.checks import check_positive, check_target
from hokm_sim.sim.interrupt import Abandoned, graceful_interrupt, raise_if_nothing_done
from hokm_sim.sim.runner import HAND_CHUNK, MATCH_CHUNK, Runner

METRICS = ("wins", "points", "matches")
VERDICTS = {"H1": "no regression", "H0": "regression", "inconclusive": "inconclusive"}
EXIT_CODES = {"H1": 0, "H0": 1, "inconclusive": 3}

# Pair codes from the kernels -> pair-score support index, per metric.
_X = np.array([-3, -2, -1, 1, 2, 3])
_X0, _X1 = np.meshgrid(_X, _X, indexing="ij")  # code = i * 6 + j
_WIN_CODE = (_X0.ravel() > 0).astype(int) + (_X1.ravel() > 0).astype(int)  # 0, 1, 2
_POINT_CODE = (_X0.ravel() + _X1.ravel() + 6).astype(int)  # D + 6 in 0..12


def metric_support(metric: str) -> tuple[np.ndarray, np.ndarray, int]:
    """(code -> support index map, support values, number of codes) for a metric."""
    if metric == "wins":
        return _WIN_CODE, np.array([0.0, 0.5, 1.0]), 36
    if metric == "points":
        return _POINT_CODE, np.arange(13) / 12.0, 36
    if metric == "matches":
        return np.array([0, 1, 1, 2]), np.array([0.0, 0.5, 1.0]), 4
    raise InputError(f"bad metric {metric!r}: expected one of {', '.join(METRICS)}", "metric")


def _git(cwd: Path | str, *args: str) -> bytes:
    """The output of a git command; raises :class:`subprocess.CalledProcessError` (or
    FileNotFoundError without git)."""
    return subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, check=True).stdout


def _git_problem(exc: Exception) -> str:
    detail = getattr(exc, "stderr", b"") or b""
    if isinstance(detail, bytes):
        detail = detail.decode(errors="replace")
    return detail.strip().splitlines()[-1] if detail.strip() else str(exc)


def check_rev(rev: str) -> str:
    """``rev`` (of a baseline ``git:REV``) if it can name a commit; never an option.

    Raises :class:`StrategyError` for an empty rev, one that starts with ``-``
    (git would read it as an option: ``git:--output=FILE`` writes a file), or
    one with spaces or control characters.
    """
    if not rev:
        raise StrategyError("git: names no commit; give git:REF, such as git:HEAD or git:HEAD~1")
    if rev.startswith("-") or any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in rev):
        raise StrategyError(
            f"git:{rev}: not a git revision (a commit, branch or tag, such as HEAD~1)"
        )
    return rev


def _commit(top: Path | str, rev: str) -> str:
    """The commit a checked ``rev`` names in the repository at ``top``, found by ``git
    rev-parse --verify --end-of-options`` before git reads anything else of it."""
    found = subprocess.run(
        ["git", "-C", str(top), "rev-parse", "--verify", "--quiet", "--end-of-options",
         f"{rev}^{{commit}}"],
        capture_output=True,
        text=True,
    )  # fmt: skip
    if found.returncode != 0:
        raise StrategyError(f"git:{rev} names no commit of the repository {top}")
    return found.stdout.strip()


def git_baseline(candidate: Path, rev: str) -> Path:
    """The candidate bot file as it was at git revision ``rev``, written to the cache
    with the files beside it as they were then (its helper modules and data files,
    as :mod:`hokm_sim.bots.compiled` hashes them), so the baseline imports its own.

    The rev is checked (:func:`check_rev`, :func:`_commit`) before git reads it.
    Raises :class:`StrategyError` naming the problem when git cannot give it.
    """
    cand = candidate.resolve()
    rev = check_rev(rev)
    try:
        top = _git(cand.parent, "rev-parse", "--show-toplevel").decode().strip()
        rel = cand.relative_to(Path(top).resolve())
        commit = _commit(top, rev)
        blob = _git(top, "show", f"{commit}:{rel.as_posix()}")
        folder = rel.parent.as_posix() + "/" if rel.parent != Path(".") else ""
        listing = _git(top, "ls-tree", "-l", "-z", commit, "--", folder or ".")
        beside = {}
        for entry in filter(None, listing.decode(errors="replace").split("\0")):
            meta, _, name = entry.partition("\t")
            _mode, kind, _sha, size = meta.split()
            name = name.rsplit("/", 1)[-1]
            if (
                kind == "blob"
                and name != cand.name
                and not name.startswith(".")
                and (int(size) < 2**24)
            ):
                beside[name] = _git(top, "show", f"{commit}:{folder}{name}")
    except StrategyError:
        raise
    except (subprocess.CalledProcessError, FileNotFoundError, ValueError) as exc:
        raise StrategyError(f"cannot load {candidate} at git:{rev}: {_git_problem(exc)}") from None
    h = hashlib.sha256(blob)
    for name in sorted(beside):
        h.update(name.encode() + b"\0" + hashlib.sha256(beside[name]).digest())
    path = compiled.cache_dir() / "baselines" / h.hexdigest()[:16] / cand.name
    if not path.exists():
        from hokm_sim.writing import atomic_bytes

        for name, data in beside.items():
            atomic_bytes(path.parent / name, data)
        atomic_bytes(path, blob)  # last: a baseline folder with its bot file is complete
    return path


def git_exec_baseline(argv: tuple[str, ...], rev: str) -> tuple[str, ...]:
    """An ``exec:`` command as it was at git revision ``rev``: each argument that names a
    file tracked by git is replaced by that file at ``rev``, taken with the tracked
    files of its folder there (a bot in several files keeps its other files of that
    commit), written to ``<cache>/baselines/<tree>/``. Arguments that name no tracked
    file (a program on PATH, a built binary, a data file outside git) stay as they are.

    The rev is checked as for a bot file (:func:`check_rev`, :func:`_commit`).
    Raises :class:`StrategyError` when no argument is a tracked file or git cannot
    give the file at ``rev``.
    """
    rev = check_rev(rev)
    out = list(argv)
    for i, arg in enumerate(argv):
        p = Path(arg).expanduser()
        if not p.is_file():
            continue
        p = p.resolve()
        try:
            top = Path(_git(p.parent, "rev-parse", "--show-toplevel").decode().strip()).resolve()
            rel = p.relative_to(top)
            _git(top, "ls-files", "--error-unmatch", "--", rel.as_posix())
        except (subprocess.CalledProcessError, FileNotFoundError, ValueError):
            continue  # not in a repository, or not tracked
        try:
            out[i] = str(_folder_at(top, rel, _commit(top, rev)))
        except (subprocess.CalledProcessError, FileNotFoundError) as exc:
            raise StrategyError(f"cannot load {arg} at git:{rev}: {_git_problem(exc)}") from None
    if out == list(argv):
        raise StrategyError(
            f"git:{rev} needs the exec command to name a file tracked by git (its source or "
            "script); for a built program, build the baseline and give it as exec:COMMAND",
            "baseline",
        )
    return tuple(out)


def _folder_at(top: Path, rel: Path, commit: str) -> Path:
    """File ``rel`` of the repository at ``top`` as it was at ``commit``, in a copy of
    its folder's tracked files there under the baseline cache (named by the git tree)."""
    folder = rel.parent.as_posix()
    _git(top, "cat-file", "-e", f"{commit}:{rel.as_posix()}")
    tree = _git(top, "rev-parse", f"{commit}:{folder}" if folder != "." else f"{commit}^{{tree}}")
    dest = compiled.cache_dir() / "baselines" / f"tree-{tree.decode().strip()[:16]}"
    if not dest.exists():
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=dest.parent, prefix=".tmp-"))
        listing = _git(
            top, "ls-tree", "-r", "-z", commit, "--", f"{folder}/" if folder != "." else "."
        )
        for entry in filter(None, listing.split(b"\0")):
            meta, path = entry.decode().split("\t", 1)
            mode, kind, _ = meta.split()
            if kind != "blob":
                continue
            target = tmp / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(_git(top, "show", f"{commit}:{path}"))
            target.chmod(0o755 if mode == "100755" else 0o644)
        try:
            tmp.rename(dest)
        except OSError:  # another process made it first: the same tree, the same files
            shutil.rmtree(tmp, ignore_errors=True)
    return dest / rel


def resolve_baseline(spec: str, candidate_spec: str) -> Strategy:
    """A baseline spec: a strategy spec, or ``git:REF`` for the candidate at REF (a bot
    file at REF, or an ``exec:`` command over its tracked files at REF)."""
    if spec.startswith("git:"):
        if execspec.is_exec(candidate_spec):
            try:
                argv = execspec.split_command(candidate_spec)
            except execspec.CommandError as exc:
                raise StrategyError(str(exc)) from None
            baseline = execspec.command_text(git_exec_baseline(argv, spec[4:]))
            s = resolve(execspec.PREFIX + baseline)
            return dataclasses.replace(s, name=f"{candidate_spec}@{spec}")
        cand = _bot_file_of(candidate_spec)
        if cand is None:
            raise StrategyError(
                f"{spec} needs the candidate to be a bot file path (with parameters or "
                f"without) or an exec: command, not {candidate_spec!r}",
                "baseline",
            )
        bot, settings = cand
        base = resolve(str(git_baseline(bot.path, spec[4:])))
        return Strategy(
            name=f"{bot.path.stem}{settings}@{spec}",
            trump=base.trump,
            play=base.play,
            trump_params=_as_given(base.trump, bot, resolve(candidate_spec).trump_params),
            play_params=_as_given(base.play, bot, resolve(candidate_spec).play_params),
        )
    return resolve(spec)


def _bot_file_of(candidate_spec: str) -> tuple[BotFile, str] | None:
    """The one bot file a candidate spec plays (``PATH`` or ``PATH(k=v,...)``) and the
    parameter text it gives (``""`` or ``"(k=v,...)"``); None for anything else (a
    built-in name, a composition, an ``exec:`` command)."""
    if Path(candidate_spec).is_file():
        return resolve(candidate_spec).play, ""
    head, paren, rest = candidate_spec.strip().partition("(")
    if not paren or not Path(head.strip().strip(QUOTES)).is_file():
        return None
    s = resolve(candidate_spec)
    if s.trump.path != s.play.path or s.play.builtin or s.play.kind == "exec":
        return None
    return s.play, "(" + rest


def _as_given(base: BotFile, cand: BotFile, values: tuple[float, ...]) -> tuple[float, ...]:
    """The baseline's parameter values with the candidate's settings: each parameter the
    committed file also has takes the candidate's value, the others their defaults."""
    given = dict(zip(cand.params, values, strict=True))
    return tuple(given.get(k, v) for k, v in base.params.items())


def check_test(elo0: float, elo1: float, alpha: float, beta: float) -> None:
    """The hypotheses and error rates of a sequential test: ``elo0 < elo1``,
    ``0 < alpha, beta`` and ``alpha + beta < 1``."""
    for name, x in (("elo0", elo0), ("elo1", elo1), ("alpha", alpha), ("beta", beta)):
        if isinstance(x, bool) or not isinstance(x, numbers.Real) or not math.isfinite(x):
            raise InputError(f"expected a finite number, got {x!r}", name)
    if not elo0 < elo1:
        raise InputError(f"need {ref('elo0')} < {ref('elo1')}, got {elo0} and {elo1}")
    if not (alpha > 0 and beta > 0 and alpha + beta < 1):
        raise InputError(
            f"need 0 < {ref('alpha')}, {ref('beta')} and {ref('alpha')} + {ref('beta')} < 1, "
            f"got {alpha} and {beta}"
        )


@dataclass
class SprtConfig:
    """Bounds, metric, cap and seed of one sequential test, and where it plays
    (``threads`` here, or a Dask ``scheduler``: the verdict is the same)."""

    nelo0: float = -3.0
    nelo1: float = 0.0
    alpha: float = 0.05
    beta: float = 0.05
    metric: str = "wins"
    max_pairs: int | None = None
    check_every: int = 100
    seed: int = 0
    target: int = 7
    threads: int | None = None
    scheduler: str | None = None

    def __post_init__(self) -> None:
        check_test(self.nelo0, self.nelo1, self.alpha, self.beta)
        metric_support(self.metric)
        if self.max_pairs is None:
            exp = max(
                sprt.sprt_expected_pairs(x, self.nelo0, self.nelo1, self.alpha, self.beta)
                for x in (self.nelo0, self.nelo1)
            )
            self.max_pairs = int(math.ceil(10 * exp / 1000) * 1000)
        check_positive(self.max_pairs, "max_pairs")
        check_positive(self.check_every, "check_every")
        check_target(self.target)
        self.scheduler = check_scheduler(self.scheduler)


@dataclass
class SprtResult:
    """The verdict and the numbers behind it."""

    verdict: str  # "H0" (regression), "H1" (no regression) or "inconclusive"
    llr: float
    bounds: tuple[float, float]
    pairs: int
    counts: list[int]
    values: list[float]
    config: dict[str, Any] = field(default_factory=dict)
    estimates: dict[str, Any] = field(default_factory=dict)
    identical: bool = False
    partial: bool = False
    """Stopped (Ctrl-C, a bot fault) before a verdict or the cap: no verdict at all."""

    @property
    def exit_code(self) -> int:
        """0 no regression, 1 regression, 3 inconclusive."""
        return EXIT_CODES[self.verdict]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready record."""
        return {
            "verdict": "stopped before a verdict" if self.partial else VERDICTS[self.verdict],
            "hypothesis_accepted": self.verdict,
            "exit_code": self.exit_code,
            "llr": self.llr,
            "bounds": list(self.bounds),
            "pairs": self.pairs,
            "identical_play": self.identical,
            "partial": self.partial,
            "counts": self.counts,
            "values": self.values,
            **self.estimates,
            "config": self.config,
        }


def estimates(counts: np.ndarray, values: np.ndarray) -> dict[str, Any]:
    """Raw (naive) score, Elo and nElo at the stop, with 95% intervals."""
    ps = scores.pair_score(counts, values)
    return {
        "raw": {
            "score": ps.score.to_dict(),
            "elo": ps.elo.to_dict(),
            "nelo": ps.nelo.to_dict(),
            "los": ps.los if math.isfinite(ps.los) else None,
        },
    }


def stop_adjusted(
    counts: np.ndarray, values: np.ndarray, cfg: SprtConfig, sims: int = 200
) -> dict[str, Any]:
    """Elo as estimated at the stop, corrected for optional stopping.

    A sequential test that stops when the evidence crosses a bound
    overstates the difference it stopped on. Parametric bootstrap: replay
    the same test (bounds, checks, cap) on pairs drawn from the observed
    distribution, measure the mean naive score at the stop, and subtract the
    bias. The replays use the LLR approximation of docs/statistics.md for speed
    and run side by side, one check of all that are still open at a time.
    """
    n = int(counts.sum())
    if n == 0:
        return {"score": None, "elo": None, "sims": 0}
    p = counts / n
    true = float(np.dot(p, values))
    a, b = sprt.sprt_bounds(cfg.alpha, cfg.beta)
    rng = np.random.default_rng(cfg.seed)
    c = np.zeros((sims, len(values)))
    open_ = np.arange(sims)
    while open_.size:
        c[open_] += rng.multinomial(cfg.check_every, p, size=open_.size)
        rows = c[open_]
        llr = sprt.llr_approx_rows(rows, values, cfg.nelo0, cfg.nelo1)
        done = (llr <= a) | (llr >= b) | (rows.sum(axis=1) >= cfg.max_pairs)
        open_ = open_[~done]
    naive = (c @ values) / c.sum(axis=1)
    bias = float(np.mean(naive)) - true
    s = min(max(true - bias, 1e-6), 1 - 1e-6)
    return {"score": s, "elo": scores.elo_from_score(s), "bias": bias, "sims": sims}


IDENTICAL_PAIRS = 1000
"""Pairs after which a candidate that mirrored the baseline on every one is accepted."""


def sequential(
    runner: Runner,
    cfg: SprtConfig,
    progress: Callable[[int, float, np.ndarray, np.ndarray], None] | None = None,
) -> SprtResult:
    """Play pairs in deal order with ``runner`` (candidate against baseline) until the
    GSPRT decides or the cap is reached. A regression check plays in the checking mode
    (docs/bots.md): its caller builds the runner with ``checked=True``, once.

    One case the GSPRT cannot decide: when every pair so far scored exactly
    1/2, candidate and baseline made the same decisions on every deal (two
    identical deterministic bots always do). The pair variance is zero, the
    LLR hardly moves, and the run would only reach its cap; after
    ``IDENTICAL_PAIRS`` such pairs the check accepts H1 and says why
    (``identical`` in the result).

    On a Dask cluster tasks finish in any order; batches are consumed in deal
    order all the same, and every batch is a whole number of check
    intervals, so the checks fall on the same pairs whatever the workers.
    """
    code_map, values, _ = metric_support(cfg.metric)
    a, b = sprt.sprt_bounds(cfg.alpha, cfg.beta)
    counts = np.zeros(len(values), np.int64)
    matches = cfg.metric == "matches"
    llr, used, verdict, identical = 0.0, 0, "inconclusive", False
    step = cfg.check_every
    chunk = MATCH_CHUNK if matches else HAND_CHUNK
    per_batch = max(step, chunk * (8 if cfg.scheduler else 1) * (2 if matches else 1))
    per_batch = (per_batch // step) * step
    work = Work(cfg.seed, matches=matches, target=cfg.target, codes=True, per_task=per_batch)

    def so_far(partial: bool) -> SprtResult:
        res = SprtResult(
            verdict, float(llr), (a, b), used, [int(x) for x in counts], [float(x) for x in values]
        )
        res.identical = identical and verdict == "H1"
        res.partial = partial
        return res

    began = False  # to play: no stop came while the engine compiled
    try:
        with (
            graceful_interrupt() as flag,
            open_backend(cfg.scheduler, cfg.threads) as backend,
            suppress(Abandoned),  # Ctrl-C, and a batch that would not end: it is dropped
        ):
            if cfg.scheduler is None:  # compiled first: a stop meanwhile plays nothing
                runner.prepare(matches)
            began = not flag.stop
            pairs = [(0, cfg.max_pairs)]
            for batch in backend.batches(runner, work, pairs, ordered=True) if began else ():
                idx = code_map[batch.codes.astype(np.int64)]
                for off in range(0, batch.count, step):
                    counts += np.bincount(idx[off : off + step], minlength=len(values))
                    used += min(step, batch.count - off)
                    llr = sprt.gsprt_llr(counts, values, cfg.nelo0, cfg.nelo1)
                    v = sprt.sprt_verdict(llr, a, b)
                    mirrored = counts.sum() == counts[values == 0.5].sum()
                    if v == "continue" and mirrored and used >= IDENTICAL_PAIRS:
                        v, identical = "H1", True
                    if v != "continue":
                        verdict = v
                        break
                if progress:
                    progress(used, llr, counts, values)
                if verdict != "inconclusive" or flag.stop:
                    break
    except StoppedError as exc:
        exc.partial = so_far(True)  # the pairs before the stop, for the partial report
        raise
    if not began:
        raise_if_nothing_done(flag, used)
    return so_far(flag.stop and verdict == "inconclusive")
