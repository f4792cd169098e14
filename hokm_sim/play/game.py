"""One match at the table: the only authority on the cards, the turn and the rules.

A :class:`Game` holds a match of the engine's stepper
(:class:`hokm_sim.env.table.Table`) and its seats. The deal, the first
Hakem, the streams and the rules are the engine's, so a game of seed ``S``
to ``T`` points in which the person plays as strategy ``P`` would is the
match ``hokm-sim trace --seed S --matches 1 --a P --b O --target T`` writes
(``P`` the partner, ``O`` the opponents; the person sits in seat 0).

Every decision comes in through :meth:`Game.submit`, which refuses (with a
message, changing nothing) a decision that is not due, comes from the wrong
seat, answers an earlier position (``step``) or is not legal. What a seat
may see is :meth:`Game.state_for`: its own cards (during the trump call, the
Hakem's first five, nobody else's), the cards played, the scores; the other
hands only once the hand is over; the seed only once the match is over (with
it, ``hokm-sim trace`` deals every hand to come), or when the person asks
for it (:meth:`Game.show_seed`, recorded).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

import numpy as np

from hokm_sim import reference
from hokm_sim.cards import SUITS, card_str, cards_of, parse_card, parse_suit
from hokm_sim.engine import stepper as st
from hokm_sim.engine.kernels import T_HAND
from hokm_sim.engine.play import first_hakem_deck
from hokm_sim.engine.view import V_HAND, V_LEADER, V_SCORES, V_TRICK_NO, V_TRICKS, V_TRUMP
from hokm_sim.env.table import CARD, TRUMP, Table
from hokm_sim.errors import InputError
from hokm_sim.house import DEFAULT_FIRST_HAKEM, first_hakem_code
from hokm_sim.play.seats import BotSeat, HumanSeat, Seat
from hokm_sim.sim.trace import row_to_record

TARGETS = (3, 5, 7, 10)
"""The match targets a game may be played to."""
SEAT_NAMES = ("You", "East", "North", "West")
"""The seats as the page draws them: play passes from South (you) to your right."""
SPECTATOR = -1
"""The seat :meth:`Game.state_for` is asked for by a spectator: played cards, no hand."""
KIND_TEXT = {"normal": "", "kot": "Kot", "hakem_kot": "Hakem Kot"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def first_hakem_draw(seed: int, match: int = 0, method: str = DEFAULT_FIRST_HAKEM):
    """The cards turned up to find the first Hakem of ``match`` by house rule ``method``:
    ``(hakem, [(seat, card), ...])``. The cards are the engine's draw (a start seat, then a
    shuffled deck, from the match's first-Hakem stream); the reference rules say which
    of them are turned and to whom."""
    deck = np.zeros(52, np.int64)
    start = int(first_hakem_deck(np.uint64(seed), match, deck))
    return reference.first_hakem_draw([int(c) for c in deck], start, method)


def _cards(mask: int) -> list[str]:
    return [card_str(c) for c in cards_of(int(mask))]


@dataclass
class Hint:
    """A hint asked for and what was played after it."""

    hand: int
    trick: int
    kind: str
    suggested: str
    played: str | None = None

    def to_dict(self) -> dict:
        return {"hand": self.hand, "trick": self.trick, "kind": self.kind,
                "suggested": self.suggested, "played": self.played}  # fmt: skip


@dataclass
class Trick:
    """The trick on the table: its leader, the cards so far by seat, its winner once full."""

    leader: int
    cards: list[tuple[int, str]] = field(default_factory=list)
    winner: int | None = None

    def to_dict(self) -> dict:
        return {
            "leader": self.leader,
            "cards": [{"seat": s, "card": c} for s, c in self.cards],
            "winner": self.winner,
        }


class Game:
    """A match between ``seats`` (seat 0 and 2 against 1 and 3) from ``seed``, its first
    Hakem found by house rule ``first_hakem``."""

    def __init__(
        self,
        seats: list[Seat],
        seed: int,
        target: int = 7,
        daily: str | None = None,
        first_hakem: str = DEFAULT_FIRST_HAKEM,
        names: tuple[str, ...] = SEAT_NAMES,
    ) -> None:
        if target not in TARGETS:
            raise InputError(
                f"bad target {target}: a game is played to {', '.join(map(str, TARGETS))}"
            )
        if len(seats) != 4:
            raise InputError("a table has four seats")
        rule = first_hakem_code(first_hakem)
        self.first_hakem = first_hakem
        self.seats = seats
        self.names = names
        """How messages name the seats (a shared table: the people's names)."""
        self.seed = int(seed)
        self.target = target
        self.daily = daily
        self.table = Table(target, rule)
        self.table.start(seed=self.seed)
        self.step = 0
        """Decisions made so far: a decision names the step it answers."""
        self.moves: list[int] = []
        """Every decision's answer in order (a suit or a card, the engine's number): with
        the seed, the bots and who decided, the match up to now (:mod:`.resume`)."""
        self.hand = 0
        """The hand being played (or just finished), from 0."""
        self.records: list[dict] = []
        """Finished hands, as ``hokm-sim trace`` writes them."""
        first, self.draw = first_hakem_draw(self.seed, 0, first_hakem)
        if first != self.hakem:  # the page would show another Hakem than the engine's
            raise AssertionError(f"first Hakem {first} drawn, the engine has {self.hakem}")
        self.hold: str | None = "first_hakem"
        """``"first_hakem"`` or ``"hand_over"``: the table waits for the person to go on."""
        self.trick: Trick | None = None
        self.last_trick: Trick | None = None
        self.hints: list[Hint] = []
        self.fault: str | None = None
        self.seed_shown = False
        """The person asked to see the seed before the match was over."""
        self.analyses: dict[int, dict] = {}
        """Graded hands (:func:`hokm_sim.api.analyse_hand`) by hand number, as they come."""

    # --- where the game is --------------------------------------------------------------

    @property
    def hakem(self) -> int:
        return int(self.table.slots.ctl[0, st.K_HAKEM])

    @property
    def over(self) -> bool:
        """The match is finished (or stopped by a bot's fault)."""
        return self.fault is not None or self.table.waiting is None

    @property
    def seed_visible(self) -> bool:
        """The seed may be shown: the match is over, or the person asked for it."""
        return self.over or self.seed_shown

    def show_seed(self) -> None:
        """The person asks to see the seed now (recorded with the game)."""
        if not self.over:
            self.seed_shown = True

    @property
    def phase(self) -> str:
        """``first_hakem``, ``trump``, ``play``, ``hand_over``, ``match_over`` or ``fault``."""
        if self.fault is not None:
            return "fault"
        if self.hold is not None and not (self.hold == "hand_over" and self.over):
            return self.hold
        if self.table.waiting is None:
            return "match_over"
        return "trump" if self.table.waiting == TRUMP else "play"

    def due(self) -> int | None:
        """The seat whose decision is due now, or None (the table waits or is over)."""
        if self.phase in ("trump", "play"):
            return self.table.seat
        return None

    def bot_due(self) -> BotSeat | None:
        """The bot whose decision is due now, if it is a bot's."""
        seat = self.due()
        player = self.seats[seat] if seat is not None else None
        return player if isinstance(player, BotSeat) else None

    def go_on(self) -> None:
        """The person has seen the first Hakem or the hand's result: play on."""
        if self.hold is None or self.over:
            return
        if self.hold == "hand_over":
            self.hand += 1
        self.hold = None
        self.trick = self.last_trick = None

    # --- decisions ----------------------------------------------------------------------

    def check(self, seat: int, kind: str, value: str, step: int | None = None) -> int | str:
        """The engine's answer (suit or card index) for a decision of ``seat``, or the
        message that refuses it."""
        phase = self.phase
        if phase not in ("trump", "play"):
            return {"first_hakem": "Deal the first hand first.",
                    "hand_over": "The hand is over: go on to the next one.",
                    "match_over": "The match is over.",
                    "fault": "The game was stopped."}[phase]  # fmt: skip
        if seat != self.table.seat:
            return f"It is {self.names[self.table.seat]}'s turn, not yours."
        if step is not None and step != self.step:
            return "That was for an earlier position; the table has moved on."
        if kind != self.table.waiting:
            return "Call trump first." if self.table.waiting == TRUMP else "Trump is called."
        try:
            answer = parse_suit(value) if kind == TRUMP else parse_card(value)
        except (ValueError, TypeError):
            return f"{value!r} is not a {'suit' if kind == TRUMP else 'card'}."
        if kind == CARD and not (self.table.legal >> answer) & 1:
            hand = int(self.table.view_for(seat)[V_HAND])
            if not (hand >> answer) & 1:
                return f"You do not hold {card_str(answer)}."
            led = self.trick.cards[0][1][1] if self.trick and self.trick.cards else "?"
            return f"You must follow suit: you hold {SUIT_NAMES.get(led, 'the suit led')}."
        return answer

    def submit(self, seat: int, kind: str, value: str, step: int | None = None) -> str | None:
        """Make ``seat``'s decision (``kind`` ``"trump"`` with a suit, or ``"card"``);
        returns the message that refuses it, or None when it was made."""
        answer = self.check(seat, kind, value, step)
        if isinstance(answer, str):
            return answer
        for h in self.hints:
            if h.played is None and h.hand == self.hand and (h.kind, h.trick) == self.where():
                h.played = SUITS[answer] if kind == TRUMP else card_str(answer)
        self.act(answer)
        return None

    def act(self, answer: int) -> None:
        """Make the decision due with an answer already checked (a bot's, or the person's)."""
        t = self.table
        seat, kind = t.seat, t.waiting
        legal = t.legal
        if (kind == CARD and not (legal >> answer) & 1) or (kind == TRUMP and not 0 <= answer <= 3):
            raise ValueError(f"act: {answer} is not a legal answer")  # callers check first
        self.step += 1
        self.moves.append(int(answer))
        if kind == TRUMP:
            t.act(answer)
            self.trick = Trick(leader=self.hakem)
            self.last_trick = None
            return
        if self.trick is None or self.trick.winner is not None:
            if self.trick is not None:
                self.last_trick = self.trick
            leader = self.trick.winner if self.trick is not None else self.hakem
            self.trick = Trick(leader=leader)
        self.trick.cards.append((seat, card_str(answer)))
        done = t.hands_done
        t.act(answer)
        if t.hands_done > done:
            self._hand_finished()
        elif len(self.trick.cards) == 4:
            self.trick.winner = int(t.slots.bot_view[0, V_LEADER])

    def bot_answer(self, raw: object) -> int | str:
        """A bot's raw answer as an engine answer, or why it is a fault."""
        t = self.table
        try:
            answer = int(raw)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            return f"answered {raw!r}, not a {'suit' if t.waiting == TRUMP else 'card'}"
        if t.waiting == TRUMP:
            return answer if 0 <= answer <= 3 else f"called trump {answer}, not a suit 0..3"
        if not 0 <= answer < 52:
            return f"played {answer}, not a card 0..51"
        if not (t.legal >> answer) & 1:
            return f"played {card_str(answer)}, which is not a legal card"
        return answer

    def fail(self, seat: int, why: str) -> None:
        """Stop the hand, and the match with it, at a fault of ``seat``'s bot: the fault
        line names the strategy, the seat, the seed, the match (a game is match 0), the
        hand (from 0, as ``hokm-sim show --hand`` and the trace count it) and the trick
        (from 1), as every fault line of hokm-sim does."""
        player = self.seats[seat]
        name = player.strategy.name if isinstance(player, BotSeat) else player.name
        where = "at trump choice" if self.table.waiting == TRUMP else f"trick {self._trick_no()}"
        self.fault = (
            f"strategy {name!r} {why} (seat {seat}, {self.names[seat]}) at seed {self.seed}, "
            f"match 0, hand {self.hand}, {where}; the hand is stopped, and the game with it"
        )
        with contextlib.suppress(InputError):  # the engine books the hand as stopped
            self.table.act(-1)
        row = self.table.rows[self.hand]
        if row[T_HAND] >= 0:
            self.records.append(row_to_record(row, self.seed, self.target))

    def _hand_finished(self) -> None:
        rec = row_to_record(self.table.rows[self.hand], self.seed, self.target)
        self.records.append(rec)
        last = rec["tricks"][-1]
        self.trick.winner = last["winner"]
        self.hold = "hand_over"

    def _trick_no(self) -> int:
        """The number (from 1) of the trick the decision due is for."""
        return int(self.table.slots.bot_view[0, V_TRICK_NO]) + 1

    def where(self) -> tuple[str, int]:
        """The decision due as (kind, trick number) for hints."""
        if self.table.waiting == TRUMP:
            return TRUMP, 0
        return CARD, self._trick_no()

    # --- hints --------------------------------------------------------------------------

    def hint(self, seat: int, adviser: BotSeat) -> dict | str:
        """What ``adviser`` would decide in ``seat``'s place now (recorded), or why not."""
        if self.due() != seat or not isinstance(self.seats[seat], HumanSeat):
            return "A hint is for your own turn."
        answer = self.bot_answer(adviser.advise(self.table))
        if isinstance(answer, str):
            return f"{adviser.label} {answer}: no hint."
        kind, trick = self.where()
        text = SUITS[answer] if kind == TRUMP else card_str(answer)
        if not any(h.hand == self.hand and (h.kind, h.trick) == (kind, trick) for h in self.hints):
            self.hints.append(Hint(self.hand, trick, kind, text))
        return {"kind": kind, "value": text, "by": adviser.label}

    # --- what a seat may see ------------------------------------------------------------

    def hand_of(self, seat: int) -> list[str]:
        """The cards ``seat`` holds now (during the trump call: the Hakem's first five;
        nobody else has cards yet); a :data:`SPECTATOR` holds none."""
        if seat == SPECTATOR:
            return []
        phase = self.phase
        if phase in ("hand_over", "match_over", "fault"):
            rec = self.records[-1] if self.records else None
            if rec is None:
                return []
            played = {c for tr in rec["tricks"] for c in tr["cards"]}
            played |= set(rec.get("unfinished_trick", {}).get("cards", []))
            return [c for c in _sorted(rec["hands"][seat]) if c not in played]
        if phase == "first_hakem":
            return []
        if phase == "trump":
            if seat != self.hakem:
                return []
            return _sorted(card_str(int(c)) for c in self.table.slots.deck[0, :5])
        return _sorted(_cards(self.table.view_for(seat)[V_HAND]))

    def state_for(self, seat: int) -> dict:
        """Everything ``seat``'s page may show now, and nothing it may not (a
        :data:`SPECTATOR`: the played cards, scores and trump, never a hand)."""
        t = self.table
        phase = self.phase
        live = phase in ("trump", "play")
        view = t.slots.bot_view[0]
        rec = self.records[-1] if self.records and not live else None
        held = [0, 0, 0, 0]
        if phase == "trump":
            held[self.hakem] = 5
        elif phase == "play":
            held = [int(np.int64(t.slots.held[0, s])).bit_count() for s in range(4)]
        elif rec is not None:
            held = [len(self.hand_of(s)) for s in range(4)]
        hakem = rec["hakem"] if rec is not None else self.hakem
        state = {
            "type": "state",
            "phase": phase,
            "seat": seat,
            "step": self.step,
            "seed": str(self.seed) if self.seed_visible else None,
            "seed_shown": self.seed_shown,
            "daily": self.daily,
            "target": self.target,
            "hand_no": self.hand,
            "players": [
                {
                    "name": self.names[s],
                    "label": p.label,
                    "kind": p.kind,
                    "strategy": p.strategy.name if isinstance(p, BotSeat) else None,
                }
                for s, p in enumerate(self.seats)
            ],  # fmt: skip
            "hakem": hakem if phase != "first_hakem" else None,
            "dealer": (hakem + 3) % 4 if phase != "first_hakem" else None,
            "trump": None,
            "turn": self.due(),
            "hand": self.hand_of(seat),
            "legal": [],
            "held": held,
            "tricks": [0, 0],
            "scores": [int(view[V_SCORES]), int(view[V_SCORES + 1])],
            "trick": self.trick.to_dict() if self.trick else None,
            "last_trick": self.last_trick.to_dict() if self.last_trick else None,
            "hints": len(self.hints),
            "hands": [self._hand_summary(r) for r in self.records],
            "message": self.fault,
        }
        if phase == "first_hakem":
            state["draw"] = [{"seat": s, "card": card_str(c)} for s, c in self.draw]
            state["first_hakem"] = self.hakem
            state["first_hakem_rule"] = self.first_hakem
        if phase == "play":
            state["trump"] = SUITS[int(view[V_TRUMP])]
            state["tricks"] = [int(view[V_TRICKS]), int(view[V_TRICKS + 1])]
        if live and t.seat == seat and t.waiting == CARD:
            state["legal"] = _cards(t.legal)
        if rec is not None:
            state["trump"] = rec["trump"]
            state["tricks"] = list(rec.get("tricks_won", [0, 0]))
            if "scores" in rec and "fault" not in rec:
                state["scores"] = list(rec["scores"])
            state["result"] = self._result(rec)
            if seat == SPECTATOR:
                del state["result"]["reveal"]
        return state

    def _result(self, rec: dict) -> dict:
        """The finished hand for the page: who won what, and every hand as dealt."""
        out = {"hand": rec["hand"], "reveal": [_sorted(h) for h in rec["hands"]]}
        if "fault" in rec:
            return out | {"fault": True}
        kind = KIND_TEXT[rec["kind"]]
        return out | {
            "winner_team": rec["winner_team"],
            "points": rec["points"],
            "kind": rec["kind"],
            "announce": kind,
        }

    def _hand_summary(self, rec: dict) -> dict:
        """A finished hand in the list of hands: no cards (the next hand is live)."""
        h = rec["hand"]
        out = {"hand": h, "hakem": rec["hakem"], "trump": rec["trump"],
               "analysed": h in self.analyses}  # fmt: skip
        if "fault" in rec:
            return out | {"fault": True}
        return out | {
            "tricks": rec["tricks_won"],
            "winner_team": rec["winner_team"],
            "points": rec["points"],
            "kind": rec["kind"],
            "scores": rec["scores"],
        }

    def result(self) -> str:
        """``won``, ``lost``, ``fault`` or ``playing`` (for seat 0's team)."""
        if self.fault is not None:
            return "fault"
        if self.table.waiting is not None:
            return "playing"
        s0, s1 = self.records[-1]["scores"]
        return "won" if s0 > s1 else "lost"

    def final_scores(self) -> list[int]:
        """The match score now (after the last finished hand)."""
        for rec in reversed(self.records):
            if "scores" in rec and "fault" not in rec:
                return list(rec["scores"])
        return [0, 0]


_ORDER = "SHCD"


def _sorted(cards) -> list[str]:
    """Cards grouped by suit (spades, hearts, clubs, diamonds: colours alternate),
    high to low: how a hand is held."""
    return sorted(cards, key=lambda c: (_ORDER.index(c[1]), -"23456789TJQKA".index(c[0])))
