"""The analysis of a run's hands, written into its report folder.

``analysis.json`` (accuracy per strategy, worst duplicate swings, costliest
blunders), ``analysis.md`` (the same for people) and ``analysis/``: an
``index.html`` that lists the swings and blunders, linking to a page per
hand (:mod:`hokm_sim.report.viewer`).
"""

from __future__ import annotations

from pathlib import Path

from hokm_sim.dd import analyse as an
from hokm_sim.report import viewer
from hokm_sim.writing import atomic_text


def markdown(data: dict, command: str) -> str:
    """``analysis.md``: the accuracy table, the swings and the blunders."""
    lines = ["# Double-dummy analysis", "", "```", an.format_accuracy(data["accuracy"]), "```"]
    lines += ["", "## Worst duplicate swings (A's net points over the pair)", ""]
    for s in data["swings"]:
        at = s["parted_at"]
        where = "no card: the tables' values never parted"
        if at:
            where = f"card {at['card']} (trick {at['trick']}): " + "; ".join(
                f"copy {t['copy']} seat {t['seat']} {t['strategy']} played {t['played']} "
                f"({t['grade']}, Hakem team's value {t['hakem_team_value']})"
                for t in at["tables"]
            )
        lines.append(f"- deal {s['deal']}: {s['a_net_points']:+d}; parted at {where}")
    lines += ["", "## Costliest blunders", ""]
    for b in data["blunders"]:
        ident = f"deal {b['deal']} copy {b['copy']}" if "deal" in b else f"hand {b['hand']}"
        lines.append(
            f"- {ident} trick {b['trick']} seat {b['seat']} ({b['strategy']}): {b['card']}, "
            f"{', '.join(b['why'])}, {b['cost']} trick(s)"
        )
    lines += ["", "Grades are defined in docs/analysis.md.", "", "    " + command, ""]
    return "\n".join(lines)


def hand_file(rec: dict, i: int) -> str:
    """The file name of a hand's page."""
    if "deal" in rec:
        return f"deal-{rec['deal']}-copy-{rec.get('copy', 0)}.html"
    return f"hand-{i}.html"


def write(folder: Path, a: an.Analysis, title: str) -> Path:
    """Write the analysis files into ``folder`` (``analysis.json``, ``analysis.md`` and
    the pages under ``analysis/``); returns the index page's path."""
    import json

    folder = Path(folder)
    data = a.to_dict()
    command = a.command or ""
    wanted: set[int] = set()
    index = {(m.get("deal"), m.get("copy")): i for i, m in enumerate(a.hands.meta)}
    for s in data["swings"]:
        for c in (0, 1):
            if (s["deal"], c) in index:
                wanted.add(index[(s["deal"], c)])
    wanted.update(b["hand"] for b in data["blunders"])
    links: dict = {}
    for i in sorted(wanted):
        rec = an.hand_record(a, i)
        name = hand_file(rec, i)
        atomic_text(folder / "analysis" / name, viewer.hand_page(rec))
        links[(rec["deal"], rec.get("copy", 0)) if "deal" in rec else i] = name
    page = viewer.index_page(title, data["accuracy"], data["swings"], data["blunders"], links)
    atomic_text(folder / "analysis" / "index.html", page)
    atomic_text(folder / "analysis.json", json.dumps(data, indent=1) + "\n")
    atomic_text(folder / "analysis.md", markdown(data, command))
    return folder / "analysis" / "index.html"
