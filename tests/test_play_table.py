"""``hokm-sim play --host``: a shared table of people and bots, a turn timer, stand-in bots.

Whole matches are played over real sockets (aiohttp's client, 127.0.0.1) by two
scripted people and two bots (``longest``, ``random``), watched by a spectator
and the host; every message each page gets is checked against what its seat
may know. A short timer and grace period keep the matches quick.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path

import aiohttp
import pytest
from aiohttp import WSMsgType
from aiohttp.test_utils import TestClient, TestServer

from hokm_sim.api import strategy
from hokm_sim.play import hosted
from hokm_sim.play.export import lines
from hokm_sim.play.hosted import HOST, HostedTable
from hokm_sim.play.server import Server, Settings, serve
from hokm_sim.play.store import Store
from hokm_sim.store.query import select

CARD = re.compile(r'"([2-9TJQKA][CDHS])"')
CHOICES = {"longest": "longest", "random": "random"}
SEED = 2024


def _server(tmp_path) -> Server:
    return Server(
        Settings(partner=strategy("longest"), opponents=strategy("random"), target=3, pause=0,
                 data=tmp_path, open_browser=False)
    )  # fmt: skip


def _table(server: Server, **kw) -> HostedTable:
    kw = {"target": 3, "timer": 2.0, "grace": 0.05} | kw
    return server.host_table(["longest", "random", "longest", "random"], CHOICES, **kw)


def _with_table(tmp_path, body, **kw):
    async def go():
        server = _server(tmp_path)
        table = _table(server, **kw)
        try:
            async with TestClient(TestServer(server.app(), host="127.0.0.1")) as client:
                await body(client, server, table)
        finally:
            await server.bots.run(lambda: None)
            table.close()
            for s in server.sessions.values():
                s.close()
            server.close()

    asyncio.run(go())


async def _page(client, token: str):
    return await client.ws_connect(f"/table/ws?token={token}")


async def _until(ws, log: list, test, timeout=30.0) -> dict:
    """Read messages into ``log`` until one passes ``test``; that one."""
    while True:
        msg = await asyncio.wait_for(ws.receive(), timeout)
        if msg.type != WSMsgType.TEXT:
            raise ConnectionError(f"socket closed: {msg.extra}")
        data = json.loads(msg.data)
        log.append(data)
        if test(data):
            return data


async def _bot_played(table: HostedTable, seat: int, why: str) -> None:
    """Wait until ``seat``'s bot has made a decision for its person, for ``why``."""
    for _ in range(3000):
        done = table.session.stand_ins if table.session is not None else []
        if any((x["seat"], x["why"]) == (seat, why) for x in done):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"seat {seat}'s bot never decided ({why})")


def _cards(msg: dict) -> set[str]:
    return set(CARD.findall(json.dumps({k: v for k, v in msg.items() if k != "draw"})))


def _check(seat: int, msg: dict, records: list[dict]) -> None:
    """``msg`` to a page of ``seat`` (a spectator's: negative) shows no card it may not see."""
    if msg["type"] != "state":
        assert not _cards(msg) or msg["type"] == "hint", msg
        return
    rec = records[msg["hand_no"]] if msg["hand_no"] < len(records) else None
    cards = _cards(msg)
    if rec is None:
        assert not cards, msg
        return
    played = {c for tr in rec["tricks"] for c in tr["cards"]}
    played |= set(rec.get("unfinished_trick", {}).get("cards", []))
    if seat < 0:
        assert msg["hand"] == [] and "reveal" not in msg.get("result", {}), msg
        assert cards <= played, (cards - played, msg["phase"])
        return
    if msg["phase"] in ("hand_over", "match_over"):
        return  # the hand is over: every hand is shown
    mine = set(rec["hands"][seat]) if msg["phase"] == "play" else set()
    if msg["phase"] == "trump" and rec["hakem"] == seat:
        mine = set(rec["first_five"])
    assert cards <= mine | played, (seat, msg["phase"], cards - mine - played)


def test_two_people_two_bots_a_timer_a_leaver_and_nothing_leaks(tmp_path, monkeypatch):
    monkeypatch.setenv("HOKM_SIM_STORE", str(tmp_path / "results.sqlite"))
    logs: dict[int, list] = {0: [], 2: [], -1: [], HOST: []}

    async def body(client, server, table):
        people = {s: await _page(client, table.chairs[s].token) for s in (0, 2)}
        watch = await _page(client, table.spectators)
        host = await _page(client, table.host)
        await _until(people[2], logs[2], lambda m: m["type"] == "lobby")
        await people[2].send_json(
            {"type": "name", "name": "Maryam", "token": table.chairs[2].token}
        )
        lobby = await _until(host, logs[HOST], lambda m: m["type"] == "lobby"
                             and m["seats"][2]["name"] == "Maryam")  # fmt: skip
        assert [s["person"] for s in lobby["seats"]] == [True, False, True, False]
        await host.send_json({"type": "start", "token": table.chairs[0].token})
        refusal = await _until(host, logs[HOST], lambda m: m["type"] == "refused")
        assert refusal["message"] == "every message carries its page's token"
        await people[0].send_json({"type": "start", "token": table.chairs[0].token})
        refusal = await _until(people[0], logs[0], lambda m: m["type"] == "refused")
        assert refusal["message"] == "only the host may start"
        await host.send_json({"type": "start", "token": table.host})

        events = {"timer": False, "left": False, "host": False}
        answered: dict[int, list[int]] = {0: [], 2: []}
        back = {0: 0, 2: 0}  # the step at which each person came back

        async def person(seat: int) -> None:
            ws, token, done = people[seat], table.chairs[seat].token, -1
            while True:
                st = await _until(ws, logs[seat], lambda m: m["type"] == "state")
                if st["phase"] == "match_over":
                    return
                if st["phase"] in ("first_hakem", "hand_over"):
                    await ws.send_json({"type": "next", "token": token})
                    continue
                if st["turn"] != seat or not st["ready"] or st["step"] <= done:
                    continue
                done = st["step"]
                if seat == 2 and not events["timer"]:
                    if table.session.timer > 1:  # the next decisions get a short clock
                        table.session.timer = 0.3
                    else:  # let this one run out: the bot decides
                        table.session.timer = 2.0
                        events["timer"] = True
                        continue
                if seat == 0 and events["timer"] and not events["left"]:
                    events["left"] = True  # gone past the grace period, then back
                    await ws.close()
                    await _bot_played(table, 0, "left")
                    ws = people[0] = await _page(client, token)
                    back[0] = table.session.game.step
                    continue
                if seat == 2 and events["left"] and back[0] and not events["host"]:
                    events["host"] = True
                    await host.send_json({"type": "to_bot", "seat": 2, "token": table.host})
                    with pytest.raises(ConnectionError):  # the server closes the page
                        await _until(ws, logs[seat], lambda m: False)
                    await _bot_played(table, 2, "host")
                    ws = people[2] = await _page(client, token)
                    back[2] = table.session.game.step
                    continue
                answered[seat].append(st["step"])
                if st["phase"] == "trump":
                    await ws.send_json({"type": "trump", "suit": st["hand"][0][1],
                                        "step": st["step"], "token": token})  # fmt: skip
                else:
                    await ws.send_json({"type": "card", "card": st["legal"][-1],
                                        "step": st["step"], "token": token})  # fmt: skip

        async def watcher(ws, log) -> None:
            await _until(ws, log, lambda m: m["type"] == "state" and m["phase"] == "match_over")

        await asyncio.wait_for(asyncio.gather(person(0), person(2), watcher(watch, logs[-1]),
                                              watcher(host, logs[HOST])), 90)  # fmt: skip
        assert all(events.values()), events
        session = table.session
        records = session.game.records
        assert session.game.phase == "match_over" and max(session.game.final_scores()) >= 5
        for seat, log in logs.items():
            states = [m for m in log if m["type"] == "state"]
            assert states, seat
            for msg in log:
                _check(seat, msg, records)
        assert any(m["type"] == "state" and m["hand"] for m in logs[0])
        why = {(s["seat"], s["why"]) for s in session.stand_ins}
        assert {(2, "timer"), (0, "left"), (2, "host")} <= why, why
        assert all(s["seat"] in (0, 2) for s in session.stand_ins)
        for x in session.stand_ins:  # each names the trick and the card (or suit) it decided
            rec = records[x["hand"]]
            if x["kind"] == "card":
                trick = rec["tricks"][x["trick"] - 1]
                assert trick["cards"][(x["seat"] - trick["leader"]) % 4] == x["decided"], x
            else:
                assert (x["trick"], rec["trump"], rec["hakem"]) == (0, x["decided"], x["seat"])
        # back, the people had their seats again: their bots decided for them only when
        # their clock ran out (a decision under way as they came back aside), and they did
        by_bot = {x["step"] for x in session.stand_ins}
        for seat in (0, 2):
            later = [x for x in session.stand_ins if x["seat"] == seat and x["step"] > back[seat]]
            assert all(x["why"] == "timer" for x in later), (seat, back, later)
            mine = [step for step in answered[seat] if step > back[seat] and step not in by_bot]
            assert mine or later, (seat, back, answered[seat], len(records))
        game = Store(tmp_path).game(session.id)
        assert [s["kind"] for s in game["seats"]] == ["person", "bot", "person", "bot"]
        assert game["seats"][2]["name"] == "Maryam" and game["stand_ins"] == session.stand_ins
        assert game["result"] in ("won", "lost") and game["partner"] == "Maryam"

    # two hands at least (a return has one to play); scripted people and bots with no pause
    # between cards send faster than a page may (the limit is tested below)
    _with_table(tmp_path, body, target=5, rate=10_000)
    table_lines = list(lines(tmp_path, "table"))
    assert "people" in table_lines[0] and "South, Maryam" in table_lines[1]
    traced = list(lines(tmp_path, "jsonl"))
    assert traced and all(json.loads(t)["tricks"] for t in traced)
    # the finished game is in the results store, once: its bots by the seats they played
    (kept,) = select(tmp_path / "results.sqlite")
    game = Store(tmp_path).games()[0]
    assert kept["kind"] == "play" and kept["seed"] == game["seed"]
    assert kept["command"] == f"hokm-sim games --game {game['id']} --format json"
    assert sorted((b["role"], b["name"]) for b in kept["bots"]) == [
        ("east", "random"), ("west", "random")]  # fmt: skip
    assert kept["headline"].startswith(f"South and Maryam against East and West: {game['result']}")


def test_tokens_doors_and_refusals(tmp_path):
    async def body(client, server, table):
        near = table.chairs[0].token[:-1] + ("A" if table.chairs[0].token[-1] != "A" else "B")
        for token in ("", "x" * 32, near):
            r = await client.get(f"/table/ws?token={token}")
            assert r.status in (403, 404), r.status
        assert (await client.get("/table/nope")).status == 404
        assert (await client.get(f"/table/{table.chairs[1].token}")).status == 200
        assert (await client.get("/games")).status == 404  # a shared table serves no past games
        evil = await client.get(f"/table/{table.host}", headers={"Origin": "http://evil.example"})
        assert evil.status == 403
        rebound = await client.get(f"/table/{table.host}", headers={"Host": "evil.example"})
        assert rebound.status == 403
        log: list = []
        me, you = table.chairs[0].token, table.chairs[1].token
        ws0, ws1 = await _page(client, me), await _page(client, you)
        watch, host = await _page(client, table.spectators), await _page(client, table.host)
        for bad in ({"type": "settings", "timer": 20}, {"type": "settings", "bots": ["x"] * 4},
                    {"type": "settings", "target": "7"}):  # fmt: skip
            await host.send_json(bad | {"token": table.host})
            assert (await _until(host, log, lambda m: m["type"] == "refused"))["message"]
        await host.send_json({"type": "settings", "timer": 15, "target": 5, "token": table.host,
                              "bots": ["random"] * 4})  # fmt: skip
        lobby = await _until(ws0, log, lambda m: m["type"] == "lobby" and m["timer"] == 15)
        assert lobby["target"] == 5 and all(s["bot"] == "random" for s in lobby["seats"])
        table.timer = 5.0
        await host.send_json({"type": "start", "token": table.host})
        st = await _until(ws0, log, lambda m: m["type"] == "state")
        await ws0.send_json({"type": "next", "token": me})
        st = await _until(ws0, log, lambda m: m["type"] == "state" and m["turn"] in (0, 1)
                          and m["ready"] and m["phase"] in ("play", "trump"))  # fmt: skip
        due = st["turn"]
        mine, other = (ws0, ws1) if due == 0 else (ws1, ws0)
        token_due, token_other = (me, you) if due == 0 else (you, me)
        kind = "trump" if st["phase"] == "trump" else "card"
        move = {"type": kind, "suit": "S", "card": "AS", "step": st["step"]}
        await other.send_json(move | {"token": token_other})
        assert (
            "not yours" in (await _until(other, log, lambda m: m["type"] == "refused"))["message"]
        )
        await other.send_json(move | {"token": token_due})  # another seat's token: refused
        assert (
            "its page's token"
            in (await _until(other, log, lambda m: m["type"] == "refused"))["message"]
        )
        await watch.send_json(move | {"token": table.spectators})
        assert (
            "only the people"
            in (await _until(watch, log, lambda m: m["type"] == "refused"))["message"]
        )
        await mine.send_json({"type": "show_seed", "token": token_due})
        assert "seed" in (await _until(mine, log, lambda m: m["type"] == "refused"))["message"]
        assert table.session.game.step == st["step"]  # nothing changed
        await mine.send_str("x" * 5000)  # past the bounded message size: the socket closes
        closed = await mine.receive()
        while closed.type == WSMsgType.TEXT:  # states sent before it
            closed = await mine.receive()
        assert closed.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.ERROR)
        for _ in range(25):
            await other.send_json({"type": "nonsense", "token": token_other})
        got = [await _until(other, log, lambda m: m["type"] == "refused") for _ in range(25)]
        assert any("messages a second" in m["message"] for m in got)
        # a second table of the same server: its links are its own
        second = server.host_table(["random"] * 4, CHOICES)
        ws2 = await _page(client, second.chairs[0].token)
        lobby2 = await _until(ws2, log, lambda m: m["type"] == "lobby")
        assert not lobby2["started"] and lobby2["seats"][0]["person"]
        await ws2.send_json({"type": "start", "token": second.chairs[0].token})
        assert (
            "only the host" in (await _until(ws2, log, lambda m: m["type"] == "refused"))["message"]
        )
        await ws2.send_json({"type": "start", "token": table.host})
        assert (
            "its page's token"
            in (await _until(ws2, log, lambda m: m["type"] == "refused"))["message"]
        )
        assert second.session is None and table.session.game.step >= st["step"]

    _with_table(tmp_path, body)


@pytest.mark.parametrize("bind", ["127.0.0.1", "127.0.0.2"])
def test_host_prints_a_link_per_seat_at_its_address(tmp_path, bind):
    """127.0.0.1 by default; with --bind, the links carry that address, which the doors
    let in (127.0.0.2 stands for a LAN address: it is this machine's too)."""
    out: list[str] = []
    status: list[int] = []

    async def go():
        server = _server(tmp_path)
        server.settings.bind = bind
        _table(server)
        stop = asyncio.Event()

        async def visit(link: str) -> None:
            async with aiohttp.ClientSession() as http, http.get(link) as r:
                status.append(r.status)
            stop.set()

        def announce(line: str) -> None:
            out.append(line)
            if line.startswith("games are saved"):
                link = next(x for x in out if "spectators" in x).split(": ", 1)[1]
                asyncio.ensure_future(visit(link))

        await serve(server, announce=announce, stop=stop)

    asyncio.run(go())
    assert status == [200]
    links = [line.split(": ", 1)[1] for line in out if "/table/" in line]
    assert len(links) == 6 and all(link.startswith(f"http://{bind}:") for link in links)
    tokens = [link.rsplit("/", 1)[1] for link in links]
    assert len(set(tokens)) == 6 and all(len(t) >= 32 for t in tokens)
    saved = json.loads((tmp_path / "tables" / "1.json").read_text())  # saved as it opened
    assert [c["token"] for c in saved["chairs"]] + [saved["spectators"], saved["host"]] == tokens


BOTS = ["longest", "random", "longest", "random"]


async def _play(ws, token: str, log: list, until) -> dict:
    """Play seat 0's decisions (the last legal card; trump the first card's suit) until a
    state of its turn passes ``until``; that state."""
    done = -1
    while True:
        st = await _until(ws, log, lambda m: m["type"] == "state")
        if st["phase"] == "match_over":
            return st
        if st["phase"] in ("first_hakem", "hand_over"):
            await ws.send_json({"type": "next", "token": token})
            continue
        if st["turn"] != 0 or not st["ready"] or st["step"] <= done:
            continue
        if until(st):
            return st
        done = st["step"]
        if st["phase"] == "trump":
            await ws.send_json({"type": "trump", "suit": st["hand"][0][1], "step": st["step"],
                                "token": token})  # fmt: skip
        else:
            await ws.send_json({"type": "card", "card": st["legal"][-1], "step": st["step"],
                                "token": token})  # fmt: skip


def _where(game) -> dict:
    """Everything of a game that resuming must bring back as it was."""
    return {"step": game.step, "hand": game.hand, "phase": game.phase, "moves": list(game.moves),
            "records": game.records, "scores": game.final_scores(),
            "cards": [game.hand_of(s) for s in range(4)],
            "trick": game.trick.to_dict() if game.trick else None,
            "legal": game.table.legal, "hints": [h.to_dict() for h in game.hints],
            # the bots' memories and random streams (a stand-in's too)
            "mem": game.table.slots.mem.tolist(),
            "srng": game.table.slots.srng.tolist()}  # fmt: skip


def test_a_restarted_server_resumes_the_table_where_it_was(tmp_path, monkeypatch, capsys):
    """A server stopped mid-hand, a second hand under way, cards on the table: started
    again on the same data folder, the same links open the same seats and the match goes
    on from the same position to its end. (Its results store cannot be opened: the game
    is finished and kept in the games database all the same.)"""
    (tmp_path / "not-a-store").mkdir()
    monkeypatch.setenv("HOKM_SIM_STORE", str(tmp_path / "not-a-store"))
    monkeypatch.setattr(hosted, "fresh_seed", lambda: SEED)  # the same match every time
    before: dict = {}
    log: list = []

    async def first(client, server, table):
        token = table.chairs[0].token
        table.chairs[0].bot = "random"  # Ali's bot: a replay must move its random stream on
        ws = await _page(client, token)
        await ws.send_json({"type": "name", "name": "Ali", "token": token})
        await _until(ws, log, lambda m: m["type"] == "lobby" and m["seats"][0]["name"] == "Ali")
        host = await _page(client, table.host)
        await host.send_json({"type": "start", "token": table.host})
        await _play(ws, token, log, lambda m: m["hand_no"] == 1 and m["phase"] == "play")
        # his first card of the second hand is his bot's (the host gave it the seat); back,
        # he plays on until a card of another trick of that hand is due, cards on the table
        await host.send_json({"type": "to_bot", "seat": 0, "token": table.host})
        await _bot_played(table, 0, "host")
        ws = await _page(client, token)
        while True:
            by_bot = table.session.stand_ins[-1]
            after = by_bot["step"]
            st = await _play(ws, token, log,
                             lambda m, after=after: m["hand_no"] == 1 and m["phase"] == "play"
                             and m["trick"] and m["trick"]["cards"]
                             and m["trick"]["winner"] is None and m["step"] > after)  # fmt: skip
            assert st["phase"] == "play" and by_bot["hand"] == 1, (st["phase"], by_bot)
            await ws.send_json({"type": "hint", "token": table.chairs[0].token})
            said = await _until(ws, log, lambda m: m["type"] in ("hint", "refused"))
            if said["type"] == "hint":
                break
            # his page came back while his bot was deciding that card (the host had given
            # it the seat): the page showed his turn, the bot played it; on to his next turn
            assert said["message"] == "A hint is for your own turn.", said
        before.update(_where(table.session.game), state=st, id=table.session.id,
                      tokens=[c.token for c in table.chairs] + [table.spectators, table.host],
                      stand_ins=list(table.session.stand_ins))  # fmt: skip

    _with_table(tmp_path, first, target=5, timer=30.0, grace=30.0, rate=10_000)
    assert Store(tmp_path).game(before["id"])["result"] == "unfinished" and before["stand_ins"]
    assert (tmp_path / "tables").stat().st_mode & 0o077 == 0  # the tokens are the user's only
    _cannot_resume(tmp_path / "tables" / "1.json", tmp_path / "other")
    out: list[str] = []

    async def second():
        server = _server(tmp_path)
        (table,) = server.open_tables(BOTS, CHOICES, target=3, timer=2.0, grace=30.0,
                                      rate=10_000, announce=out.append)  # fmt: skip
        assert [c.token for c in table.chairs] + [table.spectators, table.host] == before["tokens"]
        assert table.timer == 30.0 and table.chairs[0].person == "Ali"
        try:
            async with TestClient(TestServer(server.app(), host="127.0.0.1")) as client:
                session = table.session
                now = _where(session.game)
                assert session.id == before["id"]
                assert [k for k in now if now[k] != before[k]] == []
                ws = await _page(client, table.chairs[0].token)
                st = await _until(ws, [], lambda m: m["type"] == "state")
                assert {k: st[k] for k in ("hand", "legal", "trick", "scores", "step", "turn")} == {
                    k: before["state"][k] for k in ("hand", "legal", "trick", "scores", "step",
                                                    "turn")}  # fmt: skip
                assert st["players"][0]["name"] == "Ali"
                await ws.send_json({"type": "card", "card": st["legal"][-1], "step": st["step"],
                                    "token": table.chairs[0].token})  # fmt: skip
                end = await _play(ws, table.chairs[0].token, [], lambda m: False)
                assert end["phase"] == "match_over" and max(end["scores"]) >= 5
                assert session.game.moves[: len(before["moves"])] == before["moves"]
                assert session.stand_ins[: len(before["stand_ins"])] == before["stand_ins"]
        finally:
            await server.bots.run(lambda: None)
            for s in server.sessions.values():
                s.close()
            table.close()
            server.close()

    asyncio.run(second())
    assert len(out) == 1 and f"resumes game {before['id']} at hand" in out[0], out
    (said,) = capsys.readouterr().err.splitlines()
    assert said.startswith(f"hokm-sim play: game {before['id']} not in the results store: ")
    game = Store(tmp_path).game(before["id"])
    assert game["result"] in ("won", "lost") and game["seats"][0]["name"] == "Ali"
    assert game["hands"] == len(json.loads(json.dumps(list(lines(tmp_path, "jsonl")))))


def _cannot_resume(saved: Path, other: Path) -> None:
    """A table's file that cannot be brought back is said in one line; the table opens
    afresh (in its lobby with its links where the file can be read, else a new one)."""
    state = json.loads(saved.read_text())
    changed = json.loads(saved.read_text())
    changed["match"]["bots"][1]["digest"] = "0" * 64
    cases = {
        "1": (changed, "the files of the bot 'random' changed since it was saved", True),
        "2": (state | {"format": 99}, "saved by a newer hokm-sim (format 99", False),
        "3": (state | {"chairs": state["chairs"][:3]}, "its file is damaged", False),
        "4": ("{not json", "its file cannot be read", False),
    }
    for name, (content, _why, _same) in cases.items():
        text = content if isinstance(content, str) else json.dumps(content)
        (other / "tables").mkdir(parents=True, exist_ok=True)
        (other / "tables" / f"{name}.json").write_text(text)
    out: list[str] = []
    server = _server(other)
    try:
        tables = server.open_tables(BOTS, CHOICES, target=3, announce=out.append)
    finally:
        server.close()
    assert len(out) == 4 and all(line.count("\n") == 0 for line in out), out
    for line, (name, (_c, why, same)) in zip(out, cases.items(), strict=True):
        assert f"tables/{name}.json" in line and why in line, (name, line)
        assert ("the table opens in its lobby, its links as before" in line) is same, line
    # the bot's table opens in its lobby with its links; the others are left as they are
    # and one new table opens (a new file, new links)
    assert [t.path.name for t in tables] == ["1.json"]
    assert tables[0].host == state["host"] and tables[0].session is None
    assert (other / "tables" / "2.json").read_text() == json.dumps(state | {"format": 99})


def test_a_person_whose_bot_is_deciding_is_not_offered_that_turn(tmp_path, monkeypatch):
    """A person who leaves at their turn and comes back while their bot decides for
    them: the page they open says so instead of offering the turn, and a card or hint
    sent then is refused at once with why; the person decides again at their next
    turn. (The clock is long: only the leaving hands the turn to the bot.)"""
    monkeypatch.setenv("HOKM_SIM_STORE", str(tmp_path / "results.sqlite"))

    async def my_turn(ws, log, token, st=None) -> dict:
        """The first state from ``st`` on (else the next one) that is South's turn."""
        while True:
            st = st or await _until(ws, log, lambda m: m["type"] == "state")
            if st["phase"] in ("first_hakem", "hand_over"):
                await ws.send_json({"type": "next", "token": token})
            elif st["turn"] == 0 and st["ready"] and st["phase"] in ("trump", "play"):
                return st
            st = None

    async def body(client, server, table):
        token = table.chairs[0].token
        page, host, log = await _page(client, token), await _page(client, table.host), []
        await _until(page, log, lambda m: m["type"] == "lobby")
        await host.send_json({"type": "start", "token": table.host})
        st = await my_turn(page, log, token)
        assert st["table"]["deciding"] is None
        stand_in = table.session.game.seats[0].stand_in
        decide = stand_in.decide

        def slow(*args):  # long enough to be seen deciding
            time.sleep(3.0)
            return decide(*args)

        stand_in.decide = slow
        await page.close()  # gone past the grace period: the bot decides
        for _ in range(3000):
            if table.session.deciding == 0:
                break
            await asyncio.sleep(0.01)
        again = await _page(client, token)  # back while the bot decides
        seen = await _until(again, [], lambda m: m["type"] == "state")
        assert seen["table"]["deciding"] == 0 and seen["turn"] == 0
        assert seen["step"] == st["step"]
        for ask in ({"type": "hint"}, {"type": "card", "card": "2C"}):
            await again.send_json(ask | {"step": st["step"], "token": token})
            refused = await _until(again, [], lambda m: m["type"] == "refused")
            assert refused["message"] == (
                "your bot is deciding this turn: you decide from your next one"
            )
        stand_in.decide = decide
        log = []
        after = await _until(again, log, lambda m: m["type"] == "state" and m["step"] > st["step"])
        assert after["table"]["deciding"] is None
        assert [(x["seat"], x["why"], x["step"]) for x in table.session.stand_ins] == [
            (0, "left", st["step"])
        ]
        nxt = await my_turn(again, log, token, after)  # the person's own again
        assert nxt["table"]["deciding"] is None
        await again.send_json({"type": "hint", "step": nxt["step"], "token": token})
        answer = await _until(again, log, lambda m: m["type"] in ("hint", "refused"))
        assert answer["type"] == "hint", answer

    _with_table(tmp_path, body, timer=60.0, rate=10_000)
