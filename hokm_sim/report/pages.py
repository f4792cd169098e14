"""The ``report.md`` of every kind of work but a single run (see :mod:`.markdown`), and
what the commands whose report is mostly tables print of it (:func:`experiment_text`,
:func:`trump_study_text`): the same tables in aligned columns, without markdown."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from hokm_sim.analysis.experiment import Experiment
from hokm_sim.analysis.summary import Summary
from hokm_sim.analysis.tournament import format_summary as format_tournament
from hokm_sim.report.markdown import cell, headline, stopped, table
from hokm_sim.version import __version__


def tournament(s: dict[str, Any], command: str) -> str:
    """The tournament's ``report.md``: ranking, crosstable and LOS as in the terminal."""
    return (
        f"# Tournament\n\n{_stop(s, 'tournament')}```\n{format_tournament(s)}\n```\n\n"
        f"## Reproduce\n\n    {command}\n\nhokm-sim {__version__}\n"
    )


def _markdown_table(rows: Sequence[Sequence[str]]) -> list[str]:
    """``rows`` (the header first) as a markdown table."""
    head, *body = rows
    return [
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
        *("| " + " | ".join(r) + " |" for r in body),
    ]


def columns(rows: Sequence[Sequence[str]]) -> list[str]:
    """``rows`` (the header first) in aligned columns, for the terminal."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def _plain(lines: Iterable[str]) -> list[str]:
    """Markdown lines for the terminal: without code fences, emphasis and code marks."""
    return [line.replace("**", "").replace("`", "") for line in lines if line != "```"]


def _stop(data: dict[str, Any], what: str) -> str:
    """The opening lines of work stopped by a bot fault or a failed cluster (quoting its
    line); none for work interrupted by Ctrl-C, which its own table says."""
    if not (data.get("fault") or data.get("failure")):
        return ""
    return "".join(line + "\n" for line in stopped(data, what))


def regress(data: dict[str, Any], command: str) -> str:
    """The regression check's ``report.md``: the verdict line and the whole record."""
    cfg = data.get("config", {})
    return (
        f"# Regression check: {cfg.get('candidate')} against {cfg.get('baseline')}\n\n"
        f"{_stop(data, 'regression check')}"
        f"**{sprt_line(data)}**\n\n```\n{json.dumps(data, indent=1)}\n```\n\n"
        f"## Reproduce\n\n    {command}\n"
    )


def sprt_line(data: dict[str, Any]) -> str:
    """One line: the verdict, LLR and bounds, pairs, raw and stop-adjusted Elo, seed."""
    raw = data.get("raw", {})
    elo, nelo = raw.get("elo", {}), raw.get("nelo", {})

    def est(e):
        if not e or e.get("value") is None:
            return "n/a"
        if e.get("low") is None:
            return f"{e['value']:+.1f}"
        return f"{e['value']:+.1f} [{e['low']:+.1f}, {e['high']:+.1f}]"

    adj = data.get("stop_adjusted", {})
    adj_txt = (
        f", Elo at stop (bias-corrected) {adj['elo']:+.1f}" if adj.get("elo") is not None else ""
    )
    return (
        f"{data['verdict'].upper()}: LLR {data['llr']:.3f} (bounds {data['bounds'][0]:.3f}, "
        f"{data['bounds'][1]:.3f}), {data['pairs']:,} pairs, raw Elo {est(elo)}, raw nElo "
        f"{est(nelo)}{adj_txt}, seed {data.get('config', {}).get('seed')}"
    )


def trump_study(s: dict[str, Any], command: str) -> str:
    """The trump study's ``report.md``."""
    from hokm_sim.analysis.trumpstudy import MIN_CELL

    tables = s.get("table_heuristics", {})
    lines = [
        f"# Trump study: {s['deals']:,} deals, {s['player']} in every seat",
        "",
        f"Seed {s['seed']}; every deal played with each of the four trumps "
        f"({s['hands']:,} hands). Values are the Hakem team's signed points, with 95% "
        f"intervals; a cell of fewer than {MIN_CELL} hands shows — and its count: too few "
        "for a value or an interval.",
        "",
        *_trump_stop(s),
        *_markdown_table(_heuristic_rows(s)),
    ]
    lines += _table_heuristics(tables, s["deals"])
    alone = s["ace_vs_length"]["small_cards_minus_ace_alone"]
    lines += [
        "",
        "## Three or four small cards against a lone ace",
        "",
        "Points per hand of calling the suit of k small cards (nothing above the ten) "
        "minus calling the suit of the ace alone, on the same deals:",
        "",
    ]
    for k, e in alone.items():
        lines.append(f"- {k} small cards: {_shown(e, True)} over {e['n']:,} deals")
    lines += [
        "",
        "## Calling the longest suit, by its length and its high cards",
        "",
        "Points per hand [95%] (deals) of calling the longest of the five cards' suits "
        "(ties as `longest` breaks them), by the count of A K Q J in it and by its ace; "
        f"regret is against the best call in hindsight; — (deals): fewer than {MIN_CELL} "
        "deals, too few for a value.",
        "",
        "| length | all | regret | 0 high | 1 high | 2 high | 3 high | 4 high | ace | no ace |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]

    def pts(c: dict | None) -> str:
        return "" if c is None else f"{_shown(c['points_per_hand'], True, 3)} ({c['n']:,})"

    for length, row in s["by_longest_honours"].items():
        highs = [pts(row["highs"].get(str(h))) for h in range(5)]
        ace = [pts(row["ace"].get(k)) for k in ("held", "not_held")]
        lines.append(
            f"| {length} | {pts(row['all'])} | {_shown(row['all']['regret'], False, 3)} | "
            + " | ".join(highs + ace)
            + " |"
        )
    if "table" in s:
        lines += ["", "## Learned trump table", "", *_learned_table(s)]
    lines += ["", "## Figures", ""]
    for name in ("by_longest", "regret", "ace_heatmap", "outcomes_by_length"):
        lines += [f"![{name}]({name}.png)", ""]
    lines += ["## Reproduce", "", f"    {command}", "", f"hokm-sim {__version__}", ""]
    return "\n".join(lines)


def _heuristic_rows(s: dict[str, Any]) -> list[tuple[str, ...]]:
    """The trump study's table of heuristics, the header first: each one's best-call rate,
    regret, hand wins, Kots and points (a row in-sample marked so)."""
    tables = s.get("table_heuristics", {})
    rows = [("heuristic", "best call", "regret (points/hand)", "hand win", "Kot", "points/hand")]
    for name, h in s["heuristics"].items():
        shared = tables.get(name, {}).get("shared_deals")
        rows.append(
            (
                f"{name} (in-sample)" if shared else name,
                _shown(h["best_call_rate"]),
                _shown(h["regret"], True),
                _shown(h["hand_win_rate"]),
                _shown(h["kot_rate"]),
                _shown(h["points_per_hand"], True),
            )
        )
    return rows


def trump_study_text(s: dict[str, Any]) -> str:
    """What ``hokm-sim trump-study`` prints: what was studied, the heuristics' table and
    how the learned table did against ``longest``; report.md has the rest."""
    lines = [
        f"Trump study: {s['deals']:,} deals, {s['player']} in every seat, seed {s['seed']} "
        "(Hakem team's points, 95% intervals)",
        "",
        *_trump_stop(s),
        *columns(_heuristic_rows(s)),
    ]
    if "table" in s:
        inside, e = s["table"]["in_sample"], s["table"]["eval"]
        lines += ["", f"learned table against longest: {_shown(inside, True)} points per deal "]
        if e is None:
            lines[-1] += "in the study (in-sample), not tested on fresh deals"
        else:
            lines[-1] += (
                f"in the study (in-sample), {_shown(e['points_per_pair'], True)} on "
                f"{e['deals']:,} fresh deals"
            )
            lines += _plain([_held_up(inside, e["points_per_pair"])])
    return "\n".join(lines)


def _shown(e: dict[str, Any] | None, signed: bool = False, digits: int = 4) -> str:
    """A trump study's cell: ``value [low, high]``, or — when it holds too few hands
    (:data:`hokm_sim.analysis.trumpstudy.MIN_CELL`) for a value to mean anything."""
    from hokm_sim.analysis.trumpstudy import too_few

    return "—" if too_few(e) else cell(e, signed, digits)


def _table_heuristics(tables: dict[str, Any], deals: int) -> list[str]:
    """Under the heuristics' table: where each heuristic that plays a learned table
    learned it, and whether its row is in-sample (some of the study's deals among
    those it was learned from)."""
    lines = []
    for name, t in tables.items():
        origin = f"`{name}` calls trump from a table learned"
        if t["shared_deals"] is None:
            lines.append(
                f"- {origin} on deals its table file does not name: its row may be in-sample."
            )
            continue
        origin += f" from {t['deals']:,} deals of seed {t['seed']} (not the table learned below)"
        if t["shared_deals"]:
            lines.append(
                f"- {origin}; {t['shared_deals']:,} of this study's {deals:,} deals are among "
                "them, so its row is in-sample and flatters it: judge it on another seed."
            )
        else:
            lines.append(f"- {origin}; none of this study's deals: its row is held out.")
    return ["", *lines] if lines else []


def _learned_table(s: dict[str, Any]) -> list[str]:
    """The learned table: its gain over ``longest`` in the study (in-sample) beside its
    gain on fresh deals (held out), and whether it held up."""
    t, e = s["table"], s["table"]["eval"]
    inside = t["in_sample"]
    lines = [
        f"{t['classes']:,} five-card classes learned from this study's {s['deals']:,} deals "
        "(`trump_table.json`, played by `table_bot.py`). Points per deal it gains over "
        "`longest` (its call's points minus `longest`'s, on the same deal):",
        "",
        "| learned table against `longest` | points per deal | deals |",
        "|---|---|---|",
        "| in the study (in-sample: the deals it was learned from) | "
        f"{_shown(inside, True)} | {inside['n']:,} |",
    ]
    if e is None:
        return lines + [
            "",
            "The table was not tested on fresh deals: an in-sample figure flatters it (each "
            "class's call is the one that scored best on these very deals) and says nothing "
            "of how it plays elsewhere.",
        ]
    shared = e["shared_deals"]
    fresh = "none of them the study's" if shared == 0 else f"{shared:,} of them the study's"
    pp = e["points_per_pair"]
    return lines + [
        f"| on fresh deals (held out: seed {e['seed']}, in duplicate; {fresh}) | "
        f"{_shown(pp, True)} | {e['deals']:,} |",
        "",
        _held_up(inside, pp),
        "",
        f"- hand wins on the fresh deals: {e['verdict']}",
    ]


def _held_up(inside: dict[str, Any], fresh: dict[str, Any]) -> str:
    """Whether the learned table's gain over ``longest`` (``inside``: in the study, on the
    deals it was learned from) held up on fresh deals (``fresh``)."""
    if fresh["low"] is None:
        return "Too few fresh deals for an interval: the in-sample gain is not confirmed."
    if fresh["low"] > 0:
        return "The learned table held up: it gains over `longest` on fresh deals too."
    flattered = inside["value"] is not None and inside["value"] > fresh["high"]
    overfit = (
        " Its in-sample gain lies above the held-out interval: judged on the deals it was "
        "learned from, the table looked better than it plays (an overfit)."
        if flattered
        else ""
    )
    if fresh["high"] < 0:
        return (
            "**The learned table did not hold up**: on fresh deals it loses points to "
            f"`longest`.{overfit}"
        )
    return (
        "On fresh deals no clear difference from `longest`: the in-sample gain is not "
        f"confirmed.{overfit}"
    )


def _trump_stop(s: dict[str, Any]) -> list[str]:
    """The lines of a stopped trump study: what was asked, what finished, why it ended."""
    if not s.get("partial"):
        return []
    asked = s["asked"]
    test = (s.get("table") or {}).get("eval")
    if s["deals"] < asked["hands"]:
        done = f"{s['deals']:,} of {asked['hands']:,} deals studied; no held-out test"
    else:
        played = 0 if test is None else test["deals"]
        done = (
            f"all {s['deals']:,} deals studied; held-out test {played:,} of "
            f"{asked['eval_hands']:,} deals"
        )
    return [f"Partial: stopped ({s['stopped']}): {done}.", ""]


def _dd_rows(summary: dict[str, Any]) -> list[list[str]]:
    """The double-dummy study's table (header first): the perfect call on top, then each
    heuristic's."""
    rows = [
        ["call", "forces 7", "loss vs perfect", "right when a trump forces 7"],
        ["perfect (best of 4)", cell(summary["perfect"]), "-", "-"],
        ["any suit (mean of 4)", f"{summary['any_suit']['value']:.4f}", "-", "-"],
    ]
    for name, h in summary["heuristics"].items():
        rows.append(
            [name, cell(h["forces_7"]), cell(h["loss_vs_perfect"]),
             cell(h["best_call_when_one_forces"])]
        )  # fmt: skip
    return rows


def _dd_partial(summary: dict[str, Any]) -> list[str]:
    """The line of a study stopped by Ctrl-C, and a blank line; none otherwise."""
    if not summary.get("partial"):
        return []
    return [
        f"Partial: stopped (Ctrl-C) after {summary['deals']:,} of {summary['asked']:,} deals.",
        "",
    ]


def dd_study(summary: dict[str, Any], command: str) -> str:
    """The report: one table row per heuristic, the perfect call on top."""
    n = summary["deals"]
    sv = summary["solver"]
    lines = [
        f"# Double-dummy trump study: {n:,} deals",
        "",
        *_dd_partial(summary),
        f"Seed {summary['seed']}; the engine's deals (Hakem = deal % 4, who leads). "
        "Rate at which the Hakem's team can force 7 tricks with all hands open, "
        "for the best trump in hindsight and for each heuristic's call; loss = "
        "share of deals where some trump forces 7 but the call does not.",
        "",
        *_markdown_table(_dd_rows(summary)),
        "",
        f"Solver: {4 * n:,} questions, {sv['nodes']:,} nodes in {sv['seconds']} s.",
        "",
        "## Reproduce",
        "",
        f"    {command}",
        "",
        f"hokm-sim {__version__}",
        "",
    ]
    return "\n".join(lines)


def dd_study_text(summary: dict[str, Any]) -> str:
    """What ``hokm-sim dd-study`` prints: what was studied and the table; report.md has
    the rest."""
    lines = [
        f"Double-dummy trump study: {summary['deals']:,} deals, seed {summary['seed']} "
        "(how often the Hakem's team can force 7 tricks, all hands open; 95% intervals)",
        "",
        *_dd_partial(summary),
        *columns(_dd_rows(summary)),
    ]
    return "\n".join(lines)


def experiment(
    exp: Experiment,
    runs: list[Summary] | None,
    tour: dict | None,
    command: str,
    data: dict[str, Any] | None = None,
) -> str:
    """The experiment's ``report.md`` (``data``: its record, for what stopped it)."""
    lines = [f"# {exp.name}", "", *_stop(data or {}, "experiment").splitlines()]
    if exp.spec.get("question"):
        lines += [f"**Question:** {exp.spec['question']}", ""]
    if exp.spec.get("description"):
        lines += [exp.spec["description"], ""]
    if tour is not None:
        lines += ["```", format_tournament(tour), "```", ""]
    else:
        lines += [*_markdown_table(_run_rows(exp.spec, runs or [])), ""]
        for s in runs or []:
            lines += ["## " + headline(s.data), "", "```", table(s), "```", ""]
    lines += ["## Reproduce", "", f"    {command}", "", f"Experiment file: `{exp.path.name}`", ""]
    return "\n".join(lines)


def _run_rows(spec: dict[str, Any], runs: list[Summary]) -> list[tuple[str, ...]]:
    """An experiment's table of runs, the header first: a row per run (by Elo with
    ``sort = "elo"``)."""
    ds = [s.data for s in runs]
    if spec.get("sort") == "elo":
        ds.sort(key=lambda d: -(d["elo"]["value"] or 0))
    rows = [
        ("A", "B", "duplicate", "hands", "pair score", "Elo", "points/hand (A)",
         "variance reduction"),
    ]  # fmt: skip
    for d in ds:
        vr = d.get("variance_reduction")
        rows.append(
            (
                d["a"]["name"],
                d["b"]["name"],
                "yes" if d["config"]["duplicate"] else "no",
                f"{d['hands']:,}",
                cell(d["pair_score"]),
                cell(d["elo"], True, 1),
                cell(d["a"]["points_per_hand"], True),
                "-" if vr is None else f"x{vr:.2f}",
            )
        )
    return rows


def experiment_text(data: dict[str, Any], runs: list[Summary]) -> str:
    """What ``hokm-sim experiment`` prints (``data``: its record, ``runs``: its runs'
    summaries): its name and question, then a line per run, or the tournament's table;
    report.md has each run's own table."""
    spec = data["experiment"]
    lines = [spec["name"], *_plain(_stop(data, "experiment").splitlines())]
    if spec.get("question"):
        lines.append(f"Question: {spec['question']}")
    lines.append("")
    if data.get("tournament"):
        lines.append(format_tournament(data["tournament"]))
    else:
        lines += columns(_run_rows(spec, runs))
    return "\n".join(lines)


def field(d: dict[str, Any], command: str) -> str:
    """The field's ``report.md``: every pairing's scores and the weakest, as in the terminal."""
    from hokm_sim.analysis.field import format_field

    return (
        f"# Field: {d['candidate']} against {len(d['members'])} bots\n\n"
        f"{_stop(d, 'field')}```\n{format_field(d)}\n```\n\n"
        "Each line is the `hokm-sim run` of the candidate against that bot with the same "
        "seed and size; pair scores are the candidate's, with 95% intervals.\n\n"
        f"## Reproduce\n\n    {command}\n\nhokm-sim {__version__}\n"
    )


def tune(d: dict[str, Any], command: str) -> str:
    """The tuning run's ``report.md``: the tuned values, the fresh-deal check, the figure."""
    from hokm_sim.analysis.tune import format_tune

    figure = "![tune](tune.png)\n\n" if d["history"] else ""
    return (
        f"# SPSA: {d['bot']}\n\n{_stop(d, 'tuning run')}"
        f"```\n{format_tune(d)}\n```\n\n{figure}"
        f"## Reproduce\n\n    {command}\n\nhokm-sim {__version__}\n"
    )
