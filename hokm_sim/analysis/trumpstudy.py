"""The Hakem's question: with these five cards, which suit should I call?

Every seeded deal is played four times, once with each suit as trump, with
the same bots in every seat (:func:`collect`); each heuristic is asked only
for its call. From that, per heuristic: how often it calls the best suit in
hindsight, the points it gives up against the best (regret), its hand-win,
Kot and points as Hakem, and breakdowns by the five-card shape. A learned
table (:func:`learn_table`) maps each abstracted five-card class to the best
call; the ``table`` bot plays it. All values are the Hakem team's signed
points of the hand (-3 .. +2).

A table's figures on the deals it was learned from are in-sample: each class's
call is the one that scored best on those very deals, so they flatter it. The
study says which figures are in-sample (:func:`learned_in_sample`,
:func:`table_rows`) and judges the table it learns on fresh deals only, whose
streams it checks share no deal with the study's (:func:`shared_deals`).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from hokm_sim.analysis.summary import rate
from hokm_sim.bots.botkit import suit_counts_rank_sums
from hokm_sim.bots.registry import BotFile, Strategy
from hokm_sim.engine.boundary import STUDY_COLUMNS
from hokm_sim.engine.rng import HAND_MUL
from hokm_sim.errors import StoppedError
from hokm_sim.sim.backends import Backend, open_backend
from hokm_sim.sim.interrupt import graceful_interrupt
from hokm_sim.sim.runner import HAND_CHUNK, Runner


@dataclass
class StudyData:
    """Per-deal arrays of a study: masks, values of each trump, each heuristic's call."""

    seed: int
    five: np.ndarray  # int64 [N]: the Hakem's first five cards
    hand: np.ndarray  # int64 [N]: the Hakem's 13 cards
    points: np.ndarray  # int64 [N, 4]: Hakem team's signed points with trump C, D, H, S
    tricks: np.ndarray  # int64 [N, 4]: Hakem team's tricks
    calls: dict[str, np.ndarray]  # heuristic -> int64 [N] suit called
    asked: int = 0
    """Deals asked for: more than ``N`` when the study was stopped (Ctrl-C, a bot fault)."""

    @property
    def partial(self) -> bool:
        """True when the study stopped before its last deal: it covers deals ``0 .. N-1``."""
        return self.asked > len(self.five)


@dataclass(frozen=True)
class StudyChunk:
    """The backend task of a study: the rows of one range of deals
    (:meth:`~hokm_sim.sim.runner.Runner.study`)."""

    seed: int
    suits: bool

    def __call__(self, runner: Runner, start: int, count: int) -> np.ndarray:
        return runner.study(self.seed, start, count, self.suits)


def collect_rows(
    backend: Backend,
    runner: Runner,
    seed: int,
    n: int,
    suits: bool,
    progress: Callable[[int], None] | None,
    start: int = 0,
) -> np.ndarray:
    """Study rows of deals ``start .. start + n - 1`` played by ``runner`` (a strategy in
    every seat), placed by deal index: each row depends only on its deal, so they are the
    same whatever the backend or task size."""
    out = np.zeros((n, STUDY_COLUMNS), np.int64)
    task = StudyChunk(seed, suits)
    for s, rows in backend.map(runner, task, [(start, n)], ordered=False):
        out[s - start : s - start + len(rows)] = rows
        if progress:
            progress(len(rows) * (4 if suits else 1))
    return out


FIRST_BLOCK = 2 * HAND_CHUNK
"""Deals of a study's first block; blocks then double while one takes under half of
:data:`BLOCK_SECONDS`."""
BLOCK_SECONDS = 2.0
"""About how long a block of deals takes at most once grown: a block (the player's four
hands of each deal and every heuristic's calls) is what a stop keeps or loses."""


def callers(player: Strategy, heuristics: list[Strategy]) -> list[Strategy]:
    """Each heuristic's trump call with ``player``'s card play: the strategy whose calls
    the study asks for (only the call is asked, so the play is the one compiled already)."""
    return [
        Strategy(
            name=h.name,
            trump=h.trump,
            play=player.play,
            trump_params=h.trump_params,
            play_params=player.play_params,
        )
        for h in heuristics
    ]


def collect(
    player: Strategy,
    heuristics: list[Strategy],
    seed: int,
    deals: int,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    scheduler: str | None = None,
) -> StudyData:
    """Play every deal with each trump (``player`` in all seats) and ask each heuristic.

    ``scheduler`` (``local:N`` or a Dask address) plays the deals as Dask
    tasks instead of on this machine's ``threads``; the rows are the same.
    The deals are played in blocks, in index order, each block's rows and
    every heuristic's calls before the next block: the first Ctrl-C stops
    after the block in flight (a second one, or a block that will not end,
    at once) and the study covers the blocks finished, deals ``0 .. k-1``,
    exactly the study of ``k`` deals (``asked`` says how many were asked
    for). A bot fault raises :class:`StoppedError` with that shorter study
    as its ``partial`` (None if no block had finished); a stop before the
    first block finished raises KeyboardInterrupt.
    """
    asking = callers(player, heuristics)
    out = np.zeros((deals, STUDY_COLUMNS), np.int64)
    calls = {c.name: np.zeros(deals, np.int64) for c in asking}
    done = 0

    def so_far() -> StudyData:
        got = out[:done]
        chosen = {name: c[:done] for name, c in calls.items()}
        return StudyData(seed, got[:, 0], got[:, 1], got[:, 3:7], got[:, 7:11], chosen, deals)

    playing = Runner(player, player)  # each built once, for every block
    calling = {c.name: Runner(c, c) for c in asking}
    if scheduler is None:  # compile every engine before Ctrl-C means "stop"
        for r in [playing, *calling.values()]:
            r.study(seed, 0, 0, r is playing)
    size = FIRST_BLOCK
    try:
        with graceful_interrupt() as flag, open_backend(scheduler, threads) as backend:
            while done < deals:
                n = min(size, deals - done)
                t0 = time.perf_counter()
                rows = collect_rows(backend, playing, seed, n, True, progress, done)
                for name, r in calling.items():
                    got = collect_rows(backend, r, seed, n, False, progress, done)
                    calls[name][done : done + n] = got[:, 2]
                out[done : done + n] = rows
                done += n
                if flag.stop:
                    break
                if time.perf_counter() - t0 < BLOCK_SECONDS / 2:
                    size *= 2
    except StoppedError as exc:
        exc.partial = so_far() if done else None  # the blocks before the fault
        raise
    except KeyboardInterrupt:  # a second Ctrl-C, or a block left running (Abandoned)
        if not done:
            raise
    return so_far()


# --- features of five cards (vectorized) ------------------------------------


def suit_counts(masks: np.ndarray) -> np.ndarray:
    """[N, 4] cards per suit."""
    return np.stack(
        [np.bitwise_count((masks >> (13 * s)) & 0x1FFF) for s in range(4)], axis=1
    ).astype(np.int64)


def suit_has(masks: np.ndarray, rank: int) -> np.ndarray:
    """[N, 4] whether each suit holds the card of ``rank`` (12 = ace)."""
    return np.stack([(masks >> (13 * s + rank)) & 1 for s in range(4)], axis=1).astype(bool)


def top_bucket(masks: np.ndarray) -> np.ndarray:
    """[N, 4] 3 if the suit holds the ace, 2 its top is K/Q, 1 J/T, 0 lower or empty."""
    out = np.zeros((len(masks), 4), np.int64)
    for s in range(4):
        bits = (masks >> (13 * s)) & 0x1FFF
        top = np.where(bits > 0, np.floor(np.log2(np.maximum(bits, 1))).astype(np.int64), -1)
        out[:, s] = np.select([top == 12, top >= 10, top >= 8], [3, 2, 1], 0)
    return out


def suit_keys(five: np.ndarray) -> np.ndarray:
    """[N, 4] abstract key of each suit among the five: ``count * 4 + top bucket``."""
    return suit_counts(five) * 4 + top_bucket(five)


def class_codes(keys: np.ndarray) -> np.ndarray:
    """[N] code of a five-card class: the four suit keys sorted, in base 24."""
    k = -np.sort(-keys, axis=1)
    return ((k[:, 0] * 24 + k[:, 1]) * 24 + k[:, 2]) * 24 + k[:, 3]


# --- statistics --------------------------------------------------------------

MIN_CELL = 30
"""Fewest hands in a cell of the study's tables and figures for its value to be shown.

A mean of fewer hands gets no interval (``low``/``high`` null in ``summary.json``:
``mean ± 1.96 s / sqrt(n)`` needs many values, and four equal values would give the
zero-width interval of a certainty), and the report and the figures show such a cell
as its count only, marked, whatever its estimate."""


def too_few(e: dict[str, Any] | None) -> bool:
    """Whether a cell (an estimate with its count ``n``) holds fewer than
    :data:`MIN_CELL` hands; one without a count is not judged."""
    return e is not None and e.get("n") is not None and e["n"] < MIN_CELL


def _mean_ci(x: np.ndarray) -> dict[str, Any]:
    n = int(x.size)
    if n == 0:
        return {"value": None, "low": None, "high": None, "n": 0}
    m = float(x.mean())
    if n < MIN_CELL:
        return {"value": m, "low": None, "high": None, "n": n}
    half = 1.96 * float(x.std(ddof=1)) / math.sqrt(n)
    return {"value": m, "low": m - half, "high": m + half, "n": n}


def _chosen(data: StudyData, name: str) -> np.ndarray:
    return data.points[np.arange(len(data.five)), data.calls[name]]


def heuristic_table(data: StudyData) -> dict[str, Any]:
    """Per heuristic (and the hindsight best): hits, regret, win, Kot, points as Hakem."""
    best = data.points.max(axis=1)
    out = {}
    for name in list(data.calls) + ["best in hindsight"]:
        v = best if name == "best in hindsight" else _chosen(data, name)
        n = len(v)
        out[name] = {
            "best_call_rate": rate(int((v == best).sum()), n),
            "regret": _mean_ci((best - v).astype(float)),
            "hand_win_rate": rate(int((v > 0).sum()), n),
            "kot_rate": rate(int((v == 2).sum()), n),
            "points_per_hand": _mean_ci(v.astype(float)),
        }
    return out


def by_longest(data: StudyData) -> dict[str, Any]:
    """Win rate and points per heuristic by the length of the longest suit among the five."""
    length = suit_counts(data.five).max(axis=1)
    out: dict[str, Any] = {}
    for name in data.calls:
        v = _chosen(data, name)
        out[name] = {
            str(L): {
                "hand_win_rate": rate(int((v[length == L] > 0).sum()), int((length == L).sum())),
                "points_per_hand": _mean_ci(v[length == L].astype(float)),
            }
            for L in range(1, 6)
        }
    return out


def longest_suit(five: np.ndarray) -> np.ndarray:
    """[N] the suit the ``longest`` bot calls from each five cards (its own rule:
    most cards, ties by higher rank sum, then lower suit), so the breakdowns below
    describe the suit that bot calls."""
    out = np.empty(len(five), np.int64)
    _longest_nb(np.ascontiguousarray(five, dtype=np.int64), out)
    return out


@njit(cache=True)
def _longest_nb(five, out):
    for i in range(five.size):
        out[i] = suit_counts_rank_sums(five[i])[0]


def _call_cell(v: np.ndarray, best: np.ndarray) -> dict[str, Any]:
    return {
        "n": int(v.size),
        "points_per_hand": _mean_ci(v.astype(float)),
        "hand_win_rate": rate(int((v > 0).sum()), int(v.size)),
        "best_call_rate": rate(int((v == best).sum()), int(v.size)),
        "regret": _mean_ci((best - v).astype(float)),
    }


def by_longest_honours(data: StudyData) -> dict[str, Any]:
    """Calling the longest suit, by its length and the high cards held in it.

    For each length L (1..5) of the longest suit among the five (ties as the
    ``longest`` bot breaks them): the value of calling it split by how many
    of A K Q J it holds (``highs``) and by whether it holds the ace
    (``ace``). Each cell has its deal count, points per hand, hand-win rate,
    how often it was the best call in hindsight and the regret, with
    intervals; cells with no deal are left out.
    """
    n = len(data.five)
    suit = longest_suit(data.five)
    bits = (data.five >> (13 * suit)) & 0x1FFF
    length = np.bitwise_count(bits).astype(np.int64)
    highs = np.bitwise_count(bits >> 9).astype(np.int64)
    ace = ((bits >> 12) & 1).astype(bool)
    v = data.points[np.arange(n), suit]
    best = data.points.max(axis=1)
    out: dict[str, Any] = {}
    for L in range(1, 6):
        at = length == L
        if not at.any():
            continue
        out[str(L)] = {
            "all": _call_cell(v[at], best[at]),
            "highs": {
                str(h): _call_cell(v[at & (highs == h)], best[at & (highs == h)])
                for h in range(5)
                if (at & (highs == h)).any()
            },
            "ace": {
                key: _call_cell(v[at & (ace == held)], best[at & (ace == held)])
                for key, held in (("held", True), ("not_held", False))
                if (at & (ace == held)).any()
            },
        }
    return out


def ace_vs_length(data: StudyData) -> dict[str, Any]:
    """Calling the suit with k cards (no ace) against the suit holding the ace.

    ``heat[k][j]``: mean over deals whose five hold a suit of k cards without
    the ace and the ace in a suit of j cards, of ``points(k-suit) -
    points(ace suit)``; ``heat_low``/``heat_high`` its 95% interval (null
    below :data:`MIN_CELL` values), ``heat_counts`` the values. ``alone``:
    the ace alone (j = 1) against three or four small cards (nothing above
    the ten), with a paired interval.
    """
    counts = suit_counts(data.five)
    aces = suit_has(data.five, 12)
    tops = top_bucket(data.five)
    n = len(data.five)
    rows = np.arange(n)
    has_ace = aces.any(axis=1)
    ace_suit = np.argmax(aces, axis=1)
    ace_len = counts[rows, ace_suit]
    cells: list[list[dict[str, Any]]] = []
    for k in range(1, 6):
        cells.append([])
        for j in range(1, 6):
            diffs = []
            for s in range(4):
                sel = has_ace & (counts[:, s] == k) & ~aces[:, s] & (ace_len == j)
                diffs.append(data.points[sel, s] - data.points[sel, ace_suit[sel]])
            cells[-1].append(_mean_ci(np.concatenate(diffs).astype(float)))
    alone = {}
    for k in (3, 4):
        diffs = []
        for s in range(4):
            sel = (
                has_ace
                & (ace_len == 1)
                & (counts[:, s] == k)
                & (tops[:, s] <= 1)
                & ~((data.five >> (13 * s + 9)) & 1).astype(bool)
            )
            diffs.append(data.points[sel, s] - data.points[sel, ace_suit[sel]])
        d = np.concatenate(diffs).astype(float)
        alone[str(k)] = _mean_ci(d)
    return {
        "heat": [[c["value"] for c in row] for row in cells],
        "heat_low": [[c["low"] for c in row] for row in cells],
        "heat_high": [[c["high"] for c in row] for row in cells],
        "heat_counts": [[c["n"] for c in row] for row in cells],
        "small_cards_minus_ace_alone": alone,
    }


def outcomes_by_length(data: StudyData) -> dict[str, Any]:
    """Share of Hakem Kot, loss, win and Kot by the trump's length in the Hakem's 13 cards.

    ``at_most`` holds the Wilson rate of each share summed with those below it
    (Hakem Kot; lost or worse; anything but Kot): the boundaries of a stacked
    bar of the four shares, each with its interval.
    """
    length = suit_counts(data.hand)  # [N, 4]
    out = {}
    for L in range(0, 14):
        sel = length == L
        v = data.points[sel]
        if v.size == 0:
            continue
        n = int(v.size)
        below = np.cumsum([int((v == x).sum()) for x in (-3, -1, 1)])
        out[str(L)] = {
            "n": n,
            "hakem_kot": float((v == -3).mean()),
            "loss": float((v == -1).mean()),
            "win": float((v == 1).mean()),
            "kot": float((v == 2).mean()),
            "at_most": {
                key: rate(int(k), n)
                for key, k in zip(("hakem_kot", "loss", "win"), below, strict=True)
            },
        }
    return out


# --- the learned trump table ---------------------------------------------------


def learn_table(data: StudyData) -> dict[str, Any]:
    """Best call for every five-card class seen: the suit key with the highest mean value."""
    keys = suit_keys(data.five)
    codes = class_codes(keys)
    table: dict[int, dict[int, list[float]]] = {}
    order = np.argsort(codes, kind="stable")
    codes_s, keys_s, pts_s = codes[order], keys[order], data.points[order]
    bounds = np.flatnonzero(np.diff(codes_s)) + 1
    for lo, hi in zip(np.r_[0, bounds], np.r_[bounds, len(codes_s)], strict=True):
        kk, pp = keys_s[lo:hi].ravel(), pts_s[lo:hi].ravel().astype(float)
        sums = np.bincount(kk, weights=pp, minlength=24)
        cnt = np.bincount(kk, minlength=24)
        mean = np.where(cnt > 0, sums / np.maximum(cnt, 1), -np.inf)
        table[int(codes_s[lo])] = {"best": int(np.argmax(mean)), "deals": int(hi - lo)}
    return {
        "about": "best trump call per five-card class; key of a suit = count * 4 + top "
        "(3 ace, 2 K/Q, 1 J/T, 0 lower); class = the four keys sorted, base 24",
        "seed": data.seed,
        "deals": int(len(codes)),
        "classes": [[c, v["best"], v["deals"]] for c, v in sorted(table.items())],
    }


def table_calls(table: dict[str, Any], five: np.ndarray) -> np.ndarray:
    """[N] the suit the ``table`` bot playing ``table`` calls from each five cards: the
    first suit whose key is its class's best, the longest suit for a class not in it."""
    longest = longest_suit(five)
    if not table["classes"]:
        return longest
    keys = suit_keys(five)
    codes = class_codes(keys)
    rows = np.array([row[:2] for row in table["classes"]], np.int64)
    at = np.minimum(np.searchsorted(rows[:, 0], codes), len(rows) - 1)
    match = keys == rows[at, 1][:, None]
    found = (rows[at, 0] == codes) & match.any(axis=1)
    return np.where(found, np.argmax(match, axis=1), longest)


def learned_in_sample(data: StudyData, table: dict[str, Any]) -> dict[str, Any]:
    """Points per deal the learned ``table`` gains over the ``longest`` rule on ``data``,
    the deals it was learned from: an in-sample figure, which flatters the table (each
    class's call is the one that scored best on these very deals)."""
    rows = np.arange(len(data.five))
    learned = data.points[rows, table_calls(table, data.five)]
    return _mean_ci((learned - data.points[rows, longest_suit(data.five)]).astype(float))


def shared_deals(seed_a: int, n_a: int, seed_b: int, n_b: int) -> int:
    """How many of deals ``0 .. n_a - 1`` of seed ``seed_a`` are among deals
    ``0 .. n_b - 1`` of seed ``seed_b``, exactly.

    Deal ``i`` of seed ``s`` is shuffled from the stream keyed ``s + i * HAND_MUL``
    (mod 2**64, :func:`hokm_sim.engine.rng.seed_stream`): the same key, the same cards
    (the Hakem's seat may differ, the deal as the Hakem sees it does not). Deal ``i`` of
    ``seed_a`` is deal ``j`` of ``seed_b`` exactly when ``i - j`` is ``(seed_b - seed_a)
    / HAND_MUL`` mod 2**64 (``HAND_MUL`` is odd, so it divides), one offset for every
    pair of seeds.
    """
    m = 1 << 64
    d = (seed_b - seed_a) * pow(int(HAND_MUL), -1, m) % m
    t = d - m if d >= m // 2 else d  # i - j: sizes are below 2**62, so no other offset fits
    return max(0, min(n_b, n_a - t) - max(0, -t))


def table_of(bot: BotFile) -> dict[str, Any] | None:
    """The table a trump bot plays, when it is the ``table`` bot (the built-in one or a
    study's copy of it): the ``trump_table.json`` beside it, which says the seed and the
    number of deals it was learned from. None for any other bot."""
    from hokm_sim.bots.registry import builtin_dir

    if bot.kind != "numba":
        return None
    path = Path(bot.path)
    beside = path.parent / "trump_table.json"
    if not path.is_file() or not beside.is_file():
        return None
    if path.read_bytes() != (builtin_dir() / "table.py").read_bytes():
        return None
    return json.loads(beside.read_text())


def table_rows(heuristics: list[Strategy], data: StudyData) -> dict[str, Any]:
    """Per heuristic that calls trump from a learned table: the seed and the number of
    deals its table was learned from, and how many of the study's deals are among those
    (``shared_deals``: above 0, the heuristic's row of the study is in-sample; null when
    the table does not say where it was learned)."""
    out = {}
    for h in heuristics:
        table = table_of(h.trump)
        if table is None:
            continue
        seed, deals = table.get("seed"), table.get("deals")
        known = isinstance(seed, int) and isinstance(deals, int)
        out[h.name] = {
            "seed": seed,
            "deals": deals,
            "shared_deals": shared_deals(seed, deals, data.seed, len(data.five)) if known else None,
        }
    return out


def write_table_bot(folder: Path, table: dict[str, Any]) -> Path:
    """Write ``trump_table.json`` and a copy of the ``table`` bot beside it; return the bot."""
    from hokm_sim.bots.registry import builtin_dir
    from hokm_sim.writing import atomic_text

    atomic_text(folder / "trump_table.json", json.dumps(table) + "\n")
    bot = folder / "table_bot.py"
    atomic_text(bot, (builtin_dir() / "table.py").read_text())
    return bot


def table_strategy(table: dict[str, Any], player: Strategy) -> Strategy:
    """The learned table as a strategy: its trump call, ``player``'s card play.

    The bot plays from a copy in the cache named by the digest of the table,
    so that a study run again (the command its report records) plays the
    same engine, compiled once; a report folder gets a copy of its own to
    keep (:func:`write_table_bot`).
    """
    import hashlib

    from hokm_sim.bots.compiled import cache_dir
    from hokm_sim.bots.registry import resolve

    digest = hashlib.sha256(json.dumps(table).encode()).hexdigest()[:16]
    learned = resolve(str(write_table_bot(cache_dir() / "tables" / digest, table)))
    return Strategy(
        name="trump=learned table,play=" + player.name,
        trump=learned.trump,
        play=player.play,
        play_params=player.play_params,
    )


def summarize(data: StudyData, player: str) -> dict[str, Any]:
    """Everything the report and the plots need, JSON-ready."""
    return {
        "seed": data.seed,
        "deals": int(len(data.five)),
        "hands": int(4 * len(data.five)),
        "player": player,
        "heuristics": heuristic_table(data),
        "by_longest": by_longest(data),
        "by_longest_honours": by_longest_honours(data),
        "ace_vs_length": ace_vs_length(data),
        "outcomes_by_trump_length": outcomes_by_length(data),
        "point_of_view": "the Hakem's team; points are signed (-3 Hakem Kot .. +2 Kot)",
    }
