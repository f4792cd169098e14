"""Report folders: where a piece of work writes what it found.

One writer for every command: the folder's default name, the refusal to
overwrite earlier results unless asked (``force``), a lock so that two runs
started at once on the same folder cannot both write it, and files that are
never half-written (a temporary file, then a rename) and get the user's usual
file mode. Every report saved here is also added to the results store
(:mod:`hokm_sim.store`).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import weakref
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hokm_sim import jsontext, store
from hokm_sim.errors import InputError, ref
from hokm_sim.version import __version__
from hokm_sim.writing import atomic_bytes, atomic_text

RESULTS = Path("results")
"""Where report folders go unless the user names one."""

WRITTEN = (
    "summary.json",
    "report.md",
    "checkpoint.json",
    "hands.parquet",
    "trump_table.json",
    "table_bot.py",
    "analysis.json",
    "analysis.md",
)
"""Files a report folder may hold besides figures: what ``force`` clears away."""
FIGURES = ("*.png", "*.svg")


def default_folder(a: str, b: str, seed: int, root: Path = RESULTS) -> Path:
    """``root/<UTC time>-<a>-vs-<b>-seed<seed>``, names made safe for paths."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")

    def safe(s: str) -> str:
        return re.sub(r"[^A-Za-z0-9_.=-]+", "_", Path(s).stem if s.endswith(".py") else s)[:40]

    return root / f"{stamp}-{safe(a)}-vs-{safe(b)}-seed{seed}"


class ReportFolder:
    """A folder that holds one report; created (and checked) by :meth:`create`, or an
    existing one taken to update by :meth:`take`. Either holds the folder's lock
    until the object goes (the process ends): no other hokm-sim run writes there
    meanwhile."""

    def __init__(self, path: Path, created: bool = False) -> None:
        self.path = Path(path)
        self.created = created
        """Whether :meth:`create` made the folder (then :meth:`discard` removes it)."""

    @classmethod
    def create(cls, path: Path, force: bool = False) -> ReportFolder:
        """Make ``path`` ready for a new report.

        Refuses a path that is a file, a folder another run is writing (its
        lock is taken), a folder that already holds files (unless ``force``:
        then the files an earlier report wrote there are removed, so nothing
        stale stays beside the new one), and a folder it cannot write to.
        Raises :class:`InputError` with one line, naming the parameter ``out``.
        """
        if not str(path).strip():  # the working directory, which force would clear
            raise InputError("expected a folder name, not an empty one", "out")
        path = Path(path)
        if path.exists() and not path.is_dir():
            raise InputError(f"{path} exists and is not a folder", "out")
        existed = path.is_dir()
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot write to {path}: {exc.strerror or exc}", "out") from None
        folder = cls(path, created=not existed)
        folder._lock("out")
        if any(path.iterdir()):
            if not force:
                raise InputError(
                    f"report folder {path} already exists; choose another or add "
                    f"{ref('force')} to overwrite",
                    "out",
                )
            folder.clear()
        try:
            probe = path / ".write-test"
            probe.write_text("")
            probe.unlink()
        except OSError as exc:
            raise InputError(f"cannot write to {path}: {exc.strerror or exc}", "out") from None
        store.prepare()  # opened while the work is done, for the result's row at the end
        return folder

    @classmethod
    def take(cls, path: Path, param: str = "folder") -> ReportFolder:
        """An existing report folder, locked for this process to update (``resume``);
        an error names the parameter ``param``."""
        folder = cls(path)
        folder._lock(param)
        store.prepare()
        return folder

    def _lock(self, param: str) -> None:
        """Take the folder's lock (``flock`` on the folder itself, so no lock file is
        left behind), or raise :class:`InputError` naming ``param`` if another run
        holds it."""
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except OSError as exc:
            raise InputError(f"cannot open {self.path}: {exc.strerror}", param) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise InputError(
                f"report folder {self.path} is being written by another hokm-sim run; "
                "wait for it or choose another folder",
                param,
            ) from None
        weakref.finalize(self, os.close, fd)

    def discard(self) -> None:
        """Take back a report that never began (it failed before anything was played):
        the files a report writes, and the folder itself if :meth:`create` made it, so
        the corrected command may use the same ``out``."""
        self.clear()
        if self.created:
            with contextlib.suppress(OSError):
                self.path.rmdir()

    def clear(self) -> None:
        """Remove what an earlier report wrote here (and nothing else)."""
        for name in WRITTEN:
            (self.path / name).unlink(missing_ok=True)
        for pattern in FIGURES:
            for p in self.path.glob(pattern):
                p.unlink()
        shutil.rmtree(self.path / "__pycache__", ignore_errors=True)
        shutil.rmtree(self.path / "analysis", ignore_errors=True)

    def file(self, name: str) -> Path:
        """The path of ``name`` in the folder."""
        return self.path / name

    def write_text(self, name: str, text: str) -> Path:
        """Write ``name`` atomically."""
        atomic_text(self.path / name, text)
        return self.path / name

    def write_bytes(self, name: str, data: bytes) -> Path:
        """Write ``name`` atomically."""
        atomic_bytes(self.path / name, data)
        return self.path / name

    def write_json(self, name: str, obj: Any) -> Path:
        """Write ``obj`` as indented JSON, atomically."""
        return self.write_text(name, json.dumps(obj, indent=1) + "\n")

    def save(self, record: dict[str, Any], markdown: str, command: str) -> None:
        """``summary.json`` (the record, the command and the version) and ``report.md``,
        then the result's row in the results store (:func:`hokm_sim.store.begin`)."""
        from hokm_sim.analysis.results import from_dict

        full = record | {"command": command, "version": __version__}
        kept = store.begin(full, self.path)  # git asked while the files are written
        self.write_json("summary.json", full)
        self.write_text("report.md", markdown)
        kept(from_dict(full).headline)

    def __repr__(self) -> str:
        return f"ReportFolder({str(self.path)!r})"


def read_record(folder: Path) -> dict[str, Any]:
    """The ``summary.json`` of a report folder; :class:`InputError` if there is none."""
    f = Path(folder) / "summary.json"
    try:
        data = jsontext.loads(f.read_text())
    except FileNotFoundError:
        raise InputError(f"{folder} is not a report folder: it has no summary.json") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{f} cannot be read: {exc}") from None
    if not isinstance(data, dict):
        raise InputError(f"{f} is not a hokm-sim summary (not a JSON object)")
    return data
