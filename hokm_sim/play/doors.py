"""Who may come in at the table: the table's own pages, and nobody else's.

A browser lets any page it shows *send* requests to 127.0.0.1: a form, a
fetch, an ``<img>``, and a WebSocket, which the same-origin policy does not
cover at all (the page reads what comes back). A DNS-rebinding page reads the
answers to plain requests too, once its own name points at 127.0.0.1. So
before any handler runs, :class:`Doors` checks every request and socket:

- ``Host``: one of the table's own addresses (``127.0.0.1``, ``localhost`` or
  ``[::1]``, at the port the request came in on) or the host of an origin
  allowed with ``--allow-origin`` (the address of a tunnel or a proxy in
  front of the table): a rebound name is refused.
- ``Origin``, whenever it is sent (browsers send it with every WebSocket, every
  POST and every cross-origin fetch): the origin of one of those addresses.
- ``Sec-Fetch-Site``, on a request without ``Origin``: a browser's request for
  another site's page (an image, a script, a frame) is refused; only opening
  a page of the table (a navigation) may come from elsewhere.

A refusal is a 403 with a one-line JSON reason (:func:`refused`, which every
error answer of the table is). Every answer also says that
no other site may frame it (clickjacking) and that it sends no referrer (a
hand viewer's address carries its game's secret). The games' secrets
themselves, which the server writes into each game's page and requires on its
socket and on every call that acts on a game or reads one, are checked where
the game is known (:func:`same_secret`, :func:`given_secret`).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable
from urllib.parse import urlsplit

from aiohttp import web

from hokm_sim.errors import InputError

OWN_HOSTS = ("127.0.0.1", "localhost", "[::1]")
"""The names of the table's own machine a page may be opened at."""
SECRET_HEADER = "X-Hokm-Secret"
"""The header that carries a game's secret on an API call (or the ``secret`` query)."""
HEADERS = {
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}
"""Sent with every answer."""
_DEFAULT_PORT = {"http": 80, "https": 443}


_REFUSALS = {400: web.HTTPBadRequest, 403: web.HTTPForbidden, 404: web.HTTPNotFound}


def refused(status: int, reason: str) -> web.HTTPException:
    """The error answer to raise: ``status`` (400, 403 or 404) and ``{"error": reason}``
    on one line."""
    text = json.dumps({"error": reason})
    return _REFUSALS[status](text=text, content_type="application/json")


def allowed_origin(text: str) -> str:
    """An origin given to ``--allow-origin``, as browsers write it in ``Origin``:
    ``scheme://host`` and ``:port`` unless it is the scheme's default."""
    why = "expected an origin such as http://localhost:9000 (http or https, a host, a port)"
    try:
        url = urlsplit(text.strip())
        port = url.port
    except ValueError:
        raise InputError(f"{text!r}: {why}", "--allow-origin") from None
    extra = url.path not in ("", "/") or url.query or url.fragment or url.username
    if url.scheme not in _DEFAULT_PORT or not url.hostname or extra or url.password:
        raise InputError(f"{text!r}: {why}", "--allow-origin")
    host = f"[{url.hostname}]" if ":" in url.hostname else url.hostname
    shown = port is not None and port != _DEFAULT_PORT[url.scheme]
    return f"{url.scheme}://{host}" + (f":{port}" if shown else "")


class Doors:
    """The checks of :mod:`hokm_sim.play.doors` for a table that also lets in the
    origins ``allow`` (each as :func:`allowed_origin` reads it)."""

    def __init__(self, allow: Iterable[str] = ()) -> None:
        self.allowed = tuple(dict.fromkeys(allowed_origin(o) for o in allow))

    def origins(self, port: int) -> set[str]:
        """The origins a page of the table reached at local ``port`` may have."""
        own = [f"http://{h}" + ("" if port == 80 else f":{port}") for h in OWN_HOSTS]
        return {*own, *self.allowed}

    def hosts(self, port: int) -> set[str]:
        """The ``Host`` headers a request may carry: each origin's host and port (the
        port also left out where it is the scheme's default)."""
        out = set()
        for origin in self.origins(port):
            scheme, host = origin.split("://")
            out.add(host)
            if ":" not in host.rsplit("]", 1)[-1]:
                out.add(f"{host}:{_DEFAULT_PORT[scheme]}")
        return out

    def refusal(self, request: web.Request) -> str | None:
        """Why ``request`` may not come in, or None."""
        sock = request.transport.get_extra_info("sockname") if request.transport else None
        if not sock:
            return "the connection is gone"
        port = int(sock[1])
        headers = request.headers
        host = headers.get("Host", "").lower()
        if host not in self.hosts(port):
            return (
                f"Host {host or '(none)'!r} is not this table's address: open it at "
                f"http://127.0.0.1:{port}/ (or allow another with --allow-origin)"
            )
        origin = headers.get("Origin")
        if origin is not None and origin.lower() not in self.origins(port):
            return f"a page from {origin!r} may not use this table (see --allow-origin)"
        elsewhere = headers.get("Sec-Fetch-Site") in ("cross-site", "same-site")
        if origin is None and elsewhere and headers.get("Sec-Fetch-Mode") != "navigate":
            return "a request from another site's page may not use this table"
        return None

    @web.middleware
    async def middleware(self, request: web.Request, handler) -> web.StreamResponse:
        """Refuse (403) what may not come in, before any handler runs; a request a
        handler cannot read (its :class:`InputError`) is a 400."""
        why = self.refusal(request)
        if why is not None:
            raise refused(403, why)
        try:
            return await handler(request)
        except InputError as exc:
            raise refused(400, str(exc)) from None

    @staticmethod
    async def headers(request: web.Request, response: web.StreamResponse) -> None:
        """``on_response_prepare``: :data:`HEADERS` on every answer."""
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)


def given_secret(request: web.Request) -> str:
    """The game secret ``request`` carries: the :data:`SECRET_HEADER` header, else the
    ``secret`` query (a socket's address and a link cannot carry headers)."""
    return request.headers.get(SECRET_HEADER) or request.query.get("secret", "")


def same_secret(given: str, secret: str | None) -> bool:
    """``given`` is ``secret`` (compared in constant time); never for a game without one."""
    if not secret or not given:
        return False
    return secrets.compare_digest(given.encode("utf-8", "replace"), secret.encode())
