"""hokm-sim: a bot-strategy simulator and analytics toolkit for four-player Hokm."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("hokm-sim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"


def __getattr__(name: str):
    """``hokm_sim.run`` (the notebook API) is imported on first use: it loads numba."""
    if name == "run":
        from hokm_sim.api import run

        return run
    raise AttributeError(f"module 'hokm_sim' has no attribute {name!r}")
