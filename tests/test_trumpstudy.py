"""The counterfactual trump study, its learned table, plots and commands (small sizes)."""

from __future__ import annotations

import numpy as np
import pytest

from hokm_sim.analysis import trumpstudy as ts
from hokm_sim.bots.registry import import_bot_file, resolve
from hokm_sim.cards import CardSet, mask_of, parse_cards
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
            rows = runner.engine.trace_hands(
                runner.params_a, runner.params_b, np.uint64(8), d, 1, 0, s
            )
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
