"""``hokm-sim dashboard`` in a real headless Chromium (Playwright, the system's Chromium):
the recent results, a result's page with its report and figure, a bot's history with its
plot; and a page of another host refused. Screenshots go to ``$HOKM_SIM_SCREENSHOTS``
when it is set (to look at them)."""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from hokm_sim.play.dashboard import Dashboard, serve
from hokm_sim.store import Row, Store
from hokm_sim.store.rows import Bot, Comparison

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the test extra")

PNG = base64.b64decode(  # one white pixel
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC"
)


def _fill(store: Path, folder: Path) -> None:
    longest = Bot("b", "longest", "l" * 64, "c" * 40, False)
    with Store(store) as s:
        for i, (digest, commit, score) in enumerate((("1", "a", 0.40), ("2", "b", 0.50))):
            s.add(Row(
                kind="run", created=f"2026-0{i + 1}-01T00:00:00Z", seed=str(i), size=4000,
                command=f"hokm-sim run mybot longest --seed {i}",
                headline=f"mybot against longest, version {commit * 8}",
                figures={"elo": {"value": -70.0 + 70 * i, "low": -80.0 + 70 * i,
                                 "high": -60.0 + 70 * i}},
                folder=str(folder) if i else None,
                bots=[Bot("a", "mybot", digest * 64, commit * 40, False), longest],
                comparisons=[Comparison("a", "b", score, score - 0.02, score + 0.02, 4000)],
            ))  # fmt: skip


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("board")
    folder = tmp / "report"
    folder.mkdir()
    (folder / "report.md").write_text("# mybot against longest\n\nthe report's own words\n")
    (folder / "figure.png").write_bytes(PNG)
    _fill(tmp / "results.sqlite", folder)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    up = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(serve(Dashboard(tmp / "results.sqlite"), port=port,
                                      announce=lambda _line: up.set(), stop=stop))  # fmt: skip

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert up.wait(60), "the dashboard did not start"
    yield f"http://127.0.0.1:{port}"
    loop.call_soon_threadsafe(stop.set)
    thread.join(30)
    assert not thread.is_alive()


def _shot(page, name: str) -> None:
    where = os.environ.get("HOKM_SIM_SCREENSHOTS")
    if where:
        page.screenshot(path=str(Path(where) / f"{name}.png"), full_page=True)


def test_recent_results_a_report_and_a_history_in_the_browser(board):
    from test_play_browser import _chromium

    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1100, "height": 800})
        page.goto(board + "/")
        rows = page.locator("tr.result")
        assert rows.count() == 2
        assert "version bbbbbbbb" in rows.first.inner_text()
        _shot(page, "dashboard-recent")
        rows.first.locator("a").first.click()
        page.wait_for_selector("#report")
        assert "the report's own words" in page.inner_text("#report")
        assert "hokm-sim run mybot longest --seed 1" in page.inner_text("main")
        page.wait_for_function("document.querySelector('img.figure').naturalWidth > 0")
        _shot(page, "dashboard-result")
        page.click("a.bot >> text=mybot")
        page.wait_for_function("document.querySelector('#plot').naturalWidth > 100")
        versions = page.locator("tr.version").all_inner_texts()
        assert [v.split("\t")[:2] for v in versions] == [
            ["mybot", "aaaaaaaa"], ["mybot", "bbbbbbbb"], ["longest", "cccccccc"]
        ]  # fmt: skip
        assert "+0.0" in versions[0] and "+" in versions[1].split("\t")[3]
        _shot(page, "dashboard-history")
        browser.close()


def test_another_host_and_an_unknown_result_are_refused(board):
    ask = urllib.request.Request(board + "/", headers={"Host": "evil.example"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(ask, timeout=10)
    assert e.value.code == 403
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(board + "/results/99", timeout=10)
    assert e.value.code == 404 and b"no result 99" in e.value.read()
