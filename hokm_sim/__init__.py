"""hokm-sim: a bot-strategy simulator and analytics toolkit for four-player Hokm.

The public API (:mod:`hokm_sim.api`) is re-exported here and imported on
first use, since it loads numba: ``hokm_sim.run(...)``, ``hokm_sim.tournament``,
``regress``, ``trump_study``, ``dd_study``, ``analyse``, ``experiment``, ``load``,
``serve`` and ``check_bot`` (bots in any language, docs/protocol.md).
"""

from hokm_sim.version import __version__

_API = (
    "run",
    "resume",
    "tournament",
    "regress",
    "calibrate",
    "sprt",
    "trump_study",
    "dd_study",
    "analyse",
    "experiment",
    "load",
    "strategy",
    "serve",
    "check_bot",
)

__all__ = ["__version__", *_API]


def __getattr__(name: str):
    """The API functions, imported on first use."""
    if name in _API:
        from hokm_sim import api

        return getattr(api, name)
    raise AttributeError(f"module 'hokm_sim' has no attribute {name!r}")
