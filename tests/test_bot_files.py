"""Bot files and specs as users write them: bad PARAMS, paths that hold spec characters,
helpers beside a bot, experiment files run from elsewhere, bot objects without a file.

Plain-Python bots against ``tests/bots/pyrandom.py`` play on the one all-Python
stepper the suite compiles anyway, so nothing here compiles an engine of its own.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from test_cli_inputs import _fails  # one line naming the problem, exit 2

import hokm_sim
from hokm_sim.bots.registry import StrategyError, resolve, spec_path, split_top
from hokm_sim.cli import main

PYRANDOM = str(Path(__file__).parent / "bots" / "pyrandom.py")
PY_BOT = '''"""Lowest legal card, clubs{extra}."""
{head}

def choose_trump(obs):
    return 0


def play_card(obs):
    return {play}
'''


def _bot(path: Path, head: str = "", play: str = "min(obs.legal_cards)", extra="") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(PY_BOT.format(head=head, play=play, extra=extra))
    return path


@pytest.mark.parametrize(
    ("head", "says"),
    [
        ('PARAMS = {"x": "abc"}', "PARAMS['x'] is 'abc' (str); expected a finite number"),
        ("PARAMS = [1, 2]", "PARAMS is [1, 2] (list); expected a dict"),
        ('PARAMS = {"x": float("inf")}', "PARAMS['x'] is inf (float); expected a finite number"),
        ('PARAMS = {"x": float("nan")}', "expected a finite number"),
        ('PARAMS = {"x": None}', "PARAMS['x'] is None (NoneType)"),
        ('PARAMS = {"a b": 1}', "bad PARAMS name 'a b' (str)"),
        ("PARAMS = {1: 1}", "bad PARAMS name 1 (int)"),
        ("PARAMS = {f'p{i}': 0 for i in range(17)}", "has 17 PARAMS; at most 16"),
        ('PARAMS = {"x": 1}\nPARAM_LIMITS = {"y": (0, 1)}', "PARAM_LIMITS names 'y' (str)"),
        ('PARAMS = {"x": 1}\nPARAM_LIMITS = {"x": (2, 1)}', "PARAM_LIMITS['x'] is (2, 1)"),
        ('PARAMS = {"x": 1}\nPARAM_LIMITS = {"x": "0..1"}', "PARAM_LIMITS['x'] is '0..1'"),
        ('PARAMS = {"x": 5}\nPARAM_LIMITS = {"x": (0, 1)}', "lies outside its PARAM_LIMITS 0..1"),
        ("NAME = 3", "NAME is 3 (int); expected a string"),
        ("DESCRIPTION = ['x']", "DESCRIPTION is ['x'] (list); expected a string"),
        ("import sys\nsys.exit(0)", "failed to import: called sys.exit(0)"),
    ],
)
def test_bot_files_with_bad_module_values_are_one_line_exit_2(tmp_path, head, says):
    bot = _bot(tmp_path / "bot.py", head)
    _fails(["run", bot, PYRANDOM, "--hands", 10, "--out", tmp_path / "r"], says, "bot.py")
    assert not (tmp_path / "r").exists()


def test_infinite_defaults_never_reach_a_summary(tmp_path):
    """Strict JSON has no Infinity: a bot's defaults are finite or refused."""
    with pytest.raises(StrategyError, match="finite"):
        resolve(str(_bot(tmp_path / "b.py", 'PARAMS = {"x": 1e999}')))
    s = hokm_sim.run(str(_bot(tmp_path / "ok.py", 'PARAMS = {"x": 2}')), PYRANDOM, hands=20, seed=1,
                     threads=1, out=tmp_path / "r")  # fmt: skip
    json.loads((tmp_path / "r" / "summary.json").read_text(), parse_constant=pytest.fail)
    assert s.to_dict()["config"]["strategies"]["a"]["play"]["params"] == {"x": 2.0}


def test_a_parameter_given_twice_is_refused():
    with pytest.raises(StrategyError, match="parameter 'length' of weighted given twice"):
        resolve("weighted(length=2,length=3)")
    with pytest.raises(StrategyError, match="given twice"):
        resolve("trump=weighted(strength=1, strength=1),play=expert")


def test_paths_with_spec_characters_are_given_quoted_or_whole(tmp_path, monkeypatch):
    bot = _bot(tmp_path / "my (v2), final" / "b=1(x).py", 'PARAMS = {"k": 1}')
    monkeypatch.chdir(tmp_path)
    rel = "my (v2), final/b=1(x).py"
    assert resolve(rel).play.path == bot.resolve()  # a whole spec naming a file
    for spec in (f'"{rel}"', f"'{rel}'(k=3)", f'trump=longest,play="{rel}"(k=3)'):
        s = resolve(spec)
        assert s.play.path == bot.resolve() and s.play_params in ((1.0,), (3.0,)), spec
    assert resolve(f'trump="{rel}",play=expert').trump.path == bot.resolve()
    assert split_top(f"longest,weighted(length=3,strength=1),'{rel}'") == [
        "longest",
        "weighted(length=3,strength=1)",
        f"'{rel}'",
    ]
    assert resolve(spec_path(bot)).play.path == bot.resolve()  # what Dask workers are sent
    with pytest.raises(StrategyError, match="the quote ' is not closed"):
        resolve("'my.py")
    with pytest.raises(StrategyError, match=r"bot file 'nope\(1\).py' does not exist"):
        resolve("'nope(1).py'")


@pytest.mark.parametrize(
    ("path", "says"),
    [
        ("{tmp}/folder.py", "is a folder, not a regular file"),
        ("{tmp}/pipe.py", "is a named pipe (FIFO), not a regular file"),
        ("/dev/null", "is a character device, not a regular file"),
        ("{tmp}/none.py", "does not exist"),
    ],
    ids=["folder", "fifo", "device", "missing"],
)
@pytest.mark.parametrize("kind", ["bot file", "exec command"])
def test_a_path_that_is_not_a_file_says_what_it_is(tmp_path, path, says, kind):
    """``/dev/null`` or ``exec:/tmp`` exist: "does not exist" would send the user looking
    for a file that is there."""
    (tmp_path / "folder.py").mkdir()
    os.mkfifo(tmp_path / "pipe.py")
    path = path.format(tmp=tmp_path)
    spec = f"exec:{path}" if kind == "exec command" else path
    with pytest.raises(StrategyError, match=f"^{kind} '{re.escape(path)}' {re.escape(says)}"):
        resolve(spec)
    _fails(["trace", "--seed", 1, "--hands", 1, "--a", spec], f"--a: {kind}", says)


def test_the_played_spec_of_a_quoted_path_runs(tmp_path, monkeypatch):
    _bot(tmp_path / "a,b" / "bot(1).py")
    monkeypatch.chdir(tmp_path)
    spec = f"trump={PYRANDOM},play='a,b/bot(1).py'"  # all plain Python: no new engine
    res = CliRunner().invoke(
        main, ["run", spec, PYRANDOM, "--hands", 20, "--seed", 1, "--threads", 1, "--json"]
    )
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["config"]["a"] == spec


def test_a_helper_module_beside_a_bot_imports_without_pythonpath(tmp_path):
    for v in ("v1", "v2"):  # two bots with a helper of the same name: each gets its own
        (tmp_path / v).mkdir()
        (tmp_path / v / "helper.py").write_text(f"def pick(cards):\n    return '{v}'\n")
        _bot(tmp_path / v / "bot.py", "from helper import pick", "pick(obs.legal_cards)")
    one, two = (resolve(str(tmp_path / v / "bot.py")).play.module() for v in ("v1", "v2"))
    obs = SimpleNamespace(legal_cards=[3])
    assert one.play_card(obs) == "v1" and two.play_card(obs) == "v2"
    assert "helper" not in sys.modules
    (tmp_path / "v1" / "helper.py").write_text("def pick(cards):\n    return 'edited'\n")
    assert resolve(str(tmp_path / "v1" / "bot.py")).play.module().play_card(obs) == "edited"
    # and from a fresh process in another folder, playing
    _bot(tmp_path / "v3" / "bot.py", "from low import first", "first(obs.legal_cards)")
    (tmp_path / "v3" / "low.py").write_text("def first(cards):\n    return min(cards)\n")
    res = subprocess.run(
        [sys.executable, "-m", "hokm_sim", "run", str(tmp_path / "v3" / "bot.py"), PYRANDOM,
         "--hands", "20", "--seed", "1", "--threads", "1", "--json"],
        capture_output=True, text=True, cwd="/", env=_env(),
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["config"]["size"] == 20


def _env() -> dict:
    import os

    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    return env


def test_experiment_files_take_bot_paths_from_their_own_folder(tmp_path, monkeypatch):
    folder = tmp_path / "exp"
    _bot(folder / "bots" / "low.py")
    (folder / "e.toml").write_text(
        f'name = "paths"\nseed = 3\nhands = 20\n[[runs]]\na = "bots/low.py"\nb = "{PYRANDOM}"\n'
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    res = CliRunner().invoke(main, ["experiment", str(folder / "e.toml"), "--out", "x"])
    assert res.exit_code == 0, res.output
    data = json.loads((elsewhere / "x" / "summary.json").read_text())
    path = data["runs"][0]["config"]["strategies"]["a"]["play"]["path"]
    assert path == str((folder / "bots" / "low.py").resolve())


def test_heuristics_lists_keep_parameters_together(tmp_path):
    """--heuristics is cut by the registry's splitter, never inside parentheses."""
    from hokm_sim.cli.options import SPECS

    assert SPECS.convert("longest, weighted(length=3,strength=1)", None, None) == [
        "longest",
        "weighted(length=3,strength=1)",
    ]
    for cmd in ("trump-study", "dd-study"):
        _fails([cmd, "--heuristics", "", "--hands", 10, "--out", tmp_path / cmd], "--heuristics")
        _fails([cmd, "--heuristics", "weighted(lenght=3,strength=1)", "--hands", 10,
                "--out", tmp_path / cmd], "unknown parameter 'lenght'")  # fmt: skip


def test_a_bot_class_without_a_source_file_plays(tmp_path):
    code = textwrap.dedent(
        f"""
        import hokm_sim
        class Low:
            def choose_trump(self, obs):
                return 0
            def play_card(self, obs):
                return min(obs.legal_cards)
        s = hokm_sim.run(Low(), {PYRANDOM!r}, hands=20, seed=1, threads=1)
        print(s.to_dict()["config"]["strategies"]["a"]["play"]["path"])
        """
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "<__main__>"
