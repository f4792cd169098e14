"""The double-dummy solver against a plain minimax, symmetries and hand-made deals.

The oracle (``dd_minimax``) tries every legal card of every seat with no
pruning; thousands of random endings of up to four cards a hand (and some of
five), some in the middle of a trick, must get the same trick counts and Kot
answers. Longer endings (five to seven cards, where the table's entries
serve positions other than their own) must get the same answers with the
table as without it. Rotating
the seats swaps the teams' counts; renaming the suits changes nothing.
Hand-made deals have answers that follow from the rules alone.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from dd_minimax import team0_tricks, team_run, trick_winner
from dds_ref import most_tricks

from hokm_sim.cards import card_str, cards_of, mask_of, parse_cards
from hokm_sim.cli import main
from hokm_sim.dd.api import Deal, analyse, can_reach, card_values, parse_deal, tricks
from hokm_sim.dd.bits import pdep, pdep_loop, pext, pext_loop
from hokm_sim.dd.deals import engine_deals
from hokm_sim.dd.solver import reach_nb, tricks_nb
from hokm_sim.dd.table import new_table


def _random_ending(rng: np.random.Generator, n: int):
    """Hands of ``n`` cards, trump, leader and a random legal start of the current trick."""
    deck = rng.permutation(52)[: 4 * n]
    hands = [set(int(c) for c in deck[n * s : n * s + n]) for s in range(4)]
    trump = int(rng.integers(4))
    leader = int(rng.integers(4))
    trick: list[int] = []
    for k in range(int(rng.integers(4)) if n > 1 else 0):
        seat = (leader + k) % 4
        led = trick[0] // 13 if trick else -1
        legal = sorted([c for c in hands[seat] if c // 13 == led] or hands[seat])
        c = legal[int(rng.integers(len(legal)))]
        hands[seat].discard(c)
        trick.append(c)
    return tuple(frozenset(h) for h in hands), trump, leader, trick


def _solve(hands, trump, leader, trick, team, tt):
    arr = np.array([mask_of(h) for h in hands], np.int64)
    t = np.zeros(3, np.int64)
    t[: len(trick)] = trick
    return tricks_nb(arr, trump, leader, t, len(trick), team, tt[0], tt[1], np.zeros(1, np.int64))


def test_pext_pdep_agree_with_the_loops():
    rng = np.random.default_rng(5)
    for _ in range(300):
        x, m = (int(v) for v in rng.integers(0, 2**52, 2))
        assert pext(x, m) == pext_loop(x, m)
        assert pdep(x, m) == pdep_loop(x, m)
        assert pext(pdep(x, m), m) == x & ((1 << bin(m).count("1")) - 1)


def _sizes(rng: np.random.Generator, count: int, fours: int) -> list[int]:
    """Hand sizes: ``count`` endings of 1-3 cards and ``fours`` of 4 (the oracle's cost)."""
    return [int(rng.integers(1, 4)) for _ in range(count)] + [4] * fours


def test_solver_agrees_with_minimax_on_random_endings():
    rng = np.random.default_rng(11)
    tt = new_table(16)  # shared on purpose: entries of one deal must never mislead another
    for n in _sizes(rng, 2000, 120):
        hands, trump, leader, trick = _random_ending(rng, n)
        want = team0_tricks(hands, trump, leader, tuple(trick))
        nrem = len(hands[(leader + len(trick)) % 4])
        assert _solve(hands, trump, leader, trick, 0, tt) == want, (hands, trump, leader, trick)
        assert _solve(hands, trump, leader, trick, 1, tt) == nrem - want


def test_kot_search_agrees_with_minimax_runs():
    rng = np.random.default_rng(12)
    keys, vals = new_table(16)
    stats = np.zeros(1, np.int64)
    for n in _sizes(rng, 400, 30):
        hands, trump, leader, trick = _random_ending(rng, n)
        arr = np.array([mask_of(h) for h in hands], np.int64)
        t = np.zeros(3, np.int64)
        t[: len(trick)] = trick
        nrem = len(hands[(leader + len(trick)) % 4])
        for team in (0, 1):
            run = team_run(hands, trump, leader, team, tuple(trick))
            for need in range(1, nrem + 1):
                got = reach_nb(
                    arr, trump, leader, t, len(trick), team, need, True, keys, vals, stats
                )
                assert got == (run >= need), (hands, trump, leader, trick, team, need)


def test_solver_agrees_with_minimax_on_five_card_endings():
    # Five cards a hand: table entries match other positions, small cards
    # are skipped and suits are drawn, all checked against the plain minimax.
    rng = np.random.default_rng(15)
    tt = new_table(12)
    keys, vals = new_table(12)
    stats = np.zeros(1, np.int64)
    for i in range(16):
        hands, trump, leader, trick = _random_ending(rng, 5)
        want = team0_tricks(hands, trump, leader, tuple(trick))
        assert _solve(hands, trump, leader, trick, 0, tt) == want, (hands, trump, leader, trick)
        if i % 8 == 0:
            team = i // 8 % 2
            run = team_run(hands, trump, leader, team, tuple(trick))
            arr = np.array([mask_of(h) for h in hands], np.int64)
            t = np.zeros(3, np.int64)
            t[: len(trick)] = trick
            for need in range(1, 6):
                args = (arr, trump, leader, t, len(trick), team, need, True)
                got = reach_nb(*args, keys, vals, stats)
                assert got == (run >= need), (hands, trump, leader, trick, team, need)


def test_abstracted_table_agrees_with_the_search_without_a_table():
    # Table entries hold for every position that agrees on the cards a result
    # rests on: with five to seven cards a hand they match positions other
    # than their own. A small table also fills up and starts afresh.
    rng = np.random.default_rng(14)
    off = new_table(-1)
    tables = [new_table(18), new_table(6)]
    stats = np.zeros(1, np.int64)
    for i in range(4000):
        n = int(rng.integers(5, 8))
        hands, trump, leader, trick = _random_ending(rng, n)
        want = _solve(hands, trump, leader, trick, 0, off)
        tt = tables[i % 2]
        assert _solve(hands, trump, leader, trick, 0, tt) == want, (hands, trump, leader, trick)
        arr = np.array([mask_of(h) for h in hands], np.int64)
        t = np.zeros(3, np.int64)
        t[: len(trick)] = trick
        for team in (0, 1):
            need = int(rng.integers(1, n + 1))
            args = (arr, trump, leader, t, len(trick), team, need, True)
            got = reach_nb(*args, tt[0], tt[1], stats)
            assert got == reach_nb(*args, off[0], off[1], stats), (hands, trump, leader, trick)


def test_trump_heavy_endings_agree_with_minimax():
    # Half the cards trumps: the trump bounds (a run split between the two
    # hands, a guarded second trump over the top one, the second and third
    # trumps) and partner's ruffs come up often.
    rng = np.random.default_rng(21)
    tt = new_table(14)
    for _ in range(250):
        n = int(rng.integers(2, 5))
        trump = int(rng.integers(4))
        trumps = rng.permutation(13)[: 2 * n] + 13 * trump
        others = rng.permutation([c for c in range(52) if c // 13 != trump])[: 2 * n]
        deck = rng.permutation(np.concatenate([trumps, others]))
        hands = tuple(frozenset(int(c) for c in deck[n * s : n * s + n]) for s in range(4))
        leader = int(rng.integers(4))
        want = team0_tricks(hands, trump, leader, ())
        assert _solve(hands, trump, leader, [], 0, tt) == want, (hands, trump, leader)
        assert _solve(hands, trump, leader, [], 1, tt) == n - want


def test_trick_counts_agree_with_dds():
    # DDS (bridge's double-dummy solver, through endplay) answers the same
    # question for a bridge deal with a trump suit: the most tricks the side
    # on lead can take.
    pytest.importorskip("endplay")
    hands, hakem, _ = engine_deals(7, 0, 24)
    tt = new_table(18)
    for i in range(24):
        trump, leader = i % 4, int(hakem[i])
        arr = np.array(hands[i], np.int64)
        args = (arr, trump, leader, np.zeros(3, np.int64), 0, leader & 1)
        got = tricks_nb(*args, tt[0], tt[1], np.zeros(1, np.int64))
        assert got == most_tricks(hands[i], trump, leader), (i, trump, leader)


def test_card_values_agree_with_minimax():
    rng = np.random.default_rng(13)
    for n in _sizes(rng, 150, 15):
        hands, trump, leader, trick = _random_ending(rng, n)
        seat = (leader + len(trick)) % 4
        values = card_values(Deal(tuple(mask_of(h) for h in hands), trump, leader), trick)
        led = trick[0] // 13 if trick else -1
        legal = [c for c in hands[seat] if c // 13 == led] or list(hands[seat])
        assert sorted(values) == sorted(legal)
        for c in legal:
            new = tuple(h - {c} if s == seat else h for s, h in enumerate(hands))
            t = tuple(trick) + (c,)
            if len(t) == 4:
                w = trick_winner(t, leader, trump)
                t0 = (w % 2 == 0) + team0_tricks(new, trump, w, ())
            else:
                t0 = team0_tricks(new, trump, leader, t)
            nrem = len(hands[seat])
            assert values[c] == (t0 if seat % 2 == 0 else nrem - t0), (hands, trick, c)


def _rotate(deal: Deal, k: int) -> Deal:
    hands = tuple(deal.hands[(s - k) % 4] for s in range(4))
    return Deal(hands, deal.trump, (deal.leader + k) % 4)


def _rename_suits(deal: Deal, perm: list[int]) -> Deal:
    def move(mask: int) -> int:
        return mask_of(perm[c // 13] * 13 + c % 13 for c in cards_of(mask))

    return Deal(tuple(move(h) for h in deal.hands), perm[deal.trump], deal.leader)


def test_rotating_seats_swaps_teams_and_renaming_suits_changes_nothing():
    hands, hakem, _ = engine_deals(3, 0, 12)
    rng = np.random.default_rng(3)
    deals = []
    for i in range(12):
        # Seven-card endings: the first six tricks' cards taken away at random.
        keep = [set(cards_of(int(h))) for h in hands[i]]
        gone = rng.permutation(13)[:6]
        cut = tuple(mask_of(sorted(k)[j] for j in range(13) if j not in gone) for k in keep)
        deals.append(Deal(cut, int(rng.integers(4)), int(hakem[i])))
    base = analyse(deals)
    for k in (1, 2, 3):
        rotated = analyse([_rotate(d, k) for d in deals])
        for a, b in zip(base, rotated, strict=True):
            want = a["tricks"] if k % 2 == 0 else a["tricks"][::-1]
            assert b["tricks"] == want and b["reach7"] == a["reach7"]
    renamed = analyse([_rename_suits(d, [2, 0, 3, 1]) for d in deals])
    assert renamed == base


def _deal(seats: list[str], trump: str, leader: int) -> dict:
    return {"hands": [s.split() for s in seats], "trump": trump, "leader": leader}


def _suit(s: str) -> str:
    return " ".join(r + s for r in "23456789TJQKA")


def test_all_thirteen_trumps_in_one_hand():
    seats = [_suit("C"), _suit("D"), _suit("H"), _suit("S")]
    for trump, holder in (("C", 0), ("D", 1), ("H", 2), ("S", 3)):
        for leader in range(4):
            (a,) = analyse([parse_deal(json.dumps(_deal(seats, trump, leader)))])
            t = [13, 0] if holder % 2 == 0 else [0, 13]
            assert a["tricks"] == t
            assert a["reach7"] == (holder % 2 == leader % 2)
            assert a["kot"] == (holder % 2 == leader % 2)
            assert a["hakem_kot"] == (holder % 2 != leader % 2)


SEVEN_TOP_TRUMPS = [
    "8S 9S TS JS QS KS AS 2H 3H 4H 5H 6H 7H",
    "2S 3S 4S AC KC QC JC TC 9C 8C AD KD QD",
    "7C 6C 5C 4C 3C 2C JD TD 9D 8D 7D 6D 5D",
    "5S 6S 7S 4D 3D 2D AH KH QH JH TH 9H 8H",
]


def test_seven_top_trumps_make_seven_and_no_kot_for_either_side():
    # Seat 0: the seven top spades (8 to A) and the six lowest hearts; seats 1
    # and 3 hold the other six spades, 3-3. Each top trump wins its own
    # trick, so seat 0's team takes at least 7 whoever leads; the other side
    # can never take the first 7 in a row.
    seats = SEVEN_TOP_TRUMPS
    for leader in range(4):
        (a,) = analyse([parse_deal(json.dumps(_deal(seats, "S", leader)))])
        assert a["tricks"][0] >= 7
        assert a["reach7"] == (leader % 2 == 0)
        assert not (a["kot"] if leader % 2 else a["hakem_kot"])
        if leader % 2 == 0:
            # Seat 0 draws trumps three rounds and keeps winning with the rest
            # (led to by seat 2, it ruffs the first trick): 7 in a row.
            assert a["kot"]


def test_last_trick_and_reach_questions():
    d = parse_deal(json.dumps(_deal(["AH", "2S", "KH", "3C"], "S", 0)))
    assert tricks(d, 0) == 0 and tricks(d, 1) == 1  # seat 1 ruffs the ace with the 2
    assert can_reach(d, 1, 1) and not can_reach(d, 0, 1)
    assert can_reach(d, 1, 1, kot=True)
    assert [card_str(c) for c in card_values(d)] == ["AH"]


def test_engine_deals_are_the_traced_deals(tmp_path):
    out = tmp_path / "t.jsonl"
    r = CliRunner().invoke(main, ["trace", "--seed", "9", "--hands", "3", "-o", str(out)])
    assert r.exit_code == 0, r.output
    hands, hakem, five = engine_deals(9, 0, 3)
    for i, line in enumerate(out.read_text().splitlines()):
        rec = json.loads(line)
        assert rec["hakem"] == hakem[i]
        assert [mask_of(parse_cards(h)) for h in rec["hands"]] == list(hands[i])
        assert mask_of(parse_cards(rec["first_five"])) == five[i]


def _dd(text: str, *args: str):
    return CliRunner().invoke(main, ["dd", *args], input=text)


def test_dd_command_answers_one_line_per_deal(tmp_path):
    lines = [
        json.dumps(_deal([_suit("C"), _suit("D"), _suit("H"), _suit("S")], "H", 1)),
        json.dumps(_deal(SEVEN_TOP_TRUMPS, "S", 1)),
        json.dumps(_deal(["AH KH", "QH 2C", "JH 3C", "TH 4C"], "S", 0)),
    ]
    f = tmp_path / "deals.jsonl"
    f.write_text("\n".join(lines) + "\n\n")
    r = CliRunner().invoke(main, ["dd", str(f), "--threads", "1"])
    assert r.exit_code == 0, r.output
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(out) == 3
    assert out[0] == {"tricks": [13, 0], "reach7": False, "kot": False, "hakem_kot": True}
    assert set(out[1]) == {"tricks", "reach7", "kot", "hakem_kot"} and sum(out[1]["tricks"]) == 13
    assert out[1]["tricks"][0] >= 7 and out[1]["hakem_kot"] and not out[1]["kot"]
    assert out[2] == {"tricks": [2, 0], "reach7": False}
    assert _dd("\n".join(lines), "--threads", "2").stdout == r.stdout


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"hands": [', "bad JSON"),
        ("[1, 2]", "bad deal: expected an object"),
        ('{"hands": [["AH"], ["KH"], ["QH"], ["JH"]], "trump": "S"}', "missing leader"),
        ('{"hands": [["AH"], ["KH"], ["QH"]], "trump": "S", "leader": 0}', "4 lists"),
        ('{"hands": [["AH"], ["KH"], ["QH"], ["1H"]], "trump": "S", "leader": 0}', "bad card '1H'"),
        (
            '{"hands": [["AH"], ["KH"], ["QH"], ["AH"]], "trump": "S", "leader": 0}',
            "duplicate card AH",
        ),
        ('{"hands": [["AH", "2C"], ["KH"], ["QH"], ["JH"]], "trump": "S", "leader": 0}', "unequal"),
        ('{"hands": [["AH"], ["KH"], ["QH"], ["JH"]], "trump": "X", "leader": 0}', "bad trump 'X'"),
        ('{"hands": [["AH"], ["KH"], ["QH"], ["JH"]], "trump": "S", "leader": 4}', "bad leader 4"),
        ('{"hands": [[], [], [], []], "trump": "S", "leader": 0}', "expected 1 to 13"),
    ],
)
def test_dd_command_bad_input_is_one_line_and_exit_2(line, message):
    r = _dd('{"hands": [["AH"], ["KH"], ["QH"], ["JH"]], "trump": "S", "leader": 0}\n' + line)
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: line 2: ") and message in lines[0]
    assert "Traceback" not in r.output


def test_dd_study_writes_a_report_and_never_overwrites(tmp_path):
    out = tmp_path / "study"
    args = ["dd-study", "--hands", "2", "--seed", "3", "--heuristics", "longest,random"]
    r = CliRunner().invoke(main, [*args, "--threads", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    s = json.loads((out / "summary.json").read_text())
    assert "| longest |" in (out / "report.md").read_text()
    shown = r.stdout.splitlines()  # the table in columns and the folder, not report.md
    assert any(line.split()[0] == "longest" for line in shown if line)
    assert "|" not in r.stdout and shown[-1] == f"report: {out}"
    assert s["deals"] == 2 and set(s["heuristics"]) == {"longest", "random"}
    for h in s["heuristics"].values():
        # A call forces 7 only where some trump does: perfect = call + loss.
        assert h["forces_7"]["value"] + h["loss_vs_perfect"]["value"] == s["perfect"]["value"]
    again = CliRunner().invoke(main, [*args, "--out", str(out)])
    assert again.exit_code == 2 and "already exists" in again.output
    assert len(again.output.strip().splitlines()) == 1
    bad = CliRunner().invoke(main, ["dd-study", "--heuristics", "nosuchbot", "--out", str(out)])
    assert bad.exit_code == 2 and "unknown strategy 'nosuchbot'" in bad.output
