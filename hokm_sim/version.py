"""The installed version of hokm-sim, recorded with every result."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("hokm-sim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"
