"""The package list in pyproject.toml names every package, so a non-editable install has them all.

setuptools installs exactly the packages listed; a package left out works in the editable
install every test uses and is missing from ``pip install .``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_is_listed():
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "hokm_sim").rglob("__init__.py")
        if "strategies" not in init.parts
    }
    found.add("hokm_sim.strategies")  # installed from strategies/ (package-dir)
    assert found == listed
