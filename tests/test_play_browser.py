"""``hokm-sim play`` in a real headless Chromium (Playwright, the system's Chromium).

A whole match played by clicking and with the keyboard: trump called as
Hakem with the suit buttons, a dimmed card that cannot be played, a reload
in the middle of a hand that resumes it, the analysis of a hand with its
grades, the table at a phone's width; and every message the page received,
read back: no card of another seat before its hand was over, no seed before
the match was over (until the person asks for it, which the page records). Fast bots
(``longest``, ``random``), no pause, a match to 3.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import socket
import threading

import pytest

from hokm_sim.api import strategy
from hokm_sim.play.game import first_hakem_draw
from hokm_sim.play.server import Server, Settings, serve

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the test extra")


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no Chromium on this machine (.ci/run installs it)")


CARD_RE = re.compile(r'"([2-9TJQKA][CDHS])"')
SETTLED = """() => {
  const b = document.body.dataset;
  if (!b.phase || b.ready !== '1') return false;
  if (b.phase === 'play' || b.phase === 'trump') return b.turn === '0';
  return true;
}"""


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A server on 127.0.0.1 in a thread of its own; yields (base url, server, first game)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings = Settings(
        partner=strategy("longest"), opponents=strategy("random"), target=3, pause=0,
        data=tmp_path_factory.mktemp("data"), open_browser=False, port=port,
    )  # fmt: skip
    server = Server(settings)
    # A seed whose first Hakem is seat 0, so the person calls trump in the first hand
    # (worked out here, not at collection: every worker collects this module).
    seed = next(s for s in range(1000) if first_hakem_draw(s)[0] == 0)
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    up = threading.Event()

    def announce(line: str) -> None:
        up.set()

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(serve(server, seed=seed, announce=announce, stop=stop))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert up.wait(120), "the server did not start"
    yield f"http://127.0.0.1:{port}", server, server.latest
    loop.call_soon_threadsafe(stop.set)
    thread.join(30)
    assert not thread.is_alive()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=_chromium(), args=["--no-sandbox"])
        yield b
        b.close()


def _settle(page) -> str:
    page.wait_for_function(SETTLED, timeout=120_000)
    return page.evaluate("document.body.dataset.phase")


def _step(page) -> int:
    return int(page.evaluate("document.body.dataset.step"))


def test_a_whole_match_by_clicking(table, browser):
    base, server, gid = table
    page = browser.new_page(viewport={"width": 1100, "height": 850})
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f)))
    page.goto(f"{base}/play/{gid}")
    assert _settle(page) == "first_hakem"
    assert page.locator("#draw .turned").last.get_attribute("class") == "turned"
    assert page.locator("#draw .card").last.get_attribute("data-card")[0] == "A"
    page.click("#go-on")
    page.wait_for_function("document.body.dataset.phase !== 'first_hakem'")
    called = dimmed = reloaded = keyboard = analysed = False
    cards_played = 0
    while True:
        phase = _settle(page)
        if phase == "match_over":
            break
        if phase == "hand_over":
            if not analysed:
                link = page.locator("#panel .analyse-link").first.get_attribute("href")
                viewer = browser.new_page()
                viewer.goto(base + link)
                viewer.wait_for_selector("#status:text('ok')", timeout=120_000)
                grades = viewer.locator("td.grade").all_inner_texts()
                assert grades and all(g.split()[0] in ("best", "mistake", "blunder")
                                      for g in grades)  # fmt: skip
                assert viewer.inner_text("#errors") == ""
                viewer.close()
                analysed = True
            page.click("#go-on")
            page.wait_for_function("document.body.dataset.phase !== 'hand_over'")
            continue
        if phase == "trump":
            assert page.locator("#panel .five .card").count() == 5
            assert page.locator("#hand .card").count() == 5
            step = _step(page)
            page.click(".suits button[data-suit='H']")
            page.wait_for_function(f"+document.body.dataset.step > {step}")
            called = True
            continue
        step = _step(page)
        dim = page.locator("#hand .card.dim")
        if not dimmed and dim.count():
            card = dim.first.get_attribute("data-card")
            assert dim.first.is_disabled()
            dim.first.click(force=True)
            page.wait_for_timeout(200)
            assert _step(page) == step and page.locator(f"#hand [data-card='{card}']").count()
            dimmed = True
        if not reloaded and cards_played == 3:
            hand = page.locator("#hand .card").all_inner_texts()
            page.reload()
            assert _settle(page) == "play" and _step(page) == step
            assert page.locator("#hand .card").all_inner_texts() == hand
            reloaded = True
        if not keyboard and cards_played == 5:
            page.keyboard.press("ArrowRight")
            focused = page.evaluate("document.activeElement.dataset.card")
            page.keyboard.press("Enter")
            page.wait_for_function(f"+document.body.dataset.step > {step}")
            assert page.locator(f"#hand [data-card='{focused}']").count() == 0
            keyboard = True
        else:
            page.locator("#hand .card.playable").first.click()
            page.wait_for_function(f"+document.body.dataset.step > {step}")
        cards_played += 1
    assert called and dimmed and reloaded and keyboard and analysed
    assert re.match(r"You (win|lose) the match \d+–\d+", page.inner_text("#match-result"))
    rows = page.locator("#accuracy tr").all_inner_texts()
    assert len(rows) == 5 and rows[1].startswith("You")
    assert page.inner_text("#errors") == ""

    # every message the page received: no card of another seat before its hand ended
    # (the page's secret goes with the call: without it the server refuses)
    fetch = """(path) => fetch(path, {headers: {'X-Hokm-Secret':
        document.querySelector('meta[name=hokm-secret]').content}}).then(r => r.text())"""
    hands = json.loads(page.evaluate(fetch, f"/api/games/{gid}/hands"))
    assert (
        "secret"
        in json.loads(page.evaluate(f"fetch('/api/games/{gid}/hands').then(r => r.text())"))[
            "error"
        ]
    )
    assert hands[0]["hakem"] == 0 and hands[0]["trump"] == "H"
    states = [json.loads(f) for f in frames]
    states = [m for m in states if m["type"] == "state"]
    assert len(states) > 50
    for m in states:
        assert (m["seed"] is None) == (m["phase"] != "match_over"), m["phase"]  # never live
        if m["phase"] not in ("trump", "play"):
            continue
        rec = hands[m["hand_no"]]
        played = {c for tr in rec["tricks"] for c in tr["cards"]}
        mine = set(rec["first_five"] if m["phase"] == "trump" else rec["hands"][0])
        if m["phase"] == "trump" and rec["hakem"] != 0:
            mine = set()
        seen = set(CARD_RE.findall(json.dumps(m)))
        assert seen <= mine | played, (m["hand_no"], m["phase"], seen - mine - played)
    page.close()


def test_the_table_fits_a_phone(table, browser):
    base, server, gid = table
    page = browser.new_page(viewport={"width": 375, "height": 740}, is_mobile=True)
    page.goto(f"{base}/")
    page.wait_for_selector("body[data-phase]")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, width
    page.goto(f"{base}/games")
    assert page.inner_text("#status") == "ok" and "longest" in page.content()
    page.close()


def test_a_new_game_hides_its_seed_until_the_person_asks(table, browser):
    """A new game from the page (its secret sent along) shows no seed; Show seed, once
    confirmed, shows it and records it with the game."""
    base, server, gid = table
    page = browser.new_page(viewport={"width": 1100, "height": 850})
    page.goto(f"{base}/play/{gid}")
    page.wait_for_selector("body[data-phase]")
    page.evaluate("document.getElementById('new-game').click()")  # (under a panel or not)
    page.wait_for_url(lambda url: not url.endswith(f"/play/{gid}"))
    new = int(page.url.rsplit("/", 1)[1])
    assert new != gid and server.sessions[new].game.seed_shown is False
    page.wait_for_selector("#show-seed")
    assert "Seed hidden until the match ends" in page.inner_text("#seedline")
    page.once("dialog", lambda d: d.dismiss())
    page.dispatch_event("#show-seed", "click")  # (under the first Hakem's panel)
    page.wait_for_timeout(300)
    assert page.locator("#seed").count() == 0 and not server.sessions[new].game.seed_shown
    page.once("dialog", lambda d: d.accept())
    page.dispatch_event("#show-seed", "click")  # (under the first Hakem's panel)
    page.wait_for_selector("#seed")
    assert page.inner_text("#seed") == str(server.sessions[new].game.seed)
    assert "(shown during play)" in page.inner_text("#seedline")
    assert server.store.game(new)["seed_shown"] is True
    assert page.inner_text("#errors") == ""
    page.close()


def test_a_shared_table_in_four_browser_contexts(tmp_path, browser):
    """The host, two people and a spectator, each in a browser context of their own: the
    lobby shows who sits, the host starts, the people see their own cards and the
    spectator none, and a person's clock runs out and their bot decides (the pages say
    so). ``HOKM_SCREENSHOTS=DIR`` saves the lobby and the table there (docs/play.md)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings = Settings(
        partner=strategy("longest"), opponents=strategy("random"), target=3, pause=0,
        data=tmp_path, open_browser=False, port=port,
    )  # fmt: skip
    server = Server(settings)
    bots = ["longest", "random", "longest", "random"]
    table = server.host_table(bots, {b: b for b in bots}, target=3, timer=15, grace=1)
    loop, stop, up = asyncio.new_event_loop(), asyncio.Event(), threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(serve(server, announce=lambda _l: up.set(), stop=stop))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert up.wait(60)
    shots = os.environ.get("HOKM_SCREENSHOTS")
    base = f"http://127.0.0.1:{port}/table/"
    pages = {}
    try:
        links = {"host": table.host, "south": table.chairs[0].token,
                 "north": table.chairs[2].token, "watch": table.spectators}  # fmt: skip
        for who, token in links.items():
            page = browser.new_context(viewport={"width": 1100, "height": 850}).new_page()
            page.goto(base + token)
            pages[who] = page
        pages["north"].fill("#name", "Maryam")
        pages["north"].click("#name-form button")
        host = pages["host"]
        host.wait_for_function("document.querySelectorAll('#seats td').length === 12")
        host.wait_for_function(
            "document.getElementById('seats').textContent.includes('Maryam (here)')"
        )
        assert host.locator("#seats").inner_text().count("(here)") == 2
        if shots:
            host.screenshot(path=f"{shots}/play-lobby.png")
        table.timer = 1.0  # short, so that a clock runs out in the test
        host.click("#start")
        for who in ("south", "north", "watch", "host"):
            pages[who].wait_for_function("!!document.body.dataset.phase", timeout=60_000)
        pages["south"].wait_for_function(
            "document.querySelectorAll('#hand .card').length > 0", timeout=60_000
        )
        assert pages["watch"].locator("#hand .card").count() == 0
        # nobody plays: the people's clocks run out and their bots decide
        pages["watch"].wait_for_function(
            "document.getElementById('status').textContent.includes('bot decided')",
            timeout=60_000,
        )
        assert table.session is not None and table.session.stand_ins
        assert {s["why"] for s in table.session.stand_ins} == {"timer"}
        if shots:
            pages["south"].screenshot(path=f"{shots}/play-shared-table.png")
    finally:
        for page in pages.values():
            page.context.close()
        loop.call_soon_threadsafe(stop.set)
        thread.join(30)
