"""Stats per person over the saved games: hands, hands won, Kot, accuracy against double dummy.

A person is the name they typed in a shared table's lobby (``play --host``), as
the games database keeps it in the game's seats, compared exactly: the same name
in two games is the same person, and two people who typed the same name are one.
A person who typed no name is counted under their seat's name (``South`` ...). The
person of a game of ``hokm-sim play`` alone is ``You``.

Over every finished hand of their games (hands a bot's fault stopped are left out),
in the seat they played: the hands, those their team won, the Kot (either kind, a
7-0) their team made and those it conceded; and, graded double dummy
(:func:`hokm_sim.api.analyse_hand`, as the table grades each hand), the cards they
played themselves (not those their bot played for them: the timer ran out, they had
left, or the host gave the seat to the bot): how many, the share that were double-dummy
best, the tricks those cards lost against double-dummy play, and the blunders and
mistakes among them (docs/analysis.md). A hand not graded yet is graded here, and its
grading kept in the database.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass

from hokm_sim.api import analyse_hand
from hokm_sim.play.game import SEAT_NAMES
from hokm_sim.play.store import Store

KOTS = ("kot", "hakem_kot")
"""The kinds of a hand won 7-0."""
DECISIONS_A_HAND = 53
"""A hand's decisions: the trump call and 52 cards (a stand-in's step gives its trick)."""


@dataclass
class Person:
    """One person's figures over the saved games."""

    name: str
    games: int = 0
    hands: int = 0
    hands_won: int = 0
    kot_made: int = 0
    kot_conceded: int = 0
    cards: int = 0
    """Cards the person played themselves in graded hands."""
    best: int = 0
    """Of those, the double-dummy best."""
    tricks_lost: int = 0
    blunders: int = 0
    mistakes: int = 0
    by_bot: int = 0
    """Decisions their seat's bot made for them."""

    def to_dict(self) -> dict:
        out = asdict(self)
        out["best_share"] = round(self.best / self.cards, 3) if self.cards else None
        return out


def _people(game: dict) -> list[tuple[int, str]]:
    """``(seat, name)`` of each person of ``game``."""
    if game["seats"] is None:  # a game of hokm-sim play alone
        return [(0, SEAT_NAMES[0])]
    return [(s, seat["name"]) for s, seat in enumerate(game["seats"]) if seat["kind"] == "person"]


def _by_bot(stand_in: dict) -> tuple[int, int, int]:
    """``(hand, trick, seat)`` of a card a person's bot played for them (trick 0: trump)."""
    if "trick" in stand_in:
        trick = stand_in["trick"]
    else:  # saved before stand-ins named their trick
        offset = stand_in["step"] - DECISIONS_A_HAND * stand_in["hand"]
        trick = 0 if stand_in["kind"] == "trump" else (offset - 1) // 4 + 1
    return stand_in["hand"], trick, stand_in["seat"]


def person_stats(
    store: Store, games: list[int] | None = None, grade: Callable[[dict], dict] = analyse_hand
) -> list[dict]:
    """Each person's figures (:class:`Person` as a dict, with ``best_share``) over the
    games of ``store`` (or ``games``), most hands first; ``grade`` grades a hand that is
    not graded yet."""
    people: dict[str, Person] = {}
    for game in store.games():
        if games is not None and game["id"] not in games:
            continue
        seats = _people(game)
        if not seats:
            continue
        by_bot = {_by_bot(x) for x in game["stand_ins"]}
        hands = [h for h in store.hands(game["id"]) if "fault" not in h["record"]]
        for h in hands:
            if h["graded"] is None:
                h["graded"] = grade(h["record"])
                store.add_grading(game["id"], h["hand"], h["graded"])
        for seat, name in seats:
            p = people.setdefault(name, Person(name))
            p.games += 1
            p.by_bot += sum(x["seat"] == seat for x in game["stand_ins"])
            for h in hands:
                rec = h["record"]
                won = rec["winner_team"] == seat % 2
                p.hands += 1
                p.hands_won += won
                p.kot_made += won and rec["kind"] in KOTS
                p.kot_conceded += not won and rec["kind"] in KOTS
                mine = [
                    c
                    for c in h["graded"]["cards"]
                    if c["seat"] == seat and (h["hand"], c["trick"], seat) not in by_bot
                ]
                p.cards += len(mine)
                p.best += sum(c["grade"] == "best" for c in mine)
                p.tricks_lost += sum(c["cost"] for c in mine)
                p.blunders += sum(c["grade"] == "blunder" for c in mine)
                p.mistakes += sum(c["grade"] == "mistake" for c in mine)
    found = sorted(people.values(), key=lambda p: (-p.hands, p.name))
    return [p.to_dict() for p in found]


COLUMNS = (
    ("name", "person", 20), ("games", "games", 5), ("hands", "hands", 5),
    ("hands_won", "won", 5), ("kot_made", "Kot made", 8), ("kot_conceded", "Kot conceded", 12),
    ("cards", "cards", 5), ("best_share", "DD best", 7), ("tricks_lost", "tricks lost", 11),
    ("blunders", "blunders", 8), ("mistakes", "mistakes", 8), ("by_bot", "by their bot", 12),
)  # fmt: skip
"""The table's columns: key, heading, width."""


def table_lines(stats: list[dict]) -> list[str]:
    """``stats`` as a table, a line a person."""
    out = ["  ".join(f"{head:<{w}}" for _k, head, w in COLUMNS).rstrip()]
    for p in stats:
        cells = ["" if p[k] is None else f"{p[k]:.3f}" if k == "best_share" else str(p[k])
                 for k, _h, _w in COLUMNS]  # fmt: skip
        out.append("  ".join(f"{c:<{w}}" for c, (_k, _h, w) in zip(cells, COLUMNS, strict=True)))
    return [line.rstrip() for line in out]
