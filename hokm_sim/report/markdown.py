"""Reports of a run: the terminal table and ``report.md``.

Every report says whose point of view its numbers take (A's), the exact
command and version that reproduce it, and whether it is partial.
"""

from __future__ import annotations

import json
from typing import Any

from hokm_sim.analysis.summary import Summary
from hokm_sim.version import __version__

ROWS = (
    ("hand_win_rate", "hand win rate"),
    ("hakem_win_rate", "  as Hakem (keeps the role)"),
    ("defender_win_rate", "  as defender"),
    ("kot_rate", "Kot made as Hakem"),
    ("kot_conceded_rate", "Kot conceded defending"),
    ("hakem_kot_rate", "Hakem Kot inflicted"),
    ("hakem_kot_suffered_rate", "Hakem Kot suffered"),
    ("points_per_hand", "points per hand"),
    ("match_win_rate", "match win rate"),
)


def cell(e: dict[str, Any] | None, signed: bool = False, digits: int = 4) -> str:
    """``value [low, high]``, or a note when the number cannot be estimated."""
    if not e or e.get("value") is None:
        return "n/a (none seen)" if e and e.get("n") else "n/a"
    fmt = f"{{:+.{digits}f}}" if signed else f"{{:.{digits}f}}"
    if e.get("low") is None:
        return fmt.format(e["value"]) + " (no interval)"
    if e.get("count") == 0 and e["value"] == 0:
        return f"0 seen in {e['n']:,} [{fmt.format(e['low'])}, {fmt.format(e['high'])}]"
    return f"{fmt.format(e['value'])} [{fmt.format(e['low'])}, {fmt.format(e['high'])}]"


P_FLOOR = 1e-300
"""Below this a p-value is printed as a bound: a float underflows to 0 long before a
probability is 0, and ``p = 0`` would claim certainty."""


def p_text(p: float | None) -> str:
    """A p-value for a report: ``p = 0.0123``, ``p < 1e-300`` for one that underflowed,
    or ``p = n/a``."""
    if p is None or p != p:  # None or NaN
        return "p = n/a"
    if p < P_FLOOR:
        return f"p < {P_FLOOR:.0e}"
    return f"p = {p:.3g}"


def verdict(data: dict[str, Any]) -> str:
    """One line: who is better and by how much, or that the run cannot tell."""
    a, b = data["a"]["name"], data["b"]["name"]
    ps, elo, nelo = data["pair_score"], data["elo"], data["nelo"]
    if ps.get("value") is None:
        return "no result: nothing was played"
    if data.get("match_pairs"):
        unit = "match pair score"
    elif data.get("pairs"):
        unit = "pair score"
    elif data.get("config", {}).get("mode") == "matches":
        unit = "match score"  # the match-win rate, scored per match
    else:
        unit = "hand score"
    if ps.get("low") is None:
        return (
            f"{unit} {ps['value']:.4f}; too few samples (or no variance) for an interval on "
            "the score and a verdict"
        )
    if ps["low"] > 0.5:
        head = f"{a} (A) is better than {b} (B)"
    elif ps["high"] < 0.5:
        head = f"{b} (B) is better than {a} (A)"
    else:
        head = f"no clear difference between {a} and {b}"
    elo_txt = f"Elo {elo['value']:+.1f} [{elo['low']:+.1f}, {elo['high']:+.1f}]"
    nelo_txt = ""
    if nelo.get("value") is not None:
        nelo_txt = f", nElo {nelo['value']:+.1f} [{nelo['low']:+.1f}, {nelo['high']:+.1f}]"
    los = data.get("los")
    los_txt = f", LOS {100 * los:.1f}%" if los is not None else ""
    return (
        f"{head}: {unit} {ps['value']:.4f} [{ps['low']:.4f}, {ps['high']:.4f}], "
        f"{elo_txt}{nelo_txt}{los_txt}"
    )


def headline(data: dict[str, Any]) -> str:
    """What was played: strategies, size, duplicate or not, seed."""
    cfg = data["config"]
    a, b = data["a"]["name"], data["b"]["name"]
    dup = "in duplicate" if cfg.get("duplicate", True) else "not in duplicate"
    if cfg.get("mode") == "matches":
        size = (
            f"{data.get('matches', 0):,} matches to {cfg['target']} {dup} ({data['hands']:,} hands,"
            f" first Hakem by {cfg.get('first_hakem', 'first-ace')})"
        )
    else:
        size = f"{cfg.get('done', 0):,} deals {dup} ({data['hands']:,} hands)"
    partial = f"  [PARTIAL: {_why(data)}]" if data.get("partial") else ""
    return f"{a} (A) vs {b} (B): {size}, seed {cfg['seed']}{partial}"


def _why(data: dict[str, Any]) -> str:
    """Why partial work stopped, in a few words."""
    if data.get("fault"):
        return "stopped at a bot fault"
    if data.get("failure"):
        return "stopped when the cluster failed"
    return "interrupted"


def stopped(data: dict[str, Any], what: str) -> list[str]:
    """The lines that open the report of partial work (none for whole work): that the
    ``what`` (run, tournament ...) was interrupted, or stopped at a bot fault or a failed
    cluster, quoting its line (``fault`` or ``failure`` in the record), and covers only
    what finished before it."""
    if not data.get("partial"):
        return []
    line = data.get("fault") or data.get("failure")
    if line is None:
        note = f"**Partial report**: the {what} was interrupted; it covers only what finished."
        return [note, ""]
    return [
        f"**Partial report**: the {what} {_why(data)}; it covers only what finished before:",
        "",
        "```",
        line,
        "```",
        "",
    ]


def table(summary: Summary) -> str:
    """The terminal table: one row per statistic, A and B side by side."""
    d = summary.data
    a, b = d["a"], d["b"]
    rows = [("", f"{a['name']} (A)", f"{b['name']} (B)")]
    for key, label in ROWS:
        if key not in a:
            continue
        signed = key == "points_per_hand"
        rows.append((label, cell(a[key], signed), cell(b[key], signed)))
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    lines = [headline(d), ""]
    lines += [f"{r[0]:<{w0}}  {r[1]:<{w1}}  {r[2]}" for r in rows]
    lines.append("")
    if d.get("variance_reduction") is not None:
        lines.append(
            f"duplicate cut the variance of points by x{d['variance_reduction']:.2f} "
            f"(points per deal pair {cell(d['points_per_pair'], True)})"
        )
    if d.get("match_length", {}).get("mean_hands") is not None:
        lines.append(f"mean match length {d['match_length']['mean_hands']:.2f} hands")
    lines.append("95% intervals; every number is from A's point of view where it compares.")
    lines.append("=> " + verdict(d))
    return "\n".join(lines)


def markdown(summary: Summary, command: str) -> str:
    """``report.md``: the table, the distributions and how to reproduce the run."""
    d = summary.data
    a, b = d["a"], d["b"]
    out = [f"# {a['name']} vs {b['name']}", ""]
    out += stopped(d, "run")
    out += [headline(d), "", f"**Verdict:** {verdict(d)}", ""]
    out += [f"| statistic | {a['name']} (A) | {b['name']} (B) |", "|---|---|---|"]
    for key, label in ROWS:
        if key in a:
            signed = key == "points_per_hand"
            out.append(f"| {label.strip()} | {cell(a[key], signed)} | {cell(b[key], signed)} |")
    out.append("")
    if d.get("pairs"):
        pc = d["pair_counts"]
        out += [
            "## Duplicate pairs",
            "",
            f"- pairs: {d['pairs']:,} (both lost {pc['LL']:,}, split {pc['split']:,}, "
            f"both won {pc['WW']:,}, from A's side)",
            f"- pair score {cell(d['pair_score'])}, Elo {cell(d['elo'], True, 1)}, "
            f"nElo {cell(d['nelo'], True, 1)}, LOS {_pct(d['los'])}",
            f"- points per deal pair {cell(d['points_per_pair'], True)}; variance reduction "
            f"bought by duplicate: x{_fixed(d['variance_reduction'])}",
            f"- Hakem wins on the same deals (McNemar): A only {d['hakem_win_mcnemar']['a_only']:,}"
            f", B only {d['hakem_win_mcnemar']['b_only']:,}, "
            f"{p_text(d['hakem_win_mcnemar']['p_value'])}",
            "",
        ]
    out += [
        "## Tricks held when the hand stopped (0..7)",
        "",
        "| tricks | " + " | ".join(str(i) for i in range(8)) + " |",
        "|---" * 9 + "|",
    ]
    for side in (a, b):
        out.append(
            f"| {side['name']} | "
            + " | ".join(f"{x:,}" for x in side["tricks_distribution"])
            + " |"
        )
    out += ["", "## Hakem's trump length (of 13 cards): hands and wins", ""]
    tl = d["trump_length"]
    out += ["| length | " + " | ".join(str(i) for i in range(14)) + " |", "|---" * 15 + "|"]
    for key, side in (("a", a), ("b", b)):
        cells = [
            f"{w:,}/{h:,}" if h else "-"
            for h, w in zip(tl[key]["hands"], tl[key]["wins"], strict=True)
        ]
        out.append(f"| {side['name']} as Hakem | " + " | ".join(cells) + " |")
    if d.get("matches"):
        ml = d["match_length"]
        out += [
            "",
            "## Matches",
            "",
            f"- matches: {d['matches']:,}; mean length {ml['mean_hands']:.2f} hands",
            f"- final scores when A won (loser's score 0..): "
            f"{d['final_scores']['a_won']['loser_score']}",
            f"- final scores when B won (loser's score 0..): "
            f"{d['final_scores']['b_won']['loser_score']}",
        ]
    cfg = d["config"]
    out += [
        "",
        "## Reproduce",
        "",
        f"    {command}",
        "",
        f"hokm-sim {__version__}; seed {cfg['seed']}; threads {cfg.get('threads')} "
        "(results do not depend on the thread count).",
        "",
        f"Strategies: `{json.dumps(cfg.get('strategies', {}))}`",
        "",
    ]
    return "\n".join(out)


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def _fixed(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.2f}"
