"""A protocol bot as a child process: started, spoken to line by line, always ended.

:class:`BotProcess` runs a command with pipes on its standard streams and
exchanges one message for one answer line at a time. Every exchange has a
deadline and reads, writes and drains the bot's standard error at once
(non-blocking pipes under one ``selectors`` loop), so neither a bot that
stops reading nor one that logs a lot nor one that hangs can stall the host:
what goes wrong becomes a :class:`ChildFault` whose ``what`` says it in a
phrase (a timeout, an exit status with the last line of standard error, a
closed pipe), and the process is killed.

No bot outlives hokm-sim:

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

Killing a bot kills its process group, so helpers it started go with it.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import errno
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
from hokm_sim.protocol.wire import PROTOCOL, dumps, hello

STDERR_LINES = 20
"""Lines of a bot's standard error kept for fault messages."""
MAX_LINE = 1 << 26
"""Bytes an answer line may take (64 MiB): a bot past it is not writing lines."""
_READ = 1 << 20
_BYE = dumps({"type": "bye"})


class ChildFault(Exception):
    """What went wrong with a bot process, as a phrase (``what``) for the fault line."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def _die_with_parent_fn():
    """A ``preexec_fn`` setting ``PR_SET_PDEATHSIG`` to ``SIGKILL`` (None off Linux)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def die_with_parent() -> None:
        prctl(1, signal.SIGKILL, 0, 0, 0)  # 1: PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the parent died before the call took effect
            os._exit(1)

    return die_with_parent


class _Spawner:
    """One daemon thread that starts every bot, so ``PR_SET_PDEATHSIG`` (which follows
    the starting thread) fires only when the whole process ends."""

    def __init__(self) -> None:
        self._jobs: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._pid = -1

    def popen(self, argv: Sequence[str]) -> subprocess.Popen:
        with self._lock:
            if self._thread is None or self._pid != os.getpid():  # none yet, or forked
                self._jobs = queue.Queue()
                self._pid = os.getpid()
                self._thread = threading.Thread(
                    target=self._serve, name="hokm-sim-bot-spawner", daemon=True
                )
                self._thread.start()
        done: queue.Queue = queue.Queue(maxsize=1)
        self._jobs.put((list(argv), done))
        result = done.get()
        if isinstance(result, BaseException):
            raise result
        return result

    def _serve(self) -> None:
        preexec = _die_with_parent_fn()
        while True:
            argv, done = self._jobs.get()
            try:
                done.put(
                    subprocess.Popen(
                        argv,
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
        try:
            self.proc = _SPAWNER.popen(self.argv)
        except OSError as exc:
            raise ChildFault(f"could not be started: {exc.strerror or exc}") from None
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
        with _LIVE_LOCK:
            _LIVE.add(self)

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

    def kill(self) -> None:
        """End the process (and its process group) now; idempotent."""
        if self.proc.returncode is None:
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            except OSError as exc:  # pragma: no cover - killpg refused for another reason
                if exc.errno != errno.ESRCH:
                    self.proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):  # the kernel was slow
                self.proc.wait(timeout=5.0)
        else:  # its helpers may still run in its group
            with contextlib.suppress(OSError):
                os.killpg(self.pid, signal.SIGKILL)
        self._close_pipes()
        with _LIVE_LOCK:
            _LIVE.discard(self)

    def stop(self) -> None:
        """End the process now, from any thread (Ctrl-C while the engine's thread speaks
        to the bot): :meth:`kill`, unless an exchange is under way in another thread,
        which then only kills the process group; that exchange sees the bot's output
        end at once and ends the process in its own thread, closing the pipes."""
        if not self._busy:
            self.kill()
            return
        self.broken = self.broken or "was stopped in the middle of an exchange"
        with contextlib.suppress(OSError):
            os.killpg(self.pid, signal.SIGKILL)

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
