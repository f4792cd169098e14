"""Hokm for reinforcement learning: a PettingZoo AEC environment and a Gymnasium wrapper.

Needs the ``env`` extra (``pip install 'hokm-sim[env]'``)::

    from hokm_sim.env import HokmEnv, HokmGymEnv
    env = HokmEnv()                          # four agents (PettingZoo AEC)
    gym_env = HokmGymEnv(partner="expert", opponents="longest")

See docs/env.md.
"""

from __future__ import annotations

from typing import Any

from hokm_sim.errors import InputError

__all__ = ["HokmEnv", "HokmGymEnv", "env", "raw_env"]


def __getattr__(name: str) -> Any:
    try:
        if name in ("HokmEnv", "raw_env", "env"):
            from hokm_sim.env.aec import HokmEnv

            return HokmEnv
        if name == "HokmGymEnv":
            from hokm_sim.env.gym import HokmGymEnv

            return HokmGymEnv
    except ModuleNotFoundError as exc:
        raise InputError(f"hokm_sim.env needs {exc.name}: pip install 'hokm-sim[env]'") from None
    raise AttributeError(f"module 'hokm_sim.env' has no attribute {name!r}")
