"""hokm-sim: a bot-strategy simulator and analytics toolkit for four-player Hokm."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("hokm-sim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"
