"""What the public API returns: one result type per kind of work, all alike.

Each result holds the JSON-ready record that ``summary.json`` stores
(``to_dict()``), a pandas view of its main table (``to_frame()``) and a
one-line ``repr``. :func:`from_dict` rebuilds any of them from a record, so a
report folder reads back as the object that wrote it.
"""

from __future__ import annotations

from typing import Any, ClassVar


def estimate_text(d: dict[str, Any] | None, fmt: str = "{:.4f}") -> str:
    """An estimate record as ``value [low, high]`` (``n/a`` when it has no value)."""
    if not d or d.get("value") is None:
        return "n/a"
    if d.get("low") is None:
        return fmt.format(d["value"])
    return f"{fmt.format(d['value'])} [{fmt.format(d['low'])}, {fmt.format(d['high'])}]"


def _estimate_columns(row: dict[str, Any], key: str, e: dict[str, Any] | None) -> None:
    e = e or {}
    row[key] = e.get("value")
    row[key + "_low"] = e.get("low")
    row[key + "_high"] = e.get("high")


class Result:
    """A finished piece of work: its record, a table view and a one-line repr."""

    kind: ClassVar[str] = ""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready record (what ``summary.json`` holds)."""
        return {"kind": self.kind, **self.data}

    def to_frame(self):
        """The result's main table as a pandas DataFrame."""
        raise NotImplementedError

    def headline(self) -> str:
        """One line: what was played and what came out."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.headline()}>"


class TournamentResult(Result):
    """Every pairing in duplicate: crosstable, LOS, Bradley-Terry ratings."""

    kind = "tournament"

    def to_frame(self):
        """One row per strategy, best first: rank, Elo and its interval."""
        import pandas as pd

        return pd.DataFrame(self.data["ratings"]).set_index("name")

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
            _estimate_columns(row, key, raw.get(key))
        return pd.DataFrame([row]).set_index("candidate")

    def headline(self) -> str:
        cfg = self.data.get("config", {})
        return (
            f"{cfg.get('candidate')} against {cfg.get('baseline')}: {self.data['verdict']} "
            f"(LLR {self.data['llr']:.3f}, {self.data['pairs']:,} pairs, seed {cfg.get('seed')})"
        )


class CalibrationResult(Result):
    """A strategy against itself on fresh seeds: the false-alarm rate of regress."""

    kind = "calibration"

    def to_frame(self):
        """One row: runs, verdict counts and the false-alarm rate."""
        import pandas as pd

        row = {k: v for k, v in self.data.items() if not isinstance(v, dict)}
        _estimate_columns(row, "false_alarm_rate", self.data["false_alarm_rate"])
        return pd.DataFrame([row]).set_index("strategy")

    def headline(self) -> str:
        d = self.data
        return (
            f"{d['strategy']} against itself, {d['runs']} runs: {d['false_regressions']} false "
            f"'regression' verdicts, rate {estimate_text(d['false_alarm_rate'], '{:.3f}')}"
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
                    _estimate_columns(row, key, val)
            rows.append(row)
        return pd.DataFrame(rows).set_index("heuristic")

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

        rows = [{"call": "perfect", **_flat("forces_7", self.data["perfect"])}]
        for name, h in self.data["heuristics"].items():
            row: dict[str, Any] = {"call": name}
            for key, val in h.items():
                _estimate_columns(row, key, val)
            rows.append(row)
        return pd.DataFrame(rows).set_index("call")

    def headline(self) -> str:
        return (
            f"{self.data['deals']:,} deals, seed {self.data['seed']}: perfect call forces 7 "
            f"at {estimate_text(self.data['perfect'])}"
        )


def _flat(key: str, e: dict[str, Any]) -> dict[str, Any]:
    row: dict[str, Any] = {}
    _estimate_columns(row, key, e)
    return row


class ExperimentResult(Result):
    """An experiment file's runs (or its tournament), in one record."""

    kind = "experiment"

    def runs(self) -> list:
        """The runs' summaries (empty for a tournament experiment)."""
        from hokm_sim.analysis.summary import Summary

        return [Summary.from_dict(r) for r in self.data.get("runs") or []]

    def to_frame(self):
        """One row per run (A, B, pair score, Elo), or the tournament's ratings."""
        import pandas as pd

        if self.data.get("tournament"):
            return TournamentResult(self.data["tournament"]).to_frame()
        rows = []
        for r in self.data.get("runs") or []:
            row: dict[str, Any] = {"a": r["a"]["name"], "b": r["b"]["name"]}
            for key in ("pair_score", "elo", "nelo"):
                _estimate_columns(row, key, r.get(key))
            rows.append(row)
        return pd.DataFrame(rows)

    def headline(self) -> str:
        exp = self.data.get("experiment", {})
        what = (
            "a tournament"
            if self.data.get("tournament")
            else f"{len(self.data.get('runs') or [])} runs"
        )
        return f"{exp.get('name', 'experiment')}: {what}"


class FieldResult(Result):
    """A candidate against every bot of a field: each pair score and the weakest."""

    kind = "field"

    def to_frame(self):
        """One row per opponent: the pair scores with their intervals, points, Elo."""
        import pandas as pd

        rows = []
        for p in self.data["pairs"]:
            row: dict[str, Any] = {"opponent": p["opponent"], "pairs": p["pairs"]}
            for key in ("wins", "points", "matches", "points_per_hand", "elo"):
                if key in p:
                    _estimate_columns(row, key, p[key])
            rows.append(row)
        return pd.DataFrame(rows).set_index("opponent")

    def headline(self) -> str:
        low = self.data["weakest"]
        worst = f"weakest {low['opponent']} at {estimate_text(low)}" if low else "nothing played"
        return (
            f"{self.data['candidate']} against {len(self.data['members'])} bots, "
            f"seed {self.data['seed']}: {worst} ({self.data['metric']})"
        )


def from_dict(data: dict[str, Any]) -> Result:
    """The result object of a record (``summary.json``), whichever kind wrote it.

    Records without a ``kind`` field are recognised by their keys.
    """
    from hokm_sim.analysis.summary import Summary

    kinds: dict[str, Any] = {
        cls.kind: cls
        for cls in (
            TournamentResult,
            RegressResult,
            CalibrationResult,
            TrumpStudyResult,
            DDStudyResult,
            ExperimentResult,
            FieldResult,
        )
    }
    kind = data.get("kind") or _guess_kind(data)
    body = {k: v for k, v in data.items() if k != "kind"}
    if kind == "run":
        return Summary.from_dict(body)
    if kind not in kinds:
        raise ValueError(f"unknown kind of result {kind!r}; known: run, {', '.join(kinds)}")
    return kinds[kind](body)


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
