"""What a user types into the API and the commands, past the first obvious values:
addresses, test bounds, seeds near 2**64, huge counts and targets, lists given as one
string, entries given twice, options of another mode. Each bad one is one
:class:`InputError` naming the Python parameter (the API) or one line and exit 2 naming
the flag (the CLI), found before any engine compiles and before a report folder is
made."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from test_cli_inputs import _fails  # one line naming the problem, exit 2

import hokm_sim
from hokm_sim.cli import main
from hokm_sim.errors import InputError
from hokm_sim.house import MAX_TARGET


@pytest.fixture(autouse=True)
def _nothing_compiles(monkeypatch):
    """Every check here comes before an engine is built."""
    from hokm_sim.sim import runner

    def refuse(*args, **kwargs):
        raise AssertionError("an engine was built before the input was checked")

    monkeypatch.setattr(runner.Runner, "__init__", refuse)


BAD_SCHEDULERS = [
    ("garbage", "missing port"),
    ("tcp://localhost", "missing port"),
    ("http://127.0.0.1:8786", "unknown address scheme 'http'"),
    ("tcp://[::1", "invalid address"),
    ("tcp://127.0.0.1:0", "port 0"),
]


@pytest.mark.parametrize(("address", "why"), BAD_SCHEDULERS)
@pytest.mark.parametrize(
    "cmd",
    [
        ["run", "longest", "random", "--hands", "10"],
        ["tournament", "longest", "random", "--hands", "10"],
        ["regress", "longest", "--baseline", "random"],
        ["trump-study", "--hands", "10"],
    ],
    ids=["run", "tournament", "regress", "trump-study"],
)
def test_a_bad_scheduler_address_is_one_line_and_no_folder(cmd, address, why, tmp_path):
    out = tmp_path / "r"
    _fails([*cmd, "--scheduler", address, "--out", out], "bad scheduler", why)
    assert not out.exists()


@pytest.mark.parametrize(
    ("flags", "needle"),
    [
        (["--elo1", "inf"], "--elo1: expected a finite number, got inf"),
        (["--elo0", "nan"], "--elo0: expected a finite number, got nan"),
        (["--elo0", "-inf"], "--elo0: expected a finite number"),
        (["--alpha", "nan"], "--alpha: expected a finite number"),
        (["--alpha", "-0.1"], "0 < --alpha"),
        (["--alpha", "1"], "0 < --alpha"),
        (["--beta", "0.96"], "--alpha + --beta < 1"),
    ],
)
@pytest.mark.parametrize(
    "cmd",
    [
        ["regress", "longest", "--baseline", "random"],
        ["regress", "--calibrate", "random"],
        ["sprt", "--wins", "1,2,3"],
    ],
    ids=["regress", "calibrate", "sprt"],
)
def test_the_bounds_of_a_test_are_checked_the_same_everywhere(cmd, flags, needle):
    _fails([*cmd, *flags], needle)


def test_calibration_seeds_stay_within_64_bits():
    err = _fails(["regress", "--calibrate", "random", "--runs", "3", "--seed", 2**64 - 2],
                 "--seed", "2**64-1", "at most 18446744073709551613")  # fmt: skip
    assert "--runs" in err


def test_sprt_counts_past_64_bits_are_refused():
    _fails(["sprt", "--wins", "99999999999999999999999,1,1"], "--wins", "non-negative counts")


@pytest.mark.parametrize("target", [MAX_TARGET + 1, 2**63, 10**20])
@pytest.mark.parametrize(
    "cmd",
    [
        ["run", "longest", "random", "--matches", "2"],
        ["trace", "--seed", "1", "--matches", "1"],
        ["show", "--seed", "1", "--match", "0", "--hand", "0"],
        ["regress", "longest", "--baseline", "random", "--metric", "matches"],
    ],
    ids=["run", "trace", "show", "regress"],
)
def test_match_targets_past_the_limit_are_refused(cmd, target):
    _fails([*cmd, "--target", target], "--target", f"at most {MAX_TARGET}")


def test_regress_takes_a_target_only_for_matches():
    _fails(["regress", "longest", "--baseline", "random", "--target", "9"],
           "--target", "--metric matches")  # fmt: skip
    _fails(["regress", "--calibrate", "random", "--target", "9"], "--target", "--metric matches")


@pytest.mark.parametrize(
    ("flags", "needle"),
    [
        (["longest", "--runs", "3"], "--runs"),
        (["--calibrate", "random", "--baseline", "longest"], "drop --baseline"),
        (["--calibrate", "random", "--scheduler", "local:1"], "drop --scheduler"),
        (["--calibrate", "random", "--out", "x"], "drop --out"),
    ],
)
def test_calibration_options_go_with_calibrate_only(flags, needle):
    _fails(["regress", *flags], needle)


def test_a_tournament_entry_given_twice_is_refused(tmp_path):
    out = tmp_path / "t"
    _fails(["tournament", "longest", "random", "longest", "--hands", "10", "--out", out],
           "strategy 3 (longest) is strategy 1 again")  # fmt: skip
    assert not out.exists()
    with pytest.raises(InputError, match="^strategies: strategy 2 .* again") as e:
        hokm_sim.tournament(["random", "random"], hands=10)
    assert e.value.param == "strategies"


def test_a_tournament_of_one_string_is_refused_as_such():
    with pytest.raises(InputError, match="^strategies: expected a list of strategies, got "):
        hokm_sim.tournament("longest", hands=10)


@pytest.mark.parametrize(
    ("kwargs", "param", "needle"),
    [
        ({"seed": 1.5}, "seed", "whole number"),
        ({"seed": "abc"}, "seed", "whole number"),
        ({"seed": True}, "seed", "whole number"),
        ({"seed": 2**64}, "seed", "2**64-1"),
        ({"hands": 1.5}, "hands", "positive whole number"),
        ({"hands": True}, "hands", "positive whole number"),
        ({"hands": "10k"}, "hands", "the command line reads '10k'; Python takes 10_000"),
        ({"hands": 2**63 - 1}, "hands", "too large"),
        ({"matches": 2, "target": 2**63}, "target", f"at most {MAX_TARGET}"),
        ({"out": ""}, "out", "not an empty one"),
    ],
)
def test_run_refuses_what_is_not_a_count_seed_or_folder(kwargs, param, needle):
    kwargs = {"hands": 10} | kwargs if "matches" not in kwargs else kwargs
    with pytest.raises(InputError) as e:
        hokm_sim.run("longest", "random", **kwargs)
    assert e.value.param == param and needle in e.value.message, str(e.value)


RUN = '[[runs]]\na = "longest"\nb = "random"\n'


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (f"{RUN}hands = 100\ntarget = 5\n", "run 1: target: sets the score a match is played to"),
        (f"target = 5\n{RUN}", "run 1: target: sets the score a match is played to"),
        (f"{RUN}hands = {2**63 - 1}\n", "too large: at most"),
        (f"{RUN}matches = 2\ntarget = {MAX_TARGET + 1}\n", f"at most {MAX_TARGET}"),
    ],
)
def test_experiment_files_are_checked_as_the_command_line_is(tmp_path, text, needle):
    spec = tmp_path / "e.toml"
    spec.write_text(text)
    _fails(["experiment", spec, "--out", tmp_path / "r"], needle)
    assert not (tmp_path / "r").exists()


@pytest.mark.usefixtures("runner")
def test_a_dash_output_is_standard_output(tmp_path, monkeypatch):
    """``-o -`` prints, as most tools do, instead of writing a file named ``-``."""
    monkeypatch.undo()  # these play (the session's longest/random pair)
    monkeypatch.chdir(tmp_path)
    args = ["--seed", "3", "--hands", "1", "--a", "longest", "--b", "random"]
    shown = CliRunner().invoke(main, ["trace", *args])
    res = CliRunner().invoke(main, ["trace", *args, "-o", "-"])
    assert res.exit_code == 0 and res.stdout == shown.stdout != ""
    assert list(tmp_path.iterdir()) == []  # analyse's -o - is tested with its command


def test_a_verdict_names_the_score_it_gives():
    """Matches not in duplicate score the match-win rate: not a "hand score"."""
    from hokm_sim.report.markdown import verdict

    est = {"value": 0.325, "low": 0.178, "high": 0.472}
    data = {"a": {"name": "x"}, "b": {"name": "y"}, "pair_score": est, "elo": est,
            "nelo": {}, "pairs": 0, "config": {"mode": "matches"}}  # fmt: skip
    assert "match score 0.3250" in verdict(data)
    data["config"]["mode"] = "hands"
    assert "hand score 0.3250" in verdict(data)
    data["pair_score"] = {"value": 1.0, "low": None}
    assert "no interval" not in verdict(data) and "too few" in verdict(data)


def _rate_intervals(record, key=""):
    """``(name, interval)`` of every interval of a rate or score in a summary."""
    if isinstance(record, dict):
        if {"value", "low", "high"} <= record.keys() and ("rate" in key or "score" in key):
            yield key, record
        for k, v in record.items():
            yield from _rate_intervals(v, k if isinstance(v, dict) and "value" in v else key)
    elif isinstance(record, list):
        for v in record:
            yield from _rate_intervals(v, key)


@pytest.mark.usefixtures("runner")
@pytest.mark.parametrize(("seed", "shown"), [(1, "[0.0133, 1.0000]"), (3, "[0.0000, 0.9867]")])
def test_a_verdict_over_few_matches_keeps_its_interval_within_0_and_1(
    tmp_path, monkeypatch, seed, shown
):
    """Three matches once each: the match score's normal interval reaches past 1 (or
    below 0); it is clipped to the range a score can take, in the verdict and the report."""
    import json

    monkeypatch.undo()  # this one plays (the session's longest pair)
    out = tmp_path / "r"
    args = ["run", "longest", "longest", "--matches", "3", "--no-duplicate", "--seed", seed]
    res = CliRunner().invoke(main, [*args, "--threads", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert f"match score {2 / 3 if seed == 1 else 1 / 3:.4f} {shown}" in res.stdout
    found = list(_rate_intervals(json.loads((out / "summary.json").read_text())))
    assert {"pair_score", "hand_win_rate", "match_win_rate"} <= {k for k, _ in found}
    for key, e in found:
        if e["low"] is not None:
            assert 0 <= e["low"] <= e["value"] <= e["high"] <= 1, (key, e)


@pytest.mark.usefixtures("runner")
def test_an_interrupted_save_hands_run_does_not_offer_a_resume_that_is_refused(
    tmp_path, monkeypatch
):
    """Ctrl-C (a stop after the first batch) of a --save-hands run says the truth."""
    from hokm_sim.sim import run as sim_run

    monkeypatch.undo()  # this one plays (the session's longest/random pair)
    _stopping(sim_run, monkeypatch, fault=False)
    out = tmp_path / "r"
    args = ["run", "longest", "random", "--hands", "100000", "--seed", "1", "--threads", "1",
            "--task-size", "20000"]  # fmt: skip
    res = CliRunner().invoke(main, [*args, "--save-hands", "--out", str(out)])
    assert res.exit_code == 130, res.output
    assert "--resume" not in res.stderr and "cannot be resumed: run it again" in res.stderr
    resumed = CliRunner().invoke(main, ["run", "--resume", str(out)])
    assert resumed.exit_code == 2 and "cannot be resumed" in resumed.stderr


@pytest.mark.usefixtures("runner")
def test_a_resume_from_another_folder_finds_the_bot_files(tmp_path, monkeypatch):
    """Bot paths of a resumed run are taken from where the run began (its checkpoint)."""
    import shutil
    from pathlib import Path

    from hokm_sim.sim import run as sim_run

    monkeypatch.undo()  # this one plays (the session's pyrandom/random pair)
    started, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    (started / "bots").mkdir(parents=True)
    elsewhere.mkdir()
    shutil.copy(Path(__file__).parent / "bots" / "pyrandom.py", started / "bots")

    monkeypatch.chdir(started)
    with monkeypatch.context() as m:
        _stopping(sim_run, m, fault=False)  # Ctrl-C after the first batch
        args = ["run", "bots/pyrandom.py", "random", "--hands", "3000", "--task-size", "1000"]
        res = CliRunner().invoke(main, [*args, "--seed", "1", "--threads", "1", "--out", "r"])
    assert res.exit_code == 130, res.output
    monkeypatch.chdir(elsewhere)
    res = CliRunner().invoke(main, ["run", "--resume", str(started / "r")])
    assert res.exit_code == 0, res.output
    assert "pyrandom" in res.stdout


FAULT = "strategy 'x' raised, at seed 1, hand 9"


def _records_the_fault(folder, what: str) -> None:
    """A partial report stopped by a bot fault says so and quotes it (not "interrupted")."""
    import json

    assert json.loads((folder / "summary.json").read_text())["fault"] == FAULT
    report = (folder / "report.md").read_text()
    assert f"the {what} stopped at a bot fault" in report and FAULT in report, report


def _stopping(module, monkeypatch, *, fault: bool):
    """``module``'s backend plays one batch, then stops: Ctrl-C, or a bot fault."""
    import contextlib
    import types

    from hokm_sim.errors import StoppedError

    real = module.open_backend

    @contextlib.contextmanager
    def one_batch(*args, **kwargs):
        with real(*args, **kwargs) as backend:

            def batches(*a, **k):
                for batch in backend.batches(*a, **k):
                    yield batch
                    if fault:
                        raise StoppedError(FAULT)
                    flag.stop = True

            yield types.SimpleNamespace(batches=batches)

    flag = types.SimpleNamespace(stop=False)

    @contextlib.contextmanager
    def graceful():
        yield flag

    monkeypatch.setattr(module, "open_backend", one_batch)
    monkeypatch.setattr(module, "graceful_interrupt", graceful)


@pytest.mark.usefixtures("runner")
@pytest.mark.parametrize("fault", [False, True], ids=["ctrl-c", "bot-fault"])
def test_a_stopped_tournament_keeps_a_partial_report(tmp_path, monkeypatch, fault):
    import json

    from hokm_sim.analysis import tournament

    monkeypatch.undo()  # this one plays (the session's longest/random pair)
    _stopping(tournament, monkeypatch, fault=fault)
    out = tmp_path / "t"
    # a pairing plays in run's batches: the first of 65,536 deals on one thread
    args = ["tournament", "longest", "random", "--hands", "200000", "--seed", "1", "--threads", "1"]
    res = CliRunner().invoke(main, [*args, "--out", str(out)])
    summary = json.loads((out / "summary.json").read_text())
    assert summary["partial"] is True and 0 < summary["done"] < 200_000
    if fault:
        assert res.exit_code == 4, res.output
        assert f"(partial report: {out})" in res.stderr
        _records_the_fault(out, "tournament")
    else:
        assert res.exit_code == 130, res.output
        assert "partial: stopped after" in res.stdout
        assert "cannot be resumed: run it again" in res.stderr


@pytest.mark.usefixtures("runner")
@pytest.mark.parametrize("fault", [False, True], ids=["ctrl-c", "bot-fault"])
def test_a_stopped_regression_check_keeps_a_partial_report(tmp_path, monkeypatch, fault):
    import json

    from hokm_sim.analysis import regress

    monkeypatch.undo()  # this one plays (the session's random pair, checked)
    _stopping(regress, monkeypatch, fault=fault)
    out = tmp_path / "r"
    args = ["regress", "random", "--baseline", "random", "--seed", "1", "--threads", "1"]
    res = CliRunner().invoke(main, [*args, "--elo0", "-1", "--elo1", "1", "--out", str(out)])
    summary = json.loads((out / "summary.json").read_text())
    assert summary["partial"] is True and summary["verdict"] == "stopped before a verdict"
    assert summary["pairs"] > 0
    if fault:
        assert res.exit_code == 4, res.output
        assert f"(partial report: {out})" in res.stderr
        _records_the_fault(out, "regression check")
    else:
        assert res.exit_code == 130, res.output
        assert res.stdout.startswith("STOPPED BEFORE A VERDICT")
        assert "no verdict: run the check again" in res.stderr


@pytest.mark.usefixtures("runner")
@pytest.mark.parametrize("fault", [False, True], ids=["ctrl-c", "bot-fault"])
def test_a_stopped_experiment_keeps_its_finished_runs_and_stops(tmp_path, monkeypatch, fault):
    """Run 1 plays whole; run 2 stops after a batch: the report holds both, and there
    is no run 3 (Ctrl-C once stopped run 1 only and played the rest in full)."""
    import json

    from hokm_sim.sim import run as sim_run

    monkeypatch.undo()  # these play (the session's longest/random pair)
    spec = tmp_path / "e.toml"
    one = '[[runs]]\na = "longest"\nb = "random"\nhands = {}\n'
    spec.write_text("seed = 1\n" + one.format(100) + one.format(40_000) + one.format(100))
    real = sim_run.execute
    calls = []

    def execute(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            _stopping(sim_run, monkeypatch, fault=fault)
            args[0].task = 8192  # batches of 8192 deals: the stop comes after the first
        return real(*args, **kwargs)

    from hokm_sim.analysis import experiment

    monkeypatch.setattr(experiment, "execute", execute)
    out = tmp_path / "r"
    res = CliRunner().invoke(main, ["experiment", str(spec), "--threads", "1", "--out", str(out)])
    summary = json.loads((out / "summary.json").read_text())
    assert summary["partial"] is True and len(calls) == 2
    assert [r["partial"] for r in summary["runs"]] == [False, True]
    if fault:
        assert res.exit_code == 4 and f"(partial report: {out})" in res.stderr, res.output
        _records_the_fault(out, "experiment")
        assert summary["runs"][1]["fault"] == FAULT  # the run it stopped says so too
        assert "[PARTIAL: stopped at a bot fault]" in (out / "report.md").read_text()
    else:
        assert res.exit_code == 130 and "cannot be resumed: run it again" in res.stderr


@pytest.mark.usefixtures("runner")
def test_a_stopped_dd_study_keeps_the_deals_solved(tmp_path, monkeypatch):
    """Ctrl-C is heard between solver calls of a few deals each, not after the whole study."""
    import contextlib
    import json
    import types

    from hokm_sim.dd import study

    monkeypatch.undo()  # this one solves
    monkeypatch.setattr(study, "graceful_interrupt", contextlib.contextmanager(
        lambda: (yield types.SimpleNamespace(stop=True))))  # fmt: skip
    out = tmp_path / "d"
    args = ["dd-study", "--heuristics", "longest", "--hands", "12", "--seed", "1", "--threads", "1"]
    res = CliRunner().invoke(main, [*args, "--out", str(out)])
    assert res.exit_code == 130, res.output
    assert "Partial: stopped (Ctrl-C) after 4 of 12 deals" in res.stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["partial"] is True and summary["deals"] == study.DEALS_PER_CALL
    full = hokm_sim.dd_study(["longest"], hands=4, seed=1, threads=1)  # the same 4 deals
    assert full.data["heuristics"] == summary["heuristics"] and not full.data["partial"]


def test_a_trump_study_stopped_by_a_fault_leaves_no_empty_folder(tmp_path, monkeypatch):
    from hokm_sim.analysis import trumpstudy
    from hokm_sim.errors import StoppedError

    def fault(*args, **kwargs):
        raise StoppedError("the bot raised, at seed 1, hand 9")

    monkeypatch.setattr(trumpstudy, "collect", fault)
    out = tmp_path / "s"
    res = CliRunner().invoke(main, ["trump-study", "--hands", "10", "--out", str(out)])
    assert res.exit_code == 4 and "the bot raised" in res.stderr, res.output
    assert not out.exists()


STUDY = ["trump-study", "--player", "longest", "--heuristics", "longest,points", "--seed", "5",
         "--threads", "1"]  # fmt: skip
"""The study of test_reproduce.py (its learned table, so its held-out engine, compiled once)."""

FIGURES = ("heuristics", "by_longest", "by_longest_honours", "ace_vs_length",
           "outcomes_by_trump_length", "table")  # fmt: skip


def _no_figures(monkeypatch):
    """The trump study's figures are drawn by test_reproduce.py; here they cost time only."""
    from hokm_sim.report import plots

    monkeypatch.setattr(plots, "draw_all", lambda data, folder: [])


def _same_figures(folder, command, tmp_path):
    """The recorded command of a stopped study gives the study it holds, whole."""
    import json
    import shlex

    again = tmp_path / "again"
    res = CliRunner().invoke(main, [*shlex.split(command)[1:], "--out", str(again)])
    assert res.exit_code == 0, res.output
    kept = json.loads((folder / "summary.json").read_text())
    whole = json.loads((again / "summary.json").read_text())
    assert not whole["partial"] and whole["command"] == command
    for key in FIGURES:
        assert kept[key] == whole[key], key
    assert (folder / "trump_table.json").read_text() == (again / "trump_table.json").read_text()


@pytest.mark.usefixtures("runner")
@pytest.mark.parametrize("fault", [False, True], ids=["ctrl-c", "bot-fault"])
def test_a_trump_study_stopped_in_its_deals_keeps_the_blocks_finished(tmp_path, monkeypatch, fault):
    """A stop after the first block (Ctrl-C), or a bot fault in the second: the report is
    the study of the first block's deals, without the held-out test, and says so."""
    import contextlib
    import json
    import types

    from hokm_sim.analysis import trumpstudy as ts
    from hokm_sim.errors import StoppedError

    monkeypatch.undo()  # this one plays (longest in every seat)
    _no_figures(monkeypatch)
    monkeypatch.setattr(ts, "FIRST_BLOCK", 700)
    monkeypatch.setattr(ts, "BLOCK_SECONDS", 0.0)  # blocks of 700 deals, never grown
    if fault:
        real = ts.collect_rows

        def collect_rows(backend, runner, seed, n, suits, progress, start=0):
            if start > 0 and runner.a.name == "points":
                raise StoppedError("the bot raised, at seed 5, hand 700")
            return real(backend, runner, seed, n, suits, progress, start)

        monkeypatch.setattr(ts, "collect_rows", collect_rows)
    else:
        monkeypatch.setattr(ts, "graceful_interrupt", contextlib.contextmanager(
            lambda: (yield types.SimpleNamespace(stop=True))))  # fmt: skip
    out = tmp_path / "s"
    res = CliRunner().invoke(main, [*STUDY, "--hands", "2000", "--out", str(out)])
    summary = json.loads((out / "summary.json").read_text())
    assert summary["partial"] is True and summary["deals"] == 700
    assert summary["asked"] == {"hands": 2000, "eval_hands": 100_000}
    assert summary["table"]["eval"] is None
    assert "--hands 700 " in summary["command"] and summary["command"].endswith("--eval-hands 0")
    report = (out / "report.md").read_text()
    assert "700 of 2,000 deals studied; no held-out test" in report
    assert "not tested on fresh deals" in report
    if fault:
        assert res.exit_code == 4, res.output
        assert f"(partial report: {out})" in res.stderr
        assert summary["stopped"] == "the bot raised, at seed 5, hand 700"
    else:
        assert res.exit_code == 130, res.output
        assert "Partial: stopped (Ctrl-C)" in res.stdout
        assert "a study cannot be resumed: run it again" in res.stderr
    _same_figures(out, summary["command"], tmp_path)


@pytest.mark.usefixtures("runner")
@pytest.mark.parametrize("fault", [False, True], ids=["ctrl-c", "bot-fault"])
def test_a_trump_study_stopped_in_its_held_out_test_keeps_the_study(tmp_path, monkeypatch, fault):
    """The study whole, the held-out test stopped after its first batch: both kept, the
    test's deals played said, and the recorded command is the test of those deals."""
    import json

    from hokm_sim.sim import run as sim_run

    monkeypatch.undo()  # this one plays (the study of test_reproduce.py)
    _no_figures(monkeypatch)
    real = sim_run.execute
    out = tmp_path / "s"
    with monkeypatch.context() as m:

        def execute(cfg, *args, **kwargs):
            _stopping(sim_run, m, fault=fault)
            cfg.task = 500  # batches of 500 deals: the stop comes after one or two
            return real(cfg, *args, **kwargs)

        m.setattr(sim_run, "execute", execute)
        res = CliRunner().invoke(main, [*STUDY, "--hands", "2000", "--eval-hands", "5000",
                                        "--out", str(out)])  # fmt: skip
    summary = json.loads((out / "summary.json").read_text())
    assert summary["partial"] is True and summary["deals"] == 2000
    tested = summary["table"]["eval"]["deals"]
    assert 0 < tested < 5000 and tested % 500 == 0  # whole batches, in order
    assert summary["command"].endswith(f"--hands 2000 --seed 5 --eval-hands {tested}")
    assert (
        f"all 2,000 deals studied; held-out test {tested:,} of 5,000 deals"
        in (out / "report.md").read_text()
    )
    if fault:
        assert res.exit_code == 4 and f"(partial report: {out})" in res.stderr, res.output
    else:
        assert res.exit_code == 130 and "a study cannot be resumed" in res.stderr, res.output
    _same_figures(out, summary["command"], tmp_path)


@pytest.mark.usefixtures("runner")
def test_ctrl_c_before_the_held_out_test_keeps_the_whole_study(tmp_path, monkeypatch):
    """Ctrl-C while the learned table's engine compiles: the study stays, the test is
    said not to have been played, and the recorded command leaves it out."""
    import json

    from hokm_sim.analysis import trumpstudy as ts

    monkeypatch.undo()  # this one plays (longest in every seat)
    _no_figures(monkeypatch)

    def compiling(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(ts, "table_strategy", compiling)
    out = tmp_path / "s"
    res = CliRunner().invoke(main, [*STUDY, "--hands", "900", "--out", str(out)])
    assert res.exit_code == 130, res.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["partial"] is True and summary["deals"] == 900
    assert summary["table"]["eval"] is None and summary["command"].endswith("--eval-hands 0")
    assert "all 900 deals studied; held-out test 0 of 100,000 deals" in res.stdout


# --- wrong types: every public function's shared parameters, and a few of its own -------

REQUIRED = {
    "run": {"a": "random", "b": "longest", "hands": 10},
    "resume": {"folder": "results/none"},
    "tournament": {"strategies": ["random", "longest"], "hands": 10},
    "field": {"candidate": "random", "members": ["longest"], "hands": 10},
    "tune": {"bot": "weighted", "params": ["length=2:8"], "against": "random"},
    "regress": {"candidate": "random", "baseline": "longest"},
    "calibrate": {"name": "random"},
    "trump_study": {"hands": 10},
    "dd_study": {"hands": 4},
    "solve": {"deals": []},
    "analyse": {"seed": 1, "hands": 1},
    "analyse_run": {"folder": "results/none", "deals": 1},
    "experiment": {"file": "none.toml"},
    "trace": {"seed": 1, "hands": 1},
    "show": {"seed": 1, "hand": 0},
    "bench": {"hands": 10},
    "load": {"folder": "results/none"},
    "plot": {"folder": "results/none"},
    "serve": {"bot": "random"},
    "check_bot": {"spec": "random"},
    "results": {},
    "import_results": {"folders": "results/none"},
    "history": {"bot": "random"},
}
"""Good values of each function's required parameters (and small sizes), so that the
one bad value is the only thing wrong."""

BAD = {
    "check_positive": [1.5, "2", True, None, 0],
    "check_flag": ["yes", 1, None],
    "check_callable": [5, "print"],
    "check_path": [123, None, True, ""],
    "check_out": [123, 1.5, ""],
    "check_port": [-1, 65536, "x", 1.5],
    "check_text": [5, "", b"127.0.0.1"],
}
"""Wrong values of each kind of shared parameter, by the check that refuses them."""


def _shared_cases():
    import inspect

    from hokm_sim import api
    from hokm_sim.sim.checks import BY_NAME

    for name in api.__all__:
        fn = getattr(api, name)
        if not inspect.isfunction(fn):
            continue
        for param, p in inspect.signature(fn).parameters.items():
            if param in BY_NAME:
                for bad in BAD[BY_NAME[param].__name__]:
                    if bad is None and p.default is None:
                        continue  # None is the default: left out, not wrong
                    yield pytest.param(name, param, bad, id=f"{name}-{param}={bad!r}")


@pytest.mark.parametrize(("function", "param", "bad"), list(_shared_cases()))
def test_a_wrong_type_is_an_input_error_naming_the_parameter(function, param, bad):
    """``run(threads=1.5)``, ``resume(None)``, ``serve(http='x')`` ...: the documented
    error, never a TypeError, AttributeError or OverflowError from deep inside."""
    kwargs = REQUIRED.get(function, {}) | {param: bad}
    with pytest.raises(InputError) as e:
        getattr(hokm_sim, function)(**kwargs)
    assert e.value.param == param, str(e.value)


def test_every_function_with_a_shared_parameter_is_covered():
    """A new public function gets the same checks, and its required values here."""
    functions = {p.values[0] for p in _shared_cases()}
    assert functions <= set(REQUIRED) and {"run", "serve", "show", "check_bot"} <= functions


@pytest.mark.parametrize(
    ("function", "kwargs", "param", "needle"),
    [
        ("check_bot", {"spec": 123}, "spec", "expected a strategy spec"),
        ("tune", {"iterations": 1.5}, "iterations", "positive whole number"),
        ("tune", {"rate": float("inf")}, "rate", "finite number, got inf"),
        ("tune", {"rate": float("nan")}, "rate", "finite number, got nan"),
        ("tune", {"c": float("inf")}, "c", "finite number"),
        ("tune", {"check": -1}, "check", "0 or more"),
        ("show", {"hand": -1}, "hand", "0 or more, got -1"),
        ("show", {"hand": 1.5}, "hand", "whole number"),
        ("show", {"match": -2}, "match", "0 or more, got -2"),
        ("analyse", {"out": True}, "out", "expected the folder of the pages"),
        ("sprt", {"wins": "1,2,3"}, "wins", "got '1,2,3'"),
        ("tournament", {"strategies": 5}, "strategies", "expected a list, got 5"),
        ("solve", {"deals": 123}, "deals", "expected a list, got 123"),
    ],
)
def test_the_functions_own_parameters_are_checked(function, kwargs, param, needle):
    with pytest.raises(InputError) as e:
        getattr(hokm_sim, function)(**(REQUIRED.get(function, {}) | kwargs))
    assert e.value.param == param and needle in e.value.message, str(e.value)


@pytest.mark.parametrize(
    ("function", "kwargs", "param"),
    [
        ("field", {"candidate": "random", "members": "nosuch"}, "members"),
        ("trump_study", {"heuristics": "nosuch"}, "heuristics"),
        ("dd_study", {"heuristics": "nosuch"}, "heuristics"),
        ("tune", {"bot": "weighted", "params": "nosuch=2:8", "against": "random"}, "params"),
    ],
)
def test_a_lone_string_is_one_item_of_a_list(function, kwargs, param):
    """``field("random", "longest")`` is a field of one, not of the letters l, o, n ..."""
    with pytest.raises(InputError) as e:
        getattr(hokm_sim, function)(**kwargs)
    assert e.value.param == param and "nosuch" in e.value.message, str(e.value)
    assert "'n'" not in e.value.message


def test_a_tune_rate_that_is_not_finite_is_refused_on_the_command_line():
    _fails(["tune", "weighted", "--param", "length=2:8", "--against", "random", "--rate",
            "inf"], "--rate: expected a finite number, got inf")  # fmt: skip


def test_a_game_number_past_sqlite_integers_is_refused(tmp_path):
    _fails(["games", "--data", tmp_path, "--game", "99999999999999999999"], "--game")
