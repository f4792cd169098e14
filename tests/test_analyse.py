"""Double-dummy analysis of played hands (``hokm-sim analyse``, ``run --analyse``, the viewer).

The values every card gets are checked against the solver's own per-card API
(a different search path) and against DDS (bridge's double-dummy solver,
through endplay) at trick boundaries of analysed hands; grades follow their
definitions; accuracy orders a strong bot above ``random``; bad input is one
line and exit 2; the HTML pages render in a real headless Chromium.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import numpy as np
import pytest
from click.testing import CliRunner
from dds_ref import bridge_deal

from hokm_sim.cards import card_str, parse_card
from hokm_sim.cli import main
from hokm_sim.dd import analyse as an
from hokm_sim.dd import analyse_nb as nb
from hokm_sim.dd.api import Deal, can_reach, card_values

SEED = 11


def invoke(*args: str, ok: bool = True):
    result = CliRunner().invoke(main, list(args))
    if ok:
        assert result.exit_code == 0, (args, result.output, result.exception)
    return result


def one_line_exit_2(result, *fragments: str) -> str:
    assert result.exit_code == 2, (result.output, result.exception)
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    for f in fragments:
        assert f in lines[0], (f, lines[0])
    return lines[0]


@pytest.fixture(scope="module")
def graded(runner):
    """Six deals of longest against random, both copies, analysed on two threads."""
    h = an.hands_from_seed(runner("longest", "random"), SEED, 6)
    return an.analyse(h, threads=2)


def _position(a: an.Analysis, i: int, p: int):
    """Cards held, leader, trick so far and tricks taken before card ``p`` of hand ``i``."""
    h = a.hands
    hands = [int(x) for x in h.hands[i]]
    leader, trick, taken = int(h.hakem[i]), [], [0, 0]
    for q in range(p):
        c = int(h.plays[i, q])
        seat = (leader + len(trick)) % 4
        hands[seat] &= ~(1 << c)
        trick.append(c)
        if len(trick) == 4:
            from hokm_sim.engine.rules import beats

            best, w = trick[0], leader
            for k in range(1, 4):
                if beats(trick[k], best, int(h.trump[i])):
                    best, w = trick[k], (leader + k) % 4
            taken[w % 2] += 1
            leader, trick = w, []
    return hands, leader, trick, taken


def test_values_and_grades_follow_the_solver(graded):
    a = graded
    assert len(a) == 12 and [m["copy"] for m in a.hands.meta[:2]] == [0, 1]
    rng = np.random.default_rng(3)
    for i in range(len(a)):
        n = int((a.hands.plays[i] >= 0).sum())
        for p in sorted(set(rng.integers(0, n, 4).tolist()) | {0, n - 1}):
            hands, leader, trick, taken = _position(a, i, p)
            seat = (leader + len(trick)) % 4
            team = seat % 2
            want = card_values(Deal(tuple(hands), int(a.hands.trump[i]), leader), trick)
            got = {int(c): int(a.vals[i, p, c]) for c in np.flatnonzero(a.vals[i, p] >= 0)}
            assert got == {c: v + taken[team] for c, v in want.items()}, (i, p)
            row = a.info[i, p]
            chosen = int(a.hands.plays[i, p])
            assert row[nb.I_SEAT] == seat and row[nb.I_CHOSEN] == got[chosen]
            assert row[nb.I_BEST] == max(got.values())
            grade = row[nb.I_GRADE]
            if row[nb.I_WHY]:
                assert grade == nb.BLUNDER
            else:
                assert grade == (nb.MISTAKE if got[chosen] < max(got.values()) else nb.BEST)
            if row[nb.I_WHY] & nb.WHY_LOSS:
                assert max(got.values()) >= 7 > got[chosen]
    # the called trump's tricks are the first lead's best value; reach 7 agrees with it
    for i in range(len(a)):
        t = int(a.hands.trump[i])
        assert a.trumps[i, t, nb.TR_TRICKS] == a.info[i, 0, nb.I_BEST]
        assert a.trumps[i, t, nb.TR_REACH] == (a.info[i, 0, nb.I_BEST] >= 7)


def test_kot_bits_follow_the_solver(graded):
    """Sweep bits at the first trick (both teams on 0) against can_reach(kot=True)."""
    a = graded
    for i in range(4):
        for p in (1, 2):
            hands, leader, trick, taken = _position(a, i, p)
            seat = (leader + len(trick)) % 4
            chosen = int(a.hands.plays[i, p])
            new = list(hands)
            new[seat] &= ~(1 << chosen)
            # after the card the trick is still open: ask from the next seat's view
            from hokm_sim.dd.solver import reach_nb
            from hokm_sim.dd.table import new_table

            tt = new_table(16)
            t = np.zeros(3, np.int64)
            t[: len(trick) + 1] = [*trick, chosen]
            arr = np.array(new, np.int64)
            for team, bit in ((seat % 2, nb.K_FOR), (1 - seat % 2, nb.K_AGAINST)):
                want = reach_nb(
                    arr, int(a.hands.trump[i]), leader, t, len(trick) + 1, team, 7, True,
                    tt[0], tt[1], np.zeros(1, np.int64),
                )  # fmt: skip
                assert bool(a.kot[i, p, chosen] & bit) == bool(want), (i, p, team)
    # the trump call: Kot and Hakem Kot per suit as the solver answers a whole deal
    i = 0
    for s in range(4):
        d = Deal(tuple(int(x) for x in a.hands.hands[i]), s, int(a.hands.hakem[i]))
        ht = int(a.hands.hakem[i]) % 2
        assert a.trumps[i, s, nb.TR_KOT] == can_reach(d, ht, 7, kot=True)
        assert a.trumps[i, s, nb.TR_HAKEM_KOT] == can_reach(d, 1 - ht, 7, kot=True)
        assert a.trumps[i, s, nb.TR_REACH] == can_reach(d, ht, 7)


def test_values_agree_with_dds_at_trick_boundaries(graded):
    """DDS gives, for the side on lead at a trick boundary, the tricks each card takes."""
    pytest.importorskip("endplay")
    from endplay.dds import solve_board

    a = graded
    rng = np.random.default_rng(5)
    checked = 0
    for i in range(len(a)):
        n = int((a.hands.plays[i] >= 0).sum())
        for p in sorted(set(rng.integers(1, (n - 1) // 4 + 1, 2).tolist())):
            hands, leader, trick, taken = _position(a, i, 4 * p)
            assert trick == []
            d = bridge_deal(hands, int(a.hands.trump[i]), leader)
            for card, tricks in solve_board(d):
                c = (3 - int(card.suit)) * 13 + int(card.rank).bit_length() - 3
                assert a.vals[i, 4 * p, c] == tricks + taken[leader % 2], (i, p, card_str(c))
                checked += 1
    assert checked > 50


def test_analysis_does_not_depend_on_threads(graded, runner):
    h = an.hands_from_seed(runner("longest", "random"), SEED, 2)
    one = an.analyse(h, threads=1)
    for name in ("vals", "kot", "info", "trumps", "tgrade"):
        assert np.array_equal(getattr(one, name), getattr(graded, name)[:4]), name


def test_accuracy_orders_expert_above_random(runner):
    h = an.hands_from_seed(runner("expert", "random"), 5, 12)
    acc = an.analyse(h, threads=2).accuracy()
    e, r = acc["strategies"]["expert"]["all"], acc["strategies"]["random"]["all"]
    assert acc["deals"] == 12 and acc["strategies"]["expert"]["hands"] == 24
    assert e["tricks_lost"]["value"] < r["tricks_lost"]["value"]
    assert e["best_share"]["value"] > r["best_share"]["value"]
    lo, hi = e["tricks_lost"]["low"], e["tricks_lost"]["high"]
    assert lo <= e["tricks_lost"]["value"] <= hi
    split = acc["strategies"]["random"]["by_play"]
    assert sum(v["cards"] for v in split.values()) == r["cards"]
    text = an.format_accuracy(acc)
    assert "tricks lost per hand" in text and "expert" in text


def test_swings_part_at_the_first_differing_value(graded):
    pts = an.hand_points(graded.hands)
    rows = an.swings(graded, pts)
    for s in rows:
        assert s["a_net_points"] != 0 and s["a_net_points"] == sum(s["points"])
        at = s["parted_at"]
        if at and at["card"] > 0:
            v = [t["hakem_team_value"] for t in at["tables"]]
            assert v[0] != v[1]
    assert [abs(s["a_net_points"]) for s in rows] == sorted(
        (abs(s["a_net_points"]) for s in rows), reverse=True
    )


# --- the command -------------------------------------------------------------------------


def test_analyse_tells_the_hands_graded_in_a_log(monkeypatch):
    """Off a terminal (a pipe, CI) the grading says how far it is on standard error."""
    monkeypatch.setenv("HOKM_SIM_PROGRESS_EVERY", "0")  # a plain line at every block
    res = invoke("analyse", "--seed", str(SEED), "--hands", "2", "--a", "longest",
                 "--b", "random", "--format", "summary", "--threads", "1")  # fmt: skip
    lines = res.stderr.splitlines()
    ticks = [x for x in lines if not x.startswith("compiling ")]  # the first in this process
    assert [x.split()[1] for x in ticks] == ["4/4"] and "hands/s" in ticks[0], res.stderr
    assert "double-dummy accuracy" in res.stdout


def test_analyse_seeds_trace_and_folder_agree(tmp_path, monkeypatch):
    # seeds: jsonl, one line per hand (both copies)
    res = invoke("analyse", "--seed", str(SEED), "--hands", "2", "--a", "longest",
                 "--b", "random", "--format", "jsonl", "--threads", "1")  # fmt: skip
    recs = [json.loads(line) for line in res.stdout.splitlines()]
    assert [(r["deal"], r["copy"]) for r in recs] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    c = recs[0]["cards"][0]
    assert c["grade"] in an.GRADES and c["card"] in c["values"] and c["best"] >= c["value"]
    assert recs[0]["trump_call"]["hindsight"] is True
    # a trace of the same deals (copy 0) gives the same grades
    trace = tmp_path / "hands.jsonl"
    invoke("trace", "--seed", str(SEED), "--hands", "2", "--a", "longest", "--b", "random",
           "-o", str(trace))  # fmt: skip
    res = invoke("analyse", "--trace", str(trace), "--format", "jsonl")
    from_trace = [json.loads(line) for line in res.stdout.splitlines()]
    assert [r["cards"] for r in from_trace] == [recs[0]["cards"], recs[2]["cards"]]
    # -o - prints, as most tools do, instead of writing a file named "-"
    monkeypatch.chdir(tmp_path)
    dash = invoke("analyse", "--trace", "hands.jsonl", "--format", "jsonl", "-o", "-")
    assert dash.stdout == res.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.jsonl"]
    # a run's saved hands
    run = tmp_path / "run"
    invoke("run", "longest", "random", "--hands", "3", "--seed", str(SEED), "--save-hands",
           "--out", str(run), "--threads", "1")  # fmt: skip
    res = invoke("analyse", str(run), "--hands", "2", "--format", "jsonl")
    assert [json.loads(line)["cards"] for line in res.stdout.splitlines()] == [
        r["cards"] for r in recs
    ]
    res = invoke("analyse", str(run), "--format", "text", "--html", str(tmp_path / "html"))
    assert "trick  1" in res.stdout and "tricks lost per hand" in res.stdout
    assert (tmp_path / "html" / "analysis" / "index.html").is_file()


def test_run_analyse_writes_the_report(tmp_path):
    out = tmp_path / "r"
    res = invoke("run", "longest", "random", "--hands", "40", "--seed", "2", "--analyse", "3",
                 "--out", str(out), "--threads", "1")  # fmt: skip
    assert "double-dummy accuracy over 6 hands (3 deals)" in res.stdout
    data = json.loads((out / "analysis.json").read_text())
    assert data["sample"] == {"deals": 3, "of": 40}
    assert set(data["accuracy"]["strategies"]) == {"longest", "random"}
    assert "--analyse 3" in data["command"]
    index = (out / "analysis" / "index.html").read_text()
    for b in data["blunders"]:
        page = f"deal-{b['deal']}-copy-{b['copy']}.html"
        assert page in index and (out / "analysis" / page).is_file()
    res = invoke("run", "longest", "random", "--matches", "3", "--analyse", "3", ok=False)
    one_line_exit_2(res, "--analyse")


def _trace_line(runner) -> dict:
    from hokm_sim.sim.trace import row_to_record

    return row_to_record(runner("longest", "random").trace_hands(SEED, 0, 1)[0], SEED)


@pytest.mark.parametrize("bad", ["revoke", "not_held", "short", "past7", "winner", "json"])
def test_bad_trace_line_is_one_line_exit_2(bad, tmp_path, runner):
    rec = _trace_line(runner)
    tricks = rec["tricks"]
    if bad == "revoke":  # the second seat plays a card of another suit while holding the led suit
        t0 = tricks[0]
        led = t0["cards"][0][1]
        seat = (t0["leader"] + 1) % 4
        other = next(c for c in rec["hands"][seat] if c[1] != led and c not in t0["cards"])
        assert any(c[1] == led for c in rec["hands"][seat])
        t0["cards"][1] = other
        want = ["line 2", "trick 1", "must follow"]
    elif bad == "not_held":
        t0 = tricks[0]
        seat = t0["leader"]
        t0["cards"][0] = next(c for c in rec["hands"][(seat + 1) % 4])
        want = ["line 2", "trick 1", "not in the hand of seat"]
    elif bad == "short":
        rec["tricks"] = tricks[:3]
        want = ["line 2", "before either team has 7"]
    elif bad == "past7":
        rec["tricks"] = tricks + [tricks[-1]]
        want = ["line 2", "trick"]
    elif bad == "winner":
        tricks[0]["winner"] = (tricks[0]["winner"] + 1) % 4
        want = ["line 2", "trick 1 is won by seat"]
    else:
        want = ["line 2", "not a JSON object"]
    path = tmp_path / "t.jsonl"
    good = json.dumps(_trace_line(runner))
    path.write_text(good + "\n" + ("{not json" if bad == "json" else json.dumps(rec)) + "\n")
    res = invoke("analyse", "--trace", str(path), ok=False)
    one_line_exit_2(res, *want)


def test_usage_errors_are_one_line(tmp_path, runner):
    one_line_exit_2(invoke("analyse", ok=False), "one source of hands")
    one_line_exit_2(invoke("analyse", "--seed", "1", "--trace", __file__, ok=False), "one source")
    one_line_exit_2(invoke("analyse", "--seed", "1", ok=False), "--hands")
    # a report folder without saved hands
    run = tmp_path / "run"
    invoke("run", "longest", "random", "--hands", "2", "--seed", "1", "--out", str(run),
           "--threads", "1")  # fmt: skip
    one_line_exit_2(invoke("analyse", str(run), ok=False), "no saved hands", "--save-hands")
    one_line_exit_2(invoke("analyse", str(tmp_path), ok=False), "not a report folder")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    one_line_exit_2(invoke("analyse", "--trace", str(empty), ok=False), "no hands")
    html = tmp_path / "html"
    html.mkdir()
    (html / "x").write_text("")
    one_line_exit_2(
        invoke(
            "analyse",
            "--seed",
            "1",
            "--hands",
            "1",
            "--a",
            "longest",
            "--b",
            "random",
            "--html",
            str(html),
            ok=False,
        ),  # fmt: skip
        "--html:",
        "--force",
    )


# --- the viewer in a real browser --------------------------------------------------------


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "chromium-headless-shell"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no Chromium on this machine (.ci/run installs it)")


def _dump_dom(path) -> str:
    res = subprocess.run(
        [
            _chromium(),
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--virtual-time-budget=5000",
            "--dump-dom",
            path.as_uri(),
        ],  # fmt: skip
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    return res.stdout


def test_hand_page_renders_in_chromium(tmp_path, runner):
    page = tmp_path / "hand.html"
    invoke("show", "--seed", str(SEED), "--hand", "0", "--a", "longest", "--b", "random",
           "--html", str(page))  # fmt: skip
    text = page.read_text()
    assert "http://" not in text and "https://" not in text and "<script src" not in text
    dom = _dump_dom(page)
    assert '<div id="status">ok</div>' in dom, dom[-3000:]
    assert '<pre id="errors"></pre>' in dom
    rec = json.loads(text.split('id="hand-data">')[1].split("</script>")[0])
    # every card of the four hands is drawn, and every card played has its grade in the log
    for hand in rec["hands"]:
        for c in hand:
            assert f'data-card="{c}"' in dom
    steps = re.findall(r'<tr class="card-row[^"]*" data-step="(\d+)"', dom)
    assert steps == [str(k) for k in range(1, len(rec["cards"]) + 1)]
    for g in {c["grade"] for c in rec["cards"]}:
        assert f'class="grade {g}"' in dom
    # a page whose script fails says so in the DOM: the check above can fail
    broken = tmp_path / "broken.html"
    broken.write_text(text.replace("var N=D.cards.length", "var N=D.nosuch.length"))
    dom = _dump_dom(broken)
    assert "error: " in dom and '<div id="status">ok</div>' not in dom
    parse_card(rec["cards"][0]["card"])


def test_report_index_renders_and_links_its_hands(tmp_path):
    out = tmp_path / "html"
    invoke("analyse", "--seed", str(SEED), "--hands", "3", "--a", "longest", "--b", "random",
           "--format", "summary", "--html", str(out))  # fmt: skip
    index = out / "analysis" / "index.html"
    dom = _dump_dom(index)
    assert '<div id="status">ok</div>' in dom and "tricks lost per hand" in dom
    links = re.findall(r'href="([^"]+)"', dom)
    assert links and all((index.parent / link).is_file() for link in links)
    data = json.loads((out / "analysis.json").read_text())
    assert {b["strategy"] for b in data["blunders"]} <= {"longest", "random"}
    dom = _dump_dom(index.parent / links[0])
    assert '<div id="status">ok</div>' in dom and '<pre id="errors"></pre>' in dom
