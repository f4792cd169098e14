"""Where did a bot lose? Every card of played hands graded against double-dummy play.

Hands come from a run's saved hands, from seeds (played again by the
engine) or from a trace file. :func:`analyse` solves, for every card played,
the position it was played from for every legal card (the numba kernels of
:mod:`hokm_sim.dd.analyse_nb`); :func:`hand_record` and :func:`format_hand`
turn one hand into JSON and text; :func:`accuracy` and :func:`swings` sum
many hands up per strategy.

The grades, defined once (docs/analysis.md):

- **value** of a card: the tricks the mover's team takes in the whole hand
  if it plays that card and all four play perfectly from then on, every
  hand open (tricks already taken plus all remaining tricks, counted as
  ``hokm-sim dd`` counts them). Its **cost** is the best legal card's value
  less its own.
- **blunder**: the card turns a double-dummy win (the best card reaches 7)
  into a loss, gives up a Kot (7-0) that the best play still forced, or
  concedes a Kot to the other side that another card avoided.
- **mistake**: not a blunder, and the card costs at least one trick.
- **best**: the card has the best value (it may share it with others).

The trump call is graded the same way from the four double-dummy outcomes
of the whole deal, one per trump suit: hindsight, since the Hakem saw only
five cards.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import numpy as np

from hokm_sim import jsontext
from hokm_sim.analysis.intervals import Estimate
from hokm_sim.analysis.results import Shown
from hokm_sim.bots.compiling import compiling
from hokm_sim.cards import SUIT_SYMBOLS, SUITS, card_str, card_symbol, parse_card
from hokm_sim.dd import analyse_nb as nb
from hokm_sim.dd.search import S_NODES
from hokm_sim.dd.table import new_table
from hokm_sim.errors import InputError, ref
from hokm_sim.sim.tracecheck import SEAT_OF_POSITION, TraceError, check_hands_nb, check_records
from hokm_sim.version import __version__

GRADES = ("best", "mistake", "blunder")
"""Grade names by code (``analyse_nb.BEST``, ``MISTAKE``, ``BLUNDER``)."""
CLASSES = ("lead", "follow", "discard", "ruff")
"""How a card was played, by code."""
WHY = {
    nb.WHY_LOSS: "loses the hand",
    nb.WHY_KOT_LOST: "gives up a Kot",
    nb.WHY_KOT_CONCEDED: "concedes a Kot",
}
"""What makes a blunder, by bit."""

BLOCK = 4
"""Hands a thread takes at a time (even: both copies of a deal share a table)."""
SOLVER = "the double-dummy grader (once per install)"
"""What the grader's first call in a process compiles, as the progress line says it."""
TT_BITS = 22
"""log2 of each thread's table entries (about 130 MB): a hand's searches revisit many
positions, and a smaller table that fills and starts afresh searches them again."""


@dataclass
class Hands:
    """Played hands to analyse: deals, trump, every card, and where each came from.

    ``meta[i]`` holds the hand's identity (``seed``, ``deal`` or ``match`` and
    ``hand``, ``copy``) and ``teams`` (the strategy playing team 0 and team 1).
    """

    hands: np.ndarray  # int64[n, 4] the deal (card masks by seat)
    hakem: np.ndarray  # int64[n]
    trump: np.ndarray  # int64[n]
    plays: np.ndarray  # int64[n, 52] cards in play order, -1 after the last
    meta: list[dict] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.hakem)


def hands_from_rows(rows: np.ndarray, meta: list[dict]) -> Hands:
    """:class:`Hands` from the engine's trace rows (``Runner.trace_hands``)."""
    from hokm_sim.engine import kernels as k

    hakem = rows[:, k.T_HAKEM].astype(np.int64)
    deck = rows[:, k.T_DECK : k.T_DECK + 52].astype(np.int64)
    seats = (hakem[:, None] + SEAT_OF_POSITION[None, :]) % 4
    bits = np.left_shift(np.int64(1), deck)
    hands = np.zeros((len(rows), 4), np.int64)
    for s in range(4):
        hands[:, s] = np.where(seats == s, bits, 0).sum(axis=1)
    plays = rows[:, k.T_PLAYS : k.T_PLAYS + 52].astype(np.int64)
    return Hands(hands, hakem, rows[:, k.T_TRUMP].astype(np.int64), plays, meta)


def play_deals(runner, seed: int, deals: Sequence[int], copies: Sequence[int] = (0, 1)) -> Hands:
    """The hands of ``deals`` of ``seed`` played by ``runner``'s pair (both copies by default).

    Deal ``d`` copy 0 has A on team 0; copy 1 is the same cards with the teams
    swapped, as in a duplicate run.
    """
    a, b = runner.a.name, runner.b.name
    rows, meta = [], []
    deals = [int(d) for d in deals]
    i = 0
    while i < len(deals):  # contiguous runs of deals are traced in one call
        j = i + 1
        while j < len(deals) and deals[j] == deals[j - 1] + 1:
            j += 1
        for copy in copies:
            r = runner.trace_hands(seed, deals[i], j - i, copy)
            rows.append(r)
            for d in deals[i:j]:
                meta.append(
                    {
                        "seed": seed,
                        "deal": d,
                        "copy": copy,
                        "teams": [a, b] if copy == 0 else [b, a],
                    }
                )
        i = j
    order = sorted(range(len(meta)), key=lambda x: (meta[x]["deal"], meta[x]["copy"]))
    all_rows = np.concatenate(rows) if rows else np.zeros((0, 133), np.int64)
    return hands_from_rows(all_rows[order], [meta[x] for x in order])


def hands_from_records(records: Iterable[tuple[int, dict | None]], where: str = "trace") -> Hands:
    """:class:`Hands` from ``hokm-sim trace`` records, checked to be legal, complete hands
    (:func:`hokm_sim.sim.tracecheck.check_records`, which names the first bad line)."""
    p = check_records(records, where)
    return Hands(p.hands, p.hakem, p.trump, p.plays, p.meta)


SWINGS = 20
"""Swings and blunders an analysis's record lists."""


@dataclass(repr=False, eq=False)
class Analysis(Shown):
    """Every card of ``hands`` graded (arrays of :func:`.analyse_nb.analyse_hand_nb`).

    ``to_dict()`` is what ``analysis.json`` holds: accuracy per strategy, the
    worst duplicate swings, the costliest blunders; ``records()`` every hand
    card by card; ``to_frame()`` one row per card. ``command`` reproduces it,
    ``sample`` says which deals of a run it covers (``run --analyse``),
    ``folder`` where its pages were written.
    """

    hands: Hands
    vals: np.ndarray  # int8[n, 52, 52]: per card played, each legal card's value
    kot: np.ndarray  # int8[n, 52, 52]: sweep bits (K_FOR, K_AGAINST)
    info: np.ndarray  # int8[n, 52, N_INFO]: seat, class, chosen, best, worst, grade, why, legal
    trumps: np.ndarray  # int8[n, 4, 4]: per trump the Hakem team's tricks, reach 7, Kot, Hakem Kot
    tgrade: np.ndarray  # int8[n, 4]: the trump call's chosen and best tricks, grade, why
    nodes: int
    command: str | None = None
    sample: dict | None = None
    folder: Path | None = None

    kind: ClassVar[str] = "analysis"

    def __len__(self) -> int:
        return len(self.hands)

    def records(self) -> list[dict]:
        """Every hand as :func:`hand_record` gives it."""
        return [hand_record(self, i) for i in range(len(self))]

    def lines(self) -> Iterator[str]:
        """Every hand's record as one line of JSON."""
        for i in range(len(self)):
            yield json.dumps(hand_record(self, i))

    def accuracy(self) -> dict:
        """:func:`accuracy` of these hands."""
        return accuracy(self)

    def to_dict(self, top: int = SWINGS) -> dict:
        """Accuracy per strategy, the ``top`` worst swings and blunders, the solver's
        nodes, the sample, the command and the version: what ``analysis.json`` holds."""
        out = {
            "kind": self.kind,
            "hands": len(self),
            "grades": "docs/analysis.md",
            "accuracy": accuracy(self),
            "swings": swings(self, hand_points(self.hands), top),
            "blunders": blunders(self, top),
            "solver_nodes": self.nodes,
        }
        if self.sample is not None:
            out["sample"] = self.sample
        return out | {"command": self.command, "version": __version__}

    def to_frame(self):
        """One row per card played (pandas): the hand (its index here, its seed, deal and
        copy), the strategy that played it, trick, seat, card, play, value, best, cost,
        grade."""
        import pandas as pd

        i, p = np.nonzero(self.info[:, :, nb.I_SEAT] >= 0)
        inf = self.info[i, p].astype(np.int64)
        meta = self.hands.meta

        def column(key: str) -> pd.Series:
            return pd.array([meta[x].get(key) for x in i], dtype="Int64")

        seat = inf[:, nb.I_SEAT]
        teams = [meta[x].get("teams") for x in i]
        return pd.DataFrame(
            {
                "hand": i,
                "seed": pd.array([meta[x].get("seed") for x in i], dtype="UInt64"),
                "deal": column("deal"),
                "copy": column("copy"),
                "strategy": [t[s % 2] if t else None for t, s in zip(teams, seat, strict=True)],
                "trick": p // 4 + 1,
                "seat": seat,
                "card": [card_str(int(c)) for c in self.hands.plays[i, p]],
                "play": pd.Categorical.from_codes(inf[:, nb.I_CLASS], CLASSES),
                "value": inf[:, nb.I_CHOSEN],
                "best": inf[:, nb.I_BEST],
                "cost": inf[:, nb.I_BEST] - inf[:, nb.I_CHOSEN],
                "grade": pd.Categorical.from_codes(inf[:, nb.I_GRADE], GRADES),
            }
        )

    @property
    def headline(self) -> str:
        """Hands and cards graded, and how many were blunders and mistakes."""
        played = self.info[:, :, nb.I_SEAT] >= 0
        grades = self.info[:, :, nb.I_GRADE][played]
        blunder = int((grades == GRADES.index("blunder")).sum())
        mistake = int((grades == GRADES.index("mistake")).sum())
        return (
            f"{len(self):,} hands, {int(played.sum()):,} cards graded double dummy: "
            f"{blunder:,} blunders, {mistake:,} mistakes"
        )


def analyse(
    h: Hands,
    threads: int = 1,
    tt_bits: int = TT_BITS,
    counter: Callable[[int], None] | None = None,
) -> Analysis:
    """Grade every card (and the trump call) of every hand on ``threads`` threads.

    Each thread keeps one transposition table and takes blocks of ``BLOCK``
    hands as it becomes free; ``counter`` is told the hands of each block
    graded. The answers are exact and do not depend on ``threads``. The
    solver's first call in a process compiles it (or loads it from the disk
    cache), said to whoever listens (:func:`hokm_sim.bots.compiling.compiling`).
    """
    n = len(h)
    vals = np.zeros((n, 52, 52), np.int8)
    kot = np.zeros((n, 52, 52), np.int8)
    info = np.zeros((n, 52, nb.N_INFO), np.int8)
    trumps = np.zeros((n, 4, 4), np.int8)
    tgrade = np.zeros((n, 4), np.int8)
    workers = max(1, min(threads, -(-n // BLOCK)))
    nodes = np.zeros(workers, np.int64)
    if n:
        import threading

        lock = threading.Lock()
        nxt = [0]

        def work(w: int) -> None:
            tt_keys, tt_vals = new_table(tt_bits)
            stats = np.zeros(1, np.int64)
            while True:
                with lock:
                    lo = nxt[0]
                    nxt[0] += BLOCK
                if lo >= n:
                    break
                hi = min(n, lo + BLOCK)
                with compiling(SOLVER) if not nb.analyse_block_nb.signatures else nullcontext():
                    nb.analyse_block_nb(
                        h.hands, h.hakem, h.trump, h.plays, lo, hi, tt_keys, tt_vals, stats,
                        vals, kot, info, trumps, tgrade,
                    )  # fmt: skip
                if counter is not None:
                    with lock:
                        counter(hi - lo)
            nodes[w] = stats[S_NODES]

        if workers == 1:
            work(0)
        else:
            pool = [threading.Thread(target=work, args=(w,)) for w in range(workers)]
            for t in pool:
                t.start()
            for t in pool:
                t.join()
    return Analysis(h, vals, kot, info, trumps, tgrade, int(nodes.sum()))


# --- one hand: JSON and text ---------------------------------------------------------


def _why(bits: int) -> list[str]:
    return [text for bit, text in WHY.items() if bits & bit]


def hand_record(a: Analysis, i: int) -> dict:
    """Hand ``i`` as one JSON-able dict: the deal, the trump call graded, every card graded."""
    h = a.hands
    hakem, trump = int(h.hakem[i]), int(h.trump[i])
    ht = hakem % 2
    tg = a.tgrade[i]
    rec: dict = dict(h.meta[i]) if i < len(h.meta) else {}
    rec |= {
        "hakem": hakem,
        "trump": SUITS[trump],
        "hands": [[card_str(c) for c in _cards(int(m))] for m in h.hands[i]],
        "trump_call": {
            "hindsight": True,
            "by_trump": {
                SUITS[s]: {
                    "tricks": (
                        int(a.trumps[i, s, nb.TR_TRICKS]) if a.trumps[i, s, 0] >= 0 else None
                    ),
                    "reach7": bool(a.trumps[i, s, nb.TR_REACH]),
                    "kot": bool(a.trumps[i, s, nb.TR_KOT]),
                    "hakem_kot": bool(a.trumps[i, s, nb.TR_HAKEM_KOT]),
                }
                for s in range(4)
            },
            "grade": GRADES[int(tg[nb.TG_GRADE])],
            "why": _why(int(tg[nb.TG_WHY])),
        },
        "cards": [],
    }
    taken = [0, 0]
    for p in range(52):
        c = int(h.plays[i, p])
        if c < 0:
            break
        row = a.info[i, p]
        legal = np.flatnonzero(a.vals[i, p] >= 0)
        seat = int(row[nb.I_SEAT])
        rec["cards"].append(
            {
                "trick": p // 4 + 1,
                "seat": seat,
                "team": seat % 2,
                "hakem_team": seat % 2 == ht,
                "card": card_str(c),
                "play": CLASSES[int(row[nb.I_CLASS])],
                "taken": list(taken),
                "values": {card_str(int(x)): int(a.vals[i, p, x]) for x in legal},
                "kot_for": sorted(card_str(int(x)) for x in legal if a.kot[i, p, x] & nb.K_FOR),
                "kot_against": sorted(
                    card_str(int(x)) for x in legal if a.kot[i, p, x] & nb.K_AGAINST
                ),
                "value": int(row[nb.I_CHOSEN]),
                "best": int(row[nb.I_BEST]),
                "cost": int(row[nb.I_BEST] - row[nb.I_CHOSEN]),
                "reach7": bool(row[nb.I_CHOSEN] >= 7),
                "grade": GRADES[int(row[nb.I_GRADE])],
                "why": _why(int(row[nb.I_WHY])),
            }
        )
        if p % 4 == 3:
            taken = _taken_after(h, i, p)
    rec["tricks_won"] = taken
    return rec


def _taken_after(h: Hands, i: int, p: int) -> list[int]:
    """Tricks per team after card ``p`` (which ends a trick)."""
    from hokm_sim.engine.rules import beats

    taken = [0, 0]
    leader = int(h.hakem[i])
    for t in range(p // 4 + 1):
        cs = [int(x) for x in h.plays[i, 4 * t : 4 * t + 4]]
        best, seat = cs[0], leader
        for k in range(1, 4):
            if beats(cs[k], best, int(h.trump[i])):
                best, seat = cs[k], (leader + k) % 4
        taken[seat % 2] += 1
        leader = seat
    return taken


def _cards(mask: int) -> list[int]:
    return [c for c in range(51, -1, -1) if mask >> c & 1]


def _sym(c: str) -> str:
    return card_symbol(parse_card(c))


def format_hand(rec: dict) -> str:
    """One analysed hand for people: the deal, the trump call, every card graded."""
    ht = rec["hakem"] % 2
    teams = rec.get("teams") or ["team 0", "team 1"]
    ident = "  ".join(
        f"{k} {rec[k]}" for k in ("seed", "deal", "copy", "match", "hand", "line") if k in rec
    )
    lines = [ident, f"Hakem seat {rec['hakem']}  trump {SUIT_SYMBOLS[SUITS.index(rec['trump'])]}"]
    for s, hand in enumerate(rec["hands"]):
        role = " (Hakem)" if s == rec["hakem"] else ""
        lines.append(f"seat {s} [{teams[s % 2]}]{role}: {' '.join(_sym(c) for c in hand)}")
    tc = rec["trump_call"]
    per = "  ".join(
        f"{SUIT_SYMBOLS[SUITS.index(s)]} {'reaches 7' if v['reach7'] else 'short of 7'}"
        f"{' Kot' if v['kot'] else ''}{' HakemKot' if v['hakem_kot'] else ''}"
        f"{'' if v['tricks'] is None else ' (' + str(v['tricks']) + ' tricks)'}"
        for s, v in tc["by_trump"].items()
    )
    lines += [
        "",
        f"trump call (hindsight, all hands open, for the Hakem's team): {per}",
        f"  called {rec['trump']}: {_grade_text(tc['grade'], 0, tc['why'])}",
        "",
    ]
    for c in rec["cards"]:
        side = "H" if c["hakem_team"] else "D"
        others = " ".join(
            f"{_sym(k)}={v}" for k, v in sorted(c["values"].items(), key=lambda kv: (-kv[1], kv[0]))
        )
        lines.append(
            f"trick {c['trick']:2d} seat {c['seat']} [{teams[c['team']]}, {side}] "
            f"{c['play']:7s} {_sym(c['card']):>3}  value {c['value']:2d} "
            f"(best {c['best']:2d})  {_grade_text(c['grade'], c['cost'], c['why'])}   [{others}]"
        )
    t0, t1 = rec["tricks_won"]
    lines += ["", f"tricks {t0}-{t1}; the Hakem's team is team {ht}"]
    return "\n".join(lines)


def _grade_text(g: str, cost: int, why: list[str]) -> str:
    if g == "blunder":
        return "BLUNDER (" + ", ".join(why) + (f", -{cost}" if cost else "") + ")"
    if g == "mistake":
        return f"mistake (-{cost})"
    return "best"


# --- many hands: accuracy per strategy ----------------------------------------------


def _ratio(y: np.ndarray, x: np.ndarray, scale: float = 1.0, top: float = math.inf) -> Estimate:
    """Σy/Σx over clusters (deal pairs) with a 95% interval (delta method, cluster-robust),
    clipped to ``[0, top]``."""
    n = len(x)
    sx = float(x.sum())
    if n == 0 or sx == 0:
        return Estimate.missing(n)
    r = float(y.sum()) / sx
    if n < 2:
        return Estimate(r * scale, math.nan, math.nan, n)
    xbar = sx / n
    resid = y - r * x
    se = math.sqrt(float((resid**2).sum()) / (n * (n - 1))) / xbar
    lo, hi = max(0.0, r - 1.96 * se), min(top, r + 1.96 * se)
    return Estimate(r * scale, lo * scale, hi * scale, n)


def _est(e: Estimate, digits: int = 4) -> dict:
    d = e.to_dict()
    return {k: (round(v, digits) if isinstance(v, float) else v) for k, v in d.items()}


def accuracy(a: Analysis) -> dict:
    """Per strategy: tricks lost to double-dummy play per hand, blunders and mistakes per
    100 hands, the share of cards that were double-dummy best, each with a 95% interval
    over deals (both copies of a duplicate pair are one cluster), split by role and play.
    """
    h = a.hands
    n = len(h)
    if n == 0:
        return {"hands": 0, "strategies": {}}
    cluster_key = [
        (m.get("seed"), m.get("deal", m.get("match")), m.get("hand"), m.get("line"))
        if "deal" not in m
        else (m.get("seed"), m["deal"])
        for m in h.meta
    ]
    _, cluster = np.unique(np.array([hash(k) for k in cluster_key]), return_inverse=True)
    ncl = int(cluster.max()) + 1
    names = sorted({t for m in h.meta for t in m.get("teams", ["team 0", "team 1"])})
    played = a.info[:, :, nb.I_SEAT] >= 0
    seat = a.info[:, :, nb.I_SEAT].astype(np.int64)
    team = seat % 2
    hakem_team = (h.hakem % 2)[:, None] == team
    cls = a.info[:, :, nb.I_CLASS]
    cost = (a.info[:, :, nb.I_BEST] - a.info[:, :, nb.I_CHOSEN]).astype(np.int64)
    grade = a.info[:, :, nb.I_GRADE]
    teams = [m.get("teams", ["team 0", "team 1"]) for m in h.meta]
    out: dict = {"hands": n, "deals": ncl, "strategies": {}}

    def per_cluster(v: np.ndarray) -> np.ndarray:
        return np.bincount(cluster, weights=v, minlength=ncl)

    for name in names:
        # which team the strategy plays in each hand (-1: neither, 2: both)
        tmask = np.array(
            [(t[0] == name) * 1 + (t[1] == name) * 2 for t in teams], np.int64
        )  # bit 0: team 0, bit 1: team 1
        mine = played & (((tmask[:, None] >> team) & 1) == 1)
        hands_in = per_cluster((tmask != 0).astype(float) * np.where(tmask == 3, 2, 1))

        def stats(sel: np.ndarray, per_hand: bool, hands_in=hands_in) -> dict:
            cards = per_cluster(sel.sum(axis=1).astype(float))
            denom = hands_in if per_hand else cards
            scale = 1.0 if per_hand else 100.0
            s = {
                "cards": int(cards.sum()),
                "best_share": _est(
                    _ratio(per_cluster(((grade == 0) & sel).sum(1) * 1.0), cards, top=1.0)
                ),
                "tricks_lost": _est(_ratio(per_cluster((cost * sel).sum(1) * 1.0), denom, scale)),
                "blunders": _est(
                    _ratio(per_cluster(((grade == 2) & sel).sum(1) * 1.0), denom, 100.0)
                ),
                "mistakes": _est(
                    _ratio(per_cluster(((grade == 1) & sel).sum(1) * 1.0), denom, 100.0)
                ),
                "cost_total": int((cost * sel).sum()),
            }
            return s

        entry = {"hands": int(hands_in.sum()), "all": stats(mine, True)}
        entry["by_role"] = {
            "hakem": stats(mine & hakem_team, True),
            "defender": stats(mine & ~hakem_team, True),
        }
        entry["by_play"] = {CLASSES[k]: stats(mine & (cls == k), False) for k in range(4)}
        # the trump call, when the strategy's team holds the Hakem
        calls = np.array([(tm >> (hk % 2)) & 1 for tm, hk in zip(tmask, h.hakem, strict=True)])
        calls = calls.astype(bool)
        tg = a.tgrade
        c_calls = per_cluster(calls * 1.0)
        entry["trump_call"] = {
            "calls": int(calls.sum()),
            "best_share": _est(
                _ratio(per_cluster((calls & (tg[:, 2] == 0)) * 1.0), c_calls, top=1.0)
            ),
            "blunders": _est(_ratio(per_cluster((calls & (tg[:, 2] == 2)) * 1.0), c_calls, 100.0)),
        }
        out["strategies"][name] = entry
    return out


UNITS = {
    "tricks_lost": "tricks lost per hand (per 100 cards in the play split)",
    "blunders": "per 100 hands (per 100 cards in the play split)",
    "mistakes": "per 100 hands (per 100 cards in the play split)",
    "best_share": "share of cards that were double-dummy best",
}


def _fmt(e: dict, digits: int = 3) -> str:
    if e["value"] is None:
        return "-"
    if e["low"] is None:
        return f"{e['value']:.{digits}f}"
    return f"{e['value']:.{digits}f} [{e['low']:.{digits}f}, {e['high']:.{digits}f}]"


def format_accuracy(acc: dict) -> str:
    """The accuracy table for people."""
    lines = [
        f"double-dummy accuracy over {acc['hands']} hands ({acc['deals']} deals), "
        "95% intervals over deals"
    ]
    for name, e in acc["strategies"].items():
        a = e["all"]
        lines += [
            "",
            f"{name}: {e['hands']} hands, {a['cards']} cards",
            f"  tricks lost per hand      {_fmt(a['tricks_lost'])}",
            f"  blunders per 100 hands    {_fmt(a['blunders'], 2)}",
            f"  mistakes per 100 hands    {_fmt(a['mistakes'], 2)}",
            f"  cards double-dummy best   {_fmt(a['best_share'])}",
        ]
        for role, r in e["by_role"].items():
            lines.append(
                f"  as {role:8s} tricks lost/hand {_fmt(r['tricks_lost'])}  "
                f"blunders/100 hands {_fmt(r['blunders'], 2)}  best {_fmt(r['best_share'])}"
            )
        total = max(1, a["cost_total"])
        for play, r in e["by_play"].items():
            lines.append(
                f"  {play:8s} {r['cards']:7d} cards  best {_fmt(r['best_share'])}  "
                f"tricks lost/100 cards {_fmt(r['tricks_lost'], 2)}  "
                f"share of all tricks lost {r['cost_total'] / total:.2f}"
            )
        tc = e["trump_call"]
        if tc["calls"]:
            lines.append(
                f"  trump call ({tc['calls']} calls, hindsight) best {_fmt(tc['best_share'])}  "
                f"blunders/100 calls {_fmt(tc['blunders'], 2)}"
            )
    return "\n".join(lines)


# --- duplicate swings ------------------------------------------------------------------


def _hakem_values(a: Analysis, i: int) -> np.ndarray:
    """The Hakem team's double-dummy total after the trump call (index 0) and each card."""
    ht = int(a.hands.hakem[i]) % 2
    out = [int(a.trumps[i, int(a.hands.trump[i]), nb.TR_TRICKS])]
    for p in range(52):
        row = a.info[i, p]
        if row[nb.I_SEAT] < 0:
            break
        v = int(row[nb.I_CHOSEN])
        out.append(v if int(row[nb.I_SEAT]) % 2 == ht else 13 - v)
    return np.array(out, np.int64)


def swings(a: Analysis, points: np.ndarray, top: int = 20) -> list[dict]:
    """Deals where A and B fared most differently on the same cards, ranked.

    ``points[i]`` are the points of hand ``i`` from A's side (the first name
    of ``teams`` in copy 0). Each swing names A's net points over the pair,
    how each table ended, and the first card at which the two tables'
    double-dummy values parted (``-1``: the trump call), with who played it.
    """
    h = a.hands
    by_deal: dict[int, dict[int, int]] = {}
    for i, m in enumerate(h.meta):
        if "deal" in m:
            by_deal.setdefault(m["deal"], {})[m["copy"]] = i
    rows = []
    for d, copies in by_deal.items():
        if set(copies) != {0, 1}:
            continue
        i0, i1 = copies[0], copies[1]
        net = int(points[i0]) + int(points[i1])
        if net == 0:
            continue
        v0, v1 = _hakem_values(a, i0), _hakem_values(a, i1)
        k = min(len(v0), len(v1))
        diff = np.flatnonzero(v0[:k] != v1[:k])
        p = int(diff[0]) - 1 if len(diff) else None
        at = None
        if p is not None:
            at = {
                "card": p + 1 if p >= 0 else 0,
                "trick": p // 4 + 1 if p >= 0 else 0,
                "tables": [],
            }
            for i, v in ((i0, v0), (i1, v1)):
                teams = h.meta[i]["teams"]
                if p < 0:
                    s = int(h.hakem[i])
                    what = f"trump {SUITS[int(h.trump[i])]}"
                else:
                    s = int(a.info[i, p, nb.I_SEAT])
                    what = card_str(int(h.plays[i, p]))
                at["tables"].append(
                    {
                        "copy": h.meta[i]["copy"],
                        "seat": s,
                        "strategy": teams[s % 2],
                        "played": what,
                        "hakem_team_value": int(v[p + 1]),
                        "grade": GRADES[int(a.tgrade[i, 2] if p < 0 else a.info[i, p, 5])],
                    }
                )
        rows.append(
            {
                "deal": d,
                "a_net_points": net,
                "points": [int(points[i0]), int(points[i1])],
                "hakem": int(h.hakem[i0]),
                "parted_at": at,
            }
        )
    rows.sort(key=lambda r: (-abs(r["a_net_points"]), r["deal"]))
    return rows[:top]


def blunders(a: Analysis, top: int = 20) -> list[dict]:
    """The costliest blunders: hand, trick, seat, strategy, card, why; worst first."""
    h = a.hands
    i, p = np.nonzero(a.info[:, :, nb.I_GRADE] == nb.BLUNDER)
    cost = a.info[i, p, nb.I_BEST].astype(int) - a.info[i, p, nb.I_CHOSEN]
    order = np.lexsort((p, i, -cost))[:top]
    out = []
    for j in order:
        hi, pi = int(i[j]), int(p[j])
        s = int(a.info[hi, pi, nb.I_SEAT])
        teams = h.meta[hi].get("teams", ["team 0", "team 1"])
        out.append(
            {
                "hand": hi,
                **{k: h.meta[hi][k] for k in ("deal", "copy", "line") if k in h.meta[hi]},
                "trick": pi // 4 + 1,
                "seat": s,
                "strategy": teams[s % 2],
                "card": card_str(int(h.plays[hi, pi])),
                "cost": int(cost[j]),
                "why": _why(int(a.info[hi, pi, nb.I_WHY])),
            }
        )
    return out


def hand_points(h: Hands) -> np.ndarray:
    """Points of each hand from the side of A (``teams[0]`` in copy 0, team ``copy``)."""
    from hokm_sim.engine.rules import hand_score

    winners = np.zeros((len(h), 13), np.int64)
    codes = np.zeros((len(h), 2), np.int64)
    check_hands_nb(h.hands, h.hakem, h.trump, h.plays, winners, codes)
    t1 = ((winners >= 0) & (winners % 2 == 1)).sum(axis=1)
    t0 = (winners >= 0).sum(axis=1) - t1
    pts = np.zeros(len(h), np.int64)
    for i in range(len(h)):
        win, points, _ = hand_score(int(h.hakem[i]), int(t0[i]), int(t1[i]))
        a_team = h.meta[i].get("copy", 0) if i < len(h.meta) else 0
        pts[i] = points if win == a_team else -points
    return pts


def read_trace(path: Path) -> Hands:
    """:class:`Hands` from a trace file (``hokm-sim trace`` JSON Lines)."""

    def records():
        try:
            with open(path, encoding="utf-8") as f:
                for line, text in enumerate(f, 1):
                    if not text.strip():
                        continue
                    try:
                        yield line, jsontext.loads(text)
                    except json.JSONDecodeError:
                        yield line, None
        except UnicodeDecodeError:
            raise TraceError(f"{path} is not a text file of JSON lines", "trace") from None

    try:
        h = hands_from_records(records(), where=str(path))
    except TraceError as exc:
        raise TraceError(exc.message, "trace") from None
    if len(h) == 0:
        raise TraceError(f"{path} holds no hands", "trace")
    return h


def hands_from_seed(runner, seed: int, deals: int, duplicate: bool = True) -> Hands:
    """Deals ``0 .. deals-1`` of ``seed`` played by ``runner``'s pair (both copies)."""
    return play_deals(runner, seed, range(deals), (0, 1) if duplicate else (0,))


def hands_from_folder(folder: Path, deals: int | None = None) -> Hands:
    """The saved hands of a run's report folder (``run --save-hands``), played again.

    Only the deals and outcomes are saved, so the engine plays the deals
    again with the run's strategies and seed; every hand must end as saved
    (otherwise a bot changed since the run, and the analysis would not be of
    the hands that were played). ``deals`` keeps the first so many deals.
    """
    from hokm_sim.bots.registry import resolve
    from hokm_sim.sim.runner import Runner

    folder = Path(folder)
    try:
        rec = jsontext.loads((folder / "summary.json").read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        raise InputError(f"{folder} is not a report folder: no readable summary.json") from None
    cfg = rec.get("config") if isinstance(rec, dict) else None
    if not isinstance(cfg, dict) or cfg.get("mode") != "hands" or "a" not in cfg:
        raise InputError(f"{folder} is not the report of a run of hands (hokm-sim run --hands)")
    path = folder / "hands.parquet"
    if not path.is_file():
        raise InputError(
            f"{folder} has no saved hands (hands.parquet): run with {ref('save_hands')}, "
            f"or analyse seeded deals with {ref('seed')}, {ref('hands')}, {ref('a')} and "
            f"{ref('b')}",
            "folder",
        )
    import pandas as pd

    try:
        saved = pd.read_parquet(path)
    except Exception as exc:  # pyarrow raises many kinds
        raise InputError(f"{path} cannot be read: {exc}") from None
    all_deals = np.unique(saved["deal"].to_numpy())
    chosen = all_deals[:deals] if deals is not None else all_deals
    copies = sorted(int(c) for c in saved["copy"].unique())
    runner = Runner(resolve(cfg["a"]), resolve(cfg["b"]))
    h = play_deals(runner, int(cfg["seed"]), chosen, copies)
    want = saved.set_index(["deal", "copy"])
    got = hand_points(h)
    for i, m in enumerate(h.meta):
        row = want.loc[(m["deal"], m["copy"])]
        if int(row["a_points"]) != int(got[i]):
            raise InputError(
                f"{folder}: deal {m['deal']} copy {m['copy']} now ends differently than in the "
                f"run: a bot or the engine changed since; analyse with {ref('seed')} instead",
                "folder",
            )
    return h
