"""Hokm for reinforcement learning: a PettingZoo AEC environment, a Gymnasium wrapper and a
Gymnasium vector environment.

Needs the ``env`` extra (``pip install 'hokm-sim[env]'``)::

    from hokm_sim.env import HokmEnv, HokmGymEnv, HokmVectorEnv
    env = HokmEnv()                          # four agents (PettingZoo AEC)
    gym_env = HokmGymEnv(partner="expert", opponents="longest")
    tables = HokmVectorEnv(num_envs=4096, partner="expert", opponents="longest")

Importing this package registers the environments with Gymnasium under the ids of
:data:`GYM_IDS`: ``gymnasium.make("Hokm-v0")`` (an episode is a hand) and
``gymnasium.make("HokmMatch-v0")`` (an episode is a match to 7), keywords as for
:class:`HokmGymEnv`; ``gymnasium.make_vec(id, num_envs=N)`` makes a :class:`HokmVectorEnv`
of N tables; ``gymnasium.make("hokm_sim.env:Hokm-v0")`` imports the package first. See
docs/env.md.
"""

from __future__ import annotations

from typing import Any

from hokm_sim.errors import InputError

__all__ = ["GYM_IDS", "HokmEnv", "HokmGymEnv", "HokmVectorEnv", "env", "raw_env"]

GYM_IDS = {"Hokm-v0": {}, "HokmMatch-v0": {"target": 7}}
"""Gymnasium ids of :class:`~hokm_sim.env.gym.HokmGymEnv` (and, through ``make_vec``, of
:class:`~hokm_sim.env.vector.HokmVectorEnv`) and their default keywords."""


def _register() -> None:
    """Register :data:`GYM_IDS` with Gymnasium, when it is installed (once per process)."""
    try:
        import gymnasium
    except ModuleNotFoundError:
        return
    for gym_id, kwargs in GYM_IDS.items():
        if gym_id not in gymnasium.registry:
            gymnasium.register(
                gym_id,
                entry_point="hokm_sim.env.gym:HokmGymEnv",
                vector_entry_point="hokm_sim.env.vector:HokmVectorEnv",
                kwargs=kwargs,
            )


_register()


def __getattr__(name: str) -> Any:
    try:
        if name in ("HokmEnv", "raw_env", "env"):
            from hokm_sim.env.aec import HokmEnv

            return HokmEnv
        if name == "HokmGymEnv":
            from hokm_sim.env.gym import HokmGymEnv

            return HokmGymEnv
        if name == "HokmVectorEnv":
            from hokm_sim.env.vector import HokmVectorEnv

            return HokmVectorEnv
    except ModuleNotFoundError as exc:
        raise InputError(f"hokm_sim.env needs {exc.name}: pip install 'hokm-sim[env]'") from None
    raise AttributeError(f"module 'hokm_sim.env' has no attribute {name!r}")
