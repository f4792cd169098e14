"""``hokm-sim play``: the game logic, the server over a real socket, ``hokm-sim games``.

The game is the engine's match (a person playing as a bot would gives the
match ``hokm-sim trace --matches`` writes), refuses every decision that is
not due or not legal without changing anything, and never shows a seat a
card it may not see. The server is driven through aiohttp's own client over
127.0.0.1. The page itself is tested in Chromium in ``test_play_browser.py``.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer
from click.testing import CliRunner

from hokm_sim.api import strategy
from hokm_sim.cards import SUITS, card_str, parse_card
from hokm_sim.cli import main
from hokm_sim.house import FIRST_HAKEM_METHODS
from hokm_sim.play.game import Game, first_hakem_draw
from hokm_sim.play.seats import BotSeat, HumanSeat
from hokm_sim.play.server import Server, Settings, daily_seed
from hokm_sim.play.store import DB_NAME, Store, data_dir
from hokm_sim.sim.trace import trace_records

ROOT = Path(__file__).resolve().parents[1]
PYFAULTY = str(ROOT / "tests" / "bots" / "pyfaulty.py")
SEED = 2024


def _traced(runner) -> list[str]:
    """The lines ``hokm-sim trace --matches 1 --target 3`` writes for the game's seed."""
    return [json.dumps(r) for r in trace_records(runner, SEED, matches=1, target=3)]


def _seats(partner="longest", opponents="random"):
    p, o = strategy(partner), strategy(opponents)
    return [HumanSeat("You"), BotSeat("East", o), BotSeat("North", p), BotSeat("West", o)]


def _answer_text(game: Game, answer: int) -> str:
    return SUITS[answer] if game.table.waiting == "trump" else card_str(answer)


def play_out(game: Game, me: BotSeat, each=None) -> int:
    """Play the game to its end, the person's decisions made as ``me`` would; decisions."""
    n = 0
    while not game.over:
        if game.phase in ("first_hakem", "hand_over"):
            game.go_on()
            continue
        seat = game.due()
        if each is not None:
            each(game)
        if seat == 0:
            kind = game.table.waiting
            assert (
                game.submit(0, kind, _answer_text(game, me.decide(game.table)), game.step) is None
            )
        else:
            game.act(game.bot_answer(game.seats[seat].decide(game.table)))
        n += 1
    return n


# --- the game is the engine's match ---------------------------------------------------------


def test_a_game_played_as_the_partner_bot_is_the_traced_match(runner):
    game = Game(_seats(), SEED, target=3)
    assert game.phase == "first_hakem" and game.due() is None
    play_out(game, BotSeat("You", strategy("longest")))
    assert game.phase == "match_over" and game.result() in ("won", "lost")
    traced = _traced(runner("longest", "random"))
    assert [json.dumps(r) for r in game.records] == traced
    assert max(game.final_scores()) >= 3


def test_hints_change_nothing_and_are_recorded(runner):
    adviser = BotSeat("Hint", strategy("longest"))

    def ask(game):
        if game.due() == 0:
            hint = game.hint(0, adviser)
            assert isinstance(hint, dict) and hint["by"] == "Hint (longest)"

    game = Game(_seats(), SEED, target=3)
    play_out(game, BotSeat("You", strategy("longest")), each=ask)
    traced = _traced(runner("longest", "random"))
    assert [json.dumps(r) for r in game.records] == traced
    assert game.hints and all(h.played == h.suggested for h in game.hints)
    assert {h.kind for h in game.hints} <= {"trump", "card"}
    assert game.hint(1, adviser) == "A hint is for your own turn."


@pytest.mark.parametrize("rule", FIRST_HAKEM_METHODS)
def test_the_first_hakem_shown_is_the_engines(rule):
    for seed in range(30):
        hakem, draw = first_hakem_draw(seed, 0, rule)
        assert [s for s, _c in draw[:4]] == [(draw[0][0] + i) % 4 for i in range(min(4, len(draw)))]
        if rule == "first-ace":
            *before, (seat, ace) = draw
            assert seat == hakem and ace % 13 == 12 and all(c % 13 != 12 for _s, c in before)
        else:
            assert len(draw) >= 4 * (1 if rule == "highest-card" else 2)
        game = Game(_seats(), seed, target=3, first_hakem=rule)  # checks the engine agrees
        state = game.state_for(0)
        assert state["first_hakem"] == hakem and state["first_hakem_rule"] == rule
        assert [(d["seat"], d["card"]) for d in state["draw"]] == [
            (s, card_str(c)) for s, c in draw
        ]


# --- the server is the only authority -------------------------------------------------------


def _to_my_turn(game: Game, kind: str) -> None:
    """Play bots until the person must decide ``kind`` (trump or card)."""
    for seed in range(200):
        while not game.over:
            if game.phase in ("first_hakem", "hand_over"):
                game.go_on()
            elif game.due() == 0 and game.table.waiting == kind:
                return
            elif game.due() == 0:
                me = BotSeat("You", strategy("longest"))
                game.submit(0, game.table.waiting, _answer_text(game, me.decide(game.table)))
            else:
                game.act(game.bot_answer(game.seats[game.due()].decide(game.table)))
        game.__init__(game.seats, seed, 3)
    raise AssertionError(f"no {kind} decision for seat 0")


def test_refused_decisions_change_nothing():
    game = Game(_seats(), SEED, target=3)
    assert game.submit(0, "card", "AS") == "Deal the first hand first."
    _to_my_turn(game, "card")
    hand = game.hand_of(0)
    legal = game.state_for(0)["legal"]
    before = json.dumps(game.state_for(0))
    illegal = [c for c in hand if c not in legal]
    not_held = next(card_str(c) for c in range(52) if card_str(c) not in hand)
    refusals = [
        (game.submit(0, "card", not_held, game.step), "You do not hold"),
        (game.submit(0, "card", legal[0], game.step - 1), "earlier position"),
        (game.submit(0, "trump", "H", game.step), "Trump is called"),
        (game.submit(0, "card", "XX", game.step), "is not a card"),
        (game.submit(1, "card", legal[0], game.step), "not yours"),
    ]
    if illegal:
        refusals.append((game.submit(0, "card", illegal[0], game.step), "must follow suit"))
    for message, fragment in refusals:
        assert message and fragment in message, (message, fragment)
    assert json.dumps(game.state_for(0)) == before
    assert game.submit(0, "card", legal[0], game.step) is None
    assert json.dumps(game.state_for(0)) != before


def test_the_hakem_calls_on_five_cards_and_nobody_else_sees_any():
    game = Game(_seats(), SEED, target=3)
    _to_my_turn(game, "trump")
    five = [card_str(int(c)) for c in game.table.slots.deck[0, :5]]
    state = game.state_for(0)
    assert state["phase"] == "trump" and sorted(state["hand"]) == sorted(five)
    assert state["held"] == [5 if s == game.hakem else 0 for s in range(4)]
    assert game.submit(0, "card", five[0], game.step) == "Call trump first."
    assert game.submit(0, "trump", "Z", game.step) == "'Z' is not a suit."
    assert game.submit(0, "trump", "♥", game.step) is None
    assert game.state_for(0)["trump"] == "H" and len(game.state_for(0)["hand"]) == 13


def test_no_state_shows_a_card_of_another_seat_before_the_hand_ends():
    cards_re = re.compile(r'"([2-9TJQKA][CDHS])"')
    seen: list[tuple[int, str, set[str]]] = []

    def look(game):
        st = game.state_for(0)
        text = json.dumps({k: v for k, v in st.items() if k != "draw"})
        seen.append((st["hand_no"], st["phase"], set(cards_re.findall(text))))
        if st["phase"] == "trump" and game.hakem != 0:
            assert st["hand"] == []

    game = Game(_seats(), SEED + 1, target=5)
    play_out(game, BotSeat("You", strategy("longest")), each=look)
    for h, phase, cards in seen:
        rec = game.records[h]
        mine = set(rec["hands"][0]) if phase == "play" or rec["hakem"] == 0 else set()
        if phase == "trump" and rec["hakem"] == 0:
            mine = set(rec["first_five"])
        public = {c for tr in rec["tricks"] for c in tr["cards"]}
        others = {c for s in (1, 2, 3) for c in rec["hands"][s]}
        assert (cards & others) <= public, (h, phase, cards & others - public)
        assert cards <= mine | public


def test_a_bot_fault_stops_the_hand_with_a_message():
    o = strategy(f"{PYFAULTY}(mode=2)")
    p = strategy("longest")
    game = Game([HumanSeat("You"), BotSeat("East", o), BotSeat("North", p), BotSeat("West", o)],
                SEED, target=3)  # fmt: skip
    me = BotSeat("You", p)
    while not game.over:
        if game.phase in ("first_hakem", "hand_over"):
            game.go_on()
        elif game.due() == 0:
            game.submit(0, game.table.waiting, _answer_text(game, me.decide(game.table)))
        else:
            answer = game.bot_answer(game.seats[game.due()].decide(game.table))
            if isinstance(answer, str):
                game.fail(game.due(), answer)
            else:
                game.act(answer)
    assert game.phase == "fault" and game.result() == "fault" and game.due() is None
    rec = game.records[-1]
    assert "fault" in rec and rec["fault"]["seat"] == 1
    # named as every fault line of hokm-sim names it (run's: StrategyFault): the hand
    # counted from 0 as in the record and hokm-sim show --hand, the trick from 1
    assert re.fullmatch(
        rf"strategy '\S*pyfaulty.py\(mode=2\)' played \w\w, which is not a legal card "
        rf"\(seat 1, East\) at seed {SEED}, match 0, hand {rec['hand']}, "
        rf"trick {rec['fault']['trick'] + 1}; the hand is stopped, and the game with it",
        game.fault,
    ), game.fault
    assert rec["fault"]["trick"] + 1 == 3
    assert game.submit(0, "card", "AS") == "The game was stopped."


def test_targets_and_seats_are_checked():
    with pytest.raises(ValueError, match="bad target 4"):
        Game(_seats(), 1, target=4)


def test_daily_seed_is_the_utc_date():
    assert daily_seed(datetime(2026, 3, 9, 23, 59, tzinfo=UTC)) == (20260309, "2026-03-09")


# --- the server -------------------------------------------------------------------------------


def _server(tmp_path, **kw) -> Server:
    settings = Settings(
        partner=strategy(kw.pop("partner", "longest")),
        opponents=strategy(kw.pop("opponents", "random")),
        target=3, pause=0, data=tmp_path, open_browser=False, **kw,
    )  # fmt: skip
    return Server(settings)


async def _state(ws, phase=None, timeout=60.0) -> dict:
    """The next state message (of ``phase``), skipping others."""
    while True:
        msg = await asyncio.wait_for(ws.receive_json(), timeout)
        if msg["type"] == "state" and (phase is None or msg["phase"] == phase):
            return msg


async def _next(ws, kind: str, timeout=60.0) -> dict:
    """The next message of type ``kind``, skipping states."""
    while True:
        msg = await asyncio.wait_for(ws.receive_json(), timeout)
        if msg["type"] == kind:
            return msg


async def _settle(ws, timeout=60.0) -> dict:
    """The state once the bots have played up to the person's turn or a pause."""
    while True:
        st = await _state(ws, timeout=timeout)
        if st["ready"] and (st["turn"] == 0 or st["phase"] not in ("play", "trump")):
            return st


def _run(coro):
    return asyncio.run(coro)


def test_server_plays_a_match_refuses_bad_moves_and_resumes(tmp_path, runner, monkeypatch):
    monkeypatch.setenv("HOKM_SIM_STORE", str(tmp_path / "results.sqlite"))
    traced = _traced(runner("longest", "random"))

    async def go():
        server = _server(tmp_path)
        session = server.new_game(SEED)
        async with TestClient(TestServer(server.app())) as client:
            r = await client.get("/", allow_redirects=False)
            assert r.status == 302 and r.headers["Location"] == f"/play/{session.id}"
            page = await client.get(f"/play/{session.id}")
            assert "table.js" in await page.text()
            assert (await client.get("/static/table.js")).status == 200
            ws = await client.ws_connect(f"/ws/{session.id}?secret={session.secret}")
            first = await _state(ws)
            assert first["phase"] == "first_hakem" and first["draw"][-1]["card"][0] == "A"
            await ws.send_json({"type": "card", "card": "AS", "step": 0})
            assert "first hand first" in (await _next(ws, "refused"))["message"]
            await ws.send_str("not json")
            assert (await _next(ws, "refused"))["message"] == "not a JSON object"
            await ws.send_json({"type": "next"})
            me = BotSeat("You", strategy("longest"))
            tab2 = None
            while True:
                st = await _settle(ws)
                if st["phase"] == "match_over":
                    break
                assert st["seed"] is None  # the match is live: no seed
                if st["phase"] == "hand_over":
                    await ws.send_json({"type": "next"})
                    continue
                fresh = st["step"] == session.game.step and session.game.due() == 0
                if tab2 is None and st["phase"] == "play" and fresh:
                    # a second tab (or a reload) gets the same position, and its stale
                    # decision is refused without harm
                    tab2 = await client.ws_connect(f"/ws/{session.id}?secret={session.secret}")
                    again = await _state(tab2)
                    assert {k: again[k] for k in ("step", "hand", "legal", "trick")} == {
                        k: st[k] for k in ("step", "hand", "legal", "trick")
                    }
                    await tab2.send_json({"type": "card", "card": st["legal"][0],
                                          "step": st["step"] - 1})  # fmt: skip
                    assert "earlier" in (await _next(tab2, "refused"))["message"]
                    await tab2.close()
                game = session.game
                answer = me.decide(game.table)
                kind = game.table.waiting
                msg = {"type": kind, "step": st["step"]}
                msg["card" if kind == "card" else "suit"] = _answer_text(game, answer)
                await ws.send_json(msg)
            await ws.close()
            assert st["seed"] == str(SEED)  # shown once the match is over
            key = {"X-Hokm-Secret": session.secret}
            hands = await (await client.get(f"/api/games/{session.id}/hands", headers=key)).json()
            assert [json.dumps(h) for h in hands] == traced
            games = await (await client.get("/games")).text()
            assert "partner longest, opponents random" in games and "won share" in games
            assert f"--seed {SEED}" in games
            viewer = await client.get(f"/games/{session.id}/hands/0?secret={session.secret}")
            text = await viewer.text()
            assert viewer.status == 200 and '"grade"' in text and "hand-data" in text
            assert f"/games/{session.id}/hands/0?secret={session.secret}" in games
            late = await client.get(f"/games/{session.id}/hands/99?secret={session.secret}")
            assert late.status == 404
            assert (await client.get("/play/999")).status == 404
            bad = await client.post("/api/new", json={"seed": "x"}, headers=key)
            assert bad.status == 400 and "seed" in (await bad.json())["error"]
            new = await client.post("/api/new", json={"daily": True}, headers=key)
            new = await new.json()
            assert server.sessions[new["id"]].game.daily == daily_seed()[1]
        await server.bots.run(lambda: None)
        for s in server.sessions.values():
            s.close()
        server.close()
        return session.id

    gid = _run(go())
    row = (
        sqlite3.connect(tmp_path / "games.sqlite")
        .execute("SELECT result, seed, partner, opponents, target FROM games WHERE id = ?", (gid,))
        .fetchone()
    )
    assert row[0] in ("won", "lost") and row[1:] == (str(SEED), "longest", "random", 3)
    # the finished game is in the results store, once, with the command that deals it again
    from hokm_sim.store.query import select

    (kept,) = select(tmp_path / "results.sqlite")
    assert kept["kind"] == "play" and kept["seed"] == str(SEED)
    assert kept["command"].startswith(
        f"hokm-sim play --partner longest --opponents random --target 3 --seed {SEED}"
    )
    assert [(b["role"], b["name"]) for b in kept["bots"]] == [
        ("partner", "longest"), ("opponents", "random")
    ]  # fmt: skip


@pytest.mark.parametrize("mode, what", [(1, "raised ValueError: boom"), (6, "called sys.exit(3)")])
def test_server_reports_a_bot_fault_and_the_page_stays(tmp_path, mode, what):
    """A bot that raises, or even calls sys.exit(), stops its game with one fault line;
    the server goes on serving the page."""

    async def go():
        server = _server(tmp_path, opponents=f"{PYFAULTY}(mode={mode})")
        session = server.new_game(SEED)
        async with TestClient(TestServer(server.app())) as client:
            ws = await client.ws_connect(f"/ws/{session.id}?secret={session.secret}")
            await _state(ws, "first_hakem")
            await ws.send_json({"type": "next"})
            me = BotSeat("You", strategy("longest"))
            while True:
                st = await _settle(ws)
                if st["phase"] == "fault":
                    break
                if st["phase"] != "play" and st["phase"] != "trump":
                    await ws.send_json({"type": "next"})  # (a state sent before "next" came)
                    continue
                game = session.game
                kind = game.table.waiting
                msg = {"type": kind, "step": st["step"]}
                msg["card" if kind == "card" else "suit"] = _answer_text(
                    game, me.decide(game.table)
                )
                await ws.send_json(msg)
            assert f"{what} (seat 1, East) at seed {SEED}, match 0, hand " in st["message"]
            assert st["seed"] == str(SEED)  # the game is over
            await ws.send_json({"type": "card", "card": "AS", "step": st["step"]})
            assert (await _next(ws, "refused"))["message"] == "The game was stopped."
            assert (await client.get("/games")).status == 200
        server.close()
        return session.id

    gid = _run(go())
    store = Store(tmp_path)
    assert store.game(gid)["result"] == "fault" and what in store.game(gid)["message"]


def test_the_games_database_is_its_owners_only(tmp_path):
    """It holds each game's secret, the key of its pages: no other user may read it, nor
    the log SQLite writes beside it; an older database is made so too."""
    old = tmp_path / "old"
    old.mkdir()
    (old / DB_NAME).touch(mode=0o644)
    for folder in (tmp_path / "new", old):
        store = Store(folder)
        store.start(seed=1, daily=None, partner="expert", opponents="expert", target=7,
                    first_hakem="first-ace", version="test")  # fmt: skip
        for f in folder.glob(DB_NAME + "*"):
            assert f.stat().st_mode & 0o077 == 0, f
        store.close()
    assert (tmp_path / "new").stat().st_mode & 0o077 == 0


def test_play_serves_until_ctrl_c_and_stops_cleanly(tmp_path):
    """The command itself: it listens on 127.0.0.1 only, serves the table, and Ctrl-C
    stops it with exit code 0, the game booked as unfinished; a taken port is exit 2."""
    import os
    import signal
    import socket
    import subprocess
    import sys
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "hokm_sim", "play", "--partner", "longest", "--opponents",
           "random", "--no-open", "--port", str(port), "--data", str(tmp_path)]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/play/1" in line, (line, proc.stderr.read())
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/play/1", timeout=30).read()
        assert b"table.js" in page
        res = CliRunner().invoke(main, cmd[3:])  # the same port again: one line, exit 2
        assert res.exit_code == 2 and "--port" in res.stderr, res.output
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
    assert proc.returncode == 0, err
    assert "stopped" in out and "Traceback" not in err
    store = Store(tmp_path)
    assert [g["result"] for g in store.games()] == ["unfinished"]


# --- the games database and hokm-sim games ---------------------------------------------------


def test_data_dir_follows_the_option_the_variable_and_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("HOKM_SIM_DATA", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir() == tmp_path / "xdg" / "hokm-sim"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert data_dir() == Path.home() / ".local" / "share" / "hokm-sim"
    monkeypatch.setenv("HOKM_SIM_DATA", str(tmp_path / "env"))
    assert data_dir() == tmp_path / "env"
    assert data_dir(tmp_path / "opt") == tmp_path / "opt"


def _stored_game(tmp_path) -> int:
    store = Store(tmp_path)
    game = Game(_seats(), SEED, target=3)
    play_out(game, BotSeat("You", strategy("longest")))
    gid = store.start(seed=SEED, daily=None, partner="longest", opponents="random", target=3,
                      first_hakem="first-ace", version="t")  # fmt: skip
    for rec in game.records:
        store.add_hand(gid, rec)
    store.update(gid, result=game.result(), scores=game.final_scores(), hints=[])
    store.close()
    return gid


def test_games_lists_and_exports_a_trace_analyse_reads(tmp_path, runner):
    gid = _stored_game(tmp_path)
    cli = CliRunner()
    listed = cli.invoke(main, ["games", "--data", str(tmp_path)])
    assert listed.exit_code == 0 and str(SEED) in listed.output and "longest" in listed.output
    out = tmp_path / "hands.jsonl"
    res = cli.invoke(main, ["games", "--data", str(tmp_path), "--format", "jsonl", "-o", str(out)])
    assert res.exit_code == 0, res.output
    lines = out.read_text().splitlines()
    assert lines == _traced(runner("longest", "random"))
    res = cli.invoke(main, ["analyse", "--trace", str(out), "--format", "summary"])
    assert res.exit_code == 0 and "double-dummy accuracy" in res.output, res.output
    one = cli.invoke(main, ["games", "--data", str(tmp_path), "--game", str(gid), "--format",
                            "json"])  # fmt: skip
    data = json.loads(one.output)
    assert data[0]["id"] == gid and len(data[0]["hands"]) == len(lines)
    parse_card(data[0]["hands"][0]["record"]["deck"][0])


def test_games_without_a_game_says_so_alone(tmp_path):
    Store(tmp_path).close()  # a database, no game in it
    res = CliRunner().invoke(main, ["games", "--data", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines() == [f"(no games in {tmp_path / DB_NAME})"]


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["games", "--data", "{tmp}/none"], "no games yet"),
        (["games", "--data", "{tmp}", "--game", "77"], "no game 77"),
        (["play", "--daily", "--seed", "3", "--data", "{tmp}"], "--daily or --seed"),
        (["play", "--target", "4", "--data", "{tmp}"], "--target"),
        (["play", "--partner", "nosuch", "--data", "{tmp}"], "--partner: unknown strategy"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, fragment):
    if "--game" in args:
        _stored_game(tmp_path)
    result = CliRunner().invoke(main, [a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.exit_code == 2, (result.output, result.exception)
    lines = [x for x in result.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: ") and fragment in lines[0], lines
