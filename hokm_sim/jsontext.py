"""JSON text from users' files, with one error for every way it can be bad.

``json.loads`` raises ``RecursionError``, not ``JSONDecodeError``, for a
value nested a few thousand levels deep: every reader of a user's JSON (deal
lines, trace lines, report folders, checkpoints, a protocol bot's lines,
``serve``'s requests) goes through :func:`loads`, so such a line is refused
in one line like any other that is not JSON.
"""

from __future__ import annotations

import json
from typing import Any


def loads(text: str | bytes) -> Any:
    """``json.loads(text)``; :class:`json.JSONDecodeError` also for nesting too deep."""
    try:
        return json.loads(text)
    except RecursionError:
        doc = text if isinstance(text, str) else text.decode("utf-8", "replace")
        raise json.JSONDecodeError("nested too deeply", doc, 0) from None
