"""hokm-sim: a bot-strategy simulator and analytics toolkit for four-player Hokm.

The public API (:mod:`hokm_sim.api`) is re-exported here and imported on
first use, since it loads numba: ``hokm_sim.run(...)``, ``tournament``, ``field``, ``tune``,
``regress``, ``trump_study``, ``solve``, ``analyse``, ``trace``, ``show``,
``load``, ``serve`` and ``check_bot`` (bots in any language, docs/protocol.md)
and the rest of :data:`__all__`.
"""

from hokm_sim.version import __version__

_API = (
    "run",
    "resume",
    "tournament",
    "field",
    "tune",
    "regress",
    "calibrate",
    "sprt",
    "trump_study",
    "plot",
    "dd_study",
    "solve",
    "analyse",
    "analyse_run",
    "analyse_hand",
    "experiment",
    "trace",
    "show",
    "bench",
    "list_strategies",
    "load",
    "results",
    "import_results",
    "history",
    "strategy",
    "serve",
    "check_bot",
    "fresh_seed",
    "Tick",
)

__all__ = ["__version__", *_API]


def __getattr__(name: str):
    """The API functions, imported on first use."""
    if name in _API:
        from hokm_sim import api

        return getattr(api, name)
    raise AttributeError(f"module 'hokm_sim' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names with the API's, which are imported on first use (so that tab
    completion finds them)."""
    return sorted({*globals(), *_API})
