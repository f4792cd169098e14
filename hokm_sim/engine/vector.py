"""Many tables stepped together for a learning agent, in numba: the vector environment's kernel.

Each of ``n`` tables is a slot of the stepper (:mod:`hokm_sim.engine.stepper`)
playing one hand (or one match) at a time. The agent sits at the seats of a
bit mask (one seat, both seats of a team, or all four: ``K_PY_SEATS`` of each
slot); hokm-sim strategies play the others, compiled ones inside the card
loop (:func:`~hokm_sim.engine.stepper.make_resume`), plain-Python ones
between calls. One call of the kernel built by :func:`make_vector_step`
answers the agent's decision at every table, plays every table on to the
agent's next decision, and writes every observation (the view, the legal
actions, the features of :mod:`hokm_sim.engine.features`) into the arrays of
:class:`Tables`.

Episodes are the engine's jobs: table ``i`` starting an episode takes the
next deal (or match) of the run seed from the job counter, so deal ``d`` of
seed ``S`` is the hand ``hokm-sim trace --seed S`` writes as its deal ``d``,
whatever table plays it.

Actions are those of the environments: 0..51 play that card, 52..55 call
trump C, D, H, S (``TRUMP_ACTION + suit``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from hokm_sim.engine.features import FEATURES, encode_one
from hokm_sim.engine.play import engine_jit
from hokm_sim.engine.records import R_ERROR, R_HAKEM, R_KIND, R_POINTS, R_TRICKS, R_TRUMP, R_WINNER
from hokm_sim.engine.stepper import (
    J_METHOD,
    J_NEXT,
    K_ANSWER,
    K_ATEAM,
    K_H,
    K_HAVE,
    K_PY_SEATS,
    K_STATE,
    NEED,
    S_IDLE,
    S_TRUMP,
    W_CARD_A,
    W_CARD_B,
    W_TRUMP_A,
    W_TRUMP_B,
    Slots,
    finish_hand,
    slot_work,
    start_job,
)
from hokm_sim.engine.view import V_HAND, V_LEGAL, V_SEAT, VIEW_SIZE
from hokm_sim.inlining import HELPERS

N_ACTIONS = 56
"""0..51: play that card; 52..55: call trump C, D, H, S."""
TRUMP_ACTION = 52
ILLEGAL_REWARD = -3.0
"""The reward of an action the mask does not allow, when it ends the episode (the worst a
hand can give)."""

# --- what a call does at table i: todo[i] -----------------------------------------
T_SKIP = 0  # nothing: the table is done for this call
T_ACT = 1  # answer the agent's decision with actions[i], play on
T_START = 2  # start the table's next episode (actions[i] is not used), play on
T_BOT = 3  # a plain-Python bot's answer is in the slot: play on

# --- where table i stands after a call: status[i] ---------------------------------
ST_AGENT = 0  # the agent's decision is due: its observation is written
ST_OVER = 1  # the episode is over: the last observation is written
ST_BOT = 2  # a plain-Python bot's decision is due (slots.wait[i] says whose)
ST_FAULT = 3  # a compiled bot broke the rules: the kernel's ``err`` says how

# --- a finished hand: hand[i, H_*] -----------------------------------------------
H_HAKEM = 0
H_TRUMP = 1
H_TRICKS = 2  # 2, 3: tricks of team 0 and team 1
H_WINNER = 4
H_POINTS = 5
H_KIND = 6
H_INDEX = 7  # the hand's number in its match (0 for single hands)
HAND_SIZE = 8


class Tables(NamedTuple):
    """What one call of the kernel reads and writes per table (see :func:`new_tables`).

    Fields are resolved at compile time, as in :class:`~hokm_sim.engine.stepper.Slots`.
    """

    todo: np.ndarray
    """``int64[n]``: the ``T_*`` code of what to do at each table."""
    actions: np.ndarray
    """``int64[n]``: the agent's action at each table (read where ``todo`` is ``T_ACT``)."""
    status: np.ndarray
    """``int64[n]``: the ``ST_*`` code of each table after the call."""
    actor: np.ndarray
    """``int64[n]``: the seat whose decision the action answered (-1 for none)."""
    deal: np.ndarray
    """``int64[n]``: the deal (or match) each table plays."""
    reward: np.ndarray
    """``float64[n]``: the points of the actor's team in the hand that ended (0 if none)."""
    team_reward: np.ndarray
    """``float64[n, 2]``: the points of team 0 and team 1 in the hand that ended."""
    terminated: np.ndarray
    """``bool[n]``: the episode ended in this call."""
    illegal: np.ndarray
    """``bool[n]``: the action was not legal and ended the episode."""
    ended: np.ndarray
    """``bool[n]``: a hand ended in this call (its result in ``hand``)."""
    hand: np.ndarray
    """``int64[n, HAND_SIZE]``: the ``H_*`` fields of the hand that ended."""
    features: np.ndarray
    """``float32[n, FEATURES]``: the observation's features."""
    views: np.ndarray
    """``int64[n, VIEW_SIZE]``: the observation's view."""
    masks: np.ndarray
    """``int8[n, N_ACTIONS]``: the observation's legal actions."""
    final_features: np.ndarray
    """``float32[n, FEATURES]``: autoreset in the same step: the last observation of the
    episode that ended (the new episode's first is in ``features``)."""
    final_views: np.ndarray
    """``int64[n, VIEW_SIZE]``: as ``final_features``, the views."""
    final_masks: np.ndarray
    """``int8[n, N_ACTIONS]``: as ``final_features``, the legal actions (none)."""


class VectorStep(NamedTuple):
    """What one call of ``vector_step`` (:func:`make_vector_step`) plays: the episodes of
    mode ``mode`` under ``seed`` with its argument ``arg``, the agent at the seats of the
    mask ``agents``, and how an episode's end (``same_step``) and an illegal action
    (``illegal_end``) are taken (see :func:`make_vector_step`). The fields are cast to
    their annotated types by :func:`~hokm_sim.engine.boundary.exact`, so ``vector_step``
    is compiled once."""

    mode: int
    seed: np.uint64
    arg: int
    agents: int
    same_step: bool
    illegal_end: bool


class VectorState(NamedTuple):
    """The arrays ``vector_step`` (:func:`make_vector_step`) reads and writes: the
    stepper's :class:`~hokm_sim.engine.stepper.Slots` and job counter, the counts
    finished hands are added into, the error row, and the :class:`Tables`."""

    slots: Slots
    jobs: np.ndarray
    counts: np.ndarray
    err: np.ndarray
    tables: Tables


def new_tables(n: int) -> Tables:
    """:class:`Tables` for ``n`` tables."""
    return Tables(
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.full(n, -1, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.float64),
        np.zeros((n, 2), np.float64),
        np.zeros(n, np.bool_),
        np.zeros(n, np.bool_),
        np.zeros(n, np.bool_),
        np.zeros((n, HAND_SIZE), np.int64),
        np.zeros((n, FEATURES), np.float32),
        np.zeros((n, VIEW_SIZE), np.int64),
        np.zeros((n, N_ACTIONS), np.int8),
        np.zeros((n, FEATURES), np.float32),
        np.zeros((n, VIEW_SIZE), np.int64),
        np.zeros((n, N_ACTIONS), np.int8),
    )


@njit(inline=HELPERS)
def _legal_answer(action, state, legal):
    """The engine's answer (a suit or a card) to an action, or -1 if it is not legal now."""
    if state == S_TRUMP:
        if TRUMP_ACTION <= action < N_ACTIONS:
            return action - TRUMP_ACTION
        return -1
    if 0 <= action < 52 and (legal >> action) & 1:
        return action
    return -1


@njit(inline=HELPERS)
def _observe(work, c, seat, over, feat, view, mask):
    """Write ``seat``'s observation: the decision due, or (``over``) how the episode left it.

    After the episode the seat sees the table as the hand left it, with the cards it
    still holds and no legal action (as :meth:`hokm_sim.env.table.Table.view_for`).
    """
    src = work.bot_view
    for k in range(VIEW_SIZE):
        view[k] = src[k]
    for a in range(N_ACTIONS):
        mask[a] = 0
    if over:
        view[V_SEAT] = seat
        view[V_LEGAL] = 0
        if c[K_STATE] != S_TRUMP:
            view[V_HAND] = work.held[seat]
    elif c[K_STATE] == S_TRUMP:
        for a in range(TRUMP_ACTION, N_ACTIONS):
            mask[a] = 1
    else:
        legal = src[V_LEGAL]
        for a in range(52):
            mask[a] = (legal >> a) & 1
    encode_one(view, feat)


def make_vector_step(resume, owner: str):
    """The jitted kernel over ``resume`` (:func:`~hokm_sim.engine.stepper.make_resume`, with
    the tables' compiled bots bound in), named under the generated module ``owner``.

    Returns ``vector_step(mode, params_a, params_b, seed, arg, agents, same_step,
    illegal_end, slots, jobs, counts, err, tables) -> int`` (a generated module's entry
    point takes these by name, :class:`~hokm_sim.engine.boundary.Params`,
    :class:`VectorStep` and :class:`VectorState`, and binds them to locals before
    calling it):

    - ``mode`` is the stepper's ``M_HANDS`` (``arg``: -1) or ``M_MATCHES``
      (``arg``: the target); ``agents`` the mask of the agent's seats;
      ``same_step``: a table whose episode ends starts the next at once (its
      last observation goes to the ``final_*`` arrays); ``illegal_end``: an
      action the mask does not allow ends the episode with ``ILLEGAL_REWARD``
      instead of stopping the call.
    - Finished hands are added into ``counts`` (A is team 0), a compiled bot's
      fault is noted in ``err`` (the stepper's ``E_*`` fields).
    - Returns the number of tables waiting for a plain-Python bot (call again
      with ``todo`` ``T_BOT`` there once their answers are in the slots), or
      ``-1 - i`` when the action at table ``i`` is not legal and
      ``illegal_end`` is false: then nothing at any table has changed.
    """

    @engine_jit(owner)
    def vector_step(
        mode, params_a, params_b, seed, arg, agents, same_step, illegal_end, slots, jobs, counts,
        err, tables,
    ):  # fmt: skip
        """One step of every table (see :func:`make_vector_step`)."""
        t = tables
        ctl = slots.ctl
        n = t.todo.shape[0]
        no_codes = np.zeros(0, np.int8)
        no_out = np.zeros((0, 1), np.int64)
        # Typed values, never literals: the stepper's start_job and finish_hand are compiled
        # (and cached) once for both kernels, not again for each constant passed here.
        zero, no_dup = np.int64(0), np.bool_(False)
        if not illegal_end:
            for i in range(n):
                if t.todo[i] == T_ACT:
                    legal = slots.bot_view[i, V_LEGAL]
                    if _legal_answer(t.actions[i], ctl[i, K_STATE], legal) < 0:
                        return -1 - i
        waiting = 0
        for i in range(n):
            todo = t.todo[i]
            if todo == T_SKIP:
                continue
            c = ctl[i]
            work = slot_work(slots, i)
            start = todo == T_START
            if todo != T_BOT:
                t.reward[i] = 0.0
                t.team_reward[i, 0] = 0.0
                t.team_reward[i, 1] = 0.0
                t.terminated[i] = False
                t.illegal[i] = False
                t.ended[i] = False
                t.actor[i] = -1
            if todo == T_ACT:
                seat = work.bot_view[V_SEAT]
                t.actor[i] = seat
                answer = _legal_answer(t.actions[i], c[K_STATE], work.bot_view[V_LEGAL])
                if answer < 0:
                    t.illegal[i] = True
                    t.terminated[i] = True
                    t.reward[i] = ILLEGAL_REWARD
                    t.team_reward[i, seat & 1] = ILLEGAL_REWARD
                    if not same_step:
                        _observe(work, c, seat, True, t.features[i], t.views[i], t.masks[i])
                        c[K_STATE] = S_IDLE
                        t.status[i] = ST_OVER
                        continue
                    _observe(work, c, seat, True, t.final_features[i], t.final_views[i],
                             t.final_masks[i])  # fmt: skip
                    start = True
                else:
                    c[K_ANSWER] = answer
                    c[K_HAVE] = 1
            while True:
                if start:
                    start = False
                    j = jobs[J_NEXT]
                    jobs[J_NEXT] = j + 1
                    c[K_PY_SEATS] = agents
                    start_job(mode, seed, arg, zero, work, c, slots.bases[i], j, no_out, zero,
                              jobs[J_METHOD])  # fmt: skip
                    t.deal[i] = j
                if resume(params_a, params_b, work, c) == NEED:
                    seat = work.bot_view[V_SEAT]
                    if (agents >> seat) & 1:
                        _observe(work, c, seat, False, t.features[i], t.views[i], t.masks[i])
                        t.status[i] = ST_AGENT
                    else:
                        a_side = (seat & 1) == c[K_ATEAM]
                        if c[K_STATE] == S_TRUMP:
                            slots.wait[i] = W_TRUMP_A if a_side else W_TRUMP_B
                        else:
                            slots.wait[i] = W_CARD_A if a_side else W_CARD_B
                        t.status[i] = ST_BOT
                        waiting += 1
                    break
                res = work.res
                if res[R_ERROR] != 0:
                    finish_hand(mode, seed, no_dup, arg, work, c, slots.first[i], slots.bases[i],
                                jobs, counts, err, no_codes, no_out)  # fmt: skip
                    t.status[i] = ST_FAULT
                    break
                h = t.hand[i]
                h[H_HAKEM] = res[R_HAKEM]
                h[H_TRUMP] = res[R_TRUMP]
                h[H_TRICKS] = res[R_TRICKS]
                h[H_TRICKS + 1] = res[R_TRICKS + 1]
                h[H_WINNER] = res[R_WINNER]
                h[H_POINTS] = res[R_POINTS]
                h[H_KIND] = res[R_KIND]
                h[H_INDEX] = c[K_H]
                t.ended[i] = True
                winner = res[R_WINNER]
                t.team_reward[i, winner] += res[R_POINTS]
                t.team_reward[i, 1 - winner] -= res[R_POINTS]
                actor = t.actor[i]
                t.reward[i] = t.team_reward[i, actor & 1]
                finish_hand(mode, seed, no_dup, arg, work, c, slots.first[i], slots.bases[i], jobs,
                            counts, err, no_codes, no_out)  # fmt: skip
                if c[K_STATE] != S_IDLE:
                    continue  # a match goes on: its next hand is dealt and open
                t.terminated[i] = True
                if same_step:
                    _observe(work, c, actor, True, t.final_features[i], t.final_views[i],
                             t.final_masks[i])  # fmt: skip
                    start = True
                    continue
                _observe(work, c, actor, True, t.features[i], t.views[i], t.masks[i])
                t.status[i] = ST_OVER
                break
        return waiting

    return vector_step
