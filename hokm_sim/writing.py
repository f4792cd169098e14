"""Writing files so that nothing is ever half-written: a temporary file, then rename.

The file gets the mode any new file of the user gets (``0o666`` less the
umask), not the private mode of a temporary file. A disk that fills up
while the file is written leaves nothing behind and raises
:class:`~hokm_sim.errors.OutputError` naming the file.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from hokm_sim.errors import InputError, OutputError


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
