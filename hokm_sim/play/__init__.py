"""``hokm-sim play``: a browser table where a person plays Hokm with and against the bots.

:mod:`.game` is the authority on one match (the engine's cards, turn and
rules; what each seat may see), :mod:`.seats` who sits at the table,
:mod:`.session` one game on the event loop, :mod:`.server` the aiohttp
server, :mod:`.store` the SQLite database of games, :mod:`.review` and
:mod:`.pages` the analysis of your play and the page of past games,
:mod:`.export` the ``hokm-sim games`` output; :mod:`.hosted` a shared table of
several people and bots (``play --host``), with its turn timer. See docs/play.md.
"""
