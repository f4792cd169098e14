"""One table of Hokm played one decision at a time: what the environments are built on.

:class:`Table` keeps one hand (or one match) in flight in the engine's
stepper (:mod:`hokm_sim.engine.stepper`) with every seat's decisions made
outside numba: by an agent, or by a hokm-sim strategy through
:class:`SeatBot` (:mod:`hokm_sim.bots.seat`, shared with ``hokm-sim serve``).
The cards, Hakem and streams are the engine's, so deal ``d`` under seed
``S`` is the hand ``hokm-sim trace --seed S`` writes as its deal ``d`` (and
match ``m`` the one ``hokm-sim trace --seed S --match m`` plays).
"""

from __future__ import annotations

import numpy as np

from hokm_sim.bots import compiled
from hokm_sim.bots.observation import Observation
from hokm_sim.bots.seat import SeatBot
from hokm_sim.engine import kernels as k
from hokm_sim.engine import stepper as st
from hokm_sim.engine.boundary import ERR_SIZE, Params, exact, fault_in
from hokm_sim.engine.view import PARAM_SIZE, V_HAND, V_LEGAL, V_SEAT
from hokm_sim.errors import InputError
from hokm_sim.house import MAX_TARGET
from hokm_sim.sim.tracecheck import MAX_INDEX

__all__ = ["CARD", "TRUMP", "SeatBot", "Table"]

TRUMP, CARD = "trump", "card"
_NO_PARAMS = Params(*np.zeros((2, 2, PARAM_SIZE), np.float64))  # no strategy's: none used
_NO_COUNTS = np.zeros(1, np.int64)  # hands are traced into ``rows``, never counted
_NO_CODES = np.zeros(0, np.int8)
_WAITING = {st.W_NONE: None, st.W_TRUMP_A: TRUMP, st.W_TRUMP_B: TRUMP, st.W_CARD_A: CARD,
            st.W_CARD_B: CARD}  # fmt: skip


def whole(value: object, what: str, top: int, low: int = 0) -> int:
    """``value`` if it is a whole number in ``low .. top`` (a numpy integer too), else
    :class:`InputError`: ``-1``, ``2**64`` or ``1.5`` would be taken as another seed."""
    whole_number = isinstance(value, int | np.integer) and not isinstance(value, bool)
    if not whole_number or not low <= value <= top:
        raise InputError(f"bad {what} {value!r}: expected a whole number in {low} .. {top}")
    return int(value)


class Table:
    """A hand (``target`` None) or a match to ``target`` points, decided from outside; a
    match's first Hakem by house rule ``first_hakem`` (``hokm_sim.house.FIRST_HAKEM_METHODS``)."""

    def __init__(self, target: int | None = None, first_hakem: int = 0) -> None:
        if target is not None and (
            isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= MAX_TARGET
        ):
            raise InputError(
                f"bad match target {target}: expected 1..{MAX_TARGET} (or None for hands)"
            )
        self.target = target
        self.first_hakem = first_hakem
        self._step = compiled.stepper_module([None] * 4, (True,) * 4).step
        self.slots = st.new_slots(1)
        self.seed = 0
        self.index = 0
        self._next = 0
        self.rows = np.zeros((0, k.TRACE_SIZE), np.int64)
        self._jobs = st.new_jobs(0, 0, first_hakem)
        self._err = np.zeros(ERR_SIZE, np.int64)
        self._job = self._state = None  # the kernel's call and arrays, from each reset
        self.waiting: str | None = None
        self.seat = self.legal = self.hands_done = 0

    def start(self, seed: int | None = None, deal: int | None = None) -> None:
        """Play the next deal (or match) to its first decision: deal 0 of ``seed`` when a
        seed is given, deal ``deal`` when given, else the one after the last."""
        if seed is not None:
            self.seed, self._next = whole(seed, "seed", 2**64 - 1), 0
        if deal is not None:
            self._next = whole(deal, "deal", MAX_INDEX - 1)
        self.reset(self.seed, self._next)
        self._next += 1

    def reset(self, seed: int, index: int) -> None:
        """Deal ``index`` (or match ``index``) of ``seed``; play to the first decision."""
        self.seed, self.index = seed, index
        self.rows = np.full((2 * (self.target or 1), k.TRACE_SIZE), -1, np.int64)
        self._jobs = st.new_jobs(index, 1, self.first_hakem)
        self._err[:] = 0
        self.slots.ctl[0, :] = 0
        mode = st.M_TRACE_MATCH if self.target else st.M_TRACE_HANDS
        self._job = exact(st.Step(mode, seed, False, 0, self.target if self.target else -1))
        self._state = st.StepState(
            self.slots, self._jobs, _NO_COUNTS, self._err, _NO_CODES, self.rows
        )
        self._advance()

    def _advance(self) -> None:
        self._step(_NO_PARAMS, self._job, self._state)
        fault = fault_in(self._err)
        if fault is not None:
            raise InputError(f"illegal move: engine error code {fault.code}")
        self.waiting = _WAITING[int(self.slots.wait[0])]
        """``"trump"`` or ``"card"``: the decision due now; None when the game is over."""
        self.seat = int(self.slots.bot_view[0, V_SEAT])
        """The seat whose decision is due."""
        self.legal = int(self.slots.bot_view[0, V_LEGAL])
        """The mask of the legal cards for the decision due (0 for a trump call)."""
        self.hands_done = int((self.rows[:, k.T_HAND] >= 0).sum())
        """Hands finished so far (their trace rows are in :attr:`rows`)."""

    def view_for(self, seat: int) -> np.ndarray:
        """The ``int64`` view of ``seat`` now: its own cards, no legal cards unless it is
        its turn (during the trump call a seat holds its first five cards)."""
        view = self.slots.bot_view[0].copy()
        if self.waiting is not None and seat == self.seat:
            return view
        view[V_SEAT] = seat
        view[V_LEGAL] = 0
        if self.waiting == TRUMP:
            deck = self.slots.deck[0]
            hakem = int(self.slots.ctl[0, st.K_HAKEM])
            k5 = 5 * ((seat - hakem) & 3)
            view[V_HAND] = sum(1 << int(c) for c in deck[k5 : k5 + 5])
        else:
            view[V_HAND] = self.slots.held[0, seat]
        return view

    def act(self, answer: int) -> None:
        """Make the decision due (a suit 0..3 or a legal card) and play on to the next one."""
        ctl = self.slots.ctl
        ctl[0, st.K_ANSWER] = answer
        ctl[0, st.K_HAVE] = 1
        self._advance()

    def observation(self, params: dict[str, float] | None = None) -> Observation:
        """The decision due, as a plain-Python bot sees it."""
        return Observation(self.slots.bot_view[0].tolist(), self.slots, 0, params or {})
