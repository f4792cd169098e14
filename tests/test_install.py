"""A regular (not editable) install works: the wheel carries the bots and their data.

Builds the wheel, installs it (without dependencies, which this environment
has) into a folder of its own and runs the installed package from another
folder, so nothing of the source tree can stand in for what the wheel lacks.
The installed copy shares the suite's numba cache: cached code is keyed by
the digest of the source it was compiled from, never by where that source
lies (:mod:`hokm_sim.engine.jitcache`), so the wheel's files load what the
same files in the checkout compiled, and a file the wheel lacked would fail
at import whatever the cache holds.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory, worker_id, testrun_uid) -> Path:
    # One wheel for the run, built by the first worker to get here: two builds at once
    # share the checkout's build/ folder, and one deletes the files the other copies.
    root = tmp_path_factory.getbasetemp()  # the workers' folders lie in the run's
    dist = (root if worker_id == "master" else root.parent) / f"wheel-{testrun_uid}"
    dist.mkdir(exist_ok=True)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    with open(dist / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not list(dist.glob("hokm_sim-*.whl")):
            subprocess.run(
                [*pip, "wheel", "--no-deps", "--no-build-isolation", str(ROOT), "-w", str(dist)],
                check=True,
                cwd=dist,
            )
    (wheel,) = dist.glob("hokm_sim-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "hokm_sim/strategies/trump_table.json" in names
    assert not any(n.startswith("strategies/") for n in names)  # no top-level 'strategies'
    for page in ("table.html", "table.js", "table.css"):  # the play table's page
        assert f"hokm_sim/play/static/{page}" in names
    target = tmp_path_factory.mktemp("site")
    subprocess.run([*pip, "install", "--no-deps", "--target", str(target), str(wheel)], check=True)
    return target


def _env(target: Path) -> dict[str, str]:
    """The suite's environment (its numba cache among it) with only the installed copy on
    the path."""
    return dict(os.environ, PYTHONPATH=str(target))


def _hokm(target: Path, *args: str) -> subprocess.CompletedProcess:
    code = "import sys; from hokm_sim.cli import main; sys.argv[0] = 'hokm-sim'; main()"
    env = _env(target)
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        env=env,
        cwd=target.parent,
        capture_output=True,
        text=True,
    )


def test_installed_wheel_lists_and_loads_every_bot(installed, tmp_path):
    res = _hokm(installed, "strategies")
    assert res.returncode == 0, res.stderr
    names = [line.split()[0] for line in res.stdout.splitlines()]
    assert {"expert", "longest", "random", "table", "pimc"} <= set(names)
    code = (
        "import hokm_sim, sys; from hokm_sim.bots.registry import builtin_bots, resolve; "
        f"assert hokm_sim.__file__.startswith({str(installed)!r}), hokm_sim.__file__; "
        "[resolve(n).play.module() for n in builtin_bots()]; print(len(builtin_bots()))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=_env(installed),
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) == len(names)


def test_installed_wheel_plays_the_table_bot(installed, tmp_path):
    res = _hokm(
        installed,
        *("show", "--seed", "1", "--hand", "0", "--a", "table", "--b", "random"),
    )
    assert res.returncode == 0, res.stderr
    assert "trick 13" in res.stdout or "wins" in res.stdout


def test_installed_wheel_serves_the_play_table(installed, tmp_path):
    code = (
        "import asyncio; from aiohttp.test_utils import TestClient, TestServer; "
        "from hokm_sim.api import strategy; from hokm_sim.play.server import Server, Settings\n"
        "async def go():\n"
        "    s = Server(Settings(strategy('random'), strategy('random'), data={!r}))\n"
        "    async with TestClient(TestServer(s.app())) as c:\n"
        "        for path in ('/static/table.js', '/static/table.css'):\n"
        "            assert (await c.get(path)).status == 200, path\n"
        "    print('served')\n"
        "asyncio.run(go())"
    ).format(str(tmp_path / "data"))
    res = subprocess.run([sys.executable, "-c", code], env=_env(installed), cwd=installed.parent,
                         capture_output=True, text=True)  # fmt: skip
    assert res.returncode == 0 and "served" in res.stdout, res.stderr[-2000:]
