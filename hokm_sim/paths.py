"""What is at a path, in the words of a message: a file, a folder, a device, a pipe.

A path that a user gives as a file (a bot file, an ``exec:`` program, an
output file) may name a folder, a device such as ``/dev/null`` or a named
pipe; "does not exist" would be wrong for those, so the messages say what
is there instead. Nothing is opened; symbolic links are followed.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
)


def kind(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is: ``"a regular file"``, ``"a folder"``,
    ``"a character device"``, ``"a block device"``, ``"a named pipe (FIFO)"``, ``"a socket"``."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "a regular file" if stat.S_ISREG(mode) else "not a regular file"


def not_a_file(path: str | Path) -> str | None:
    """None if ``path`` is a regular file (or a link to one); else why not, to follow the
    path in a message: ``"does not exist"``, ``"is a folder, not a regular file"``,
    ``"cannot be read: permission denied"``."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "does not exist"
    except OSError as exc:
        return f"cannot be read: {os.strerror(exc.errno).lower() if exc.errno else exc}"
    if stat.S_ISREG(mode):
        return None
    return f"is {kind(mode)}, not a regular file"
