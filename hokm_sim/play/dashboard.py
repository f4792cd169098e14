"""``hokm-sim dashboard``: the results store in the browser, read only, on 127.0.0.1.

Three kinds of page, all read from the store (:mod:`hokm_sim.store`): the recent
results (``/``, filtered by ``?bot=`` and ``?command=``), a bot's history
(``/history?bot=BOT``: its versions' ratings, drawn at ``/history.png?bot=BOT``) and each
result's page (``/results/ID``: what the store holds of it, its ``report.md`` and
the figures of its report folder). The table's doors (:mod:`.doors`) guard it:
only its own pages may read it.
"""

from __future__ import annotations

import asyncio
import html
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from aiohttp import web

from hokm_sim.analysis.results import estimate_text
from hokm_sim.errors import InputError
from hokm_sim.play.doors import Doors, refused
from hokm_sim.play.pages import STYLE
from hokm_sim.play.server import stopped_by_signals
from hokm_sim.store.query import COMMANDS, bot_label, select

HOST = "127.0.0.1"
DEFAULT_PORT = 8728
RECENT = 200
"""Results the front page lists."""
FIGURES = (".png", ".svg")
_TYPES = {".png": "image/png", ".svg": "image/svg+xml"}


def _page(title: str, body: str) -> web.Response:
    text = (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{STYLE}img.figure{{max-width:100%}}</style></head><body><header><h1>{html.escape(title)}</h1>"
        "<a href='/'>recent results</a></header><main>" + body + "</main></body></html>"
    )
    return web.Response(text=text, content_type="text/html")


def _bots(bots: list[dict[str, Any]]) -> str:
    return ", ".join(
        f"<a class='bot' href='/history?{html.escape(urlencode({'bot': b['name']}))}'>"
        f"{html.escape(bot_label(b))}</a>"
        for b in bots
    )


class Dashboard:
    """The pages of the store at ``store`` (None: the default store)."""

    def __init__(self, store: str | Path | None = None) -> None:
        self.store = store
        self.doors = Doors()

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self.doors.middleware])
        app.router.add_get("/", self.recent)
        app.router.add_get("/results/{id:\\d+}", self.result)
        app.router.add_get("/results/{id:\\d+}/{name}", self.figure)
        app.router.add_get("/history.png", self.history_plot)
        app.router.add_get("/history", self.history)
        app.on_response_prepare.append(Doors.headers)
        return app

    async def _read(self, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        """``fn`` in a worker thread (a store read, a fit): the loop keeps serving."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def recent(self, request: web.Request) -> web.Response:
        bot = request.query.get("bot") or None
        command = request.query.get("command") or None
        rows = await self._read(select, self.store, bot=bot, command=command, limit=RECENT)
        choices = "".join(f"<a href='/?{urlencode({'command': c})}'>{c}</a> " for c in COMMANDS)
        body = [f"<p>Only: {choices}<a href='/'>all</a></p>", "<div class='scroll'><table>",
                "<tr><th>#</th><th>when (UTC)</th><th>command</th><th>bots</th>"
                "<th>headline</th></tr>"]  # fmt: skip
        for r in rows:
            body.append(
                f"<tr class='result'><td><a href='/results/{r['id']}'>{r['id']}</a></td>"
                f"<td>{html.escape(r['created'][:16].replace('T', ' '))}</td>"
                f"<td>{html.escape(r['kind'])}</td><td>{_bots(r['bots'])}</td>"
                f"<td>{html.escape(r['headline'] or '')}</td></tr>"
            )
        body.append("</table></div>")
        if not rows:
            body.append("<p>No results match.</p>")
        return _page("hokm-sim results", "".join(body))

    async def _one(self, request: web.Request) -> dict[str, Any]:
        found = await self._read(select, self.store, result=int(request.match_info["id"]))
        if not found:
            raise refused(404, f"no result {request.match_info['id']} in the store")
        return found[0]

    async def result(self, request: web.Request) -> web.Response:
        r = await self._one(request)
        shown = {"command": r["command"], "when (UTC)": r["created"], "kind": r["kind"],
                 "version": r["version"], "seed": r["seed"], "size": r["size"],
                 "verdict": r["verdict"], "folder": r["folder"] or "(none)"}  # fmt: skip
        body = ["<table>"]
        body += [
            f"<tr><th>{k}</th><td>{html.escape('' if v is None else str(v))}</td></tr>"
            for k, v in shown.items()
        ]
        body.append("</table><h2>Bots</h2><table><tr><th>role</th><th>name</th><th>commit</th>"
                    "<th>dirty</th><th>digest</th></tr>")  # fmt: skip
        for b in r["bots"]:
            body.append(
                f"<tr><td>{html.escape(b['role'])}</td><td>{_bots([b])}</td>"
                f"<td><code>{html.escape(b['commit'] or '')}</code></td>"
                f"<td>{'' if b['dirty'] is None else ('yes' if b['dirty'] else 'no')}</td>"
                f"<td><code>{html.escape((b['digest'] or '')[:16])}</code></td></tr>"
            )
        body.append("</table><h2>Figures</h2><table>")
        for k, e in r["figures"].items():
            body.append(
                f"<tr><th>{html.escape(k)}</th><td>{html.escape(estimate_text(e))}</td></tr>"
            )
        body.append("</table>")
        folder = Path(r["folder"]) if r["folder"] else None
        if folder is not None and folder.is_dir():
            for name in self._figures(folder):
                src = f"/results/{r['id']}/{quote(name)}"
                body.append(f"<p><img src='{src}' alt='{html.escape(name)}' class='figure'></p>")
            report = folder / "report.md"
            if report.is_file():
                text = report.read_text(errors="replace")
                body.append(f"<h2>report.md</h2><pre id='report'>{html.escape(text)}</pre>")
        return _page(f"result {r['id']}: {r['headline'] or r['kind']}", "".join(body))

    @staticmethod
    def _figures(folder: Path) -> list[str]:
        """The figures a report folder holds (its PNG and SVG files), by name."""
        return sorted(p.name for p in folder.iterdir() if p.suffix in FIGURES and p.is_file())

    async def figure(self, request: web.Request) -> web.Response:
        r = await self._one(request)
        name = request.match_info["name"]
        folder = Path(r["folder"]) if r["folder"] else None
        if folder is None or not folder.is_dir() or name not in self._figures(folder):
            raise refused(404, f"no figure {name!r} in result {r['id']}'s folder")
        path = folder / name
        return web.Response(body=path.read_bytes(), content_type=_TYPES[path.suffix])

    async def _history(self, request: web.Request) -> dict[str, Any]:
        from hokm_sim.analysis.history import history

        bot = request.query.get("bot", "")
        if not bot:
            raise refused(400, "which bot? give ?bot=NAME")
        try:
            return await self._read(history, bot, self.store)
        except InputError as exc:
            raise refused(404, exc.message) from None

    async def history(self, request: web.Request) -> web.Response:
        d = await self._history(request)
        bot = d["bot"]
        src = html.escape("/history.png?" + urlencode({"bot": bot}))
        body = [
            f"<p><img id='plot' src='{src}' alt='history' class='figure'></p><table><tr>"
            "<th>bot</th><th>version</th><th>first seen</th><th>Elo vs oldest</th><th>pairs</th>"
            "<th>regress</th></tr>"
        ]
        for e in d["versions"] + d["opponents"]:
            verdicts = ", ".join(f"{k} {v}" for k, v in e.get("verdicts", {}).items())
            body.append(
                f"<tr class='version'><td>{html.escape(e['name'])}</td>"
                f"<td>{html.escape(e['version'])}</td><td>{html.escape(e['first_seen'][:10])}</td>"
                f"<td>{html.escape(estimate_text(e['elo'], '{:+.1f}'))}</td>"
                f"<td>{e['pairs']:,}</td><td>{html.escape(verdicts)}</td></tr>"
            )
        body.append("</table>")
        return _page(f"{bot} across its versions", "".join(body))

    async def history_plot(self, request: web.Request) -> web.Response:
        from hokm_sim.report.plots import history_image

        d = await self._history(request)
        png = await self._read(history_image, d)
        return web.Response(body=png, content_type="image/png")


async def serve(
    board: Dashboard,
    *,
    port: int | None = None,
    open_browser: bool = False,
    announce: Callable[[str], None] = print,
    stop: asyncio.Event | None = None,
) -> None:
    """Serve ``board`` on 127.0.0.1 until Ctrl-C (or ``stop``)."""
    stop = stop or asyncio.Event()
    runner = web.AppRunner(board.app(), handle_signals=False)
    try:
        await runner.setup()
        port = DEFAULT_PORT if port is None else port
        site = web.TCPSite(runner, HOST, port)
        try:
            await site.start()
        except OSError as exc:
            raise InputError(f"cannot listen on {HOST}:{port}: {exc.strerror}", "port") from None
        url = f"http://{HOST}:{port}/"
        announce(f"hokm-sim dashboard: {url} (Ctrl-C stops it)")
        if open_browser:
            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
        with stopped_by_signals(stop):
            await stop.wait()
    finally:
        await runner.cleanup()


def dashboard(
    *,
    port: int | None = None,
    store: str | Path | None = None,
    open_browser: bool = True,
    announce: Callable[[str], None] = print,
) -> None:
    """Serve the results store's pages on 127.0.0.1 until Ctrl-C; the store must exist
    (a missing or damaged one is the store's one-line error before anything is served)."""
    select(store, limit=1)
    asyncio.run(serve(Dashboard(store), port=port, open_browser=open_browser, announce=announce))
