"""What seeing every card is worth against ``expert``: the ceiling for a sampling bot.

Plays seeded matches to 7 in duplicate (each match twice, teams swapped)
on :class:`hokm_sim.env.table.Table`, the engine's own deals, Hakems and
scoring. One team plays the double-dummy card on the real deal (the card
that keeps the most tricks with every hand open; ties go to ``expert``'s
card when it is one of them, else the lowest), the other team is
``expert``; both call trump as ``expert`` does, so only the card play
differs. No honest bot sees the cards: a sampling bot such as ``pimc``
approaches this from below as its samples approach the real deal. Prints
the match-win rate of the open-card team with its 95% Wilson interval, and
its points per hand (the interval takes the hands as independent, which
hands of one match are not quite).

    python benchmarks/pimc_ceiling.py [--matches 150] [--seed 7]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from hokm_sim.analysis.intervals import wilson
from hokm_sim.bots.registry import resolve
from hokm_sim.dd.search import STATS_SIZE
from hokm_sim.dd.solver import card_values_nb
from hokm_sim.dd.table import new_table
from hokm_sim.engine import kernels as k
from hokm_sim.engine.view import V_LEADER, V_NTRICK, V_TRICK, V_TRUMP
from hokm_sim.env.table import TRUMP, SeatBot, Table


def open_card(table: Table, expert: SeatBot, keys, vals, stats, values) -> int:
    """The double-dummy card on the real deal for the seat to play."""
    view = table.slots.bot_view[0]
    hands = table.slots.held[0].astype(np.int64)
    ntrick = int(view[V_NTRICK])
    trick = np.array([view[V_TRICK + i] for i in range(3)], np.int64)
    card_values_nb(hands, view[V_TRUMP], view[V_LEADER], trick, ntrick, keys, vals, stats, values)
    best = values.max()
    pick = expert.decide(table)
    if values[pick] == best:
        return pick
    return min((c for c in range(52) if values[c] == best), key=lambda c: c % 13)


def main() -> None:
    """Play the matches and print one line per figure."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=150)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    expert = SeatBot(resolve("expert"))
    table = Table(target=7)
    keys, vals = new_table(18)
    stats = np.zeros(STATS_SIZE, np.int64)
    values = np.zeros(52, np.int64)
    wins = hands = 0
    points = []
    t = time.perf_counter()
    for m in range(args.matches):
        for open_team in (0, 1):
            table.reset(args.seed, m)
            while table.waiting is not None:
                if table.waiting == TRUMP or (table.seat & 1) != open_team:
                    table.act(expert.decide(table))
                else:
                    table.act(open_card(table, expert, keys, vals, stats, values))
            rows = table.rows[table.rows[:, k.T_HAND] >= 0]
            last = rows[-1]
            wins += int(last[k.T_SCORES + open_team] > last[k.T_SCORES + 1 - open_team])
            for r in rows:
                sign = 1 if r[k.T_WINNER] == open_team else -1
                points.append(sign * int(r[k.T_POINTS]))
            hands += len(rows)
    n = 2 * args.matches
    est = wilson(wins, n)
    p = np.array(points, float)
    half = 1.96 * p.std(ddof=1) / np.sqrt(len(p))
    print(f"{n} matches ({hands} hands) in {time.perf_counter() - t:.0f} s")
    print(f"match-win rate of the open-card team: {wins / n:.3f} [{est.low:.3f}, {est.high:.3f}]")
    print(f"points per hand: {p.mean():+.3f} [{p.mean() - half:+.3f}, {p.mean() + half:+.3f}]")


if __name__ == "__main__":
    main()
