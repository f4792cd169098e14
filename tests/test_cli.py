"""The ``hokm-sim`` command line through click's test runner.

Version and help (every help text ends with runnable examples), the
``strategies`` list, ``trace`` JSON Lines (exactly the documented fields,
every hand valid by the reference rules), ``show`` from a seed and from a
trace file, ``bench --json``, and usage errors: exit code 2, one ``Error:``
line naming the problem, no traceback.
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from hokm_checks import HAND_FIELDS, MATCH_FIELDS, check_match_rows, check_record

import hokm_sim
from hokm_sim.bots import registry
from hokm_sim.bots.registry import builtin_bots
from hokm_sim.cards import SUIT_SYMBOLS, parse_suit
from hokm_sim.cli import main
from hokm_sim.errors import InputError
from hokm_sim.version import __version__

COMMANDS = sorted(main.commands)
LR = ("--a", "longest", "--b", "random")
"""The pair most tests play (its engine is compiled once for the suite)."""


def invoke(*args: str, ok: bool = True):
    result = CliRunner().invoke(main, list(args))
    if ok:
        assert result.exit_code == 0, (args, result.output, result.exception)
    return result


def test_commands_exist():
    assert set(COMMANDS) >= {"strategies", "trace", "show", "bench"}


def test_version():
    result = invoke("--version")
    assert "hokm-sim" in result.stdout and __version__ in result.stdout


def _example_lines(help_text: str) -> list[str]:
    """The commands of the help's last paragraph, which must be its Example section."""
    body = help_text.split("\nOptions:")[0]
    paragraphs = [p for p in body.split("\n\n") if p.strip()]
    last = paragraphs[-1].strip().splitlines()
    assert last[0].strip() == "Example:", f"help does not end with an Example:\n{help_text}"
    examples = [line.strip() for line in last[1:]]
    assert examples and all(e.startswith("hokm-sim ") for e in examples), examples
    return examples


REPO = Path(__file__).resolve().parents[1]
STRATEGY_PARAMS = ("a", "b", "candidate", "calibrate", "player", "strategy_specs")
"""Parameters holding strategy specs (``heuristics`` and ``baseline`` are handled apart)."""


def _make_example_files(argv: list[str], cwd: Path) -> None:
    """Create in ``cwd`` the files and folders an example names, as a user would have them.

    Experiment files must be the repository's own; a bot file (``my_bot.py``) is a
    copy of a real bot; a trace or deals file is empty; anything else with a ``/``
    (a report folder) is an empty folder.
    """
    for token in argv[2:]:
        if token.startswith("-") or "://" in token or token.startswith("git:"):
            continue
        path = cwd / token
        if token.endswith(".toml"):
            src = REPO / token
            assert src.is_file(), f"the example names {token}, which the repository lacks"
            path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(src, path)
        elif token.endswith(".py"):
            path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(REPO / "examples" / "my_bot.py", path)
        elif token.endswith(".jsonl"):
            path.write_text("")
        elif "/" in token:
            path.mkdir(parents=True, exist_ok=True)


def _parse_only(argv: list[str]) -> dict:
    """Parse an example command line as click would, without running it; its parameters.

    Every option and argument must exist and every value must convert (sizes,
    seeds, paths); every strategy spec must name a usable strategy.
    """
    from hokm_sim.api import strategy

    assert argv[0] == "hokm-sim"
    parent = click.Context(main, info_name="hokm-sim")
    if len(argv) == 1:
        return {}
    cmd = main.get_command(parent, argv[1])
    assert cmd is not None, argv
    ctx = cmd.make_context(argv[1], argv[2:], parent=parent)
    params = ctx.params
    for name in STRATEGY_PARAMS:
        values = params.get(name)
        for spec in [values] if isinstance(values, str) else values or ():
            strategy(spec)
    for spec in params.get("heuristics") or ():  # already cut by the SPECS option type
        strategy(spec)
    baseline = params.get("baseline")
    if baseline and not baseline.startswith("git:"):
        strategy(baseline)
    return params


@pytest.mark.parametrize("command", [None, *COMMANDS])
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help_ends_with_examples_that_parse(command, flag, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = [flag] if command is None else [command, flag]
    result = invoke(*args)
    assert result.stdout.startswith("Usage: ")
    assert "Traceback" not in result.output
    for example in _example_lines(result.stdout):
        argv = shlex.split(example)
        if command is not None:
            assert argv[1] == command, example
        _make_example_files(argv, tmp_path)
        _parse_only(argv)


def test_the_example_check_catches_a_bad_example(tmp_path, monkeypatch):
    """The check above can fail: a misspelt option, a bad size, an unknown strategy."""
    monkeypatch.chdir(tmp_path)
    for bad in (
        "hokm-sim run --hand 10",
        "hokm-sim run --hands 10x",
        "hokm-sim run expert lngest",
        "hokm-sim trump-study --heuristics longest,nosuch",
        "hokm-sim show --trace missing.jsonl",
        "hokm-sim nosuchcommand",
    ):
        with pytest.raises((click.ClickException, AssertionError, InputError)):
            _parse_only(shlex.split(bad))


def test_the_bot_timeout_help_gives_the_defaults_the_host_holds_bots_to():
    """--bot-timeout's help names both defaults: hello's (start-up) and a message's."""
    from hokm_sim.bots.host import Limits

    text = " ".join(invoke("run", "--help").stdout.split())
    at = text.index("--bot-timeout")
    default = text[at : text.index("]", at) + 1]
    assert f"{Limits.startup:g} for hello" in default, default
    assert f"{Limits.per_message:g} for a message" in default, default


def test_strategies_lists_builtins_with_descriptions():
    lines = invoke("strategies").stdout.splitlines()
    by_name = {line.split()[0]: line.split(None, 1)[1] for line in lines}
    assert {"longest", "random"} <= set(by_name)
    for name, bot in builtin_bots().items():
        assert bot.description and by_name[name].startswith(bot.description)
    assert "longest" in by_name["longest"].lower() and "random" in by_name["random"].lower()


def test_the_list_read_from_the_bot_files_is_what_loading_them_gives():
    """``strategies`` reads descriptions and parameters from the files' text (importing
    none): the same as importing every bot."""
    rows = {r["name"]: r for r in hokm_sim.list_strategies().data["strategies"]}
    bots = builtin_bots()
    assert list(rows) == list(bots)
    for name, bot in bots.items():
        assert (rows[name]["description"], rows[name]["params"]) == (bot.description, bot.params)


def test_a_bot_whose_listing_is_not_literal_is_loaded(tmp_path, monkeypatch):
    shutil.copy(registry.builtin_dir() / "random.py", tmp_path / "plain.py")
    text = (registry.builtin_dir() / "weighted.py").read_text()
    literal = 'PARAMS = {"length": 2.0, "strength": 1.0}'
    computed = text.replace(literal, "PARAMS = dict(length=3.0)")
    computed = computed.replace('DESCRIPTION = "', 'DESCRIPTION = "computed: " + "')
    assert computed.count("computed") == 1 and "dict(length=3.0)" in computed
    (tmp_path / "computed.py").write_text(computed)
    monkeypatch.setattr(registry, "builtin_dir", lambda: tmp_path)
    listing = registry.builtin_listing()
    assert listing["computed"][0].startswith("computed: trump = max length")
    assert listing["computed"][1] == {"length": 3.0}
    assert listing["plain"] == (registry.builtin_bots()["plain"].description, {})


def _records(text: str) -> list[dict]:
    lines = text.splitlines()
    assert all(line.strip() for line in lines)
    return [json.loads(line) for line in lines]


def _played(rec: dict) -> dict:
    """The record with only the tricks the hand lasted (see test_records_list_only_...)."""
    return {**rec, "tricks": rec["tricks"][: sum(rec["tricks_won"])]}


def test_trace_hands_gives_documented_records():
    recs = _records(invoke("trace", "--seed", "3", "--hands", "5").stdout)
    assert len(recs) == 5
    for i, rec in enumerate(recs):
        assert set(rec) == HAND_FIELDS
        assert (rec["seed"], rec["match"], rec["hand"], rec["hakem"]) == (3, 0, i, i % 4)
        check_record(_played(rec))


def test_trace_accepts_size_suffixes():
    assert len(_records(invoke("trace", "--seed", "3", "--hands", "1e1").stdout)) == 10


def test_trace_matches_gives_scores_and_target(runner):
    recs = _records(invoke("trace", "--seed", "3", "--matches", "2", "--target", "3",
                           "--a", "longest", "--b", "random").stdout)  # fmt: skip
    assert {r["match"] for r in recs} == {0, 1}
    r = runner("longest", "random")
    for m in (0, 1):
        mine = [_played(rec) for rec in recs if rec["match"] == m]
        assert [rec["hand"] for rec in mine] == list(range(len(mine)))
        for rec in mine:
            assert set(rec) == MATCH_FIELDS and rec["target"] == 3 and rec["seed"] == 3
        assert check_match_rows(r.trace_match(3, m, 3), 3, m, 3) == mine


def test_trace_default_target_is_7():
    recs = _records(invoke("trace", "--seed", "3", "--matches", "1", *LR).stdout)
    assert all(rec["target"] == 7 for rec in recs) and max(recs[-1]["scores"]) >= 7


def test_trace_output_file(tmp_path):
    out = tmp_path / "hands.jsonl"
    result = invoke("trace", "--seed", "3", "--hands", "5", "-o", str(out))
    assert result.stdout == ""
    assert out.read_text() == invoke("trace", "--seed", "3", "--hands", "5").stdout
    assert len(_records(out.read_text())) == 5


def _trick_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("trick ")]


def test_show_prints_trump_and_tricks():
    rec = _records(invoke("trace", "--seed", "3", "--hands", "3").stdout)[2]
    text = invoke("show", "--seed", "3", "--hand", "2").stdout
    assert "trump:" in text and SUIT_SYMBOLS[parse_suit(rec["trump"])] in text
    assert f"Hakem seat {rec['hakem']}" in text
    t0, t1 = rec["tricks_won"]
    assert len(_trick_lines(text)) == t0 + t1
    assert f"tricks {t0}-{t1}" in text


def test_show_trace_file_line(tmp_path):
    out = tmp_path / "hands.jsonl"
    invoke("trace", "--seed", "3", "--hands", "4", "-o", str(out))
    from_file = invoke("show", "--trace", str(out), "--line", "2").stdout
    from_seed = invoke("show", "--seed", "3", "--hand", "1").stdout
    assert "hand 1" in from_file
    n = sum(_records(out.read_text())[1]["tricks_won"])
    assert _trick_lines(from_file)[:n] == _trick_lines(from_seed)


def test_show_hand_of_a_match():
    recs = _records(invoke("trace", "--seed", "3", "--matches", "1", "--target", "3", *LR).stdout)
    text = invoke("show", "--seed", "3", "--match", "0", "--hand", str(len(recs) - 1),
                  "--target", "3", *LR).stdout  # fmt: skip
    scores = recs[-1]["scores"]
    assert f"match score {scores[0]}-{scores[1]} (target 3)" in text
    n = sum(recs[-1]["tricks_won"])
    winners = [int(line.rsplit("won by seat ", 1)[1].split()[0]) for line in _trick_lines(text)]
    assert winners[:n] == [t["winner"] for t in recs[-1]["tricks"][:n]]


def test_records_list_only_the_tricks_played(tmp_path):
    """A hand traced after a longer one must not show the longer one's last tricks."""
    out = tmp_path / "hands.jsonl"
    invoke("trace", "--seed", "3", "--hands", "5", "-o", str(out))
    matches = _records(invoke("trace", "--seed", "3", "--matches", "2", *LR).stdout)
    for rec in _records(out.read_text()) + matches:
        assert len(rec["tricks"]) == sum(rec["tricks_won"]), (rec["match"], rec["hand"])
    for line, rec in enumerate(_records(out.read_text()), 1):
        shown = invoke("show", "--trace", str(out), "--line", str(line)).stdout
        assert len(_trick_lines(shown)) == sum(rec["tricks_won"])
    last = [rec for rec in matches if rec["match"] == 0][-1]
    shown = invoke("show", "--seed", "3", "--match", "0", "--hand", str(last["hand"]), *LR).stdout
    assert len(_trick_lines(shown)) == sum(last["tricks_won"])


def test_bench_json():
    result = invoke("bench", "--hands", "20000", "--threads", "1", "--repeat", "3", "--json")
    res = json.loads(result.stdout)
    assert res["threads"] == 1 and res["hands"] == 20000 and len(res["runs"]) == 3
    assert res["hands_per_sec"] == max(res["runs"]) > 0
    assert min(res["runs"]) <= res["median_hands_per_sec"] <= max(res["runs"])
    assert res["seconds"] == pytest.approx(20000 / res["hands_per_sec"])


def test_bench_text():
    text = invoke("bench", "--hands", "20000", "--threads", "1").stdout
    assert "hands/s" in text and "1 thread" in text and "best of 3 runs" in text
    assert "median" in text
    one = invoke("bench", "--hands", "20000", "--threads", "1", "--repeat", "1").stdout
    assert "1 run of 20,000 hands" in one and "median" not in one


USAGE_ERRORS = [
    (["trace", "--seed", "3", "--hands", "5", "--a", "nosuchbot"],
     ["nosuchbot", "longest", "random"]),
    (["trace", "--seed", "3", "--hands", "5", "--b", "trump=nosuchbot,play=random"],
     ["nosuchbot", "longest", "random"]),
    (["show", "--seed", "3", "--hand", "0", "--a", "nosuchbot"], ["nosuchbot", "longest"]),
    (["bench", "--a", "nosuchbot"], ["nosuchbot", "longest"]),
    (["trace", "--seed", "3", "--hands", "0"], ["--hands", "0"]),
    (["trace", "--seed", "3", "--hands", "-5"], ["--hands", "-5"]),
    (["trace", "--seed", "3", "--hands", "abc"], ["--hands", "abc"]),
    (["trace", "--seed", "-1", "--hands", "3"], ["--seed", "-1"]),
    (["trace", "--seed", "x", "--hands", "3"], ["--seed", "x"]),
    (["trace", "--seed", str(2**64), "--hands", "3"], ["--seed"]),
    (["trace", "--seed", "3", "--matches", "2", "--target", "0"], ["--target", "0"]),
    (["trace", "--seed", "3", "--hands", "2", "--matches", "2"], ["--hands", "--matches"]),
    (["trace", "--seed", "3"], ["--hands", "--matches"]),
    (["trace", "--hands", "3"], ["--seed"]),
    (["bench", "--threads", "0"], ["--threads", "0"]),
    (["bench", "--threads", "999"], ["--threads", "999"]),
    (["bench", "--hands", "0"], ["--hands"]),
    (["bench", "--repeat", "0"], ["--repeat", "0"]),
    (["show", "--seed", "3"], ["--hand"]),
    (["show", "--seed", "3", "--match", "0", "--hand", "999", *LR], ["--hand", "0.."]),
    (["show", "--trace", "missing.jsonl"], ["--trace", "missing.jsonl"]),
    (["strategies", "extra"], ["extra"]),
    (["run", "longest", "random", "--hands", "0"], ["--hands", "0"]),
    (["run", "longest", "nosuchbot", "--hands", "10"], ["B:", "nosuchbot"]),
    (["run", "longest", "random", "--matches", "10", "--hands", "10"], ["not both"]),
    (["tournament", "longest"], ["at least two"]),
    (["field", "nosuchbot"], ["CANDIDATE", "nosuchbot", "longest"]),
    (["field", "longest", "--field", "random,random"], ["--field", "'random' twice"]),
    (["tune", "longest", "--param", "x=0:1"], ["--param", "unknown parameter 'x'"]),
    (["tune", "weighted", "--param", "length=0:1", "--against", "nosuchbot"],
     ["--against", "nosuchbot"]),
    (["tournament", "longest", "nosuchbot"], ["nosuchbot", "longest"]),
    (["tournament", "longest", "random", "--hands", "x"], ["--hands", "x"]),
    (["experiment", "missing.toml"], ["missing.toml"]),
    (["experiment"], ["FILE"]),
    (["regress"], ["CANDIDATE"]),
    (["regress", "random", "--baseline", "nosuchbot"], ["--baseline", "nosuchbot"]),
    (["regress", "random", "--metric", "elo"], ["--metric", "elo"]),
    (["sprt", "--wins", "1,2"], ["3"]),
    (["sprt"], ["--wins", "--points"]),
    (["trump-study", "--player", "nosuchbot"], ["nosuchbot"]),
    (["trump-study", "--heuristics", "longest,nosuchbot"], ["nosuchbot"]),
    (["trump-study", "--hands", "0"], ["--hands", "0"]),
    (["plot", "missing"], ["missing"]),
    (["plot", "."], ["not a report folder", "summary.json"]),
    (["dd", "missing.jsonl"], ["missing.jsonl"]),
    (["dd-study", "--hands", "0"], ["--hands", "0"]),
    (["dd-study", "--heuristics", "nosuchbot"], ["nosuchbot"]),
    (["dd-study", "--seed", "-3"], ["--seed", "-3"]),
    (["analyse"], ["one source of hands"]),
    (["analyse", "--seed", "1"], ["--hands"]),
    (["analyse", "--seed", "1", "--hands", "2", "--a", "nosuchbot"], ["nosuchbot", "longest"]),
    (["run", "longest", "random", "--matches", "5", "--first-hakem", "x"], ["--first-hakem"]),
    (["trace", "--seed", "1", "--hands", "2", "--first-hakem", "highest-card"], ["--matches"]),
    (["play", "--target", "4"], ["--target", "4"]),
    (["play", "--daily", "--seed", "1"], ["--daily", "--seed"]),
    (["play", "--partner", "nosuchbot"], ["--partner", "nosuchbot"]),
    (["play", "--first-hakem", "two-aces"], ["--first-hakem", "highest-two"]),
    (["games", "--data", "nowhere"], ["no games yet", "hokm-sim play"]),
    (["games", "--format", "csv"], ["--format", "csv"]),
    (["run", "exec:/no/such/bot", "random", "--hands", "10"], ["exec command", "does not exist"]),
    (["run", "exec:", "random", "--hands", "10"], ["empty exec command"]),
    (["run", "longest", "random", "--hands", "10", "--bot-timeout", "0"], ["--bot-timeout"]),
    (["serve", "nosuchbot"], ["nosuchbot", "longest"]),
    (["serve", "longest", "--http", "70000"], ["--http", "70000"]),
    (["check-bot", "nosuchbot"], ["nosuchbot", "longest"]),
    (["check-bot", "exec:no-such-program-anywhere"], ["not on PATH"]),
    (["results", "--since", "soon"], ["--since", "bad date 'soon'", "YYYY-MM-DD"]),
    (["results", "--command", "runs"], ["--command", "runs", "tournament"]),
    (["history", "x", "--store", "/no/such/folder/s.sqlite"], ["no results stored yet"]),
    (["dashboard", "--port", "0"], ["--port", "0"]),
]  # fmt: skip
"""(command line, fragments the one ``Error:`` line must contain)."""


def test_every_command_has_usage_error_cases():
    assert {args[0] for args, _ in USAGE_ERRORS} == set(COMMANDS)


@pytest.mark.parametrize(
    ("args", "fragments"), [pytest.param(a, f, id=" ".join(a)) for a, f in USAGE_ERRORS]
)
def test_usage_errors(args, fragments, tmp_path, monkeypatch):
    """Exit code 2, one ``Error:`` line naming the problem, no traceback, nothing written."""
    monkeypatch.chdir(tmp_path)
    result = invoke(*args, ok=False)
    assert result.exit_code == 2, (result.output, result.exception)
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert result.stdout == ""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    assert not any(tmp_path.iterdir()), "bad input left files behind"


def test_show_trace_line_past_the_end(tmp_path):
    out = tmp_path / "hands.jsonl"
    invoke("trace", "--seed", "3", "--hands", "2", "-o", str(out))
    result = invoke("show", "--trace", str(out), "--line", "3", ok=False)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "2 lines" in result.stderr


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["run", "nope", "random"], "Error: A: unknown strategy 'nope'"),
        (["trace", "--seed", "1", "--hands", "1", "--a", "nope"], "Error: --a: unknown strategy"),
        (
            ["run", "--hands", "10", "--target", "5"],
            "Error: --target: sets the score a match is played to: give it with --matches",
        ),
        (["trace", "--seed", "1"], "Error: give --hands or --matches"),
        (["analyse", "--seed", "1"], "Error: --hands: give it too"),
        (
            ["analyse", "--trace", "t.jsonl", "--hands", "2"],
            "Error: --hands: picks deals of FOLDER or --seed; a trace is read whole",
        ),
        (["analyse", "r"], "Error: FOLDER: r has no saved hands (hands.parquet): run with "),
        (["run", "--resume", "r"], "Error: --resume: r holds no checkpoint.json"),
        (
            ["analyse", "--seed", "1", "--hands", "1", "--html", "full"],
            "Error: --html: report folder full already exists; choose another or add --force",
        ),
        (["show", "--trace", "t.jsonl", "--line", "9"], "Error: --line: t.jsonl has 1 lines"),
        (["sprt", "--wins", "1,2,3", "--alpha", "0.6", "--beta", "0.6"], "--alpha + --beta < 1"),
    ],
)
def test_library_errors_are_told_in_the_command_flags(tmp_path, monkeypatch, args, line):
    """The library names Python parameters; each command shows its own flags."""
    monkeypatch.chdir(tmp_path)
    invoke("trace", "--seed", "1", "--hands", "1", "-o", "t.jsonl")
    invoke("run", *LR[1::2], "--hands", "100", "--seed", "1", "--out", "r")
    (tmp_path / "r" / "checkpoint.json").unlink()
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    res = invoke(*args, ok=False)
    assert res.exit_code == 2, res.output
    assert len(res.stderr.splitlines()) == 1 and line in res.stderr, res.stderr
