"""``hokm-sim play``'s doors: who may use the table, what a page may ask, when the seed shows.

Another site's page (or a DNS-rebinding one) is refused by ``Host`` and
``Origin`` on every request and socket; every call that acts on a game or
reads one needs the game's secret, which only the game's own page carries;
the seed stays out of every message until the match is over or the person
asks for it (recorded); a malformed request is a 400 (an unknown game a 404)
with a one-line JSON reason, never a 500. The server is driven through
aiohttp's client over 127.0.0.1, bots ``longest`` and ``random``.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer
from click.testing import CliRunner

from hokm_sim.api import strategy
from hokm_sim.cards import SUITS, card_str
from hokm_sim.cli import main
from hokm_sim.play.doors import Doors, allowed_origin
from hokm_sim.play.seats import BotSeat
from hokm_sim.play.server import Server, Settings
from hokm_sim.play.store import Store

SEED = 2024
EVIL = "http://evil.example"


def _server(tmp_path, **kw) -> Server:
    return Server(
        Settings(
            partner=strategy("longest"), opponents=strategy("random"), target=3, pause=0,
            data=tmp_path, open_browser=False, **kw,
        )
    )  # fmt: skip


async def _refused(response: aiohttp.ClientResponse, status: int, fragment: str) -> str:
    """The one-line JSON reason of a refusal of ``status`` that says ``fragment``."""
    text = await response.text()
    assert response.status == status, (response.status, text)
    assert "\n" not in text.strip() and "Traceback" not in text, text
    reason = json.loads(text)["error"]
    assert fragment in reason, reason
    return reason


async def _state(ws) -> dict:
    while True:
        msg = await asyncio.wait_for(ws.receive_json(), 60)
        if msg["type"] == "state":
            return msg


def _with_table(tmp_path, body, **settings):
    """Run ``body(client, server, session, own)`` against a server with one game;
    ``own`` is the table's own origin as the client reaches it."""

    async def go():
        server = _server(tmp_path, **settings)
        session = server.new_game(SEED)
        try:
            async with TestClient(TestServer(server.app(), host="127.0.0.1")) as client:
                own = f"http://127.0.0.1:{client.port}"
                await body(client, server, session, own)
        finally:
            await server.bots.run(lambda: None)
            for s in server.sessions.values():
                s.close()
            server.close()

    asyncio.run(go())


# --- Origin and Host --------------------------------------------------------------------------


def test_another_sites_page_cannot_sit_at_the_table(tmp_path):
    """The socket, the API and the pages refuse another Origin, a rebound Host and a
    browser's cross-site subresource request, with the right secret or not; the table's
    own origin (127.0.0.1, localhost) comes in, and no answer may be framed."""

    async def body(client, server, session, own):
        port = client.port
        ws_path = f"/ws/{session.id}?secret={session.secret}"
        key = {"X-Hokm-Secret": session.secret}
        evil_host = {"Host": f"evil.example:{port}"}
        for headers, fragment in [
            ({"Origin": EVIL}, "evil.example"),
            ({"Origin": EVIL, **evil_host}, "evil.example"),
            ({"Origin": own, **evil_host}, "not this table's address"),
            ({"Origin": "null"}, "'null'"),
            ({"Origin": f"http://127.0.0.1:{port + 1}"}, "may not use this table"),
        ]:
            with pytest.raises(aiohttp.WSServerHandshakeError) as err:
                await client.ws_connect(ws_path, headers=headers)
            assert err.value.status == 403, headers
            r = await client.get(ws_path, headers=headers)  # the same refusal, read
            await _refused(r, 403, fragment)
        games = len(server.sessions)
        for headers in ({"Origin": EVIL}, evil_host, {"Origin": f"https://127.0.0.1:{port}"}):
            r = await client.post("/api/new", json={}, headers={**key, **headers})
            await _refused(r, 403, "")
        assert len(server.sessions) == games  # no game was started
        # DNS rebinding: the page (which carries the secret) and the reads
        for path in (f"/play/{session.id}", f"/api/games/{session.id}/hands", "/games", "/",
                     "/static/table.js", f"/games/{session.id}/hands/0"):  # fmt: skip
            await _refused(await client.get(path, headers=evil_host), 403, "evil.example")
        # a Host with the table's name at another port, or no Host at all (HTTP/1.0)
        other = {"Host": f"127.0.0.1:{port + 1}"}
        await _refused(await client.get("/games", headers=other), 403, "address")
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /games HTTP/1.0\r\n\r\n")
        answer = (await asyncio.wait_for(reader.read(), 30)).decode()
        writer.close()
        assert answer.startswith("HTTP/1.0 403") and "Host '(none)'" in answer, answer
        # a browser's request from another site without Origin: an <img>, a <script>
        cross = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"}
        await _refused(await client.get("/", headers=cross), 403, "another site")
        same_site = {"Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "cors"}
        await _refused(await client.get("/static/table.js", headers=same_site), 403, "site")
        # ... but a person may open the table from a link elsewhere; it refuses framing
        nav = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}
        page = await client.get(f"/play/{session.id}", headers=nav)
        assert page.status == 200 and page.headers["X-Frame-Options"] == "DENY"
        assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
        assert page.headers["Referrer-Policy"] == "no-referrer"
        # the table's own origin, by either name, comes in
        for name in ("127.0.0.1", "localhost"):
            host = {"Host": f"{name}:{port}", "Origin": f"http://{name}:{port}"}
            ws = await client.ws_connect(ws_path, headers=host)
            assert (await _state(ws))["game"] == session.id
            await ws.close()
            assert (await client.get("/games", headers=host)).status == 200

    _with_table(tmp_path, body)


def test_allow_origin_lets_a_tunnel_in(tmp_path):
    """``--allow-origin``: pages at that origin (a tunnel's address) come in, with its
    Host; other origins stay out."""

    async def body(client, server, session, own):
        tunnel = {"Host": "localhost:9000", "Origin": "http://localhost:9000"}
        ws = await client.ws_connect(f"/ws/{session.id}?secret={session.secret}", headers=tunnel)
        assert (await _state(ws))["game"] == session.id
        await ws.close()
        proxy = {"Host": "hokm.example", "Origin": "https://hokm.example"}
        assert (await client.get(f"/play/{session.id}", headers=proxy)).status == 200
        r = await client.get("/games", headers={"Host": "localhost:9001"})
        await _refused(r, 403, "localhost:9001")

    _with_table(
        tmp_path, body, allow_origins=("http://localhost:9000", "HTTPS://hokm.example:443/")
    )


@pytest.mark.parametrize(
    "given, origin",
    [("http://localhost:9000", "http://localhost:9000"),
     ("https://Hokm.Example:443/", "https://hokm.example"),
     ("http://[::1]:80", "http://[::1]")],
)  # fmt: skip
def test_allowed_origins_are_written_as_browsers_send_them(given, origin):
    assert allowed_origin(given) == origin
    assert origin in Doors([given]).origins(8727)


@pytest.mark.parametrize(
    "given", ["ftp://x", "localhost:9000", "http://", "http://a:99999", "http://a/path",
              "http://u@a", "http://a?q=1"],
)  # fmt: skip
def test_bad_allowed_origins_are_refused(given):
    with pytest.raises(ValueError, match="--allow-origin"):
        allowed_origin(given)


# --- the game's secret ------------------------------------------------------------------------


def test_every_call_on_a_game_needs_its_secret(tmp_path):
    """The socket, the hands, the hand viewer and a new game need the secret of a game
    at this table; its own page carries it, and another game's secret does not open it."""

    async def body(client, server, session, own):
        other = server.new_game(SEED + 1)
        assert len(session.secret) >= 32 and session.secret != other.secret
        page = await (await client.get(f"/play/{session.id}")).text()
        assert f'<meta name="hokm-secret" content="{session.secret}">' in page
        assert other.secret not in page
        ws_path = f"/ws/{session.id}"
        for query in ("", "?secret=", f"?secret={other.secret}", "?secret=%C3%A9"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as err:
                await client.ws_connect(ws_path + query)
            assert err.value.status == 403
            await _refused(await client.get(ws_path + query), 403, "secret")
        hands = f"/api/games/{session.id}/hands"
        await _refused(await client.get(hands), 403, "secret")
        r = await client.get(hands, headers={"X-Hokm-Secret": other.secret})
        await _refused(r, 403, "secret")
        assert (await client.get(hands, headers={"X-Hokm-Secret": session.secret})).status == 200
        assert (await client.get(f"{hands}?secret={session.secret}")).status == 200
        await _refused(await client.get(f"/games/{session.id}/hands/0"), 403, "secret")
        games = len(server.sessions)
        await _refused(await client.post("/api/new", json={}), 403, "page of a game")
        r = await client.post("/api/new", json={}, headers={"X-Hokm-Secret": "x" * 32})
        await _refused(r, 403, "page of a game")
        assert len(server.sessions) == games
        r = await client.post("/api/new", json={}, headers={"X-Hokm-Secret": other.secret})
        assert r.status == 200 and len(server.sessions) == games + 1

    _with_table(tmp_path, body)


def test_a_database_from_before_secrets_gets_them(tmp_path):
    """A games database written before games had secrets (or a shown seed) opens: the
    columns are added and every game gets a secret of its own; none is exported."""
    db = sqlite3.connect(tmp_path / "games.sqlite")
    db.executescript(
        "CREATE TABLE games (id INTEGER PRIMARY KEY, started TEXT NOT NULL, finished TEXT, "
        "seed TEXT NOT NULL, daily TEXT, partner TEXT NOT NULL, opponents TEXT NOT NULL, "
        "target INTEGER NOT NULL, first_hakem TEXT NOT NULL, result TEXT NOT NULL, "
        "score0 INTEGER NOT NULL DEFAULT 0, score1 INTEGER NOT NULL DEFAULT 0, "
        "hints TEXT NOT NULL DEFAULT '[]', message TEXT, version TEXT NOT NULL);"
        "INSERT INTO games (started, seed, partner, opponents, target, first_hakem, result, "
        "version) VALUES ('x', '5', 'a', 'b', 3, 'first-ace', 'won', 'v'), "
        "('y', '6', 'a', 'b', 3, 'first-ace', 'lost', 'v');"
    )
    db.commit()
    db.close()
    store = Store(tmp_path)
    keys = [store.secret(1), store.secret(2)]
    assert all(k and len(k) >= 32 for k in keys) and keys[0] != keys[1]
    assert store.secret(3) is None and store.secret(2**64) is None
    assert store.games()[0]["seed_shown"] is False and "secret" not in store.games()[0]
    store.close()
    out = CliRunner().invoke(main, ["games", "--data", str(tmp_path), "--format", "json"])
    assert out.exit_code == 0 and keys[0] not in out.output and '"seed_shown": false' in out.output


# --- the seed ---------------------------------------------------------------------------------


def test_the_seed_stays_hidden_until_asked_for_and_the_asking_is_recorded(tmp_path):
    """While the match is live no message, hand record, viewer or games page shows the
    seed (or the command that plays the game again); asking for it shows it and records
    it with the game."""

    async def body(client, server, session, own):
        key = {"X-Hokm-Secret": session.secret}
        ws = await client.ws_connect(f"/ws/{session.id}?secret={session.secret}")
        texts: list[str] = []

        async def state() -> dict:
            while True:
                msg = await asyncio.wait_for(ws.receive_str(), 60)
                texts.append(msg)
                data = json.loads(msg)
                if data["type"] == "state" and data["ready"]:
                    return data

        st = await state()
        assert st["seed"] is None and st["seed_shown"] is False
        await ws.send_json({"type": "next"})
        person = BotSeat("You", strategy("longest"))
        while st["phase"] != "hand_over":  # play the first hand as longest would
            st = await state()
            game = session.game
            if st["phase"] in ("play", "trump") and game.due() == 0 and st["step"] == game.step:
                kind = game.table.waiting
                answer = person.decide(game.table)
                value = SUITS[answer] if kind == "trump" else card_str(answer)
                field = "suit" if kind == "trump" else "card"
                await ws.send_json({"type": kind, "step": st["step"], field: value})
        assert not session.game.over
        seed_text = re.compile(rf"\b{SEED}\b")
        assert not [t for t in texts if seed_text.search(t)]
        records = await (await client.get(f"/api/games/{session.id}/hands", headers=key)).json()
        assert records and all("seed" not in r for r in records)
        viewer = await client.get(f"/games/{session.id}/hands/0?secret={session.secret}")
        text = await viewer.text()
        assert viewer.status == 200 and "hand-data" in text and not seed_text.search(text)
        games = await (await client.get("/games")).text()
        assert "hidden until the match ends" in games and "--seed" not in games
        # the person asks: the seed shows, and the asking is recorded
        await ws.send_json({"type": "show_seed"})
        st = await state()
        while st["seed"] is None:
            st = await state()
        assert st["seed"] == str(SEED) and st["seed_shown"] is True
        assert server.store.game(session.id)["seed_shown"] is True
        records = await (await client.get(f"/api/games/{session.id}/hands", headers=key)).json()
        assert all(r["seed"] == SEED for r in records)
        games = await (await client.get("/games")).text()
        assert "(shown during play)" in games and f"--seed {SEED}" in games
        await ws.close()

    _with_table(tmp_path, body)


# --- what a page may ask ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "body, fragment",
    [
        ('{"target":1e400}', "target: inf is not one of 3, 5, 7, 10"),
        ('{"target":3.9}', "target: 3.9 is not one of"),
        ('{"target":"abc"}', "target: 'abc' is not one of"),
        ('{"target":true}', "target: True is not one of"),
        ('{"target":4}', "target: 4 is not one of"),
        ('{"daily":"no"}', "daily: 'no' is not true or false"),
        ('{"daily":1}', "daily: 1 is not true or false"),
        ('{"seed":1.5}', "seed: 1.5 is not a whole number from 0 to 2**64-1"),
        ('{"seed":-1}', "seed: -1 is not"),
        ('{"seed":18446744073709551616}', "seed: 18446744073709551616 is not"),
        ('{"seed":"x"}', "seed: 'x' is not"),
        ('{"seed":[]}', "seed: [] is not"),
        ('{"daily":true,"seed":3}', "give daily or seed, not both"),
        ('{"a":1}', "unknown field 'a': a new game takes seed, daily, target"),
        ("[]", "the body is a JSON list; send an object"),
        ('"x"', "the body is a JSON str"),
        ("", "the body is not JSON"),
        ("{", "the body is not JSON"),
        ("[" * 100_000, "the body is not JSON"),
        ('{"seed": 1' + "0" * 5000 + "}", "the body is not JSON"),
    ],
)
def test_a_new_game_is_asked_for_field_by_field(tmp_path, body, fragment):
    async def run(client, server, session, own):
        games = len(server.sessions)
        r = await client.post(
            "/api/new", data=body,
            headers={"Content-Type": "application/json", "X-Hokm-Secret": session.secret},
        )  # fmt: skip
        await _refused(r, 400, fragment)
        assert len(server.sessions) == games

    _with_table(tmp_path, run)


def test_good_new_game_requests_and_paths(tmp_path):
    """What /api/new takes (each field by its type), and the numbers in paths: past
    2**63-1 a 400, an unknown game a 404, each a one-line JSON reason."""

    async def run(client, server, session, own):
        key = {"X-Hokm-Secret": session.secret}
        for body, check in [
            ({"target": 5}, lambda g: g.target == 5 and g.daily is None),
            ({"seed": "0x10"}, lambda g: g.seed == 16),
            ({"seed": 12, "target": None}, lambda g: g.seed == 12 and g.target == 3),
            ({"daily": False}, lambda g: g.daily is None),
            ({"daily": True}, lambda g: g.daily is not None),
        ]:
            r = await client.post("/api/new", json=body, headers=key)
            assert r.status == 200, await r.text()
            assert check(server.sessions[(await r.json())["id"]].game), body
        r = await client.post("/api/new", data="{}", headers={**key, "Content-Type": "text/plain"})
        await _refused(r, 400, "application/json")
        big, huge = str(2**64), "9" * 5000
        q = f"?secret={session.secret}"
        for path, status, fragment in [
            (f"/games/{big}/hands/0{q}", 400, "game: 18446744073709551616 is past 2**63-1"),
            (f"/api/games/{big}/hands{q}", 400, "game: 1844"),
            (f"/games/{session.id}/hands/{big}{q}", 400, "hand: 1844"),
            (f"/play/{huge}", 400, "game: 999999999999999999999999... is past"),
            (f"/ws/{huge}", 400, "is past 2**63-1"),
            (f"/play/{2**63 - 1}", 404, "no game 9223372036854775807"),
            ("/play/999", 404, "no game 999"),
            (f"/ws/999{q}", 404, "no game 999"),
            (f"/api/games/999/hands{q}", 404, "no game 999"),
            (f"/games/999/hands/0{q}", 404, "no game 999"),
            (f"/games/{session.id}/hands/5{q}", 404, "no finished hand 5"),
        ]:
            await _refused(await client.get(path), status, fragment)

    _with_table(tmp_path, run)


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--pause", "nan"], "--pause: nan is not a number of seconds from 0 to 10"),
        (["--pause", "-1"], "--pause"),
        (["--pause", "inf"], "--pause"),
        (["--allow-origin", "evil.example"], "--allow-origin: 'evil.example': expected an"),
        (["--bind", "192.168.1.5"], "add --host"),
        (["--host", "--bind", "0.0.0.0"], "listens everywhere"),
        (["--host", "--bind", "bad name"], "--bind: 'bad name' is not an IP address"),
        (["--host", "--timer", "20"], "20"),
        (["--host", "--bot", "nosuchbot"], "nosuchbot"),
    ],
)
def test_play_refuses_bad_options_in_one_line(tmp_path, args, fragment):
    cmd = ["play", "--partner", "longest", "--opponents", "random", "--no-open",
           "--data", str(tmp_path), *args]  # fmt: skip
    result = CliRunner().invoke(main, cmd)
    assert result.exit_code == 2, (result.output, result.exception)
    lines = [x for x in result.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and fragment in lines[0], lines


def test_games_with_an_id_past_sqlites_integers_is_one_line(tmp_path):
    Store(tmp_path).close()
    result = CliRunner().invoke(main, ["games", "--data", str(tmp_path), "--game", str(2**64)])
    err = result.stderr.strip()
    assert result.exit_code == 2 and "\n" not in err and str(2**64) in err, result.output
    assert "--game" in err and "9223372036854775807" in err  # the range it may be in
