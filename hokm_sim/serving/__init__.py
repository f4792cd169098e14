"""``hokm-sim serve``: any hokm-sim strategy answering hokm-bot/1, for games in any language.

A game (or another host) sends requests; :class:`~.decider.Served` rebuilds
each seat's view and memory from the request alone and asks the strategy
(:mod:`.replay`, :mod:`.decider`); :mod:`.stdio` answers on standard input
and output, :mod:`.http` on ``POST /decide``. :func:`serve` is the entry
point (re-exported by :mod:`hokm_sim.api`); it imports only what serving
needs, so that a served bot answers ``hello`` within a host's start-up limit.
"""

from __future__ import annotations

from collections.abc import Callable

from hokm_sim.errors import InputError


def serve(
    bot: str | object,
    *,
    http: int | None = None,
    host: str = "127.0.0.1",
    on_ready: Callable[[str], None] | None = None,
    bot_timeout: float | None = None,
) -> int:
    """Answer hokm-bot/1 with strategy ``bot`` (a spec or a
    :class:`~hokm_sim.bots.registry.Strategy`; docs/protocol.md) until ``bye`` or the end
    of the input, on standard input and output; with ``http`` a port (0: any free one),
    as ``POST /decide`` bodies on ``host`` until interrupted. ``on_ready(url)`` is told
    the address once the server listens; ``bot_timeout`` holds a served ``exec:`` part
    to that many seconds a message. Returns the exit status (0)."""
    from hokm_sim.bots.host import bot_timeout as held_to
    from hokm_sim.bots.registry import Strategy, resolve
    from hokm_sim.serving.decider import Served

    with held_to(bot_timeout):
        try:
            strategy = bot if isinstance(bot, Strategy) else resolve(str(bot))
        except InputError as exc:  # named as the argument it came from
            if exc.param is not None:
                raise
            raise type(exc)(exc.message, "bot") from None
        served = Served(strategy)
        if http is None:
            from hokm_sim.serving.stdio import serve_stdio

            return serve_stdio(served)
        from hokm_sim.serving.http import ServeHTTP

        try:
            server = ServeHTTP(served, host, http)
        except OSError as exc:
            raise InputError(
                f"cannot serve on {host}:{http}: {exc.strerror or exc}", "http"
            ) from None
        with server:
            if on_ready:
                on_ready(server.url)
            server.serve_forever()
        return 0
