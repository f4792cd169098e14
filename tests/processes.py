"""The processes a test started, found by their command lines in Linux's ``/proc``.

Protocol bots run in sessions of their own, so a test that fails midway can
leave one behind; every bot a test starts gets an argument under the test's
``tmp_path`` (its marker file, the run's folder), by which it is found here.
Elsewhere than Linux nothing is found.
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path


def processes_holding(text: str) -> list[int]:
    """Pids of the live processes (this one and zombies aside) with ``text`` in an
    argument of their command line."""
    out = []
    proc = Path("/proc")
    for d in proc.iterdir() if proc.is_dir() else ():
        if not d.name.isdigit() or int(d.name) == os.getpid():
            continue
        try:
            argv = (d / "cmdline").read_bytes().decode(errors="replace").split("\0")
            state = (d / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and any(text in a for a in argv):
            out.append(int(d.name))
    return out


def kill_holding(text: str) -> None:
    """Kill every process :func:`processes_holding` finds for ``text``."""
    for pid in processes_holding(text):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
