"""Who sits at a table: a person deciding through a page, or a hokm-sim strategy.

A :class:`~hokm_sim.play.game.Game` asks nothing of its seats itself: the
server looks at the seat whose decision is due and either waits for that
seat's person (:class:`HumanSeat`: the decision comes in as a message from a
page connected for that seat) or asks its bot (:class:`BotSeat`, run off the
event loop). Another kind of automated seat (a protocol bot in another
process) is one more class with ``decide``; a second person at the table is
one more :class:`HumanSeat` whose pages connect for its seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hokm_sim.bots.registry import Strategy
from hokm_sim.env.table import SeatBot, Table


@dataclass
class HumanSeat:
    """A person: decisions come from the pages connected for this seat. At a shared
    table (:mod:`.hosted`) ``stand_in`` decides when the person's time runs out or the
    person has left."""

    name: str
    stand_in: BotSeat | None = None
    kind: str = field(default="human", init=False)

    @property
    def label(self) -> str:
        """How the table names the seat's player."""
        return self.name


@dataclass
class BotSeat:
    """A hokm-sim strategy (built-in, bot file, plain Python, composition, ``pimc``)."""

    name: str
    strategy: Strategy
    kind: str = field(default="bot", init=False)

    def __post_init__(self) -> None:
        self._bot = SeatBot(self.strategy)

    @property
    def label(self) -> str:
        """How the table names the seat's player."""
        return f"{self.name} ({self.strategy.name})"

    def decide(self, table: Table) -> int:
        """The strategy's answer to the decision due at ``table`` (blocking: run it in a
        worker thread). Exceptions raised by the bot propagate: they are its faults."""
        return self._bot.decide(table)

    def advise(self, table: Table) -> int:
        """What the strategy would answer in the due seat's place, leaving that seat's
        memory and random stream as they were (a hint for a person, not a move)."""
        seat = table.seat
        mem = table.slots.mem[0, seat].copy()
        rng = table.slots.srng[0, seat].copy()
        try:
            return self._bot.decide(table)
        finally:
            table.slots.mem[0, seat] = mem
            table.slots.srng[0, seat] = rng


Seat = HumanSeat | BotSeat
"""Any seat of a table."""


def warm(seats: list[Seat], hint: BotSeat | None = None) -> None:
    """Play one hand on a scratch table with these bots, so that every compiled bot
    function is built before a game needs it (``pimc``'s first call compiles for a
    minute). Seats of people are played by ``hint`` (or the first bot). A bot's fault
    here is left for the game to meet and report where it happens."""
    bots = [s for s in seats if isinstance(s, BotSeat)]
    stand_in = hint or (bots[0] if bots else None)
    if stand_in is None:
        return
    table = Table(target=1)
    table.start(seed=0)
    players = [s if isinstance(s, BotSeat) else stand_in for s in seats]
    try:
        while table.waiting is not None and table.hands_done == 0:
            if hint is not None and isinstance(seats[table.seat], HumanSeat):
                hint.advise(table)
            table.act(players[table.seat].decide(table))
    except (Exception, SystemExit):  # noqa: S110 - a faulty bot faults again in the game
        return
