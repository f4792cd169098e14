"""What a plain-Python bot sees: one decision (:class:`Observation`) or a batch of them.

Both read the engine's ``view`` (:mod:`hokm_sim.engine.view`): the same
fields a compiled bot reads, as named attributes (card masks as ``int``,
cards as indices 0..51 in the encoding of :mod:`hokm_sim.cards`) and as the
raw ``int64`` array. Nothing in them reveals another seat's cards.

A decision also gets the seat's per-hand memory (``mem``, ``int64[16]``
zeroed every hand, shared with nothing) and its own random stream (``rng``),
the same counter-based stream a compiled bot draws from; a bot that draws
only from it gives the same results whatever the thread count or batch size.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from hokm_sim.cards import cards_of
from hokm_sim.engine import view as v
from hokm_sim.engine.features import FEATURES, encode

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
_INV53 = 1.0 / 9007199254740992.0


def _mix64(z: int) -> int:
    z = (z ^ (z >> 30)) * _M1 & _MASK64
    z = (z ^ (z >> 27)) * _M2 & _MASK64
    return z ^ (z >> 31)


class Stream:
    """A seat's random stream for one hand (``engine.rng``'s counter stream).

    Draws advance the stream in the engine's arrays, so the seat's next
    decision goes on where this one stopped, and a port of a compiled bot
    that draws the same way draws the same numbers.
    """

    __slots__ = ("_state",)

    def __init__(self, state: np.ndarray) -> None:
        self._state = state

    def next64(self) -> int:
        """The next 64-bit output."""
        count = (int(self._state[1]) + 1) & _MASK64
        self._state[1] = count
        return _mix64((int(self._state[0]) + count * _GOLDEN) & _MASK64)

    def random(self) -> float:
        """A uniform float in ``[0, 1)`` with 53 random bits (``rand_float``)."""
        return (self.next64() >> 11) * _INV53

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, ``1 <= n < 2**32`` (``rand_below``, no bias)."""
        m = (self.next64() >> 32) * n
        low = m & 0xFFFFFFFF
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = (self.next64() >> 32) * n
                low = m & 0xFFFFFFFF
        return m >> 32

    def choice(self, mask: int) -> int:
        """A uniformly drawn card of a card mask (as the ``random`` bot draws)."""
        cards = cards_of(mask)
        return cards[self.below(len(cards))]


class Observation:
    """One decision: what the deciding seat may see, by name.

    For a trump call ``trump`` is -1, ``hand`` holds the Hakem's first five
    cards only and ``legal`` is 0; the answer is a suit 0..3 (C D H S). For a
    card, the answer is one of ``legal_cards``.
    """

    __slots__ = ("_v", "_slots", "_slot", "params", "__dict__")

    def __init__(self, view: list[int], slots: tuple, slot: int, params: dict[str, float]):
        self._v = view
        self._slots = slots
        self._slot = slot
        self.params = params
        """The strategy's parameters by name (``PARAMS`` with the spec's values)."""

    @property
    def view(self) -> np.ndarray:
        """The raw ``int64[VIEW_SIZE]`` view, as a compiled bot gets it."""
        return self._slots.bot_view[self._slot]

    @cached_property
    def mem(self) -> np.ndarray:
        """The seat's ``int64[16]`` memory for this hand (zeroed when a hand starts)."""
        return self._slots.mem[self._slot, self.seat]

    @cached_property
    def rng(self) -> Stream:
        """The seat's random stream for this hand."""
        return Stream(self._slots.srng[self._slot, self.seat])

    hand = property(lambda self: self._v[v.V_HAND], doc="Own cards (mask).")
    seat = property(lambda self: self._v[v.V_SEAT], doc="The deciding seat, 0..3.")
    hakem = property(lambda self: self._v[v.V_HAKEM], doc="The Hakem's seat.")
    trump = property(lambda self: self._v[v.V_TRUMP], doc="Trump suit 0..3; -1 while choosing.")
    leader = property(lambda self: self._v[v.V_LEADER], doc="Seat that led this trick.")
    led = property(lambda self: self._v[v.V_LED], doc="Suit led to this trick; -1 when leading.")
    legal = property(lambda self: self._v[v.V_LEGAL], doc="Cards that may be played now (mask).")
    played = property(lambda self: self._v[v.V_PLAYED], doc="Every card played so far (mask).")
    voids = property(lambda self: self._v[v.V_VOIDS], doc="Bit ``seat * 4 + suit``: shown voids.")
    trick_no = property(lambda self: self._v[v.V_TRICK_NO], doc="This trick's index, 0..12.")
    target = property(lambda self: self._v[v.V_TARGET], doc="Match target; 0 for single hands.")
    winning_card = property(
        lambda self: self._v[v.V_WIN_CARD], doc="Card winning this trick so far; -1 when leading."
    )
    winning_seat = property(
        lambda self: self._v[v.V_WIN_SEAT], doc="Seat winning this trick so far; -1 when leading."
    )

    @property
    def trick(self) -> list[int]:
        """This trick's cards so far, in play order."""
        return self._v[v.V_TRICK : v.V_TRICK + self._v[v.V_NTRICK]]

    @property
    def played_by(self) -> list[int]:
        """Masks of the cards each seat 0..3 has played."""
        return self._v[v.V_PLAYED_BY : v.V_PLAYED_BY + 4]

    @property
    def tricks(self) -> tuple[int, int]:
        """Tricks won so far by team 0 (seats 0, 2) and team 1 (seats 1, 3)."""
        return self._v[v.V_TRICKS], self._v[v.V_TRICKS + 1]

    @property
    def scores(self) -> tuple[int, int]:
        """Match scores of team 0 and team 1 before this hand (0 for single hands)."""
        return self._v[v.V_SCORES], self._v[v.V_SCORES + 1]

    @property
    def hand_cards(self) -> list[int]:
        """Own cards as indices, lowest first."""
        return cards_of(self.hand)

    @property
    def legal_cards(self) -> list[int]:
        """The cards that may be played now, lowest index first."""
        return cards_of(self.legal)

    def __repr__(self) -> str:
        what = "trump call" if self.trump < 0 else f"trick {self.trick_no + 1}"
        return f"<Observation seat {self.seat}, {what}, legal {self.legal_cards}>"


class Observations:
    """Many decisions at once, as numpy arrays: row ``i`` is one hand in flight.

    Every attribute of :class:`Observation` is here as an array with one
    entry (or row) per decision. ``features()`` is a ready-made ``float32``
    encoding for neural networks; ``legal_mask`` the legal cards as
    ``bool[n, 52]``.
    """

    def __init__(
        self,
        view: np.ndarray,
        mem: np.ndarray,
        rng: np.ndarray,
        params: dict[str, float],
    ) -> None:
        self.view = view
        """``int64[n, VIEW_SIZE]``: the raw views."""
        self.mem = mem
        """``int64[n, 16]``: each seat's memory for its hand; writes are kept."""
        self.rng = BatchStream(rng)
        """Each decision's own random stream."""
        self.params = params
        """The strategy's parameters by name."""

    def __len__(self) -> int:
        return self.view.shape[0]

    def _col(self, k: int) -> np.ndarray:
        return self.view[:, k]

    hand = property(lambda self: self._col(v.V_HAND))
    seat = property(lambda self: self._col(v.V_SEAT))
    hakem = property(lambda self: self._col(v.V_HAKEM))
    trump = property(lambda self: self._col(v.V_TRUMP))
    leader = property(lambda self: self._col(v.V_LEADER))
    led = property(lambda self: self._col(v.V_LED))
    legal = property(lambda self: self._col(v.V_LEGAL))
    played = property(lambda self: self._col(v.V_PLAYED))
    voids = property(lambda self: self._col(v.V_VOIDS))
    trick_no = property(lambda self: self._col(v.V_TRICK_NO))
    target = property(lambda self: self._col(v.V_TARGET))
    winning_card = property(lambda self: self._col(v.V_WIN_CARD))
    winning_seat = property(lambda self: self._col(v.V_WIN_SEAT))
    trick = property(lambda self: self.view[:, v.V_TRICK : v.V_TRICK + 4])
    n_trick = property(lambda self: self._col(v.V_NTRICK))
    played_by = property(lambda self: self.view[:, v.V_PLAYED_BY : v.V_PLAYED_BY + 4])
    tricks = property(lambda self: self.view[:, v.V_TRICKS : v.V_TRICKS + 2])
    scores = property(lambda self: self.view[:, v.V_SCORES : v.V_SCORES + 2])

    @property
    def legal_mask(self) -> np.ndarray:
        """``bool[n, 52]``: the legal cards of each decision."""
        return bits_of(self.legal)

    def features(self) -> np.ndarray:
        """``float32[n, FEATURES]``: see :func:`features`."""
        return features(self.view)


class BatchStream:
    """Each decision's random stream in a batch, drawn all at once."""

    def __init__(self, state: np.ndarray) -> None:
        self.state = state
        """``uint64[n, 4]``: the streams (key, counter); draws advance the counters."""

    def next64(self, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        """The next 64-bit output of every stream (or of streams ``rows``)."""
        st = self.state
        st[rows, 1] += np.uint64(1)
        z = st[rows, 0] + st[rows, 1] * np.uint64(_GOLDEN)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(_M1)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(_M2)
        return z ^ (z >> np.uint64(31))

    def random(self) -> np.ndarray:
        """A uniform float in ``[0, 1)`` for every stream (53 bits each)."""
        return (self.next64() >> np.uint64(11)).astype(np.float64) * _INV53

    def below(self, n: np.ndarray | int) -> np.ndarray:
        """A uniform integer in ``[0, n)`` for every stream (``1 <= n < 2**32``, one ``n``
        per row or one for all): the draws of :meth:`Stream.below`, row by row."""
        n = np.broadcast_to(np.asarray(n, np.uint64), (self.state.shape[0],))
        low32 = np.uint64(0xFFFFFFFF)
        m = (self.next64() >> np.uint64(32)) * n
        threshold = (np.uint64(1 << 32) - n) % n
        redo = np.flatnonzero((m & low32) < threshold)
        while redo.size:  # Lemire's rejection: rare, so row by row is cheap
            m[redo] = (self.next64(redo) >> np.uint64(32)) * n[redo]
            redo = redo[(m[redo] & low32) < threshold[redo]]
        return (m >> np.uint64(32)).astype(np.int64)


def bits_of(masks: np.ndarray) -> np.ndarray:
    """``bool[n, 52]`` from card masks ``int64[n]``."""
    return ((masks[:, None] >> np.arange(52)) & 1).astype(bool)


def features(view: np.ndarray) -> np.ndarray:
    """``float32[n, FEATURES]``: views ``int64[n, VIEW_SIZE]`` (or one view) encoded for
    learning agents, relative to the deciding seat (layout in
    :mod:`hokm_sim.engine.features`)."""
    view = np.atleast_2d(np.asarray(view, np.int64))
    out = np.empty((view.shape[0], FEATURES), np.float32)
    encode(view, out)
    return out
