"""A protocol bot as a child process: started, spoken to line by line, always ended.

:class:`BotProcess` runs a command with pipes on its standard streams and
exchanges one message for one answer line at a time. Every exchange has a
deadline and reads, writes and drains the bot's standard error at once
(non-blocking pipes under one ``selectors`` loop), so neither a bot that
stops reading nor one that logs a lot nor one that hangs can stall the host:
what goes wrong becomes a :class:`ChildFault` whose ``what`` says it in a
phrase (a timeout, an exit status with the last line of standard error, a
closed pipe), and the process is killed.

No bot outlives hokm-sim (docs/protocol.md says exactly what is promised):

- a bot runs in a session of its own, so a Ctrl-C at the terminal reaches
  hokm-sim alone, which stops when it decides to and then ends the bots
  (at once when it leaves a batch behind because a bot does not answer:
  :meth:`BotProcess.stop`);
- on Linux the bot is started with ``PR_SET_PDEATHSIG``: the kernel kills it
  when hokm-sim dies, even of ``SIGKILL``. The signal follows the thread
  that started the bot, so every bot is started from one long-lived thread
  of its own (:func:`_spawner`);
- the bots still running when the interpreter exits are sent ``bye`` and
  then killed (:func:`close_all`, registered with ``atexit``); elsewhere a
  bot sees its standard input close when hokm-sim exits.

Ending a bot ends the processes it started, its *family*: its process group,
and on Linux every descendant, even one in a session of its own
(``setsid``). While bots run, hokm-sim is a child subreaper
(``PR_SET_CHILD_SUBREAPER``), so a descendant whose parent exited is
re-parented to hokm-sim rather than to init; every bot is started with
:data:`MARK` in its environment, which its descendants inherit, so such an
orphan is known as the bot's. The family is found through ``/proc``, stopped
(``SIGSTOP``, so that none forks while it is collected), killed, and the
orphans among it reaped (:func:`end_family`).

When hokm-sim itself dies where it cannot clean up (``SIGKILL``, a crash of
the interpreter), the kernel kills the bots (``PR_SET_PDEATHSIG``) and a
watchdog process, started with the first bot, ends every process still
marked as one of this process's bots (:mod:`hokm_sim.protocol.family`).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import errno
import itertools
import os
import queue
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Sequence

from hokm_sim.jsontext import loads
from hokm_sim.protocol import family
from hokm_sim.protocol.family import MARK
from hokm_sim.protocol.wire import PROTOCOL, dumps, hello

STDERR_LINES = 20
"""Lines of a bot's standard error kept for fault messages."""
MAX_LINE = 1 << 26
"""Bytes an answer line may take (64 MiB): a bot past it is not writing lines."""
_READ = 1 << 20
_BYE = dumps({"type": "bye"})
_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_serial = itertools.count(1)


class ChildFault(Exception):
    """What went wrong with a bot process, as a phrase (``what``) for the fault line."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def _prctl():
    """Linux's ``prctl`` (None elsewhere)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def _die_with_parent_fn():
    """A ``preexec_fn`` setting ``PR_SET_PDEATHSIG`` to ``SIGKILL`` (None off Linux)."""
    prctl = _prctl()
    if prctl is None:
        return None
    parent = os.getpid()

    def die_with_parent() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the call took effect
            os._exit(1)

    return die_with_parent


def _subreaper(on: bool) -> None:
    """Make this process a child subreaper (or no longer one), on Linux."""
    prctl = _prctl()
    if prctl is not None:
        prctl(_PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0)


def _family(pid: int, token: str) -> set[int]:
    """Process ``pid`` (if it runs) and its descendants, with the children of this
    process marked ``token`` (a bot's orphans) and theirs."""
    kids: dict[int, list[int]] = {}
    for p, pp in family.parents().items():
        kids.setdefault(pp, []).append(p)
    roots = [c for c in kids.get(os.getpid(), ()) if c == pid or family.mark_of(c) == token]
    out: set[int] = set()
    while roots:
        p = roots.pop()
        if p not in out:
            out.add(p)
            roots.extend(kids.get(p, ()))
    return out


def end_family(pid: int, token: str) -> None:
    """Kill bot ``pid`` (started with ``MARK=token``) and every process of its family
    that ``/proc`` shows (see the module doc), and reap the orphans among them (this
    process's children now). From any thread; the bot itself is left for its
    ``Popen`` to reap."""
    orphans = family.end(lambda: _family(pid, token)) - {pid}
    deadline = time.monotonic() + 2.0
    while orphans and time.monotonic() < deadline:
        for p in list(orphans):
            try:
                if os.waitpid(p, os.WNOHANG)[0] == 0:
                    continue  # not dead yet
            except OSError:  # not a child of this process (ECHILD)
                pass
            orphans.discard(p)
        if orphans:
            time.sleep(0.005)


class _Watchdog:
    """The process that ends what is left of this process's bots when it has gone
    (:mod:`hokm_sim.protocol.family`), started with the first bot (Linux only)."""

    def __init__(self) -> None:
        self._pid = -1
        self._proc: subprocess.Popen | None = None
        self._pipe = -1

    def ensure(self) -> None:
        """Start the watchdog unless this process has one (called under the spawner's lock)."""
        if self._pid == os.getpid() or not os.path.isdir("/proc"):
            return
        read, write = os.pipe()  # neither end is inherited by the bots (close_fds)
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-I", "-S", family.__file__, str(os.getpid())],
                stdin=read,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError:  # no watchdog: the rest still holds
            os.close(write)
            return
        finally:
            os.close(read)
        self._pid, self._pipe = os.getpid(), write  # held open until this process ends


class _Spawner:
    """One daemon thread that starts every bot, so ``PR_SET_PDEATHSIG`` (which follows
    the starting thread) fires only when the whole process ends."""

    def __init__(self) -> None:
        self._jobs: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._pid = -1
        self._watchdog = _Watchdog()

    def popen(self, argv: Sequence[str], token: str) -> subprocess.Popen:
        """Start ``argv`` with ``MARK=token`` in its environment."""
        with self._lock:
            if self._thread is None or self._pid != os.getpid():  # none yet, or forked
                self._jobs = queue.Queue()
                self._pid = os.getpid()
                self._thread = threading.Thread(
                    target=self._serve, name="hokm-sim-bot-spawner", daemon=True
                )
                self._thread.start()
            self._watchdog.ensure()
        done: queue.Queue = queue.Queue(maxsize=1)
        self._jobs.put((list(argv), token, done))
        result = done.get()
        if isinstance(result, BaseException):
            raise result
        return result

    def _serve(self) -> None:
        preexec = _die_with_parent_fn()
        while True:
            argv, token, done = self._jobs.get()
            try:
                done.put(
                    subprocess.Popen(
                        argv,
                        env={**os.environ, MARK: token},
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE,
                        bufsize=0,
                        start_new_session=True,
                        preexec_fn=preexec,  # noqa: PLW1509 - prctl only, see _die_with_parent_fn
                    )
                )
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                done.put(exc)


_SPAWNER = _Spawner()
_LIVE: set[BotProcess] = set()
_LIVE_LOCK = threading.Lock()


def _signal_name(code: int) -> str:
    try:
        return signal.Signals(code).name
    except ValueError:
        return f"signal {code}"


class BotProcess:
    """One running bot (see the module doc). Not thread-safe: one thread speaks to it."""

    def __init__(self, argv: Sequence[str]) -> None:
        self.argv = list(argv)
        self._killed = False
        self.token = f"{os.getpid()}.{next(_serial)}"
        with _LIVE_LOCK:
            if not _LIVE:  # the first bot of a while: orphans of bots come here
                _subreaper(True)
            _LIVE.add(self)
        try:
            self.proc = _SPAWNER.popen(self.argv, self.token)
        except OSError as exc:
            self._forget()
            raise ChildFault(f"could not be started: {exc.strerror or exc}") from None
        except BaseException:
            self._forget()
            raise
        self.pid = self.proc.pid
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        self._err = self.proc.stderr.fileno()
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
            _widen_pipe(fd)
        self._sel = selectors.DefaultSelector()
        self._sel.register(self._out, selectors.EVENT_READ)
        self._sel.register(self._err, selectors.EVENT_READ)
        self._writing = False
        self._busy = False
        self._buf = bytearray()
        self._tail: deque[str] = deque(maxlen=STDERR_LINES)
        self._partial = bytearray()
        self.broken: str | None = None
        """Why the process may not be used any more (set by a fault)."""
        self.extensions: tuple[str, ...] = ()
        """The optional extensions the bot asked for in its ``hello``."""

    # --- standard error ---------------------------------------------------------

    def _drain_err(self) -> bool:
        """Read what standard error has; False once it is closed."""
        try:
            chunk = os.read(self._err, _READ)
        except BlockingIOError:
            return True
        except OSError:
            chunk = b""
        if not chunk:
            self._sel.unregister(self._err)
            self._err = -1
            return False
        self._partial += chunk
        *lines, rest = bytes(self._partial).split(b"\n")
        self._tail.extend(ln.decode("utf-8", "replace").rstrip() for ln in lines)
        self._partial = bytearray(rest[-4096:])
        return True

    def last_stderr(self) -> str:
        """The last non-empty line the bot wrote to standard error ('' if none)."""
        if self._err >= 0:
            self._drain_err()
        lines = [*self._tail, self._partial.decode("utf-8", "replace").rstrip()]
        for line in reversed(lines):
            if line.strip():
                return " ".join(line.split())[:200]
        return ""

    # --- exchanges --------------------------------------------------------------

    def exchange(self, data: bytes, timeout: float, label: str = "a message") -> bytes:
        """Write one message (``data``, a whole line) and return the answer line
        (without its newline); ``label`` names the message in a timeout's phrase.
        Raises :class:`ChildFault`, the process then killed."""
        if self.broken is not None:
            raise ChildFault(self.broken)
        self._busy = True
        try:
            return self._exchange(data, timeout, label)
        except ChildFault as fault:
            self._fail(fault.what)
            raise
        except BaseException:
            self._fail("was stopped in the middle of an exchange")
            raise
        finally:
            self._busy = False

    def _exchange(self, data: bytes, timeout: float, label: str) -> bytes:
        if self._readable_now():
            self._read_out()  # at the end of the output: the fault of a bot gone
        if self._buf:
            # a line nobody asked for: only an answer's extra line can come in
            # between messages, however late it arrived
            raise ChildFault(
                f"wrote more than one line for one message: {_shown(bytes(self._buf))}"
                " (after its answer to the message before)"
            )
        deadline = time.monotonic() + timeout
        view = memoryview(data)
        off = 0
        self._want_write(True)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ChildFault(f"gave no answer to {label} within {timeout:.3g} s")
            for key, _ in self._sel.select(left):
                fd = key.fd
                if fd == self._in:
                    off += self._write(view[off:])
                    if off == len(view):
                        self._want_write(False)
                elif fd == self._out:
                    self._read_out()
                elif fd == self._err:
                    self._drain_err()
            if off == len(view) and b"\n" in self._buf:
                return self._take_line()

    def _readable_now(self) -> bool:
        for key, _ in self._sel.select(0):
            if key.fd == self._err:
                self._drain_err()
            elif key.fd == self._out:
                return True
        return False

    def _want_write(self, on: bool) -> None:
        if on and not self._writing:
            self._sel.register(self._in, selectors.EVENT_WRITE)
        elif not on and self._writing:
            self._sel.unregister(self._in)
        self._writing = on

    def _write(self, data: memoryview) -> int:
        try:
            return os.write(self._in, data[:_READ])
        except BlockingIOError:
            return 0
        except (BrokenPipeError, ConnectionResetError):
            raise ChildFault(self._gone("closed its standard input")) from None

    def _read_out(self) -> None:
        try:
            chunk = os.read(self._out, _READ)
        except BlockingIOError:
            return
        if not chunk:
            raise ChildFault(self._gone("closed its standard output"))
        self._buf += chunk
        if len(self._buf) > MAX_LINE:
            raise ChildFault(f"wrote more than {MAX_LINE >> 20} MiB without ending a line")

    def _take_line(self) -> bytes:
        i = self._buf.index(b"\n")
        line = bytes(self._buf[:i])
        del self._buf[: i + 1]
        if self._buf:
            raise ChildFault(
                f"wrote more than one line for one message: {_shown(bytes(self._buf))}"
            )
        return line

    def _gone(self, what: str) -> str:
        """The phrase for a bot whose pipe closed: its exit status when it has one."""
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            text = f"{what} before bye"
        elif code < 0:
            text = f"was killed by {_signal_name(-code)} before bye"
        else:
            text = f"exited with status {code} before bye"
        last = self.last_stderr()
        return f"{text}; its last stderr line: {last!r}" if last else f"{text} (no stderr output)"

    def _fail(self, what: str) -> None:
        self.broken = what
        self.kill()

    # --- the protocol's two fixed exchanges -------------------------------------

    def hello(self, timeout: float, host: str | None = None) -> dict:
        """Send ``hello``; the bot's ``hello`` (checked for the protocol string)."""
        line = self.exchange(dumps(hello() if host is None else hello(host)), timeout, "hello")
        try:
            msg = loads(line)
        except ValueError:
            msg = None
        if not isinstance(msg, dict) or msg.get("type") != "hello":
            if isinstance(msg, dict) and msg.get("type") == "error":
                what = f"answered hello with an error: {' '.join(str(msg.get('message')).split())}"
            else:
                what = f"answered hello with {_shown(line)}, not a hello message"
            self._fail(what)
            raise ChildFault(what)
        if msg.get("protocol") != PROTOCOL:
            what = f"speaks protocol {msg.get('protocol')!r}, not {PROTOCOL!r}"
            self._fail(what)
            raise ChildFault(what)
        ext = msg.get("extensions")
        self.extensions = (
            tuple(e for e in ext if isinstance(e, str)) if isinstance(ext, list) else ()
        )
        return msg

    def bye(self, timeout: float) -> str | None:
        """Send ``bye`` and wait for the bot to answer and exit; what went wrong, if
        anything (None: it answered ``bye`` and exited with status 0). The process is
        gone afterwards in every case."""
        problem = None
        try:
            line = self.exchange(_BYE, timeout, "bye")
            try:
                msg = loads(line)
            except ValueError:
                msg = None
            if not isinstance(msg, dict) or msg.get("type") != "bye":
                problem = f"answered bye with {_shown(line)}"
            else:
                try:
                    code = self.proc.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    problem = f"did not exit within {timeout:.3g} s of bye"
                else:
                    if code != 0:
                        problem = f"exited with status {code} after bye"
        except ChildFault as fault:
            problem = fault.what
        self.kill()
        return problem

    def _end(self) -> None:
        """Kill the process and its family (module doc), its group included; signals
        only, from any thread."""
        end_family(self.pid, self.token)
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        except OSError as exc:  # pragma: no cover - killpg refused for another reason
            if exc.errno != errno.ESRCH:
                self.proc.kill()

    def kill(self) -> None:
        """End the process, its process group and its family now; idempotent."""
        if self._killed:
            return
        self._end()
        if self.proc.returncode is None:
            with contextlib.suppress(subprocess.TimeoutExpired):  # the kernel was slow
                self.proc.wait(timeout=5.0)
        self._close_pipes()
        self._killed = True
        self._forget()

    def _forget(self) -> None:
        with _LIVE_LOCK:
            _LIVE.discard(self)
            if not _LIVE:  # no bot runs, and the families of those that ran are gone
                _subreaper(False)

    def stop(self) -> None:
        """End the process now, from any thread (Ctrl-C while the engine's thread speaks
        to the bot): :meth:`kill`, unless an exchange is under way in another thread,
        which then only kills the process and its family; that exchange sees the bot's
        output end at once and ends the process in its own thread, closing the pipes."""
        if not self._busy:
            self.kill()
            return
        self.broken = self.broken or "was stopped in the middle of an exchange"
        self._end()

    def _close_pipes(self) -> None:
        if self._sel is not None:
            self._sel.close()
            self._sel = None
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            with contextlib.suppress(OSError):
                f.close()

    @property
    def alive(self) -> bool:
        """Whether the process runs and may be spoken to."""
        return self.broken is None and self.proc.returncode is None


def _shown(data: bytes, n: int = 60) -> str:
    text = " ".join(data.decode("utf-8", "replace").split())
    return repr(text if len(text) <= n else text[: n - 3] + "...")


def _widen_pipe(fd: int) -> None:
    """Ask Linux for 1 MiB pipes (64 KiB by default): fewer wake-ups per message."""
    if sys.platform.startswith("linux"):
        try:
            import fcntl

            fcntl.fcntl(fd, 1031, 1 << 20)  # F_SETPIPE_SZ
        except OSError:
            pass


def close_all(timeout: float = 1.0) -> None:
    """Say ``bye`` to every bot still running, then kill what has not gone."""
    with _LIVE_LOCK:
        live = list(_LIVE)
    for bot in live:
        if bot.alive:
            with contextlib.suppress(OSError):
                os.write(bot._in, _BYE)
    deadline = time.monotonic() + timeout
    for bot in live:
        with contextlib.suppress(subprocess.TimeoutExpired):
            bot.proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        bot.kill()


atexit.register(close_all)
