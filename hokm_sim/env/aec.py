"""Hokm as a PettingZoo AEC environment: four agents, one decision at a time.

Agents ``player_0`` .. ``player_3`` sit at seats 0..3; teams are seats 0, 2
and 1, 3. Actions are ``Discrete(56)``: 0..51 play that card (``suit * 13 +
rank``, suits C D H S), 52..55 call trump C, D, H, S. Each observation is a
dict: ``observation`` (``float32`` features relative to the seat, see
:func:`hokm_sim.bots.observation.features`), ``view`` (the engine's raw
``int64`` view of that seat) and ``action_mask`` (``int8[56]``: the legal
cards, or the four trump calls for the Hakem at the start of a hand).

When a hand ends every agent is rewarded with its team's points: +1 for a
win, +2 for a Kot, +3 for a Hakem Kot, and the same negative for the
losers. With ``target`` the hands go on to a match of that many points
(the reward comes after each hand) and the episode ends with the match.

``reset(seed=S)`` deals the first hand (or match) of seed ``S`` exactly as
``hokm-sim trace --seed S`` plays it; later resets without a seed take the
next deal (or match) of the same seed. ``options={"deal": d}`` picks deal
(or match) ``d``.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from hokm_sim.bots.observation import FEATURES, features
from hokm_sim.cards import SUITS, card_str
from hokm_sim.engine import kernels as k
from hokm_sim.engine.view import VIEW_SIZE
from hokm_sim.env.table import TRUMP, Table
from hokm_sim.errors import InputError

N_ACTIONS = 56
"""0..51: play that card; 52..55: call trump C, D, H, S."""
TRUMP_ACTION = 52
_CARDS = np.arange(52, dtype=np.int64)


def action_mask(table: Table, seat: int) -> np.ndarray:
    """``int8[56]``: the actions ``seat`` may take now (all zero when it is not its turn)."""
    mask = np.zeros(N_ACTIONS, np.int8)
    if table.waiting is None or table.seat != seat:
        return mask
    if table.waiting == TRUMP:
        mask[TRUMP_ACTION:] = 1
    else:
        mask[:52] = (table.legal >> _CARDS) & 1
    return mask


def observation_space() -> spaces.Dict:
    """The observation space of one agent."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (FEATURES,), np.float32),
            "view": spaces.Box(-1, 2**52, (VIEW_SIZE,), np.int64),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
        }
    )


def observe_seat(table: Table, seat: int) -> dict:
    """One agent's observation dict."""
    view = table.view_for(seat)
    return {
        "observation": features(view)[0],
        "view": view,
        "action_mask": action_mask(table, seat),
    }


def as_action(action: object) -> int:
    """``action`` as an ``int`` of the action space, or :class:`InputError`: an integer
    (a Python or numpy integer, or a 0-d integer array as ``argmax`` gives) in 0..55.
    ``3.0``, ``"52"``, ``True`` or ``None`` are not actions."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action.item()
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        kind = type(action).__name__
        raise InputError(f"bad action {action!r} ({kind}): expected an integer 0..{N_ACTIONS - 1}")
    if not 0 <= action < N_ACTIONS:
        raise InputError(
            f"action {action} out of range: expected 0..51 (a card) or 52..55 (a trump call)"
        )
    return int(action)


def answer_of(action: int, table: Table) -> int:
    """The engine's answer (a suit or a card) for an action of the space, checked against
    the mask."""
    if table.waiting == TRUMP:
        ok = TRUMP_ACTION <= action < N_ACTIONS
    else:
        ok = 0 <= action < 52 and (table.legal >> action) & 1
    if not ok:
        what = "call trump" if table.waiting == TRUMP else "play a legal card"
        raise InputError(f"illegal action {action} for seat {table.seat}: it must {what}")
    return action - TRUMP_ACTION if table.waiting == TRUMP else action


class HokmEnv(AECEnv):
    """Four-player partnership Hokm (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "hokm_v0", "is_parallelizable": False}

    def __init__(self, target: int | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise InputError(f"bad render_mode {render_mode!r}: expected ansi, human or None")
        self.render_mode = render_mode
        self.table = Table(target)
        self.possible_agents = [f"player_{i}" for i in range(4)]
        self.agents = self.possible_agents[:]
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self.observation_spaces = {a: observation_space() for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.table.start(seed, deal_option(options))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.seat]

    def observe(self, agent: str) -> dict:
        return observe_seat(self.table, self.possible_agents.index(agent))

    def step(self, action: int | None) -> None:
        agent = self._live_selection()
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise InputError(
                f"action None for {agent}, whose turn it is: None is the action of an agent "
                "whose episode is over"
            )
        table = self.table
        done_before = table.hands_done
        table.act(answer_of(as_action(action), table))
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        self.infos = {a: {} for a in self.agents}  # a hand's result on its last step only
        if table.hands_done > done_before:
            row = table.rows[table.hands_done - 1]
            for i, a in enumerate(self.agents):
                team = i & 1
                points = int(row[k.T_POINTS])
                self.rewards[a] = points if row[k.T_WINNER] == team else -points
                self.infos[a] = {"hand": _hand_info(row)}
        if table.waiting is None:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[table.seat]
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def last(self, observe: bool = True):
        """The selected agent's observation, reward, termination, truncation and info."""
        self._live_selection()
        return super().last(observe)

    def _live_selection(self) -> str:
        """The selected agent, or :class:`InputError` when there is no episode to act in."""
        if not hasattr(self, "terminations"):
            raise InputError("no episode yet: call reset() first")
        if self.agent_selection not in self.terminations:
            raise InputError("the episode is over (every agent is done): call reset()")
        return self.agent_selection

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        t = self.table
        if t.waiting is None:
            row = t.rows[t.hands_done - 1]
            return f"hand over: team {int(row[k.T_WINNER])} wins {int(row[k.T_POINTS])} point(s)"
        view = t.view_for(t.seat)
        what = "calls trump" if t.waiting == TRUMP else f"plays (trump {SUITS[int(view[3])]})"
        trick = [card_str(int(c)) for c in view[6:10] if c >= 0]
        return f"seat {t.seat} {what}; trick so far: {' '.join(trick) or '-'}"

    def close(self) -> None:
        pass


def deal_option(options: dict | None) -> int | None:
    """``options["deal"]`` of ``reset``: a deal (or match) index, checked by the table."""
    if options is not None and not isinstance(options, dict):
        raise InputError(f"bad options {options!r}: expected a dict such as {{'deal': 3}}")
    return (options or {}).get("deal")


def _hand_info(row: np.ndarray) -> dict:
    return {
        "hakem": int(row[k.T_HAKEM]),
        "trump": int(row[k.T_TRUMP]),
        "tricks": [int(row[k.T_TRICKS]), int(row[k.T_TRICKS + 1])],
        "winner": int(row[k.T_WINNER]),
        "points": int(row[k.T_POINTS]),
        "scores": [int(row[k.T_SCORES]), int(row[k.T_SCORES + 1])],
    }
