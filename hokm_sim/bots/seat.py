"""One decision of any strategy, asked from Python: a seat of a table played one card at a time.

The environments (:mod:`hokm_sim.env`) and ``hokm-sim serve`` keep a hand in
the stepper's slot arrays (:mod:`hokm_sim.engine.stepper`) and need the
decision a strategy makes there, whatever its kind: a compiled bot (its two
functions compiled on their own and cached on disk,
:func:`hokm_sim.bots.compiled.seat_module`), a plain-Python bot (one
observation, or a batch of one), or a protocol bot (one request to its
process, :mod:`hokm_sim.bots.host`). Memory and random stream are the
slot's, so the seat decides exactly as it does inside a run.
"""

from __future__ import annotations

import weakref

import numpy as np

from hokm_sim.bots import compiled
from hokm_sim.bots.faults import PythonBotError
from hokm_sim.bots.host import ExecHost, Lease
from hokm_sim.bots.observation import Observation, Observations
from hokm_sim.bots.pyrules import is_batched
from hokm_sim.bots.registry import Strategy
from hokm_sim.engine import stepper as st
from hokm_sim.engine.view import V_SEAT

_FNAMES = ("choose_trump", "play_card")
_CODES = (st.W_TRUMP_A, st.W_CARD_A)


class SeatBot:
    """A hokm-sim strategy deciding for one seat, one decision at a time."""

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy
        self._params = strategy.params_array()
        self._parts = []
        execs = {}
        for row, bot in enumerate((strategy.trump, strategy.play)):
            names = dict(zip(bot.params, self._params[row], strict=False))
            if bot.kind == "exec":
                execs[_CODES[row]] = bot
                self._parts.append(("exec", None, names))
                continue
            mod = compiled.seat_module(bot) if bot.kind == "numba" else bot.module()
            self._parts.append((bot.kind, getattr(mod, _FNAMES[row]), names))
        self._lease: Lease | None = None
        if execs:  # one process for the seat's life, sent bye when the seat goes
            host = ExecHost(execs)
            self._lease = Lease(host)
            weakref.finalize(self, host.close)

    def decide(self, table) -> int:
        """The strategy's answer to the decision due at a :class:`~hokm_sim.env.table.Table`."""
        where = f" at seed {table.seed}, {'match' if table.target else 'deal'} {table.index}"
        return self.decide_slot(table.slots, 0, table.waiting == "trump", where)

    def decide_slot(self, slots: tuple, i: int, trump: bool, where: str = "") -> int:
        """The answer for slot ``i`` of stepper arrays ``slots``, whose view is that of
        the deciding seat: a suit for a trump call, else a card. A protocol bot's fault
        raises :class:`~hokm_sim.bots.faults.PythonBotError` (``where`` ends its line)."""
        row = 0 if trump else 1
        kind, fn, names = self._parts[row]
        seat = int(slots.bot_view[i, V_SEAT])
        if kind == "numba":
            return int(
                fn(slots.bot_view[i], self._params[row], slots.mem[i, seat], slots.srng[i, seat])
            )
        if kind == "exec":
            return self._ask(slots, i, _CODES[row], where)
        if is_batched(fn):
            obs = Observations(
                slots.bot_view[i : i + 1],
                slots.mem[i : i + 1, seat],
                slots.srng[i : i + 1, seat],
                names,
            )
            answer = np.asarray(fn(obs)).reshape(-1)[0]
            slots.mem[i, seat] = obs.mem[0]
            slots.srng[i, seat] = obs.rng.state[0]
            return int(answer)
        return int(fn(Observation(slots.bot_view[i].tolist(), slots, i, names)))

    def _ask(self, slots: tuple, i: int, code: int, where: str) -> int:
        ctl = slots.ctl
        wait = np.full(ctl.shape[0], st.W_NONE, np.int64)
        wait[i] = code
        failures = self._lease.decide(slots, wait)
        if failures:
            seat = int(slots.bot_view[i, V_SEAT])
            what = failures[0][2]
            raise PythonBotError(f"strategy {self.strategy.name!r} {what} (seat {seat}){where}")
        ctl[i, st.K_HAVE] = 0  # the answer is handed back, not left in the slot
        return int(ctl[i, st.K_ANSWER])
