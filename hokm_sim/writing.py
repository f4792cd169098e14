"""Writing files so that nothing is ever half-written: a temporary file, then rename.

The file gets the mode any new file of the user gets (``0o666`` less the
umask), not the private mode of a temporary file. A disk that fills up
while the file is written leaves nothing behind and raises
:class:`~hokm_sim.errors.OutputError` naming the file.

:class:`OutputFile` is the one way to a file a user names for output (``-o
FILE``, ``--html FILE``): what is there decides how it is written (see
there), and nothing that is not hokm-sim's to replace is replaced.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TextIO

from hokm_sim.errors import InputError, OutputError, ref
from hokm_sim.paths import kind


def _umask() -> int:
    """The process umask, read without changing it where the system says it."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # elsewhere: read by setting, then put back
    os.umask(mask)
    return mask


def atomic_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        _raise_full(exc, path)
        raise


def _raise_full(exc: BaseException, path: Path) -> None:
    """Raise :class:`OutputError` for a write that failed for want of room."""
    if isinstance(exc, OSError) and exc.errno in FULL:
        raise OutputError(f"cannot write {path}: {os.strerror(exc.errno).lower()}") from None


FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO)
"""Errors of a disk or device that cannot take more output."""


def atomic_text(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    atomic_bytes(path, text.encode("utf-8"))


class AtomicWriter:
    """A text file written in pieces that appears whole (or not at all) on success.

    ``with AtomicWriter(path, "out") as f: f.write(...)``; a path that cannot be
    written is an :class:`~hokm_sim.errors.InputError` naming ``what``, the
    parameter that gave the path.
    """

    def __init__(self, path: str | Path, what: str = "file") -> None:
        self.path, self.what = Path(path), what

    def __enter__(self):
        try:
            if self.path.is_dir():
                raise IsADirectoryError(21, "is a folder")
            fd, self.tmp = tempfile.mkstemp(
                dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp"
            )
        except OSError as exc:
            raise InputError(f"cannot write {self.path}: {exc.strerror}", self.what) from None
        self.file = os.fdopen(fd, "w", encoding="utf-8")
        return self.file

    def __exit__(self, kind, exc, tb) -> None:
        try:
            self.file.close()  # the end of the text reaches the disk here
            if kind is None:
                os.chmod(self.tmp, 0o666 & ~_umask())
                os.replace(self.tmp, self.path)
                return
        except OSError as failed:
            Path(self.tmp).unlink(missing_ok=True)
            _raise_full(failed, self.path)
            raise
        Path(self.tmp).unlink(missing_ok=True)
        _raise_full(exc, self.path)


_DESCRIPTOR = re.compile(r"/dev/(stdout|stderr|fd/\d+)|/proc/(self|thread-self|\d+)/fd/\d+")
"""Paths that name a file descriptor a process already holds (``-o /dev/stdout``)."""


def _names_descriptor(path: Path) -> bool:
    """Whether ``path``, or a symbolic link on the way from it, names an open file
    descriptor: what that descriptor is (a terminal, a pipe, a file the shell opened
    with ``>``) is written to as it is, never replaced."""
    p = os.path.abspath(path)
    for _ in range(40):  # the kernel's own limit of links followed
        if _DESCRIPTOR.fullmatch(p):
            return True
        try:
            p = os.path.normpath(os.path.join(os.path.dirname(p), os.readlink(p)))
        except OSError:  # not a link (or gone): the chain ends here
            return False
    return False


class OutputFile:
    """A file a user named for output, checked now, before the work that fills it.

    - nothing there: written atomically (a temporary file in the same folder,
      then a rename), so no half-written file is ever left;
    - a regular file: replaced the same way only with ``force`` (else
      :class:`InputError` naming ``--force``);
    - a symbolic link: followed, and its target written as above (the link
      stays a link);
    - a character device (``/dev/null``, a terminal), a named pipe, or a path
      that names an open descriptor (``/dev/stdout``): written to in place, as
      a shell's ``>`` would; a full device is :class:`OutputError` (exit 74);
    - a folder, a block device (a disk) or a socket: refused.

    Errors name the parameter ``param`` (the CLI's ``-o`` passes ``--output``).
    """

    def __init__(self, path: str | Path, force: bool = False, param: str = "output") -> None:
        if not isinstance(path, str | os.PathLike) or not str(path).strip():
            raise InputError(f"expected a file name, got {path!r}", param)
        self.path, self.force, self.param = Path(path), bool(force), param
        self.in_place = self._check()
        """Whether the output is written in place (a device, a pipe, a descriptor)
        rather than through a temporary file and a rename."""

    def _check(self) -> bool:
        """Whether the file is written in place; :class:`InputError` if it may not be
        written at all."""
        if _names_descriptor(self.path):
            return True
        try:
            mode = os.stat(self.path).st_mode
        except FileNotFoundError:
            return False  # nothing there (or a link to nothing): a new file
        except OSError as exc:
            raise InputError(f"cannot write {self.path}: {_reason(exc)}", self.param) from None
        if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
            return True
        if stat.S_ISREG(mode):
            if not self.force:
                target = os.path.realpath(self.path)
                link = f" (a link to {target})" if self.path.is_symlink() else ""
                raise InputError(
                    f"{self.path} exists{link}; choose another file or add {ref('force')} to "
                    "overwrite it",
                    self.param,
                )
            return False
        raise InputError(
            f"{self.path} is {kind(mode)}: hokm-sim writes a file, a character device or a "
            "named pipe",
            self.param,
        )

    def open(self) -> AbstractContextManager[TextIO]:
        """The text file to write (UTF-8): ``with output.open() as f: f.write(...)``."""
        if self.in_place:
            return _InPlace(self.path, self.param)
        self._check()  # again: a file may have appeared at the path meanwhile
        return AtomicWriter(os.path.realpath(self.path), self.param)

    def write_text(self, text: str) -> None:
        """Write ``text`` whole."""
        with self.open() as f:
            f.write(text)

    def write_bytes(self, data: bytes) -> None:
        """Write ``data`` whole (a figure), as :meth:`open` writes text."""
        if not self.in_place:
            self._check()  # again: a file may have appeared at the path meanwhile
            atomic_bytes(Path(os.path.realpath(self.path)), data)
            return
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        except OSError as exc:
            raise InputError(f"cannot write {self.path}: {_reason(exc)}", self.param) from None
        try:
            with os.fdopen(fd, "ab") as f:
                f.write(data)
        except OSError as failed:
            _raise_full(failed, self.path)
            raise


def _reason(exc: OSError) -> str:
    """Why an operating-system call failed, in lower case words."""
    return os.strerror(exc.errno).lower() if exc.errno else str(exc)


class _InPlace:
    """A device, a named pipe or an open descriptor, written to as it is (opened for
    appending, never created, never truncated: what a shell set up stays)."""

    def __init__(self, path: Path, param: str) -> None:
        self.path, self.param = path, param

    def __enter__(self) -> TextIO:
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        except OSError as exc:
            raise InputError(f"cannot write {self.path}: {_reason(exc)}", self.param) from None
        self.file = os.fdopen(fd, "w", encoding="utf-8")
        return self.file

    def __exit__(self, kind, exc, tb) -> None:
        try:
            self.file.close()  # the end of the text reaches the device here
        except OSError as failed:
            _raise_full(failed, self.path)
            raise
        if exc is not None:
            _raise_full(exc, self.path)
