"""The specialised engine of a pair, compiled in the background while the generic one plays.

The generic engine (:mod:`hokm_sim.bots.called`) is compiled once per install and
plays any pair at once; the specialised engine of a pair (its bots inlined into
the card loop) plays faster but takes its own compilation, from about ten seconds
to a minute of CPU. A run expected to outlast that (the default engine ``auto``)
starts a child process that compiles the specialised engine into the disk cache
(:func:`main`), and the runner moves to it at the next batch boundary once the
child has finished. Each batch is played whole by one engine, and both engines
give the same counts, so the run's counts do not depend on when (or whether) it
moved.

The child is a plain ``python -m hokm_sim.sim.specialise A B hands|matches`` process with the
strategies as portable specs (bot files by absolute path, parameters exact); it
dies with its parent (``PR_SET_PDEATHSIG`` where Linux offers it) and is killed when
the runner is done with it, so nothing outlives the run.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import weakref

SPECIALISE_AFTER = 60.0
"""Seconds of play left, at the generic engine's rate, beyond which ``auto`` compiles the
specialised engine: about twice what the slowest built-in pair takes to compile, so
the compilation pays for itself. ``$HOKM_SIM_SPECIALISE_AFTER`` sets another value."""


def specialise_after() -> float:
    """:data:`SPECIALISE_AFTER`, or ``$HOKM_SIM_SPECIALISE_AFTER`` when set (seconds >= 0)."""
    from hokm_sim.errors import InputError

    text = os.environ.get("HOKM_SIM_SPECIALISE_AFTER", "").strip()
    if not text:
        return SPECIALISE_AFTER
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise InputError(f"HOKM_SIM_SPECIALISE_AFTER={text!r}: expected seconds >= 0")
    return value


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """Ask Linux to end this process when its parent ends (no-op elsewhere)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Specialiser:
    """The child process compiling the specialised engine of a pair for playing hands, or
    ``matches``.

    ``a_spec`` and ``b_spec`` are portable specs
    (:func:`hokm_sim.bots.registry.portable_spec`)."""

    def __init__(self, a_spec: str, b_spec: str, matches: bool) -> None:
        env = dict(os.environ, HOKM_SIM_ENGINE="specialised", HOKM_SIM_BOUNDSCHECK="0")
        what = "matches" if matches else "hands"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hokm_sim.sim.specialise", a_spec, b_spec, what],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
        )
        self._finalizer = weakref.finalize(self, _kill, self.proc)

    def done(self) -> bool | None:
        """True when the engine is compiled and cached, False when the child failed (a
        bot that compiles only called, say: the run stays generic), None while it runs."""
        code = self.proc.poll()
        return None if code is None else code == 0

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the child; whether it compiled the engine."""
        return self.proc.wait(timeout) == 0

    def close(self) -> None:
        """Kill the child if it still runs."""
        self._finalizer()


def _kill(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def main(argv: list[str]) -> int:
    """Compile the specialised engine of specs ``A B`` for playing ``hands`` or
    ``matches``."""
    from hokm_sim.bots.registry import resolve
    from hokm_sim.sim.runner import Runner

    a_spec, b_spec, what = argv
    runner = Runner(resolve(a_spec), resolve(b_spec), checked=False, engine="specialised")
    runner.prepare(what == "matches")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
