"""JSON text from users' files, with one error for every way it can be bad.

``json.loads`` raises ``RecursionError``, not ``JSONDecodeError``, for a
value nested a few thousand levels deep: every reader of a user's JSON (deal
lines, trace lines, report folders, checkpoints) goes through :func:`loads`,
so such a line is refused in one line like any other that is not JSON.
"""

from __future__ import annotations

import json
from typing import Any


def loads(text: str) -> Any:
    """``json.loads(text)``; :class:`json.JSONDecodeError` also for nesting too deep."""
    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", text, 0) from None
