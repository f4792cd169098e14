"""The counterfactual trump study, its learned table, plots and commands (small sizes)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from hokm_sim.analysis import trumpstudy as ts
from hokm_sim.bots.registry import import_bot_file, resolve
from hokm_sim.cards import CardSet, mask_of, parse_cards
from hokm_sim.engine.boundary import TraceHands
from hokm_sim.report import pages
from hokm_sim.sim.runner import Runner
from hokm_sim.sim.trace import row_to_record

PLAYER = "longest"


@pytest.fixture(scope="module")
def data() -> ts.StudyData:
    return ts.collect(resolve(PLAYER), [resolve("longest"), resolve("points")], seed=8, deals=3000)


def test_counterfactual_values_match_hands_played_with_that_trump(data):
    """Each stored value is the hand actually played with that trump (checked by hand)."""
    runner = Runner(resolve(PLAYER), resolve(PLAYER))
    for d in (0, 1, 2, 7):
        for s in range(4):
            rows = runner.engine.trace_hands(runner.params, TraceHands(8, d, 1, 0, s))
            rec = row_to_record(rows[0], 8)
            hakem_team = rec["hakem"] % 2
            sign = 1 if rec["winner_team"] == hakem_team else -1
            assert data.points[d, s] == sign * rec["points"]
            assert data.tricks[d, s] == rec["tricks_won"][hakem_team]
            assert rec["trump"] == "CDHS"[s]
        assert data.five[d] == mask_of(parse_cards(rec["first_five"]))
        assert data.hand[d] == mask_of(parse_cards(rec["hands"][rec["hakem"]]))


def test_heuristic_calls_are_their_own_choice(data):
    runner = Runner(resolve(PLAYER), resolve(PLAYER))
    rows = runner.trace_hands(8, 0, 50)
    # The player here is longest, so longest's call is the trump of the normal hand.
    assert list(data.calls["longest"][:50]) == [
        "CDHS".index(row_to_record(r, 8)["trump"]) for r in rows
    ]
    pts = import_bot_file(resolve("points").trump.path).choose_trump
    from hokm_sim.engine.view import V_HAND, VIEW_SIZE

    for i in range(20):
        view = np.zeros(VIEW_SIZE, np.int64)
        view[V_HAND] = data.five[i]
        got = pts(view, np.zeros(16), np.zeros(16, np.int64), np.zeros(4, np.uint64))
        assert got == data.calls["points"][i]


def test_heuristic_table_is_consistent(data):
    t = ts.heuristic_table(data)
    best = t["best in hindsight"]
    assert best["best_call_rate"]["value"] == 1.0 and best["regret"]["value"] == 0.0
    for name in ("longest", "points"):
        h = t[name]
        assert 0 <= h["best_call_rate"]["value"] <= 1
        assert h["regret"]["value"] >= 0
        assert h["points_per_hand"]["value"] <= best["points_per_hand"]["value"]
        v = data.points[np.arange(3000), data.calls[name]]
        assert h["hand_win_rate"]["value"] == pytest.approx((v > 0).mean())


def test_features_on_known_shapes():
    five = np.array([mask_of(parse_cards("AH QH 9H KC 4D"))], np.int64)
    assert ts.suit_counts(five).tolist() == [[1, 1, 3, 0]]
    assert ts.top_bucket(five).tolist() == [[2, 0, 3, 0]]
    assert ts.suit_keys(five).tolist() == [[6, 4, 15, 0]]
    assert int(ts.class_codes(ts.suit_keys(five))[0]) == ((15 * 24 + 6) * 24 + 4) * 24 + 0


def test_table_bot_lookups(tmp_path):
    """The table bot calls the learned suit for a known class, and falls back to length."""
    five = mask_of(parse_cards("AH QH 9H KC 4D"))
    keys = ts.suit_keys(np.array([five], np.int64))
    code = int(ts.class_codes(keys)[0])
    table = {"classes": [[code, 6, 10]]}  # key 6 = one card, K/Q top: the king of clubs
    bot = ts.write_table_bot(tmp_path, table)
    choose = import_bot_file(bot).choose_trump
    from hokm_sim.engine.view import V_HAND, VIEW_SIZE

    view = np.zeros(VIEW_SIZE, np.int64)
    view[V_HAND] = five
    args = (np.zeros(16), np.zeros(16, np.int64), np.zeros(4, np.uint64))
    assert choose(view, *args) == 0  # clubs, as the table says
    view[V_HAND] = mask_of(parse_cards("2S 3S 4S AD 5C"))  # an unseen class: longest = spades
    assert choose(view, *args) == 3
    assert repr(CardSet(int(view[V_HAND]))) == "{5C, AD, 2S, 3S, 4S}"


def test_learned_table_prefers_best_keys(data):
    t = ts.learn_table(data)
    assert t["deals"] == 3000 and len(t["classes"]) > 20
    codes = [c for c, _, _ in t["classes"]]
    assert codes == sorted(codes)
    assert sum(n for _, _, n in t["classes"]) == 3000


def test_longest_suit_breaks_ties_as_the_longest_bot(data):
    """The study's longest suit is the suit the longest bot calls in the engine.

    ``data.calls["longest"]`` are the engine's own calls: the study kernel asked
    the ``longest`` bot, as Hakem, for trump on each of the 3,000 deals.
    """
    got = ts.longest_suit(data.five)
    np.testing.assert_array_equal(got, data.calls["longest"])
    lengths = -np.sort(-ts.suit_counts(data.five), axis=1)
    assert (lengths[:, 0] == lengths[:, 1]).sum() > 100, "the tie-break was not exercised"
    # A worked tie: H and C hold two each; hearts have the higher ranks.
    five = np.array([mask_of(parse_cards("AH 9H KC 4C 2D"))], np.int64)
    bot = import_bot_file(resolve("longest").trump.path).choose_trump
    from hokm_sim.engine.view import V_HAND, VIEW_SIZE

    view = np.zeros(VIEW_SIZE, np.int64)
    view[V_HAND] = five[0]
    args = (np.zeros(16), np.zeros(16, np.int64), np.zeros(4, np.uint64))
    assert ts.longest_suit(five)[0] == bot(view, *args) == 2


def test_longest_honours_breakdown_counts_by_hand(data):
    out = ts.by_longest_honours(data)
    suit = ts.longest_suit(data.five)
    n = len(data.five)
    v = data.points[np.arange(n), suit]
    assert sum(row["all"]["n"] for row in out.values()) == n
    for length, row in out.items():
        assert sum(c["n"] for c in row["highs"].values()) == row["all"]["n"]
        assert sum(c["n"] for c in row["ace"].values()) == row["all"]["n"]
        assert all(int(h) <= int(length) for h in row["highs"])
    # Recount one cell by hand: length 3 with the ace.
    sel = [
        i
        for i in range(n)
        if bin((int(data.five[i]) >> (13 * int(suit[i]))) & 0x1FFF).count("1") == 3
        and (int(data.five[i]) >> (13 * int(suit[i]) + 12)) & 1
    ]
    cell = out["3"]["ace"]["held"]
    assert cell["n"] == len(sel)
    assert cell["points_per_hand"]["value"] == pytest.approx(v[sel].mean())
    assert cell["hand_win_rate"]["value"] == pytest.approx((v[sel] > 0).mean())


def test_blocks_and_threads_change_no_row(data, monkeypatch):
    """Deals played in blocks of 700 on one thread: the rows of one block on every thread
    (the fixture's), so a study stopped after k deals is the study of k deals."""
    monkeypatch.setattr(ts, "FIRST_BLOCK", 700)
    monkeypatch.setattr(ts, "BLOCK_SECONDS", 0.0)  # never grown: five blocks, the last short
    heur = [resolve("longest"), resolve("points")]
    small = ts.collect(resolve(PLAYER), heur, seed=8, deals=3000, threads=1)
    assert not small.partial and small.asked == 3000
    for field in ("five", "hand", "points", "tricks"):
        np.testing.assert_array_equal(getattr(small, field), getattr(data, field))
    for name in ("longest", "points"):
        np.testing.assert_array_equal(small.calls[name], data.calls[name])


def test_the_learned_tables_calls_are_the_table_bots(data, tmp_path):
    """The in-sample figure is computed from the calls the ``table`` bot makes: the same
    suit for every deal, classes the table holds and classes it falls back on."""
    table = ts.learn_table(ts.StudyData(**{**vars(data), "five": data.five[:500]}))
    calls = ts.table_calls(table, data.five[:1000])
    choose = import_bot_file(ts.write_table_bot(tmp_path, table)).choose_trump
    from hokm_sim.engine.view import V_HAND, VIEW_SIZE

    view = np.zeros(VIEW_SIZE, np.int64)
    args = (np.zeros(16), np.zeros(16, np.int64), np.zeros(4, np.uint64))
    for i in range(1000):
        view[V_HAND] = data.five[i]
        assert calls[i] == choose(view, *args), i
    codes = ts.class_codes(ts.suit_keys(data.five[500:1000]))
    assert not np.isin(codes, [c for c, _, _ in table["classes"]]).all(), "no fallback seen"
    # the in-sample gain: the table's call against the engine's own longest call
    full = ts.learn_table(data)
    gain = ts.learned_in_sample(data, full)
    rows = np.arange(len(data.five))
    want = (
        data.points[rows, ts.table_calls(full, data.five)]
        - data.points[rows, data.calls["longest"]]
    )
    assert gain["n"] == 3000 and gain["value"] == pytest.approx(want.mean())
    assert gain["low"] < gain["value"] < gain["high"]


def test_shared_deals_counts_the_deals_two_seeds_share():
    """Exact against a brute-force count of the deals' stream keys, whatever the seeds."""
    from hokm_sim.engine.rng import HAND_MUL

    m, mul = 1 << 64, int(HAND_MUL)
    rng = np.random.default_rng(3)
    for _ in range(200):
        a = int(rng.integers(0, 2**63)) * 2 + int(rng.integers(0, 2))
        shift = int(rng.integers(-40, 40))
        b = (a + shift * mul) % m if rng.random() < 0.8 else int(rng.integers(0, 2**63))
        na, nb = int(rng.integers(1, 60)), int(rng.integers(1, 60))
        keys_a = {(a + i * mul) % m for i in range(na)}
        keys_b = {(b + j * mul) % m for j in range(nb)}
        assert ts.shared_deals(a, na, b, nb) == len(keys_a & keys_b), (a, b, na, nb)
        assert ts.shared_deals(b, nb, a, na) == len(keys_a & keys_b)


def test_deals_with_one_stream_key_are_one_deal():
    """What :func:`shared_deals` counts is real: deal j of a seed 7 deals along is deal
    j + 7 of the first, card for card (the Hakem's seat turns with the index)."""
    from hokm_sim.engine.rng import HAND_MUL

    runner = Runner(resolve(PLAYER), resolve(PLAYER))
    moved = (8 + 7 * int(HAND_MUL)) % (1 << 64)
    base = [row_to_record(r, 8) for r in runner.trace_hands(8, 0, 12)]
    other = [row_to_record(r, moved) for r in runner.trace_hands(moved, 0, 5)]
    for j, rec in enumerate(other):
        same = base[j + 7]
        assert rec["first_five"] == same["first_five"]
        turn = lambda r: [r["hands"][(r["hakem"] + k) % 4] for k in range(4)]  # noqa: E731
        assert turn(rec) == turn(same)
    assert base[0]["first_five"] != other[0]["first_five"]
    assert ts.shared_deals(8, 12, moved, 5) == 5 and ts.shared_deals(8, 7, moved, 5) == 0


@pytest.mark.parametrize("seed", [0, 5, 2**62, 2**63 - 1, 2**63, 2**64 - 1, 0x1E3779B97F4A7C15])
def test_the_held_out_test_shares_no_deal_with_the_study(seed):
    """The learned table is judged on deals apart from those it was learned from: the
    held-out seed's deals and the study's share none, up to 4e17 deals each."""
    from hokm_sim.api import _eval_seed

    assert ts.shared_deals(seed, 4 * 10**17, _eval_seed(seed), 4 * 10**17) == 0


def test_a_heuristic_playing_a_learned_table_is_said_in_sample(data, tmp_path):
    """A ``table`` heuristic whose table was learned from the study's own deals (a study's
    table_bot.py played on the same seed) has its row marked in-sample; the built-in table,
    learned from another seed, does not; other bots play no table."""
    table = ts.learn_table(data)
    copy = resolve(str(ts.write_table_bot(tmp_path, table)))
    heur = [resolve("longest"), resolve("table"), copy]
    rows = ts.table_rows(heur, data)
    builtin = json.loads((ts.Path(resolve("table").trump.path).parent / "trump_table.json")
                         .read_text())  # fmt: skip
    assert rows == {
        "table": {"seed": builtin["seed"], "deals": builtin["deals"], "shared_deals": 0},
        copy.name: {"seed": 8, "deals": 3000, "shared_deals": 3000},
    }
    same_seed = ts.StudyData(**{**vars(data), "seed": builtin["seed"]})
    assert ts.table_rows(heur[1:2], same_seed)["table"]["shared_deals"] == 3000
    s = _summary(data)
    s["table_heuristics"] = rows
    s["heuristics"][copy.name] = s["heuristics"]["longest"]
    md = pages.trump_study(s, "cmd")
    assert f"| {copy.name} (in-sample) |" in md and "| longest |" in md
    assert "3,000 of this study's 3,000 deals are among them, so its row is in-sample" in md
    assert f"from {builtin['deals']:,} deals of seed {builtin['seed']}" in md
    assert "none of this study's deals: its row is held out" in md


def _summary(data: ts.StudyData, evaluation: dict | None = None) -> dict:
    """The fixture study's summary as ``_trump_report`` makes it, with ``evaluation`` as
    its held-out test."""
    s = ts.summarize(data, PLAYER)
    s["table_heuristics"] = {}
    table = ts.learn_table(data)
    s["table"] = {
        "classes": len(table["classes"]),
        "file": "trump_table.json",
        "in_sample": ts.learned_in_sample(data, table),
        "eval": evaluation,
    }
    return s


def _held_out(points: tuple[float, float, float], score: tuple[float, float, float]) -> dict:
    """A held-out test's record: its points per deal pair and pair score (value, low,
    high) over 1,000 deals, and its verdict line as ``_trump_report`` writes it."""
    from hokm_sim.report.markdown import verdict

    def est(v):
        return {"value": v[0], "low": v[1], "high": v[2], "n": 1000}

    d = {
        "a": {"name": "trump=learned table,play=longest"},
        "b": {"name": "trump=longest,play=longest"},
        "pair_score": est(score),
        "elo": est(tuple(-400 * np.log10(1 / x - 1) for x in score)),
        "nelo": {"value": None},
        "los": 0.005,
        "pairs": 1000,
    }
    return {
        "a": d["a"]["name"],
        "b": d["b"]["name"],
        "deals": 1000,
        "seed": 99,
        "shared_deals": 0,
        "points_per_pair": est(points),
        "pair_score": d["pair_score"],
        "elo": d["elo"],
        "verdict": verdict(d),
    }


def test_the_held_out_line_says_its_figures_once(data):
    """The verdict names the pair score, Elo and LOS once, after who is better."""
    e = _held_out((-0.05, -0.09, -0.01), (0.4992, 0.4985, 0.4999))
    md = pages.trump_study(_summary(data, e), "cmd")
    assert md.count("pair score") == 1 and md.count("0.4992") == 1 and md.count("LOS") == 1
    line = next(x for x in md.splitlines() if "pair score" in x)
    assert line == (
        "- hand wins on the fresh deals: trump=longest,play=longest (B) is better than "
        "trump=learned table,play=longest (A): pair score 0.4992 [0.4985, 0.4999], "
        "Elo -0.6 [-1.0, -0.1], LOS 0.5%"
    )


def test_the_learned_tables_in_sample_figure_stands_beside_the_held_out_one(data):
    """The gain the table shows on the deals it was learned from is labelled in-sample and
    shown next to its gain on fresh deals, and the report says whether it held up."""
    inside = _summary(data)["table"]["in_sample"]
    assert inside["value"] > 0.05  # 3,000 deals, ~150 classes: flattered in-sample
    score = (0.49, 0.48, 0.50)
    cases = {
        (-0.05, -0.09, -0.01): "**The learned table did not hold up**: on fresh deals it "
        "loses points to `longest`. Its in-sample gain lies above the held-out interval",
        (-0.01, -0.05, +0.03): "On fresh deals no clear difference from `longest`: the "
        "in-sample gain is not confirmed. Its in-sample gain lies above",
        (+0.09, +0.05, +0.13): "The learned table held up: it gains over `longest` on fresh "
        "deals too.",
    }
    for points, said in cases.items():
        md = pages.trump_study(_summary(data, _held_out(points, score)), "cmd")
        assert said in md, points
        rows = [x for x in md.splitlines() if x.startswith(("| in the study", "| on fresh"))]
        assert rows == [
            "| in the study (in-sample: the deals it was learned from) | "
            f"+{inside['value']:.4f} [+{inside['low']:.4f}, +{inside['high']:.4f}] | 3,000 |",
            "| on fresh deals (held out: seed 99, in duplicate; none of them the study's) | "
            f"{points[0]:+.4f} [{points[1]:+.4f}, {points[2]:+.4f}] | 1,000 |",
        ]
    md = pages.trump_study(_summary(data), "cmd")  # stopped before its test
    assert "| in the study (in-sample" in md and "| on fresh" not in md
    assert "The table was not tested on fresh deals: an in-sample figure flatters it" in md


def test_cells_of_too_few_hands_show_their_count_only(data):
    """A cell of fewer than MIN_CELL hands has no interval in the summary and shows "—"
    and its count in the report, where a handful of equal values once read as certain."""
    s = ts.summarize(data, PLAYER)
    cells = [c for row in s["by_longest_honours"].values()
             for c in [row["all"], *row["highs"].values(), *row["ace"].values()]]  # fmt: skip
    few = [c for c in cells if c["n"] < ts.MIN_CELL]
    assert few and len(few) < len(cells)
    for c in cells:
        pts = c["points_per_hand"]
        assert (pts["low"] is None) == (c["n"] < ts.MIN_CELL)
    heat_n = np.array(s["ace_vs_length"]["heat_counts"])
    low = np.array(s["ace_vs_length"]["heat_low"], dtype=float)
    assert ((heat_n > 0) & (heat_n < ts.MIN_CELL)).any()
    assert (np.isnan(low) == (heat_n < ts.MIN_CELL)).all()
    md = pages.trump_study(_summary(data), "cmd")
    row5 = next(x for x in md.splitlines() if x.startswith("| 5 |")).split(" | ")[1:]
    n5 = s["by_longest_honours"]["5"]["all"]["n"]
    assert n5 < ts.MIN_CELL and row5[0] == f"— ({n5:,})" and row5[1] == "—"
    shown = [c.strip(" |") for c in row5 if c.strip(" |")]
    assert shown and all(c.startswith("—") for c in shown)
    for c in few:
        assert f"— ({c['n']:,})" in md
    assert "fewer than 30 hands shows — and its count" in md


def test_the_command_prints_the_tables_in_columns_and_the_report_path(data, tmp_path, monkeypatch):
    """``trump-study`` prints what it found and where the report is, not report.md: no
    markdown table rules, code fences, figure links or emphasis."""
    from click.testing import CliRunner

    from hokm_sim import api
    from hokm_sim.analysis.results import TrumpStudyResult
    from hokm_sim.cli import main
    from hokm_sim.report.markdown import cell

    s = _summary(data, _held_out((-0.05, -0.09, -0.01), (0.49, 0.48, 0.50)))
    result = TrumpStudyResult(s)
    result.folder = tmp_path

    monkeypatch.setattr(api, "trump_study", lambda *args, **kwargs: result)
    res = CliRunner().invoke(main, ["trump-study", "--hands", "10"])
    assert res.exit_code == 0, res.output
    out = res.stdout.splitlines()
    assert out[-1] == f"report: {tmp_path}"
    for mark in ("|", "```", "![", "**", "`", "#"):
        assert mark not in res.stdout, mark
    head = next(i for i, x in enumerate(out) if x.startswith("heuristic "))
    assert [x.split()[0] for x in out[head + 1 : head + 3]] == ["longest", "points"]
    assert out[head].index("best call") == out[head + 1].index(
        cell(s["heuristics"]["longest"]["best_call_rate"])
    )  # aligned columns
    assert "The learned table did not hold up: on fresh deals it loses points" in res.stdout
