"""The page of past games: results per bot and per daily deal, every game and its hands."""

from __future__ import annotations

import html
from collections import defaultdict
from collections.abc import Collection
from urllib.parse import quote

from hokm_sim.commands import shell
from hokm_sim.house import DEFAULT_FIRST_HAKEM
from hokm_sim.play.review import seat_accuracy

STYLE = """
body{font-family:system-ui,sans-serif;margin:0;background:#f3f1ea;color:#1d2b22}
header{background:#1f5c3a;color:#fff;padding:.6em 1em;display:flex;gap:1em;align-items:center}
header a{color:#fff} main{padding:1em;max-width:1100px;margin:auto}
h1{font-size:1.25em;margin:0} h2{font-size:1.1em;margin:1.4em 0 .4em}
table{border-collapse:collapse;width:100%;background:#fff;font-size:.92em}
td,th{padding:4px 8px;border-bottom:1px solid #e2ded2;text-align:left;vertical-align:top}
th{background:#ece8dc} .won{color:#176b2c;font-weight:600} .lost{color:#a3261b;font-weight:600}
.hands a{display:inline-block;margin:0 4px 2px 0} code{font-size:.85em}
.scroll{overflow-x:auto}
"""


def _result(g: dict) -> str:
    r = g["result"]
    cls = r if r in ("won", "lost") else ""
    return f'<span class="{cls}">{html.escape(r)}</span>'


def _tally(games: list[dict], key) -> list[tuple[str, int, int, int]]:
    """(group, games, won, lost) per ``key(game)``."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for g in games:
        k = key(g)
        if k is None:
            continue
        t = out[k]
        t[0] += 1
        t[1] += g["result"] == "won"
        t[2] += g["result"] == "lost"
    return [(k, *v) for k, v in sorted(out.items(), reverse=True)]


def _tally_table(rows, head: str) -> str:
    body = "".join(
        f"<tr><td>{html.escape(k)}</td><td>{n}</td><td>{w}</td><td>{lo}</td>"
        f"<td>{w / (w + lo):.0%}</td></tr>"
        if w + lo
        else f"<tr><td>{html.escape(k)}</td><td>{n}</td><td>{w}</td><td>{lo}</td><td>-</td></tr>"
        for k, n, w, lo in rows
    )
    return (
        f"<table><tr><th>{head}</th><th>games</th><th>won</th><th>lost</th><th>won share</th>"
        f"</tr>{body}</table>"
    )


def games_page(
    games: list[dict],
    graded: dict[int, list[dict]],
    secrets: dict[int, str],
    hidden: Collection[int] = (),
) -> str:
    """Every game, newest first, with links to its hands in the hand viewer (each carrying
    its game's secret, from ``secrets`` by game id). The seed and the command that plays a
    game again are left out for the games in ``hidden`` (being played, their seed not
    asked for)."""
    by_bot = _tally(games, lambda g: f"partner {g['partner']}, opponents {g['opponents']}")
    by_day = _tally(games, lambda g: g["daily"])
    rows = []
    for g in games:
        acc = seat_accuracy(graded.get(g["id"], []))
        you, partner = acc[0], acc[2]
        opp = [a["tricks_lost_per_hand"] for a in (acc[1], acc[3])]

        def per_hand(a):
            v = a["tricks_lost_per_hand"]
            return "-" if v is None else f"{v:.2f} ({a['blunders']} bl.)"

        opp_text = "-" if opp[0] is None else f"{(opp[0] + opp[1]) / 2:.2f}"
        key = quote(secrets.get(g["id"], ""), safe="")
        links = " ".join(
            f'<a href="/games/{g["id"]}/hands/{h}?secret={key}">hand {h + 1}</a>'
            for h in range(g["hands"])
        )
        rule = ["--first-hakem", g["first_hakem"]]
        if g["first_hakem"] == DEFAULT_FIRST_HAKEM:
            rule = []
        replay = shell([
            "hokm-sim", "play", "--seed", g["seed"], "--partner", g["partner"],
            "--opponents", g["opponents"], "--target", g["target"], *rule,
        ])  # fmt: skip
        seed = f"<code>{html.escape(g['seed'])}</code>"
        if g["seed_shown"]:
            seed += " (shown during play)"
        if g["id"] in hidden:
            seed, replay = "hidden until the match ends", ""
        rows.append(
            f"<tr><td>{g['id']}</td><td>{html.escape(g['started'])}</td>"
            f"<td>{html.escape(g['daily'] or '')}</td>"
            f"<td>{seed}</td>"
            f"<td>{html.escape(g['partner'])}</td><td>{html.escape(g['opponents'])}</td>"
            f"<td>{g['target']}</td><td>{_result(g)}</td><td>{g['score0']}-{g['score1']}</td>"
            f"<td>{len(g['hints'])}</td><td>{per_hand(you)}</td><td>{per_hand(partner)}</td>"
            f'<td>{opp_text}</td><td class="hands">{links}</td>'
            f"<td><code>{html.escape(replay)}</code></td></tr>"
        )
    body = "".join(rows) or '<tr><td colspan="15">No games yet.</td></tr>'
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>hokm-sim: your games</title><style>{STYLE}</style></head><body>
<header><h1>Your games</h1><a href="/">back to the table</a></header><main>
<h2>Results per bot</h2>{_tally_table(by_bot, "bots")}
<h2>Results per daily deal</h2>{_tally_table(by_day, "daily deal (UTC date)")}
<h2>Every game</h2>
<p>Tricks lost per hand: the tricks a player's cards cost against double-dummy play (every hand
open), averaged over the game's analysed hands; bl.: blunders (a card that loses a won hand or
gives up or concedes a Kot).</p>
<div class="scroll"><table><tr><th>#</th><th>started (UTC)</th><th>daily</th><th>seed</th>
<th>partner</th><th>opponents</th><th>to</th><th>result</th><th>score</th><th>hints</th>
<th>you: tricks lost/hand</th><th>partner</th><th>opponents</th><th>hands</th>
<th>play it again</th></tr>{body}</table></div>
<div id="status">ok</div>
</main></body></html>
"""
