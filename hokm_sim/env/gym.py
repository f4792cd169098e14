"""Hokm as a Gymnasium environment: one seat learns, hokm-sim strategies play the others.

The learner sits at ``seat``; its partner plays ``partner`` and the two
opponents play ``opponents`` (any strategy spec or bot object hokm-sim
takes: ``"expert"``, ``"longest"``, ``"path/to/bot.py"``). Observations
and actions are those of :mod:`hokm_sim.env.aec` (``Discrete(56)``, a dict
with ``observation``, ``view`` and ``action_mask``; the mask is also in
``info["action_mask"]`` and from :meth:`HokmGymEnv.action_masks`). The
reward is the learner's team's points when the hand ends (+1, +2 Kot, +3
Hakem Kot, negative when lost), 0 before; with ``target`` each hand's points
come when it ends and the episode is the match.

``reset(seed=S)`` starts deal 0 (or match 0) of seed ``S``; later resets
take the next ones, so a run of episodes from one seed is the engine's
sequence of deals.

An action the mask does not allow ends the episode with a reward of -3 (the
worst a hand can give) and ``info["illegal_action"]`` set, so an agent that
ignores the mask learns to follow it; ``illegal="raise"`` raises instead.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np

from hokm_sim.bots.registry import Strategy, from_object, resolve
from hokm_sim.engine import kernels as k
from hokm_sim.env.aec import (
    N_ACTIONS,
    action_mask,
    answer_of,
    as_action,
    deal_option,
    observation_space,
    observe_seat,
)
from hokm_sim.env.table import SeatBot, Table
from hokm_sim.errors import InputError


def as_strategy(spec: str | Strategy | object, role: str) -> Strategy:
    """A seat's strategy from a spec, a :class:`Strategy` or a bot object; a bad one is
    one line naming its ``role`` (``partner``, ``opponents``)."""
    if isinstance(spec, Strategy):
        return spec
    try:
        return resolve(spec) if isinstance(spec, str) else from_object(spec)
    except InputError as exc:
        raise InputError(f"{role}: {exc}") from None


class HokmGymEnv(gym.Env):
    """One learning seat against hokm-sim strategies (see the module docstring)."""

    metadata = {"render_modes": []}

    def __init__(
        self,
        partner: str | Strategy | object = "expert",
        opponents: str | Strategy | object = "expert",
        seat: int = 0,
        target: int | None = None,
        illegal: str = "end",
    ) -> None:
        if illegal not in ("end", "raise"):
            raise InputError(f"bad illegal={illegal!r}: expected 'end' or 'raise'")
        self.illegal = illegal
        self._over = False
        if seat not in range(4):
            raise InputError(f"bad seat {seat}: expected 0, 1, 2 or 3")
        self.seat = seat
        self.table = Table(target)
        partner_bot = SeatBot(as_strategy(partner, "partner"))
        opponent_bot = SeatBot(as_strategy(opponents, "opponents"))
        self._bots = {(seat + 2) % 4: partner_bot, (seat + 1) % 4: opponent_bot,
                      (seat + 3) % 4: opponent_bot}  # fmt: skip
        self.action_space = gym.spaces.Discrete(N_ACTIONS)
        self.observation_space = observation_space()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as booleans (the MaskablePPO convention)."""
        return action_mask(self.table, self.seat).astype(bool)

    def _play_others(self) -> float:
        """Let the other seats play until the learner must decide or the game ends;
        the learner's team's points of the hands that ended meanwhile."""
        table = self.table
        reward = 0.0
        done = table.hands_done
        while table.waiting is not None and table.seat != self.seat:
            table.act(self._bots[table.seat].decide(table))
        for row in table.rows[done : table.hands_done]:
            points = int(row[k.T_POINTS])
            reward += points if row[k.T_WINNER] == (self.seat & 1) else -points
        return reward

    def _obs(self) -> tuple[dict, dict]:
        obs = observe_seat(self.table, self.seat)
        return obs, {"action_mask": obs["action_mask"]}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self.table.start(seed, deal_option(options))  # checks seed and deal first
        super().reset(seed=seed)
        self._over = False
        self._play_others()
        return self._obs()

    def step(self, action: int):
        table = self.table
        if table.waiting is None or self._over:
            raise InputError("the episode is over: call reset()")
        done = table.hands_done
        action = as_action(action)  # not an action of the space at all: always an error
        try:
            answer = answer_of(action, table)
        except InputError:
            if self.illegal == "raise":
                raise
            self._over = True
            obs, info = self._obs()
            return obs, -3.0, True, False, info | {"illegal_action": True}
        table.act(answer)
        reward = 0.0
        for row in table.rows[done : table.hands_done]:
            points = int(row[k.T_POINTS])
            reward += points if row[k.T_WINNER] == (self.seat & 1) else -points
        reward += self._play_others()
        obs, info = self._obs()
        return obs, reward, table.waiting is None, False, info
