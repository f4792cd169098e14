"""Hokm as a Gymnasium vector environment: many tables stepped together in numba.

``HokmVectorEnv(num_envs=4096, partner=..., opponents=..., seat=0)`` keeps
``num_envs`` tables in flight. The agent sits at ``seat``: one seat (a
``partner`` strategy at the seat opposite, ``opponents`` at the other two),
a team (``(0, 2)`` or ``(1, 3)``: the agent plays both hands of its side
against ``opponents``) or all four seats (self-play). One :meth:`step`
takes an action per table, plays every table on to the agent's next
decision in one numba call (compiled strategies decide inside it; plain-Python
ones, batched, between calls, and protocol bots, ``exec:``, one message a call
to a process kept for the environment's life) and returns every observation
as arrays.

Spaces, observations, actions and rewards are those of
:class:`~hokm_sim.env.gym.HokmGymEnv`, one row per table: the observation is
a dict of ``observation`` (``float32[n, 432]`` features), ``view``
(``int64[n, 32]``) and ``action_mask`` (``int8[n, 56]``); actions are
``int[n]`` in 0..55 (a card, or 52 + a trump suit). The reward of a step is
the points of the hand that ended on it, for the team of the seat that took
the step's action (+1, +2 Kot, +3 Hakem Kot, negative when lost; 0 when no
hand ended); ``info["team_reward"]`` has both teams'. With ``target`` an
episode is a match and each hand's points come when it ends.

``reset(seed=S)`` deals table ``i`` the deal ``i`` of seed ``S``, the hand
``hokm-sim trace --seed S`` writes as its line ``i``; every episode started
afterwards takes the next deal of the seed (``info["deal"]`` says which),
so the tables together play the seed's deals 0, 1, 2, ... in order.

Autoreset follows Gymnasium's modes (``metadata["autoreset_mode"]``):
``NEXT_STEP`` (the default: the step after an episode's last one starts the
next and ignores that table's action), ``SAME_STEP`` (the last step returns
the next episode's first observation, the last one in ``info["final_obs"]``)
or ``DISABLED`` (``reset(options={"reset_mask": done})``). See docs/env.md.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from hokm_sim.bots import compiled
from hokm_sim.bots.host import ExecHost, Lease
from hokm_sim.bots.registry import Strategy
from hokm_sim.bots.stepped import (
    PythonBotError,
    decide,
    exec_parts,
    one_blas_thread,
    python_parts,
)
from hokm_sim.cards import card_str, cards_of
from hokm_sim.engine import stepper as st
from hokm_sim.engine import vector as vk
from hokm_sim.engine.boundary import ERR_SIZE, Params, exact, fault_in
from hokm_sim.engine.records import ERR_BAD_TRUMP, N_COUNTS
from hokm_sim.engine.view import V_LEGAL, V_SEAT, V_TRICK_NO
from hokm_sim.env.aec import observation_space
from hokm_sim.env.gym import as_strategy
from hokm_sim.env.table import whole
from hokm_sim.errors import InputError, StoppedError
from hokm_sim.house import MAX_TARGET, first_hakem_code
from hokm_sim.sim.tracecheck import MAX_INDEX

MAX_ENVS = 65_536
"""The most tables one environment keeps (each costs about 6 KiB)."""
_SEAT_SETS = ((0,), (1,), (2,), (3,), (0, 2), (1, 3), (0, 1, 2, 3))
_MODES = {m.value: m for m in AutoresetMode}
_HAND_FIELDS = {"hakem": vk.H_HAKEM, "trump": vk.H_TRUMP, "winner": vk.H_WINNER,
                "points": vk.H_POINTS, "kind": vk.H_KIND, "hand": vk.H_INDEX}  # fmt: skip
_NO_PARAMS = np.zeros((2, 16), np.float64)


class BotFault(StoppedError):
    """A strategy at a table of the vector environment broke the rules or raised."""


def _seats(seat: int | Sequence[int]) -> tuple[int, ...]:
    """The agent's seats: one, a team or all four."""
    seats = (seat,) if isinstance(seat, int | np.integer) else seat
    try:
        chosen = tuple(sorted(int(s) for s in seats if not isinstance(s, bool)))
    except (TypeError, ValueError):
        chosen = ()
    if chosen not in _SEAT_SETS or isinstance(seat, bool):
        raise InputError(
            f"bad seat {seat!r}: expected one seat 0..3, a team (0, 2) or (1, 3), or all four "
            "(0, 1, 2, 3)"
        )
    return chosen


def _autoreset(mode: str | AutoresetMode) -> AutoresetMode:
    if isinstance(mode, AutoresetMode):
        return mode
    if mode in _MODES:
        return _MODES[mode]
    raise InputError(f"bad autoreset_mode {mode!r}: expected one of {', '.join(_MODES)}")


class HokmVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` tables of Hokm stepped together (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1024,
        partner: str | Strategy | object = "expert",
        opponents: str | Strategy | object = "expert",
        seat: int | Sequence[int] = 0,
        target: int | None = None,
        illegal: str = "raise",
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        first_hakem: str | None = None,
        copy: bool = True,
    ) -> None:
        self.num_envs = whole(num_envs, "num_envs", MAX_ENVS, low=1)
        self.seats = _seats(seat)
        if target is not None:
            target = whole(target, "match target", MAX_TARGET, low=1)
        if first_hakem is not None and target is None:
            raise InputError("first_hakem chooses a match's first Hakem: give a target too")
        if illegal not in ("raise", "end"):
            raise InputError(f"bad illegal={illegal!r}: expected 'raise' or 'end'")
        self.target = target
        self.illegal = illegal
        self.autoreset_mode = _autoreset(autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.copy = bool(copy)
        team = self.seats[0] & 1
        by_team: list[Strategy | None] = [None, None]
        if len(self.seats) == 1:
            by_team[team] = as_strategy(partner, "partner")
        if len(self.seats) < 4:
            by_team[1 - team] = as_strategy(opponents, "opponents")
        self.strategies = tuple(by_team)
        """The strategies of team 0 and team 1 (None for a team the agent plays alone)."""
        bots = [part for s in by_team for part in ((s.trump, s.play) if s else (None, None))]
        py = tuple(bot is None or bot.kind != "numba" for bot in bots)
        self._step = compiled.vector_module(bots, py).vector_step
        self._params = Params(*(s.params_array() if s else _NO_PARAMS for s in by_team))
        self._parts = python_parts(*by_team)
        self._exec = exec_parts(*by_team)
        self._host = ExecHost({c: p.fn for c, p in self._exec.items()}) if self._exec else None
        self._lease = Lease(self._host) if self._host is not None else None
        if self._host is not None:  # bye to the protocol bots when the environment goes
            weakref.finalize(self, self._host.close)
        self._part_params = {
            code: dict(zip(p.names, self._params[p.side][p.row], strict=False))
            for code, p in self._parts.items()
        }
        self._agents = sum(1 << s for s in self.seats)
        self._mode = st.M_MATCHES if target else st.M_HANDS
        self._arg = target if target else -1
        self._slots = st.new_slots(self.num_envs)
        self._jobs = st.new_jobs(0, MAX_INDEX, first_hakem_code(first_hakem))
        self._counts = np.zeros(N_COUNTS, np.int64)
        self._err = np.zeros(ERR_SIZE, np.int64)
        self._t = vk.new_tables(self.num_envs)
        self._seed = 0
        self._job = self._call(0)
        self._state = vk.VectorState(self._slots, self._jobs, self._counts, self._err, self._t)
        """The kernel's arrays, built once: only ``tables`` changes (with ``copy``)."""
        self._live = False
        self._over = np.zeros(self.num_envs, np.bool_)
        self.single_action_space = gym.spaces.Discrete(vk.N_ACTIONS)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.single_observation_space = observation_space()
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)

    # --- the Gymnasium API ------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Start an episode at every table (or at those of ``options["reset_mask"]``):
        table ``i`` deal ``i`` of ``seed``, else the next deals of the seed; ``options``
        may also give ``"deal"``, the first deal to take."""
        self._check_open()
        options = {} if options is None else options
        if not isinstance(options, dict) or set(options) - {"deal", "reset_mask"}:
            raise InputError(
                f"bad options {options!r}: expected a dict with 'deal' (an index) and/or "
                "'reset_mask' (bool[num_envs])"
            )
        if seed is not None:
            self._seed = whole(seed, "seed", 2**64 - 1)
            self._job = self._call(self._seed)
            self._jobs[st.J_NEXT] = 0
        if "deal" in options:
            self._jobs[st.J_NEXT] = whole(options["deal"], "deal", MAX_INDEX - 1)
        mask = self._reset_mask(options.get("reset_mask"))
        super().reset(seed=seed)
        if not self._live and not mask.all():
            raise InputError(
                "reset_mask with no episodes under way (before the first reset or after a "
                "fault): reset every table first"
            )
        self._err[:] = 0
        t = self._fresh(keep=True)
        t.todo[:] = np.where(mask, vk.T_START, vk.T_SKIP)
        self._run(t)
        self._live = True
        self._over[mask] = False
        return self._observations(t), self._infos(t, mask)

    def step(self, actions):
        """Answer the agent's decision at every table; play on to its next decisions."""
        self._check_open()
        if not self._live:
            raise InputError("no episode yet: call reset() first")
        acts = self._actions(actions)
        if self.autoreset_mode == AutoresetMode.DISABLED and self._over.any():
            i = int(np.flatnonzero(self._over)[0])
            raise InputError(
                f"the episode at table {i} is over and autoreset is disabled: reset it first "
                "(reset(options={'reset_mask': mask}))"
            )
        t = self._fresh(keep=False)
        restart = self._over if self.autoreset_mode == AutoresetMode.NEXT_STEP else False
        t.todo[:] = np.where(restart, vk.T_START, vk.T_ACT)
        t.actions[:] = acts
        stepped = t.todo != vk.T_SKIP
        self._run(t)
        self._over = (
            t.terminated.copy()
            if self.autoreset_mode != AutoresetMode.SAME_STEP
            else (np.zeros(self.num_envs, np.bool_))
        )
        infos = self._infos(t, stepped)
        if self.autoreset_mode == AutoresetMode.SAME_STEP and t.terminated.any():
            self._final(t, infos)
        rewards = t.reward.copy()
        truncated = np.zeros(self.num_envs, np.bool_)
        return self._observations(t), rewards, t.terminated.copy(), truncated, infos

    def action_masks(self) -> np.ndarray:
        """``bool[num_envs, 56]``: the agent's legal actions now (the MaskablePPO convention)."""
        self._check_open()
        return self._t.masks.astype(bool)

    def close_extras(self, **kwargs) -> None:
        """End the protocol bots' processes; the environment cannot be used after."""
        self._live = False
        if self._host is not None:
            self._lease.release()
            self._host.close()

    def __repr__(self) -> str:
        seats = self.seats[0] if len(self.seats) == 1 else self.seats
        return f"HokmVectorEnv(num_envs={self.num_envs}, seat={seats})"

    # --- inside ----------------------------------------------------------------

    def _check_open(self) -> None:
        if self.closed:
            raise InputError("the environment is closed")

    def _reset_mask(self, mask: object) -> np.ndarray:
        if mask is None:
            return np.ones(self.num_envs, np.bool_)
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_:
            raise InputError(f"bad reset_mask: expected a numpy bool array of {self.num_envs}")
        if mask.shape != (self.num_envs,):
            raise InputError(
                f"bad reset_mask shape {mask.shape}: expected ({self.num_envs},), one per table"
            )
        return mask

    def _actions(self, actions: object) -> np.ndarray:
        """``actions`` as ``int64[num_envs]``, or :class:`InputError` (one line)."""
        try:
            arr = np.asarray(actions)
        except Exception:  # noqa: BLE001 - anything given as actions must give one line
            arr = np.asarray(None)
        n = self.num_envs
        if arr.dtype.kind not in "iu":
            raise InputError(
                f"bad actions: dtype {arr.dtype}; expected integers 0..55, one per table"
            )
        if arr.shape != (n,):
            raise InputError(f"bad actions shape {arr.shape}: expected ({n},), one per table")
        bad = np.flatnonzero((arr < 0) | (arr >= vk.N_ACTIONS))
        if bad.size:
            i = int(bad[0])
            raise InputError(
                f"action {arr[i]} at table {i} out of range: expected 0..51 (a card) or "
                "52..55 (a trump call)"
            )
        return arr.astype(np.int64, copy=False)

    def _fresh(self, keep: bool) -> vk.Tables:
        """The tables' arrays for a call: new observation arrays unless ``copy`` is off
        (``keep``: with the current observations in them, for tables not reset)."""
        t = self._t
        if self.copy:
            new = (lambda a: a.copy()) if keep else np.empty_like
            t = t._replace(features=new(t.features), views=new(t.views), masks=new(t.masks))
        return t

    def _call(self, seed: int) -> vk.VectorStep:
        """The kernel's call for episodes of ``seed``, its fields of their exact types."""
        same_step = self.autoreset_mode == AutoresetMode.SAME_STEP
        return exact(vk.VectorStep(self._mode, seed, self._arg, self._agents, same_step,
                                   self.illegal == "end"))  # fmt: skip

    def _run(self, t: vk.Tables) -> None:
        """One kernel call, and more while bots outside numba have decisions due; ``t``
        becomes the tables' arrays once no action was refused."""
        slots = self._slots
        state = self._state
        if state.tables is not t:  # new observation arrays (``copy``); the others persist
            state = self._state = vk.VectorState(slots, self._jobs, self._counts, self._err, t)
        while True:
            waiting = self._step(self._params, self._job, state)
            if waiting < 0:
                self._illegal(-1 - waiting, int(t.actions[-1 - waiting]))
            self._t = t
            if fault_in(self._err) is not None:
                self._live = False
                raise self._fault()
            if waiting == 0:
                return
            bots = t.status == vk.ST_BOT
            t.todo[:] = np.where(bots, vk.T_BOT, vk.T_SKIP)
            with one_blas_thread():  # as the engine's Python bots decide (bots/stepped.py)
                for code, part in self._parts.items():
                    idx = np.flatnonzero(bots & (slots.wait == code))
                    if idx.size:
                        failed = decide(part, self._part_params[code], idx, slots)
                        if failed:
                            self._live = False
                            raise self._python_fault(part, *failed[0])
            if self._lease is not None:
                failed = self._lease.decide(slots, np.where(bots, slots.wait, st.W_NONE))
                if failed:
                    i, code, what = failed[0]
                    self._live = False
                    self._host.close()  # a reset starts new processes
                    self._lease = Lease(self._host)
                    raise self._python_fault(self._exec[code], i, what)

    def _illegal(self, i: int, action: int) -> None:
        view = self._slots.bot_view[i]
        seat = int(view[V_SEAT])
        if self._slots.ctl[i, st.K_STATE] == st.S_TRUMP:
            what = "call trump (52..55)"
        else:
            legal = " ".join(card_str(c) for c in cards_of(int(view[V_LEGAL])))
            what = f"play a legal card ({legal})"
        raise InputError(f"illegal action {action} at table {i} (seat {seat}): it must {what}")

    def _where(self, i: int) -> str:
        deal = int(self._t.deal[i])
        if self.target:
            return f"match {deal}, hand {int(self._slots.ctl[i, st.K_H])}"
        return f"hand {deal}"

    def _fault(self) -> BotFault:
        """The compiled bot's fault noted by the kernel, as one line."""
        fault = fault_in(self._err)
        seat, card = fault.seat, fault.card
        strategy = self.strategies[seat & 1]
        if fault.code == ERR_BAD_TRUMP:
            what, where = f"returned bad trump suit {card} (expected 0..3)", "at trump choice"
        else:
            shown = card_str(card) if 0 <= card < 52 else str(card)
            what, where = f"played illegal card {shown}", f"trick {fault.trick + 1}"
        place = f"hand {fault.match}"
        if self.target:
            place = f"match {fault.match}, hand {fault.hand}"
        return BotFault(
            f"strategy {strategy.name!r} {what} (seat {seat}) at seed {self._seed}, {place}, "
            f"{where}; call reset() to go on"
        )

    def _python_fault(self, part, i: int, what: str) -> PythonBotError:
        slots = self._slots
        seat = int(slots.bot_view[i, V_SEAT])
        trick = int(slots.bot_view[i, V_TRICK_NO])
        where = (
            "at trump choice" if slots.ctl[i, st.K_STATE] == st.S_TRUMP else f"trick {trick + 1}"
        )
        return PythonBotError(
            f"strategy {part.strategy!r} {what} (seat {seat}) at seed {self._seed}, "
            f"{self._where(i)}, {where}; call reset() to go on"
        )

    def _observations(self, t: vk.Tables) -> dict[str, np.ndarray]:
        return {"observation": t.features, "view": t.views, "action_mask": t.masks}

    def _infos(self, t: vk.Tables, touched: np.ndarray) -> dict:
        """Gymnasium's vector infos (each key with its ``_key`` mask of the tables that have
        it): ``seat``, ``deal`` and ``action_mask`` of every table, ``team_reward`` of the
        tables stepped, ``hand`` (the result) of those whose hand ended, and
        ``illegal_action`` where an action the mask does not allow ended the episode."""
        every = np.ones(self.num_envs, np.bool_)
        infos = {
            "seat": t.views[:, V_SEAT].copy(),
            "_seat": every,
            "deal": t.deal.copy(),
            "_deal": every,
            "action_mask": t.masks,
            "_action_mask": every,
            "team_reward": np.where(touched[:, None], t.team_reward, 0.0),
            "_team_reward": touched.copy(),
        }
        ended = t.ended & touched
        if ended.any():
            infos["hand"] = self._hands(t, ended)
            infos["_hand"] = ended
        if t.illegal.any():
            infos["illegal_action"] = t.illegal.copy()
            infos["_illegal_action"] = t.illegal.copy()
        return infos

    def _hands(self, t: vk.Tables, ended: np.ndarray) -> dict:
        """The results of the hands that ended, a field per key (masked by ``ended``)."""
        hand = np.where(ended[:, None], t.hand, 0)
        out = {name: hand[:, col] for name, col in _HAND_FIELDS.items()}
        out["tricks"] = hand[:, vk.H_TRICKS : vk.H_TRICKS + 2]
        for name in list(out):
            out[f"_{name}"] = ended
        return out

    def _final(self, t: vk.Tables, infos: dict) -> None:
        """``final_obs`` and ``final_info`` of the tables whose episode ended (same-step
        autoreset), as Gymnasium's vector environments give them: the last observation,
        and the seat it is of, the last hand's result or the illegal action."""
        done = t.terminated.copy()
        final_obs = np.full(self.num_envs, None, dtype=object)
        final_info = np.full(self.num_envs, None, dtype=object)
        for i in np.flatnonzero(done).tolist():
            final_obs[i] = {
                "observation": t.final_features[i].copy(),
                "view": t.final_views[i].copy(),
                "action_mask": t.final_masks[i].copy(),
            }
            info: dict = {"seat": int(t.final_views[i, V_SEAT])}
            if t.illegal[i]:
                info["illegal_action"] = True
            else:
                info["hand"] = {name: int(t.hand[i, col]) for name, col in _HAND_FIELDS.items()}
            final_info[i] = info
        infos["final_obs"], infos["_final_obs"] = final_obs, done
        infos["final_info"], infos["_final_info"] = final_info, done
