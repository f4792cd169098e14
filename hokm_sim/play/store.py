"""Every game played at the table, kept in a SQLite database in the user's data folder.

The folder is ``--data DIR``, else ``$HOKM_SIM_DATA``, else
``$XDG_DATA_HOME/hokm-sim`` (``~/.local/share/hokm-sim`` when XDG_DATA_HOME
is unset); the database is ``games.sqlite`` in it. A game row holds when it
was played, its seed, whether it was the daily deal (its UTC date), the
bots, the target, the result and score, the hints used, whether the person
asked to see the seed during play, and the game's secret (the key its pages
must show the server: docs/play.md); a game of a shared table (``play --host``)
also holds who sat where (``seats``: each a person or a bot) and which of the
people's decisions their seat's bot made (``stand_ins``: the timer ran out, the
person had left, or the host gave the seat to its bot); each finished hand is stored as the JSON
record ``hokm-sim trace`` writes, with its double-dummy grading once it is
analysed. Seeds go up to 2**64 - 1 and are stored as text (SQLite's integers
stop at 2**63 - 1).

The database is in WAL mode with ``synchronous=NORMAL``: a commit (the table
writes after every decision that changes a row) does not wait for the disk, which
took the event loop ~15 ms a commit; the machine losing power may lose the last
moments of play, never the database's soundness, and a crash of hokm-sim loses
nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from hokm_sim.errors import InputError
from hokm_sim.store import data_dir

DB_NAME = "games.sqlite"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    finished TEXT,
    seed TEXT NOT NULL,
    daily TEXT,
    partner TEXT NOT NULL,
    opponents TEXT NOT NULL,
    target INTEGER NOT NULL,
    first_hakem TEXT NOT NULL,
    result TEXT NOT NULL,
    score0 INTEGER NOT NULL DEFAULT 0,
    score1 INTEGER NOT NULL DEFAULT 0,
    hints TEXT NOT NULL DEFAULT '[]',
    message TEXT,
    version TEXT NOT NULL,
    seed_shown INTEGER NOT NULL DEFAULT 0,
    secret TEXT,
    seats TEXT,
    stand_ins TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS hands (
    game INTEGER NOT NULL REFERENCES games(id),
    hand INTEGER NOT NULL,
    record TEXT NOT NULL,
    graded TEXT,
    PRIMARY KEY (game, hand)
);
"""
RESULTS = ("playing", "won", "lost", "fault", "unfinished")
"""A game's result, for the person's team: ``playing`` while it is under way;
``unfinished`` for a game left before its end."""
MAX_ID = 2**63 - 1
"""The largest game id SQLite can hold; a larger one names no game."""
_ADDED = {
    "seed_shown": "INTEGER NOT NULL DEFAULT 0",
    "secret": "TEXT",
    "seats": "TEXT",
    "stand_ins": "TEXT NOT NULL DEFAULT '[]'",
}
"""Columns of ``games`` that databases written before them lack (added on opening)."""


def new_secret() -> str:
    """A game's secret: 192 random bits (:mod:`secrets`), URL-safe text."""
    return secrets.token_urlsafe(24)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Store:
    """The games database in ``folder`` (created on first use)."""

    def __init__(self, folder: str | Path | None = None, create: bool = True) -> None:
        self.folder = data_dir(folder)
        self.path = self.folder / DB_NAME
        if not create and not self.path.is_file():
            raise InputError(f"no games yet: {self.path} does not exist (play with hokm-sim play)")
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            # The games' secrets are the keys of their pages: the file (and the log files
            # SQLite makes beside it, which take its mode) is its owner's only.
            os.close(os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600))
            with contextlib.suppress(PermissionError):  # another's file: left as it is
                self.path.chmod(0o600)
            self._db = sqlite3.connect(self.path, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
            self._upgrade()
        except (OSError, sqlite3.Error) as exc:
            raise InputError(f"cannot open the games database {self.path}: {exc}") from None
        self._db.row_factory = sqlite3.Row

    def _upgrade(self) -> None:
        """Add the columns an older database lacks, and a secret to every game without one."""
        have = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        with self._db:
            for name, kind in _ADDED.items():
                if name not in have:
                    self._db.execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")
            for (gid,) in self._db.execute("SELECT id FROM games WHERE secret IS NULL").fetchall():
                self._db.execute("UPDATE games SET secret = ? WHERE id = ?", (new_secret(), gid))

    def close(self) -> None:
        self._db.close()

    def start(self, *, seed: int, daily: str | None, partner: str, opponents: str, target: int,
              first_hakem: str, version: str) -> int:  # fmt: skip
        """Book a game that starts now, with a new secret (:meth:`secret`); its id."""
        with self._db:
            cur = self._db.execute(
                "INSERT INTO games (started, seed, daily, partner, opponents, target, "
                "first_hakem, result, version, secret) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, 'playing', ?, ?)",
                (_now(), str(seed), daily, partner, opponents, target, first_hakem, version,
                 new_secret()),
            )  # fmt: skip
        return int(cur.lastrowid)

    def secret(self, game: int) -> str | None:
        """The secret of ``game`` (None if there is no such game): the key its pages show."""
        if not 0 <= game <= MAX_ID:
            return None
        row = self._db.execute("SELECT secret FROM games WHERE id = ?", (game,)).fetchone()
        return None if row is None else row[0]

    def add_hand(self, game: int, record: dict) -> None:
        """A finished hand of ``game`` (a ``hokm-sim trace`` record)."""
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO hands (game, hand, record) VALUES (?, ?, ?)",
                (game, int(record["hand"]), json.dumps(record)),
            )

    def add_grading(self, game: int, hand: int, graded: dict) -> None:
        """The double-dummy grading of a stored hand."""
        with self._db:
            self._db.execute(
                "UPDATE hands SET graded = ? WHERE game = ? AND hand = ?",
                (json.dumps(graded), game, hand),
            )

    def update(self, game: int, *, result: str, scores: list[int], hints: list[dict],
               message: str | None = None, seed_shown: bool = False) -> None:  # fmt: skip
        """The game's result, score and hints so far, and whether the person asked to see
        the seed (``finished`` set once it is over)."""
        finished = _now() if result not in ("playing", "unfinished") else None
        with self._db:
            self._db.execute(
                "UPDATE games SET result = ?, score0 = ?, score1 = ?, hints = ?, message = ?, "
                "seed_shown = ?, finished = COALESCE(finished, ?) WHERE id = ?",
                (result, scores[0], scores[1], json.dumps(hints), message, int(seed_shown),
                 finished, game),
            )  # fmt: skip

    def seat_record(self, game: int, seats: list[dict], stand_ins: list[dict]) -> None:
        """Who sat where at a shared table's ``game`` (each ``{"name", "kind": "person" or
        "bot", "strategy"}``) and the people's decisions their bots made."""
        with self._db:
            self._db.execute(
                "UPDATE games SET seats = ?, stand_ins = ? WHERE id = ?",
                (json.dumps(seats), json.dumps(stand_ins), game),
            )

    def close_unfinished(self) -> int:
        """Mark games left ``playing`` by an earlier server as ``unfinished``; how many."""
        with self._db:
            cur = self._db.execute(
                "UPDATE games SET result = 'unfinished' WHERE result = 'playing'"
            )
        return cur.rowcount

    # --- reading ------------------------------------------------------------------------

    def games(self, game: int | None = None) -> list[dict]:
        """Every game (or the one with id ``game``), newest first, with its hands' count;
        without its secret."""
        sql = (
            "SELECT g.*, (SELECT COUNT(*) FROM hands h WHERE h.game = g.id) AS hands, "
            "(SELECT COUNT(*) FROM hands h WHERE h.game = g.id AND h.graded IS NOT NULL) "
            "AS graded FROM games g"
        )
        args: tuple = ()
        if game is not None:
            if not 0 <= game <= MAX_ID:
                return []
            sql += " WHERE g.id = ?"
            args = (game,)
        rows = self._db.execute(sql + " ORDER BY g.id DESC", args).fetchall()
        out = []
        for r in rows:
            d = dict(r)
            del d["secret"]
            d["hints"] = json.loads(d["hints"])
            d["seed_shown"] = bool(d["seed_shown"])
            d["seats"] = json.loads(d["seats"]) if d["seats"] else None
            d["stand_ins"] = json.loads(d["stand_ins"])
            out.append(d)
        return out

    def game(self, game: int) -> dict:
        """One game; :class:`InputError` if there is none with that id."""
        found = self.games(game)
        if not found:
            raise InputError(f"no game {game} in {self.path}")
        return found[0]

    def hands(self, game: int) -> list[dict]:
        """The stored hands of ``game`` in order: ``{"hand", "record", "graded"}``."""
        if not 0 <= game <= MAX_ID:
            return []
        rows = self._db.execute(
            "SELECT hand, record, graded FROM hands WHERE game = ? ORDER BY hand", (game,)
        ).fetchall()
        return [
            {"hand": r["hand"], "record": json.loads(r["record"]),
             "graded": json.loads(r["graded"]) if r["graded"] else None}
            for r in rows
        ]  # fmt: skip

    def records(self, games: list[int] | None = None) -> Iterator[dict]:
        """Every finished hand's trace record (of ``games``, or of all games, oldest first);
        hands stopped by a bot fault are left out (there is nothing to analyse in them)."""
        sql = "SELECT record FROM hands"
        args: tuple = ()
        if games is not None:
            sql += f" WHERE game IN ({','.join('?' * len(games))})"
            args = tuple(games)
        for (text,) in self._db.execute(sql + " ORDER BY game, hand", args):
            rec = json.loads(text)
            if "fault" not in rec:
                yield rec
