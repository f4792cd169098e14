"""The ``hokm-bot/1`` protocol: the wire format and the child process, for both sides.

A bot in any language is a child process that reads one JSON object a line
on its standard input and answers one a line on its standard output
(docs/protocol.md). This package holds what both sides share, below the
strategies' layer: the text forms and messages (:mod:`.wire`), requests
written from the engine's arrays in one numba pass (:mod:`.encode`), answers
read and checked (:mod:`.answers`), a request read and checked by a bot
(:mod:`.request`), the bot process itself (:mod:`.child`), and the
conformance check of ``hokm-sim check-bot`` (:mod:`.check`).
"""
