"""Protocol bots (``exec:``) at hokm-sim's tables: the same cards as the bots they port.

``examples/bots/longest.c`` and ``longest.js`` are ports of the built-in
``longest``; against the compiled ``random`` (each copy of a duplicate pair
seats the port on either team) they give exactly the compiled ``longest``'s
counts and trace rows, whatever the threads and hands in flight. The tables
with a protocol bot and ``random`` share the stepper of ``test_python_bots``
(no compiled part for A, ``random`` for B), so no new engine is compiled.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import hokm_sim
from hokm_sim.bots.registry import StrategyError, resolve
from hokm_sim.cli import main
from hokm_sim.sim.runner import Runner

ROOT = Path(__file__).resolve().parents[1]
PY_LONGEST = str(ROOT / "examples" / "python_bot.py")
PROTOBOT = ROOT / "tests" / "bots" / "protobot.py"


@pytest.fixture(scope="module")
def ports(c_bot, node) -> dict[str, str]:
    """The two ports of ``longest`` as ``exec:`` specs."""
    return {
        "c": f"exec:{c_bot('examples/bots/longest.c')}",
        "js": f"exec:{node} {ROOT / 'examples' / 'bots' / 'longest.js'}",
    }


@pytest.fixture(scope="module")
def want(runner) -> dict[str, np.ndarray]:
    nb = runner("longest", "random")
    return {
        "hands": nb.counts(5, 1200, threads=1),
        "matches": nb.counts(5, 24, matches=True, threads=1),
        "trace": nb.trace_hands(5, 0, 40),
    }


@pytest.mark.parametrize("lang", ["c", "js"])
@pytest.mark.parametrize("threads", [1, 2])
def test_ports_of_longest_give_its_counts(ports, want, lang, threads):
    r = Runner(resolve(ports[lang]), resolve("random"))
    assert (r.counts(5, 1200, threads=threads) == want["hands"]).all()
    r.engine.slots = 5  # five hands in flight: many more, smaller messages
    assert (r.counts(5, 1200, threads=threads, chunk=100) == want["hands"]).all()
    assert (r.counts(5, 24, matches=True, threads=threads, chunk=5) == want["matches"]).all()


@pytest.mark.parametrize("lang", ["c", "js"])
def test_ports_of_longest_play_its_cards(ports, want, lang):
    r = Runner(resolve(ports[lang]), resolve("random"))
    assert (r.trace_hands(5, 0, 40) == want["trace"]).all()


def test_a_protocol_bot_in_a_composition(ports, want):
    """``trump=`` from a plain-Python bot, ``play=`` from the C port: still longest."""
    r = Runner(resolve(f"trump={PY_LONGEST},play={ports['c']}"), resolve("random"))
    assert (r.counts(5, 1200, threads=2) == want["hands"]).all()


def test_specs_commands_and_identities(tmp_path, ports):
    s = resolve(ports["c"])
    assert s.trump.kind == s.play.kind == "exec" and s.name == ports["c"]
    rec = s.to_dict()["play"]
    assert rec["command"] == shlex.split(ports["c"][5:]) and len(rec["files"]) == 1
    # a comma outside quotes ends an exec part; quotes are the shell's and keep one
    mixed = resolve(f"trump=exec:{sys.executable} {PROTOBOT} ok 'a,b=c(1)',play=random")
    assert mixed.trump.command[-1] == "a,b=c(1)" and mixed.play.name == "random"
    assert resolve(f"random,trump=exec:{sys.executable} {PROTOBOT} ok").trump.kind == "exec"
    spaced = tmp_path / "my bots" / "it's (2).py"
    spaced.parent.mkdir()
    spaced.write_text(PROTOBOT.read_text())
    quoted = resolve(f'exec:{sys.executable} "{spaced}" ok,play=random')
    assert quoted.trump.command == (sys.executable, str(spaced), "ok")
    assert str(spaced) in dict(quoted.trump.files) and quoted.play.name == "random"
    # a bot's name is a spec that gives the same command back (Dask workers resolve it)
    from hokm_sim.sim.backends import portable_spec

    again = resolve(portable_spec(mixed))
    assert again.trump.command == mixed.trump.command and again.play.name == "random"
    assert resolve(quoted.trump.name).trump.command == quoted.trump.command
    # the same command over other bytes is another strategy (another engine name)
    bot = tmp_path / "bot.py"
    bot.write_text(PROTOBOT.read_text())
    spec = f"exec:{sys.executable} {bot} ok"
    first = Runner(resolve(spec), resolve("random")).engine.name
    bot.write_text(PROTOBOT.read_text() + "\n# edited\n")
    assert Runner(resolve(spec), resolve("random")).engine.name != first
    for bad, why in [
        ("exec:", "empty exec command"),
        ("exec:no-such-program-here --x", "not on PATH"),
        ("exec:./no/such/bot", "does not exist"),
        (f"exec:{sys.executable} 'unclosed", "quote ' is not closed"),
        (f"exec:{sys.executable} a\\", "bad exec command"),
        (f"trum=exec:{sys.executable} {PROTOBOT} ok", "expected trump=BOT, play=BOT"),
        (f"exec:{sys.executable} {PROTOBOT},exec:{sys.executable}", "more than one plain"),
    ]:
        with pytest.raises(StrategyError, match=why):
            resolve(bad)


def test_run_trace_show_and_the_api_take_exec_specs(tmp_path, ports):
    cli = CliRunner()
    c = ports["c"]
    res = cli.invoke(main, ["run", c, "random", "--hands", "300", "--seed", "5", "--threads",
                            "2", "--out", str(tmp_path / "run"), "--json", "--bot-timeout",
                            "30"])  # fmt: skip
    assert res.exit_code == 0, res.output
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["config"]["strategies"]["a"]["play"]["command"] == shlex.split(c[5:])
    # the recorded command gives the limit again (a slow bot would fault without it)
    assert summary["command"].endswith("--bot-timeout 30.0"), summary["command"]
    again = cli.invoke(main, [*shlex.split(summary["command"])[1:], "--out", str(tmp_path / "2")])
    assert again.exit_code == 0, again.output
    assert json.loads((tmp_path / "2" / "summary.json").read_text())["counts"] == summary["counts"]
    want = cli.invoke(main, ["show", "--seed", "5", "--hand", "3", "--a", "longest", "--b",
                             "random"])  # fmt: skip
    got = cli.invoke(main, ["show", "--seed", "5", "--hand", "3", "--a", c, "--b", "random"])
    assert got.exit_code == 0 and got.output.replace(c, "longest") == want.output
    got = cli.invoke(main, ["trace", "--seed", "5", "--hands", "4", "--a", c, "--b", "random"])
    want = cli.invoke(main, ["trace", "--seed", "5", "--hands", "4", "--a", "longest", "--b",
                             "random"])  # fmt: skip
    assert got.exit_code == 0 and got.output.replace(c, "longest") == want.output
    s = hokm_sim.run(c, "random", hands=300, seed=5, threads=1)
    assert "--bot-timeout" not in s.command  # the default limit is not written
    assert (
        s.to_dict()["counts"]
        == json.loads((tmp_path / "run" / "summary.json").read_text())["counts"]
    )


def test_a_protocol_bot_in_a_seat_of_the_environments_table(ports, runner):
    """SeatBot (what the environments' opponents and ``serve`` use) asks a protocol bot
    one request at a time: the cards of the run."""
    from hokm_sim.env.table import SeatBot, Table

    want = runner("longest", "random").trace_hands(5, 0, 3)
    port, rnd = SeatBot(resolve(ports["js"])), SeatBot(resolve("random"))
    table = Table()
    for deal in range(3):
        table.start(seed=5, deal=deal)
        while table.waiting is not None:
            table.act((port if table.seat % 2 == 0 else rnd).decide(table))
        assert (table.rows[0] == want[deal]).all()


def test_regress_a_protocol_bot_against_another(tmp_path, ports):
    """The C port against a copy of itself (another file, so another strategy): the same
    cards on every deal, so the check accepts 'no regression' once it has seen a
    thousand identical pairs."""
    import shutil

    copy = tmp_path / "longest_copy"
    shutil.copy(ports["c"][5:], copy)
    res = CliRunner().invoke(main, ["regress", ports["c"], "--baseline", f"exec:{copy}", "--seed",
                                    "2", "--threads", "2", "--json"])  # fmt: skip
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["verdict"] == "no regression" and out["identical_play"] is True


def test_regress_a_protocol_bot_against_its_committed_source(tmp_path):
    """git:REF for an exec: command: the tracked files it names (with their folder) as
    they were at REF, run from the baseline cache."""
    import subprocess

    from hokm_sim.analysis.regress import resolve_baseline

    repo = tmp_path / "repo"
    (repo / "bots").mkdir(parents=True)
    bot = repo / "bots" / "bot.py"
    bot.write_text(PROTOBOT.read_text())
    (repo / "bots" / "helper.txt").write_text("kept\n")
    git = ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "bot"], check=True)
    bot.write_text(PROTOBOT.read_text().replace('"C"', '"S"'))  # the edit: spades, not clubs
    cand = f"exec:{sys.executable} {bot} ok"
    base = resolve_baseline("git:HEAD", cand)
    old = Path(base.play.command[1])
    assert old != bot and old.read_text() == PROTOBOT.read_text()
    assert (old.parent / "helper.txt").read_text() == "kept\n"
    assert base.name == f"{cand}@git:HEAD" and base.play.command[0] == sys.executable
    args = ["--baseline", "git:HEAD", "--seed", "1", "--max-pairs", "300", "--json"]
    res = CliRunner().invoke(main, ["regress", cand, *args])
    assert res.exit_code in (0, 1, 3), res.output
    assert json.loads(res.output)["identical_play"] is False
    for ref, spec, what in [
        ("HEAD", f"exec:{sys.executable} -c pass", "needs the exec command to name a file tracked"),
        ("nosuchref", cand, "git:nosuchref names no commit of the repository"),
        ("--output=x", cand, "not a git revision"),  # never an option to git
    ]:
        with pytest.raises(StrategyError, match=what):
            resolve_baseline(f"git:{ref}", spec)


def test_every_command_takes_a_protocol_bot(tmp_path, ports):
    """tournament, experiment files, dd-study and analyse with the C port; the
    environments' seats with both ports (one process each, asked one request at a
    time)."""
    c = ports["c"]
    cli = CliRunner()
    res = cli.invoke(main, ["tournament", c, PY_LONGEST, "random", "--hands", "100", "--seed",
                            "1", "--threads", "2", "--out", str(tmp_path / "t")])  # fmt: skip
    assert res.exit_code == 0, res.output
    spec = tmp_path / "e.toml"
    spec.write_text(f'name = "x"\nquestion = "q"\nseed = 4\nhands = 200\n[[runs]]\na = "{c}"\n'
                    'b = "random"\n')  # fmt: skip
    res = cli.invoke(main, ["experiment", str(spec), "--out", str(tmp_path / "x")])
    assert res.exit_code == 0, res.output
    res = cli.invoke(main, ["dd-study", "--hands", "40", "--seed", "1", "--heuristics",
                            f"{c},random", "--out", str(tmp_path / "d")])  # fmt: skip
    assert res.exit_code == 0, res.output
    calls = json.loads((tmp_path / "d" / "summary.json").read_text())["heuristics"]
    assert set(calls) == {c, "random"}
    res = cli.invoke(main, ["analyse", "--seed", "1", "--hands", "2", "--a", c, "--b", "random",
                            "--format", "summary"])  # fmt: skip
    assert res.exit_code == 0, res.output
    pytest.importorskip("gymnasium")
    from hokm_sim.env import HokmGymEnv

    env = HokmGymEnv(partner=c, opponents=ports["js"])
    obs, info = env.reset(seed=3)
    done, steps = False, 0
    while not done:
        action = int(np.flatnonzero(env.action_masks())[0])
        obs, reward, done, _, info = env.step(action)
        steps += 1
    assert steps > 0
