"""``exec:COMMAND`` strategies: the command of a protocol bot, and what it is made of.

A strategy spec ``exec:node my_bot.js`` names a bot that runs as a child
process speaking ``hokm-bot/1`` (docs/protocol.md). The command is split by
shell rules (:func:`shlex.split`, nothing is run through a shell) and run
from the current directory. In a composition an ``exec:`` part ends at the
next comma outside quotes, as every part of a spec does
(:func:`hokm_sim.bots.registry.split_top`): ``trump=exec:./bot --fast,play=expert``,
``exec:./bot --seats "0,2"``.

Its identity, which names the engine it plays in, goes into reports and is
checked by Dask workers, is the command and the SHA-256 of every argument
that names a file (the script or binary it runs, a weights file...), so the
same command over an edited file is another strategy.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
from pathlib import Path

from hokm_sim.paths import not_a_file

PREFIX = "exec:"


class CommandError(ValueError):
    """An ``exec:`` command that cannot be run: one line saying why."""


def is_exec(text: str) -> bool:
    """Whether a spec (or a part of one) is an ``exec:`` command."""
    return text.strip().startswith(PREFIX)


def split_command(text: str) -> tuple[str, ...]:
    """The argument vector of ``exec:COMMAND`` (the prefix optional), checked to run."""
    text = text.strip()
    if text.startswith(PREFIX):
        text = text[len(PREFIX) :]
    try:
        argv = tuple(shlex.split(text))
    except ValueError as exc:
        raise CommandError(f"bad exec command {text!r}: {exc}") from None
    if not argv:
        raise CommandError("empty exec command: expected exec:COMMAND, e.g. exec:node my_bot.js")
    program = argv[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        p = Path(program).expanduser()
        problem = not_a_file(p)
        if problem is not None:
            raise CommandError(f"exec command {program!r} {problem}")
        if not os.access(p, os.X_OK):
            raise CommandError(f"exec command {program!r} is not executable (chmod +x it)")
    elif shutil.which(program) is None:
        raise CommandError(f"exec command {program!r} is not on PATH")
    return argv


def command_text(argv: tuple[str, ...]) -> str:
    """The command as a shell would read it back, and a spec too: an argument that
    holds a comma is quoted (:func:`shlex.quote` leaves commas bare)."""
    return " ".join(_quote(a) for a in argv)


def _quote(arg: str) -> str:
    q = shlex.quote(arg)
    return f"'{arg}'" if q == arg and "," in arg else q


def named_files(argv: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """``(absolute path, sha256)`` of every argument that names an existing file, the
    program included when it is given as a path (not found on PATH)."""
    out = []
    for i, arg in enumerate(argv):
        if i == 0 and not (os.sep in arg or (os.altsep and os.altsep in arg)):
            continue
        p = Path(arg).expanduser()
        try:
            if not p.is_file():
                continue
            h = hashlib.sha256()
            with open(p, "rb") as f:
                for block in iter(lambda f=f: f.read(1 << 20), b""):
                    h.update(block)
        except OSError:
            continue
        out.append((str(p.resolve()), h.hexdigest()))
    return tuple(out)


def identity(argv: tuple[str, ...], files: tuple[tuple[str, str], ...]) -> str:
    """What names an ``exec:`` bot: its command and the digests of the files it names."""
    h = hashlib.sha256(b"exec\0" + "\0".join(argv).encode())
    for path, digest in files:
        h.update(f"\0{path}\0{digest}".encode())
    return h.hexdigest()
