"""Tuning a bot's ``PARAMS`` on duplicate pairs with SPSA, the way fishtest tunes chess engines.

SPSA (simultaneous perturbation stochastic approximation, Spall 1992) fits
this problem: the objective (a pair score) is only ever measured with
noise, every measurement costs playing, and SPSA needs two measurements an
iteration whatever the number of parameters. Each iteration ``k``:

1. draws a sign ``Δ_i = ±1`` for every parameter (seeded);
2. plays the bot at ``θ + c_k Δ`` and at ``θ - c_k Δ`` against every
   opponent on the same fresh duplicate deals (``pairs`` of them: deals
   ``k pairs .. (k + 1) pairs - 1`` of the seed), so card luck is common to
   the two and cancels in their difference;
3. steps ``θ_i += a_k (y+ - y-) / (2 c_k Δ_i)``, ``y±`` the mean pair score
   against the opponents, and clips ``θ`` to its range.

Parameters are handled in units of their range (``[LOW, HIGH]`` maps to
``[0, 1]``), so one gain serves all. The gains follow Spall's
recommendations: ``c_k = c / (k + 1)^γ`` and ``a_k = a / (A + k + 1)^α``
with ``α = 0.602``, ``γ = 0.101``, ``A`` a tenth of the iterations, and
``a`` set so that a score difference of ``0.01`` moves a parameter by
``rate`` of its range in the first iteration. Whole-number parameters
(``PARAM_LIMITS``) are rounded where they are played.

A library optimiser (Optuna, Nevergrad, scikit-optimize) was not used:
those are built for objectives measured once per setting, and would spend
their evaluations on fitting noise; SPSA's paired measurement on common
deals is the reason it works here, and it is twenty lines.

Everything is reproducible from the seed: the signs come from a stream of
their own, and the deals of every iteration from the seed's deal streams.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

import numpy as np

from hokm_sim.analysis.field import pair_stats
from hokm_sim.analysis.results import estimate_text
from hokm_sim.analysis.scores import PairStats
from hokm_sim.bots.registry import BotFile, Strategy, StrategyError
from hokm_sim.errors import InputError, StoppedError
from hokm_sim.sim.checks import check_finite, check_positive
from hokm_sim.sim.interrupt import Abandoned, graceful_interrupt
from hokm_sim.sim.runner import Runner

ALPHA = 0.602
"""Decay exponent of the step gain ``a_k`` (Spall's recommended value)."""
GAMMA = 0.101
"""Decay exponent of the perturbation ``c_k`` (Spall's recommended value)."""
STABILITY = 0.1
"""``A`` as a share of the iterations: keeps the first steps from being the largest by far."""
SCORE_UNIT = 0.01
"""The score difference that moves a parameter by ``rate`` of its range at the start."""
TUNE_METRICS = ("wins", "points")
"""Scores a tuning run may climb (docs/statistics.md): hand wins or hand points."""

_PARAM_RE = re.compile(
    r"^\s*(?:(?P<role>trump|play)\.)?(?P<name>\w+)\s*=\s*(?P<lo>[^:]+):(?P<hi>.+)$"
)


@dataclass(frozen=True)
class Param:
    """One tuned parameter: where it goes (``trump``, ``play`` or ``both``), its range,
    whether it is a whole number, and the value it starts from."""

    name: str
    role: str
    low: float
    high: float
    whole: bool
    start: float

    @property
    def label(self) -> str:
        """The name as given: ``NAME``, or ``trump.NAME`` / ``play.NAME``."""
        return self.name if self.role == "both" else f"{self.role}.{self.name}"

    @property
    def text(self) -> str:
        """The parameter as given on the command line: ``NAME=LOW:HIGH``."""
        return f"{self.label}={self.low!r}:{self.high!r}"

    def value(self, u: float) -> float:
        """The parameter's value at ``u`` in units of its range, rounded if whole, and
        to the digits a spec writes (so that the strategy played is its spec's)."""
        v = self.low + min(1.0, max(0.0, float(u))) * (self.high - self.low)
        return float(round(v)) if self.whole else float(_num(v))

    def unit(self, v: float) -> float:
        """``v`` in units of the range."""
        return (v - self.low) / (self.high - self.low)


def values_at(params: list[Param], u: np.ndarray) -> list[float]:
    """The parameters' values at ``u`` (units of their ranges)."""
    return [p.value(x) for p, x in zip(params, u, strict=True)]


def _bot_of(strategy: Strategy, role: str) -> BotFile:
    return strategy.trump if role == "trump" else strategy.play


def parse_param(text: str, strategy: Strategy) -> Param:
    """``NAME=LOW:HIGH`` (or ``trump.NAME=...``, ``play.NAME=...``) for ``strategy``.

    A name found in both parts of a composition must say which; the range must
    lie within the bot's ``PARAM_LIMITS``. The start is the strategy's value,
    moved into the range.
    """
    m = _PARAM_RE.match(text)
    if not m:
        raise InputError(f"{text!r}: expected NAME=LOW:HIGH, e.g. length=1:8", "params")
    name, role = m.group("name"), m.group("role")
    try:
        lo, hi = float(m.group("lo")), float(m.group("hi"))
    except ValueError:
        raise InputError(f"{text!r}: LOW and HIGH must be numbers", "params") from None
    if not (math.isfinite(lo) and math.isfinite(hi)) or not lo < hi:
        raise InputError(f"{text!r}: expected LOW < HIGH", "params")
    same = strategy.trump.path == strategy.play.path
    roles = [role] if role else ["play", "trump"]
    found = [r for r in roles if name in _bot_of(strategy, r).params]
    if not found:
        valid = sorted(set(strategy.trump.params) | set(strategy.play.params)) or ["none"]
        raise InputError(
            f"unknown parameter {name!r} for {strategy.name}; parameters: {', '.join(valid)}",
            "params",
        )
    if len(found) == 2 and not same:
        raise InputError(
            f"parameter {name!r} is both the trump part's and the play part's: "
            f"give trump.{name} or play.{name}",
            "params",
        )
    where = "both" if same and not role else found[0]
    bot = _bot_of(strategy, found[0])
    whole = False
    if name in bot.limits:
        blo, bhi, whole = bot.limits[name]
        if lo < blo or hi > bhi:
            raise InputError(f"{text!r}: {bot.name}'s {name} lies in {blo:g}..{bhi:g}", "params")
    values = strategy.play_params if found[0] == "play" else strategy.trump_params
    start = values[list(bot.params).index(name)]
    return Param(name, where, lo, hi, whole, min(hi, max(lo, start)))


def with_values(strategy: Strategy, params: list[Param], values: list[float]) -> Strategy:
    """``strategy`` with the parameters set, named by the spec that resolves to it."""
    trump = list(strategy.trump_params)
    play = list(strategy.play_params)
    for p, v in zip(params, values, strict=True):
        if p.role in ("trump", "both"):
            trump[list(strategy.trump.params).index(p.name)] = v
        if p.role in ("play", "both"):
            play[list(strategy.play.params).index(p.name)] = v
    for bot, vals in ((strategy.trump, trump), (strategy.play, play)):
        for k, v in zip(bot.params, vals, strict=True):
            try:
                bot.check(k, v)
            except StrategyError as exc:  # a range given outside a bot's limits
                raise InputError(str(exc), "params") from None
    new = dataclasses.replace(strategy, trump_params=tuple(trump), play_params=tuple(play))
    return dataclasses.replace(new, name=spec_of(new))


def spec_of(s: Strategy) -> str:
    """A strategy spec for ``s`` with every parameter written out (built-ins by name)."""

    def part(bot: BotFile, values: tuple[float, ...]) -> str:
        name = bot.name if bot.builtin else str(bot.path)
        args = ",".join(f"{k}={_num(v)}" for k, v in zip(bot.params, values, strict=True))
        return f"{name}({args})" if args else name

    if s.trump.path == s.play.path and s.trump_params == s.play_params:
        return part(s.play, s.play_params)
    return f"trump={part(s.trump, s.trump_params)},play={part(s.play, s.play_params)}"


def _num(v: float) -> str:
    """A parameter value as short as it can be written exactly enough (6 significant digits)."""
    return f"{v:.6g}"


@dataclass
class TuneConfig:
    """A tuning run: iterations, deals per iteration, gains, metric and seed."""

    iterations: int = 200
    pairs: int = 20_000
    c: float = 0.1
    rate: float = 0.1
    metric: str = "wins"
    seed: int = 1
    threads: int | None = None
    check: int = 0

    def __post_init__(self) -> None:
        check_positive(self.iterations, "iterations")
        if check_positive(self.pairs, "pairs") < 2:
            raise InputError(f"expected at least 2, got {self.pairs}", "pairs")
        if not 0 < check_finite(self.c, "c") <= 0.5:
            raise InputError(f"expected a share of the range in (0, 0.5], got {self.c}", "c")
        if not check_finite(self.rate, "rate") > 0:
            raise InputError(f"expected a positive number, got {self.rate}", "rate")
        if self.metric not in TUNE_METRICS:
            raise InputError(
                f"unknown metric {self.metric!r}; valid: {', '.join(TUNE_METRICS)}", "metric"
            )
        check_positive(self.check, "check", zero=True)

    def c_k(self, k: int) -> float:
        """The perturbation of iteration ``k``, in units of the range."""
        return self.c / (k + 1) ** GAMMA

    def a_k(self, k: int) -> float:
        """The step gain of iteration ``k``: ``a / (A + k + 1)^α``, ``a`` from ``rate``."""
        big_a = STABILITY * self.iterations
        a = self.rate * 2 * self.c / SCORE_UNIT * (big_a + 1) ** ALPHA
        return a / (big_a + k + 1) ** ALPHA


def signs(seed: int, iterations: int, n: int) -> np.ndarray:
    """The perturbation signs ``±1`` of every iteration, from a stream of their own."""
    rng = np.random.default_rng([seed, 0x53505341])  # "SPSA"
    return rng.integers(0, 2, size=(iterations, n)) * 2 - 1


def pair_scores(
    strategy: Strategy,
    runners: list[Runner],
    seed: int,
    start: int,
    pairs: int,
    metric: str,
    threads: int | None,
) -> list[PairStats]:
    """The pair score of ``strategy`` against each opponent on deals
    ``start .. start + pairs - 1`` of ``seed``, in duplicate; ``runners`` play the
    tuned bot's files against each opponent, built once for a whole tune
    (:meth:`~hokm_sim.sim.runner.Runner.playing` gives them ``strategy``'s parameters)."""
    return [
        pair_stats(r.playing(strategy).counts(seed, pairs, start=start, threads=threads), metric)
        for r in runners
    ]


def score(strategy: Strategy, runners: list[Runner], *args: Any) -> float:
    """The mean of :func:`pair_scores` (same arguments): what SPSA climbs."""
    values = [ps.score.value for ps in pair_scores(strategy, runners, *args)]
    return sum(values) / len(values)


def check(
    strategies: dict[str, Strategy],
    runners: list[Runner],
    seed: int,
    start: int,
    pairs: int,
    metric: str,
    threads: int | None,
) -> dict[str, Any]:
    """Each strategy against each opponent on the same fresh deals: pair scores
    with intervals, and each strategy's weakest."""
    out: dict[str, Any] = {"deals": {"start": start, "count": pairs}, "metric": metric}
    for label, s in strategies.items():
        found = pair_scores(s, runners, seed, start, pairs, metric, threads)
        rows = [
            {"opponent": r.b.name, **ps.score.to_dict()}
            for r, ps in zip(runners, found, strict=True)
        ]
        low = min(rows, key=lambda r: r["value"])
        out[label] = {"strategy": s.name, "pairs": rows, "weakest": low}
    return out


def check_params(params: list[Param]) -> None:
    """Raise :class:`InputError` (naming ``params``) unless there is something to tune
    and no parameter is given twice."""
    if not params:
        raise InputError("nothing to tune: give at least one NAME=LOW:HIGH", "params")
    if len({p.label for p in params}) != len(params):
        dup = next(p.label for p in params if [q.label for q in params].count(p.label) > 1)
        raise InputError(f"{dup} is given twice", "params")


def spsa(
    strategy: Strategy,
    params: list[Param],
    opponents: list[Strategy],
    cfg: TuneConfig,
    *,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Tune ``params`` of ``strategy`` against ``opponents``; the run's record.

    ``progress`` is told of each iteration (its record, with the current
    estimate). The first Ctrl-C stops after the iteration in flight: the
    record then holds the estimate reached and is marked partial. With
    ``cfg.check`` deals, the tuned and the starting values then play every
    opponent on deals after the last one the tuning used.
    """
    check_params(params)
    runners = [Runner(strategy, opp) for opp in opponents]
    u = np.array([p.unit(p.start) for p in params])
    deltas = signs(cfg.seed, cfg.iterations, len(params))
    history: list[dict[str, Any]] = []
    try:
        with graceful_interrupt() as flag, suppress(Abandoned):  # the iteration in flight goes
            for k in range(cfg.iterations):
                ck, ak = cfg.c_k(k), cfg.a_k(k)
                d = deltas[k]
                plus = with_values(strategy, params, values_at(params, u + ck * d))
                minus = with_values(strategy, params, values_at(params, u - ck * d))
                args = (runners, cfg.seed, k * cfg.pairs, cfg.pairs, cfg.metric, cfg.threads)
                y_plus = score(plus, *args)
                y_minus = score(minus, *args)
                u = np.clip(u + ak * (y_plus - y_minus) / (2 * ck) * d, 0.0, 1.0)
                rec = {
                    "iteration": k + 1,
                    "c_k": ck,
                    "a_k": ak,
                    "plus": y_plus,
                    "minus": y_minus,
                    "values": values_at(params, u),
                }
                history.append(rec)
                if progress:
                    progress(rec)
                if flag.stop:
                    break
    except StoppedError as exc:  # a bot fault: the estimate of the iterations finished
        exc.partial = _record(strategy, params, opponents, cfg, u, history)
        raise
    out = _record(strategy, params, opponents, cfg, u, history)
    if cfg.check and not out["partial"]:
        tuned = with_values(strategy, params, values_at(params, u))
        start_s = with_values(strategy, params, [p.start for p in params])
        out["check"] = check(
            {"tuned": tuned, "start": start_s},
            runners,
            cfg.seed,
            cfg.iterations * cfg.pairs,
            cfg.check,
            cfg.metric,
            cfg.threads,
        )
    return out


def _record(
    strategy: Strategy,
    params: list[Param],
    opponents: list[Strategy],
    cfg: TuneConfig,
    u: np.ndarray,
    history: list[dict[str, Any]],
) -> dict[str, Any]:
    """The run's record at estimate ``u`` after the iterations of ``history``."""
    tuned = with_values(strategy, params, values_at(params, u))
    start_s = with_values(strategy, params, [p.start for p in params])
    return {
        "bot": strategy.name,
        "tuned": tuned.name,
        "start": start_s.name,
        "params": [
            {
                "name": p.label,
                "low": p.low,
                "high": p.high,
                "whole": p.whole,
                "start": p.start,
                "tuned": p.value(x),
            }
            for p, x in zip(params, u, strict=True)
        ],
        "against": [o.name for o in opponents],
        "seed": cfg.seed,
        "iterations": cfg.iterations,
        "done": len(history),
        "pairs": cfg.pairs,
        "metric": cfg.metric,
        "c": cfg.c,
        "rate": cfg.rate,
        "alpha": ALPHA,
        "gamma": GAMMA,
        "partial": len(history) < cfg.iterations,
        "history": history,
        "strategies": {"tuned": tuned.to_dict(), "start": start_s.to_dict()},
    }


def format_tune(d: dict[str, Any]) -> str:
    """A tuning run's result as text: tuned values, the spec, and the fresh-deal check."""
    w = max([9, *(len(p["name"]) for p in d["params"])])
    lines = [
        f"SPSA on {d['bot']} against {', '.join(d['against'])}: {d['done']} of "
        f"{d['iterations']} iterations x {d['pairs']:,} deals x 2, seed {d['seed']}, "
        f"metric {d['metric']}" + (" (stopped early)" if d["partial"] else ""),
        "",
        f"{'parameter':<{w}}  {'range':<16}  {'start':>10}  {'tuned':>10}",
    ]
    for p in d["params"]:
        rng = f"{p['low']:g}..{p['high']:g}" + (" whole" if p["whole"] else "")
        lines.append(f"{p['name']:<{w}}  {rng:<16}  {p['start']:>10.4g}  {p['tuned']:>10.4g}")
    lines += ["", f"tuned: {d['tuned']}"]
    chk = d.get("check")
    if chk:
        lines += [
            "",
            f"on {chk['deals']['count']:,} fresh deals (from deal {chk['deals']['start']:,}), "
            f"pair score on {chk['metric']}:",
        ]
        opps = [r["opponent"] for r in chk["tuned"]["pairs"]]
        ow = max([8, *(len(o) for o in opps)])
        lines.append(f"{'opponent':<{ow}}  {'tuned':<26}  {'start':<26}")
        for i, o in enumerate(opps):
            t, s = chk["tuned"]["pairs"][i], chk["start"]["pairs"][i]
            lines.append(f"{o:<{ow}}  {estimate_text(t):<26}  {estimate_text(s):<26}")
        lines.append(
            f"{'weakest':<{ow}}  {estimate_text(chk['tuned']['weakest']):<26}  "
            f"{estimate_text(chk['start']['weakest']):<26}"
        )
    return "\n".join(lines)
