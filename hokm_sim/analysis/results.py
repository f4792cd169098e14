"""What the public API returns: one result type per kind of work, all alike.

Every result has the same protocol:

- ``to_dict()``: the JSON-ready record, with its ``kind``, the ``command``
  that reproduces it and the ``version`` that made it (what ``summary.json``
  holds, for work that writes a report folder);
- ``to_frame()``: a pandas view of its main table;
- ``headline``: one line saying what was played and what came out, which is
  also its ``repr``; in a notebook it shows as the headline above the table
  (``_repr_html_``);
- ``folder``: the report folder it was written to, or None;
- ``command``: the ``hokm-sim`` command that reproduces it.

:func:`from_dict` rebuilds any of them from a record, so a report folder
reads back as the object that wrote it. A run's :class:`~.summary.Summary`
and an analysis (:class:`hokm_sim.dd.analyse.Analysis`) follow the same
protocol through :class:`Shown`.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar


def estimate_text(d: dict[str, Any] | None, fmt: str = "{:.4f}") -> str:
    """An estimate record as ``value [low, high]`` (``n/a`` when it has no value)."""
    if not d or d.get("value") is None:
        return "n/a"
    if d.get("low") is None:
        return fmt.format(d["value"])
    return f"{fmt.format(d['value'])} [{fmt.format(d['low'])}, {fmt.format(d['high'])}]"


def estimate_columns(row: dict[str, Any], key: str, e: dict[str, Any] | None) -> None:
    """``row[key]``, ``row[key_low]``, ``row[key_high]`` from an estimate record."""
    e = e or {}
    row[key] = e.get("value")
    row[key + "_low"] = e.get("low")
    row[key + "_high"] = e.get("high")


class Shown:
    """How a result shows itself: its headline as ``repr``, and in a notebook the
    headline above its table. Subclasses give ``headline`` and ``to_frame``."""

    folder: Path | None = None
    """The report folder the result was written to (None without ``out``)."""

    @property
    def headline(self) -> str:
        """One line: what was played and what came out."""
        raise NotImplementedError

    def to_frame(self):
        """The main table as a pandas DataFrame."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.headline}>"

    def _repr_html_(self) -> str:
        head = f"<p><b>{type(self).__name__}</b>: {html.escape(self.headline)}</p>"
        return head + self.to_frame()._repr_html_()


class Result(Shown):
    """A finished piece of work: its record (``data``), a table view and a headline."""

    kind: ClassVar[str] = ""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.folder = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready record (what ``summary.json`` holds)."""
        return {"kind": self.kind, **self.data}

    @property
    def command(self) -> str | None:
        """The ``hokm-sim`` command that reproduces the result."""
        return self.data.get("command")


class TournamentResult(Result):
    """Every pairing in duplicate: crosstable, LOS, Bradley-Terry ratings, pairwise tests."""

    kind = "tournament"

    def to_frame(self):
        """One row per strategy, best first: rank, Elo and its interval."""
        import pandas as pd

        return pd.DataFrame(self.data["ratings"]).set_index("name")

    def crosstable(self, what: str = "value"):
        """Pair score of each row strategy against each column strategy (a DataFrame);
        ``what`` is ``"value"``, ``"low"`` or ``"high"`` (the 95% interval) or ``"n"``."""
        import pandas as pd

        names = self.data["names"]
        cells = [[None if c is None else c[what] for c in row] for row in self.data["crosstable"]]
        return pd.DataFrame(cells, index=names, columns=names, dtype=float)

    def los(self):
        """Likelihood of superiority of each row strategy over each column (a DataFrame)."""
        import pandas as pd

        names = self.data["names"]
        return pd.DataFrame(self.data["los"], index=names, columns=names, dtype=float)

    def tests(self):
        """The pairwise tests (a DataFrame): p-value, Holm-adjusted p-value, significant."""
        import pandas as pd

        cols = ["a", "b", "p_value", "p_holm", "significant"]
        return pd.DataFrame(self.data["tests"], columns=cols)

    @property
    def headline(self) -> str:
        top = self.data["ratings"][0]
        return (
            f"{len(self.data['names'])} strategies, {self.data['deals']:,} deals per pairing, "
            f"seed {self.data['seed']}; first {top['name']} ({top['elo']:+.1f} Elo)"
        )


class RegressResult(Result):
    """A sequential test of a candidate against its baseline, and its verdict."""

    kind = "regress"

    @property
    def exit_code(self) -> int:
        """0 no regression, 1 regression, 3 inconclusive."""
        return int(self.data["exit_code"])

    def to_frame(self):
        """One row: verdict, LLR, pairs and the raw estimates."""
        import pandas as pd

        cfg = self.data.get("config", {})
        row: dict[str, Any] = {
            "candidate": cfg.get("candidate"),
            "baseline": cfg.get("baseline"),
            "verdict": self.data["verdict"],
            "llr": self.data["llr"],
            "pairs": self.data["pairs"],
        }
        raw = self.data.get("raw", {})
        for key in ("score", "elo", "nelo"):
            estimate_columns(row, key, raw.get(key))
        return pd.DataFrame([row]).set_index("candidate")

    @property
    def headline(self) -> str:
        cfg = self.data.get("config", {})
        return (
            f"{cfg.get('candidate')} against {cfg.get('baseline')}: {self.data['verdict']} "
            f"(LLR {self.data['llr']:.3f}, {self.data['pairs']:,} pairs, seed {cfg.get('seed')})"
        )


class SprtResult(Result):
    """The sequential test on pair counts gathered elsewhere: LLR and verdict."""

    kind = "sprt"

    @property
    def exit_code(self) -> int:
        """0 no regression, 1 regression, 3 undecided."""
        return int(self.data["exit_code"])

    def to_frame(self):
        """One row: metric, verdict, LLR (exact and approximate), bounds, pairs, Elo."""
        import pandas as pd

        d = self.data
        row: dict[str, Any] = {
            "metric": d["metric"],
            "verdict": d["verdict"],
            "llr": d["llr"],
            "llr_approx": d["llr_approx"],
            "lower_bound": d["bounds"][0],
            "upper_bound": d["bounds"][1],
            "pairs": d["pairs"],
        }
        estimate_columns(row, "elo", d["elo"])
        return pd.DataFrame([row]).set_index("metric")

    @property
    def headline(self) -> str:
        d = self.data
        lo, hi = d["bounds"]
        elo = "n/a" if d["elo"]["value"] is None else f"{d['elo']['value']:+.1f}"
        return (
            f"{d['verdict'].upper()}: LLR {d['llr']:.4f} (approximation {d['llr_approx']:.4f}), "
            f"bounds ({lo:.3f}, {hi:.3f}), {d['pairs']:,} pairs, Elo {elo}"
        )


class CalibrationResult(Result):
    """A strategy against itself on fresh seeds: the false-alarm rate of regress."""

    kind = "calibration"

    def to_frame(self):
        """One row: runs, verdict counts and the false-alarm rate."""
        import pandas as pd

        row = {
            k: v
            for k, v in self.data.items()
            if not isinstance(v, dict) and k not in ("command", "version")
        }
        estimate_columns(row, "false_alarm_rate", self.data["false_alarm_rate"])
        return pd.DataFrame([row]).set_index("strategy")

    @property
    def headline(self) -> str:
        d = self.data
        return (
            f"{d['strategy']} against itself, {d['runs']} runs: {d['false_regressions']} false "
            f"'regression' verdicts, rate {estimate_text(d['false_alarm_rate'], '{:.3f}')}"
        )


class HistoryResult(Result):
    """A bot's strength across its versions (:mod:`hokm_sim.analysis.history`)."""

    kind = "history"

    def to_frame(self):
        """One row per version of the bot, oldest first, then one per opponent: Elo
        relative to the oldest version with its interval, pairs, regress verdicts."""
        import pandas as pd

        rows = []
        for is_bot, key in ((True, "versions"), (False, "opponents")):
            for e in self.data[key]:
                row = {"name": e["name"], "version": e["version"], "bot": is_bot,
                       "first_seen": e["first_seen"], "pairs": e["pairs"]}  # fmt: skip
                estimate_columns(row, "elo", e["elo"])
                row["verdicts"] = ", ".join(f"{k} {v}" for k, v in e.get("verdicts", {}).items())
                row["digest"] = e["digest"]
                rows.append(row)
        return pd.DataFrame(rows)

    @property
    def headline(self) -> str:
        d = self.data
        last = d["versions"][-1]
        where = (
            f"at {estimate_text(last['elo'], '{:+.1f}')} Elo against {d['anchor']}"
            if last["elo"]["value"] is not None
            else f"unrated: no comparison joins it to {d['anchor']}"
        )
        n, c = len(d["versions"]), d["comparisons"]
        return (
            f"{d['bot']}: {n} version{'s' if n != 1 else ''} over {c} stored "
            f"comparison{'s' if c != 1 else ''}; newest {last['version']} {where}"
        )


class TrumpStudyResult(Result):
    """Every deal played with each trump, and each heuristic's call judged."""

    kind = "trump-study"

    def to_frame(self):
        """One row per heuristic: best-call rate, regret, hand win, Kot, points."""
        import pandas as pd

        rows = []
        for name, h in self.data["heuristics"].items():
            row: dict[str, Any] = {"heuristic": name}
            for key, val in h.items():
                if isinstance(val, dict) and "value" in val:
                    estimate_columns(row, key, val)
            rows.append(row)
        return pd.DataFrame(rows).set_index("heuristic")

    @property
    def headline(self) -> str:
        return (
            f"{self.data['deals']:,} deals, {self.data['player']} in every seat, "
            f"seed {self.data['seed']}, heuristics {', '.join(self.data['heuristics'])}"
        )


class DDStudyResult(Result):
    """Trump calls judged by the double-dummy solver: can the Hakem's team force 7?"""

    kind = "dd-study"

    def to_frame(self):
        """One row per heuristic (and the perfect call): forcing rate and loss."""
        import pandas as pd

        perfect: dict[str, Any] = {"call": "perfect"}
        estimate_columns(perfect, "forces_7", self.data["perfect"])
        rows = [perfect]
        for name, h in self.data["heuristics"].items():
            row: dict[str, Any] = {"call": name}
            for key, val in h.items():
                estimate_columns(row, key, val)
            rows.append(row)
        return pd.DataFrame(rows).set_index("call")

    @property
    def headline(self) -> str:
        return (
            f"{self.data['deals']:,} deals, seed {self.data['seed']}: perfect call forces 7 "
            f"at {estimate_text(self.data['perfect'])}"
        )


class ExperimentResult(Result):
    """An experiment file's runs (or its tournament), in one record."""

    kind = "experiment"

    def runs(self) -> list:
        """The runs' summaries (empty for a tournament experiment)."""
        from hokm_sim.analysis.summary import Summary

        return [Summary.from_dict(r) for r in self.data.get("runs") or []]

    def tournament(self) -> TournamentResult | None:
        """The tournament of a tournament experiment (None for runs)."""
        t = self.data.get("tournament")
        return TournamentResult(t) if t else None

    def to_frame(self):
        """One row per run (A, B, pair score, Elo), or the tournament's ratings."""
        import pandas as pd

        tour = self.tournament()
        if tour is not None:
            return tour.to_frame()
        rows = []
        for r in self.data.get("runs") or []:
            row: dict[str, Any] = {"a": r["a"]["name"], "b": r["b"]["name"]}
            for key in ("pair_score", "elo", "nelo"):
                estimate_columns(row, key, r.get(key))
            rows.append(row)
        return pd.DataFrame(rows)

    @property
    def headline(self) -> str:
        exp = self.data.get("experiment", {})
        what = (
            "a tournament"
            if self.data.get("tournament")
            else f"{len(self.data.get('runs') or [])} runs"
        )
        return f"{exp.get('name', 'experiment')}: {what}"


class TraceResult(Result):
    """Every card of seeded hands, one record per hand (``hokm-sim trace``).

    The records are played when they are read (:meth:`records`, :meth:`lines`),
    a block of hands at a time, so a trace of any length fits in memory; a bot
    fault is raised where its hand is reached. ``to_dict()`` holds them all.
    """

    kind = "trace"

    def __init__(
        self, data: dict[str, Any], play: Callable[[], Iterator[dict]] | None = None
    ) -> None:
        super().__init__(data)
        self._play = play

    def records(self) -> Iterator[dict]:
        """The record of each hand, in order (fields in ``hokm-sim trace --help``)."""
        if self._play is not None:
            yield from self._play()
        else:
            yield from self.data.get("records", [])

    def lines(self) -> Iterator[str]:
        """Each record as one line of JSON."""
        for rec in self.records():
            yield json.dumps(rec)

    def to_dict(self) -> dict[str, Any]:
        """The configuration, the command, and every hand's record (``records``)."""
        return {"kind": self.kind, **self.data, "records": list(self.records())}

    def to_frame(self):
        """One row per hand: seed, match, hand, Hakem, trump, tricks, winner, points, kind."""
        import pandas as pd

        keys = ("seed", "match", "hand", "hakem", "dealer", "trump")
        rows = []
        for rec in self.records():
            row = {k: rec[k] for k in keys}
            row["tricks_team0"], row["tricks_team1"] = rec["tricks_won"]
            row |= {k: rec[k] for k in ("winner_team", "points", "kind")}
            if "scores" in rec:
                row["score_team0"], row["score_team1"] = rec["scores"]
            rows.append(row)
        return pd.DataFrame(rows)

    @property
    def headline(self) -> str:
        d = self.data
        size = f"{d['matches']:,} matches" if d.get("matches") else f"{d['hands']:,} hands"
        return f"{d['a']} (team 0) vs {d['b']} (team 1), seed {d['seed']}: {size}"


class HandResult(Result):
    """One hand, card by card (``hokm-sim show``): its record, text and any fault.

    ``fault`` is the :class:`~hokm_sim.sim.runner.StrategyFault` of a hand a
    bot stopped (the record then ends at the faulty card), else None.
    """

    kind = "hand"

    def __init__(self, data: dict[str, Any], fault: Exception | None = None) -> None:
        super().__init__(data)
        self.fault = fault

    @property
    def record(self) -> dict[str, Any]:
        """The hand's record, as ``hokm-sim trace`` writes it."""
        return self.data["record"]

    @property
    def text(self) -> str:
        """The hand for people: the four hands, trump, every trick, the result."""
        from hokm_sim.sim.trace import format_record

        return format_record(self.record, tuple(self.data["teams"]))

    def to_frame(self):
        """One row per trick: leader, the four cards (by seat), the winner."""
        import pandas as pd

        rows = []
        for t, tr in enumerate(self.record["tricks"], 1):
            row: dict[str, Any] = {"trick": t, "leader": tr["leader"]}
            for i, card in enumerate(tr["cards"]):
                row[f"seat{(tr['leader'] + i) % 4}"] = card
            row["winner"] = tr["winner"]
            rows.append(row)
        cols = ["trick", "leader", "seat0", "seat1", "seat2", "seat3", "winner"]
        return pd.DataFrame(rows, columns=cols).set_index("trick")

    @property
    def headline(self) -> str:
        r = self.record
        where = f"match {r['match']} hand {r['hand']}" if "target" in r else f"hand {r['hand']}"
        head = f"seed {r['seed']} {where}, trump {r['trump']}"
        if "fault" in r:
            return f"{head}: stopped by a bot fault at trick {r['fault']['trick'] + 1}"
        team = r["winner_team"]
        return (
            f"{head}: team {team} ({self.data['teams'][team]}) wins {r['points']} "
            f"({r['kind']}), tricks {r['tricks_won'][0]}-{r['tricks_won'][1]}"
        )


class BenchResult(Result):
    """Hands per second of a strategy pair after compilation (``hokm-sim bench``)."""

    kind = "bench"

    def to_frame(self):
        """One row: the pair, threads, hands, best and median rate, warm-up time."""
        import pandas as pd

        keys = ("a", "b", "threads", "hands", "hands_per_sec", "median_hands_per_sec")
        row = {k: self.data[k] for k in keys} | {"warmup_seconds": self.data["warmup_seconds"]}
        return pd.DataFrame([row])

    @property
    def headline(self) -> str:
        d = self.data
        runs = f"best of {len(d['runs'])} runs" if len(d["runs"]) > 1 else "1 run"
        median = f", median {d['median_hands_per_sec']:,.0f}" if len(d["runs"]) > 2 else ""
        return (
            f"{d['a']} vs {d['b']}: {d['hands_per_sec']:,.0f} hands/s on {d['threads']} "
            f"thread(s), {runs} of {d['hands']:,} hands{median} "
            f"(ready after {d['warmup_seconds']:.1f} s)"
        )


class DDResult(Result):
    """Deals solved double dummy (``hokm-sim dd``): one answer per deal, in order."""

    kind = "dd"

    @property
    def answers(self) -> list[dict[str, Any]]:
        """Each deal's answer: ``tricks``, ``reach7`` and, for whole deals, ``kot``,
        ``hakem_kot``."""
        return self.data["answers"]

    def lines(self) -> Iterator[str]:
        """Each answer as one line of JSON."""
        for a in self.answers:
            yield json.dumps(a)

    def to_frame(self):
        """One row per deal: tricks of each team, reach 7, Kot, Hakem Kot."""
        import pandas as pd

        rows = [
            {
                "tricks_team0": a["tricks"][0],
                "tricks_team1": a["tricks"][1],
                "reach7": a["reach7"],
                "kot": a.get("kot"),
                "hakem_kot": a.get("hakem_kot"),
            }
            for a in self.answers
        ]
        cols = ["tricks_team0", "tricks_team1", "reach7", "kot", "hakem_kot"]
        return pd.DataFrame(rows, columns=cols)

    @property
    def headline(self) -> str:
        n = len(self.answers)
        reach = sum(a["reach7"] for a in self.answers)
        return f"{n:,} deals solved double dummy; the leader's team reaches 7 in {reach:,}"


class StrategiesResult(Result):
    """The built-in strategies (``hokm-sim strategies``): name, description, parameters."""

    kind = "strategies"

    def to_frame(self):
        """One row per strategy: its description and its parameters' defaults."""
        import pandas as pd

        return pd.DataFrame(self.data["strategies"]).set_index("name")

    @property
    def headline(self) -> str:
        names = [s["name"] for s in self.data["strategies"]]
        return f"{len(names)} built-in strategies: {', '.join(names)}"


class FieldResult(Result):
    """A candidate against every bot of a field in duplicate: each pair score with its
    95% interval, and the weakest of them (``hokm-sim field``)."""

    kind = "field"

    @property
    def weakest(self) -> dict[str, Any] | None:
        """The weakest pairing: ``opponent`` and its score (``value``, ``low``, ``high``)."""
        return self.data["weakest"]

    def to_frame(self):
        """One row per opponent: the pair scores with their intervals, points, Elo."""
        import pandas as pd

        rows = []
        for p in self.data["pairs"]:
            row: dict[str, Any] = {"opponent": p["opponent"], "pairs": p["pairs"]}
            for key in ("wins", "points", "matches", "points_per_hand", "elo"):
                if key in p:
                    estimate_columns(row, key, p[key])
            rows.append(row)
        return pd.DataFrame(rows, columns=None if rows else ["opponent", "pairs"]).set_index(
            "opponent"
        )

    @property
    def headline(self) -> str:
        d = self.data
        low = d["weakest"]
        worst = f"weakest {low['opponent']} at {estimate_text(low)}" if low else "nothing played"
        part = ", partial" if d["partial"] else ""
        return (
            f"{d['candidate']} against {len(d['members'])} bots, {d['size']:,} "
            f"{'matches' if d['mode'] == 'matches' else 'deals'} each, seed {d['seed']}: "
            f"{worst} ({d['metric']}{part})"
        )


class TuneResult(Result):
    """A bot's parameters tuned by SPSA on duplicate pairs (``hokm-sim tune``)."""

    kind = "tune"

    @property
    def tuned(self) -> str:
        """The strategy spec with the tuned values."""
        return self.data["tuned"]

    def to_frame(self):
        """One row per parameter: its range, whether whole, start and tuned value."""
        import pandas as pd

        return pd.DataFrame(self.data["params"]).set_index("name")

    def history(self):
        """One row per iteration: perturbation, gain, the two sides' scores, the values."""
        import pandas as pd

        names = [p["name"] for p in self.data["params"]]
        rows = [
            {k: h[k] for k in ("iteration", "c_k", "a_k", "plus", "minus")}
            | dict(zip(names, h["values"], strict=True))
            for h in self.data["history"]
        ]
        return pd.DataFrame(rows, columns=["iteration", "c_k", "a_k", "plus", "minus", *names])

    @property
    def headline(self) -> str:
        d = self.data
        part = " (stopped early)" if d["partial"] else ""
        return (
            f"SPSA on {d['bot']}, {d['done']} of {d['iterations']} iterations, seed "
            f"{d['seed']}{part}: {d['tuned']}"
        )


KINDS: dict[str, type[Result]] = {
    cls.kind: cls
    for cls in (
        TournamentResult,
        RegressResult,
        HistoryResult,
        SprtResult,
        CalibrationResult,
        TrumpStudyResult,
        DDStudyResult,
        ExperimentResult,
        TraceResult,
        HandResult,
        BenchResult,
        DDResult,
        StrategiesResult,
        FieldResult,
        TuneResult,
    )
}
"""Every kind of result but a run's and an analysis's, by its ``kind``."""


def from_dict(data: dict[str, Any]) -> Result | Shown:
    """The result object of a record (``summary.json``), whichever kind wrote it.

    Records without a ``kind`` field are recognised by their keys.
    """
    from hokm_sim.analysis.summary import Summary

    kind = data.get("kind") or _guess_kind(data)
    body = {k: v for k, v in data.items() if k != "kind"}
    if kind == "run":
        return Summary.from_dict(body)
    if kind not in KINDS:
        raise ValueError(f"unknown kind of result {kind!r}; known: run, {', '.join(KINDS)}")
    return KINDS[kind](body)


def _guess_kind(data: dict[str, Any]) -> str:
    if "pair_score" in data and "counts" in data:
        return "run"
    if "ratings" in data and "crosstable" in data:
        return "tournament"
    if "llr" in data and "verdict" in data:
        return "regress"
    if "false_alarm_rate" in data:
        return "calibration"
    if "ace_vs_length" in data:
        return "trump-study"
    if "perfect" in data and "solver" in data:
        return "dd-study"
    if "experiment" in data:
        return "experiment"
    return "unknown"
