"""The results store: every report adds a row, writers at once lose nothing, a bad store
is one line (docs/results.md)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest
from click.testing import CliRunner

import hokm_sim
from hokm_sim.cli import main
from hokm_sim.errors import InputError
from hokm_sim.store import SCHEMA, Store, StoreError, keep

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


@pytest.fixture
def store(tmp_path, monkeypatch):
    path = tmp_path / "results.sqlite"
    monkeypatch.setenv("HOKM_SIM_STORE", str(path))
    return path


def _rows(path, sql):
    with Store(path) as s:
        return [dict(r) for r in s.query(sql)]


def test_a_run_adds_its_row_with_its_bots_figures_and_folder(store, tmp_path):
    res = hokm_sim.run("random", "longest", hands=2000, seed=5, out=tmp_path / "r")
    (row,) = _rows(store, "SELECT * FROM results")
    assert row["kind"] == "run" and row["command"] == res.command
    assert row["seed"] == "5" and row["size"] == 2000
    assert row["folder"] == str((tmp_path / "r").resolve())
    assert row["headline"] == res.headline
    figures = json.loads(row["figures"])
    assert figures["pair_score"]["value"] == res.data["pair_score"]["value"]
    assert figures["elo"]["low"] < figures["elo"]["value"] < figures["elo"]["high"]
    bots = _rows(store, "SELECT * FROM bots ORDER BY role")
    assert [(b["role"], b["name"]) for b in bots] == [("a", "random"), ("b", "longest")]
    assert all(len(b["digest"]) == 64 for b in bots)
    assert bots[0]["digest"] != bots[1]["digest"]
    in_git = (ROOT / ".git").exists()
    assert all((b["git_commit"] is not None) == in_git for b in bots)
    (cmp,) = _rows(store, "SELECT * FROM comparisons")
    assert (cmp["a"], cmp["b"], cmp["pairs"]) == ("a", "b", 2000)
    # the same folder written again replaces its row
    hokm_sim.run("random", "longest", hands=2000, seed=6, out=tmp_path / "r", force=True)
    assert [r["seed"] for r in _rows(store, "SELECT seed FROM results")] == ["6"]


_WRITER = """
import sys
from hokm_sim.store import Store, Row
from hokm_sim.store.rows import Bot, Comparison
w, n = int(sys.argv[1]), int(sys.argv[2])
with Store(sys.argv[3]) as s:
    for i in range(n):
        s.add(Row(kind="run", seed=f"{w}-{i}", bots=[Bot("a", "x"), Bot("b", "y")],
                  comparisons=[Comparison("a", "b", 0.5, 0.4, 0.6, 10)]))
"""


def test_processes_writing_at_once_lose_and_corrupt_nothing(tmp_path):
    path = tmp_path / "busy.sqlite"
    procs = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(w), "150", str(path)])
        for w in range(4)
    ]
    assert [p.wait(timeout=120) for p in procs] == [0] * 4
    seeds = {r["seed"] for r in _rows(path, "SELECT seed FROM results")}
    assert seeds == {f"{w}-{i}" for w in range(4) for i in range(150)}
    assert _rows(path, "SELECT COUNT(*) AS n FROM bots")[0]["n"] == 1200
    assert _rows(path, "SELECT COUNT(*) AS n FROM comparisons")[0]["n"] == 600
    with Store(path) as s:
        assert s.integrity() == "ok"


def _cli(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "hokm_sim", *args],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip


@pytest.mark.parametrize("damage", ["garbage", "newer", "folder"])
def test_a_damaged_or_newer_store_is_one_line_and_exit_2(tmp_path, damage):
    path = tmp_path / "s.sqlite"
    if damage == "garbage":
        path.write_bytes(b"this is not a database\n" * 200)
        expect = "damaged or not a hokm-sim results store"
    elif damage == "newer":
        db = sqlite3.connect(path)
        db.execute(f"PRAGMA user_version = {SCHEMA + 1}")
        db.close()
        expect = f"schema version {SCHEMA + 1}, newer than this hokm-sim knows"
    else:
        path.mkdir()
        expect = "is a folder"
    with pytest.raises(StoreError, match=expect):
        keep({"kind": "run"}, store=path)
    proc = _cli("results", "--store", str(path))
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and expect in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


def test_an_older_schema_is_migrated_and_its_rows_kept(tmp_path):
    path = tmp_path / "old.sqlite"
    sqlite3.connect(path).close()  # an empty database: schema version 0
    keep({"kind": "tune", "seed": 3}, store=path)
    with Store(path) as s:
        assert s.query("PRAGMA user_version")[0][0] == SCHEMA
        assert s.query("PRAGMA journal_mode")[0][0] == "wal"
    keep({"kind": "tune", "seed": 4}, store=path)
    assert [r["seed"] for r in _rows(path, "SELECT seed FROM results")] == ["3", "4"]


def test_report_folders_are_imported_without_digests(tmp_path, store):
    other, first = tmp_path / "other.sqlite", tmp_path / "first.sqlite"
    out = str(tmp_path / "all" / "r7")
    args = ["--store", str(first), "run", "random", "longest", "--hands", "2000", "--seed", "7"]
    res = CliRunner().invoke(main, [*args, "--out", out])
    assert res.exit_code == 0, res.output
    assert [r["seed"] for r in _rows(first, "SELECT seed FROM results")] == ["7"]
    assert not store.exists()  # --store, not $HOKM_SIM_STORE
    proc = _cli("results", "import", str(tmp_path / "all"), "--store", str(other))
    assert proc.returncode == 0 and "imported 1 report folder" in proc.stdout, proc.stderr
    (row,) = hokm_sim.results(store=other, bot="longest").itertuples()
    assert row.kind == "run" and row.seed == "7" and row.bots == "a=random, b=longest"
    assert row.pair_score_low < row.pair_score < row.pair_score_high
    proc = _cli("results", "import", str(tmp_path), "--store", str(other))
    assert proc.returncode == 2 and "holds no report folder" in proc.stderr


def _version(store, bot, digest, commit, opponent, score, created, verdict=None):
    """A stored comparison of ``bot`` at ``digest`` with ``opponent`` (a regress, if a
    verdict is given)."""
    from hokm_sim.store import Row
    from hokm_sim.store.rows import Bot, Comparison

    roles = ("candidate", "baseline") if verdict else ("a", "b")
    with Store(store) as s:
        s.add(Row(kind="regress" if verdict else "run", created=created, verdict=verdict,
                  command=f"hokm-sim run {bot} {opponent[0]}",
                  bots=[Bot(roles[0], bot, digest, commit, False), Bot(roles[1], *opponent)],
                  comparisons=[Comparison(*roles, score, score - 0.02, score + 0.02, 4000)]),
        )  # fmt: skip


def test_history_fits_every_version_through_common_opponents(tmp_path, store):
    longest = ("longest", "l" * 64, "c" * 40, False)
    v1, v2 = ("1" * 64, "a" * 40), ("2" * 64, "b" * 40)
    _version(store, "mybot", *v1, longest, 0.40, "2026-01-01T00:00:00Z")
    _version(store, "mybot", *v2, longest, 0.50, "2026-02-01T00:00:00Z")
    _version(store, "mybot", *v2, ("mybot", *v1, False), 0.56, "2026-02-02T00:00:00Z", "H1")
    # a third version that only ever met a bot nobody else met: no rating
    _version(store, "mybot", "3" * 64, "d" * 40, ("loner", "e" * 64, None, None), 0.5,
             "2026-03-01T00:00:00Z")  # fmt: skip
    res = hokm_sim.history("mybot", store=store)
    first, second, third = res.data["versions"]
    assert third["elo"]["value"] is None and third["pairs"] == 4000
    assert (first["version"], second["version"]) == ("a" * 8, "b" * 8)
    assert first["elo"]["value"] == 0 and first["elo"]["low"] is None
    assert 0 < second["elo"]["low"] < second["elo"]["value"] < second["elo"]["high"]
    assert second["verdicts"] == {"no regression": 1} and first["verdicts"] == {}
    loner, longest_ = res.data["opponents"]
    assert (loner["name"], loner["elo"]["value"]) == ("loner", None)
    assert longest_["elo"]["value"] > 0  # v1 scored 0.40 against it
    plot = tmp_path / "h.png"
    proc = _cli("history", "mybot", "--store", str(store), "--plot", str(plot))
    assert proc.returncode == 0, proc.stderr
    assert "bbbbbbbb" in proc.stdout and plot.read_bytes()[:4] == b"\x89PNG"
    again = CliRunner().invoke(
        main, ["history", "mybot", "--store", str(store), "--plot", str(plot)]
    )
    assert again.exit_code == 2 and "--force" in again.output  # the plot is not overwritten
    with pytest.raises(InputError, match="no stored comparison of 'other'"):
        hokm_sim.history("other", store=store)


def test_the_listing_filters_by_commit_digest_command_and_date(store):
    longest = ("longest", "l" * 64, "c" * 40, False)
    _version(store, "mybot", "1" * 64, "a" * 40, longest, 0.40, "2026-01-01T00:00:00Z")
    _version(store, "mybot", "2" * 64, "b" * 40, longest, 0.50, "2026-02-01T00:00:00Z", "H0")

    def listed(*args):
        res = CliRunner().invoke(main, ["results", "--json", *args])
        assert res.exit_code == 0, res.output
        return json.loads(res.stdout)

    assert [r["created"][:7] for r in listed()] == ["2026-02", "2026-01"]
    assert [r["kind"] for r in listed("--commit", "BBB")] == ["regress"]
    assert [r["kind"] for r in listed("--digest", "1111", "--bot", "mybot")] == ["run"]
    assert [r["verdict"] for r in listed("--command", "regress")] == ["H0"]
    assert [r["created"][:7] for r in listed("--until", "2026-01-31")] == ["2026-01"]
    assert [r["created"][:7] for r in listed("--since", "2026-01-02")] == ["2026-02"]
    assert listed("--bot", "expert") == []
    frame = hokm_sim.results(bot="longest")
    assert frame["verdict"].iloc[0] == "H0" and frame["verdict"].isna().iloc[1]
    assert frame["bots"].iloc[1] == "a=mybot@aaaaaaaa, b=longest@cccccccc"
    for args, error in (
        (["--since", "yesterday"], "--since: bad date 'yesterday'"),
        (["--command", "runs"], "--command: unknown command 'runs'"),
        (["--commit", "xyz"], "--commit: expected hexadecimal digits"),
    ):
        res = CliRunner().invoke(main, ["results", *args])
        assert res.exit_code == 2 and error in res.output, res.output


def test_every_kind_of_comparison_is_stored_with_its_bots(store, tmp_path):
    """A tournament, a field, a regress and a calibration (no folder) of random and
    longest: each row's bots by role, and the duplicate-pair comparisons history fits."""
    hokm_sim.tournament(["random", "longest"], hands=600, seed=13, out=tmp_path / "t")
    hokm_sim.field("random", ["longest"], hands=600, seed=13, out=tmp_path / "f")
    r = hokm_sim.regress("random", "longest", max_pairs=400, check_every=100, seed=13,
                         out=tmp_path / "r")  # fmt: skip
    hokm_sim.calibrate("random", runs=2, max_pairs=200, check_every=100, seed=15)
    rows = {x["kind"]: x for x in _rows(store, "SELECT * FROM results")}
    assert set(rows) == {"tournament", "field", "regress", "calibrate"}
    assert rows["calibrate"]["folder"] is None
    assert rows["regress"]["verdict"] == r.data["hypothesis_accepted"] == "H0"
    roles = {
        kind: [(b["role"], b["name"]) for b in
               _rows(store, f"SELECT * FROM bots WHERE result = {x['id']} ORDER BY role")]
        for kind, x in rows.items()
    }  # fmt: skip
    assert roles == {
        "tournament": [("0", "random"), ("1", "longest")],
        "field": [("candidate", "random"), ("members.0", "longest")],
        "regress": [("baseline", "longest"), ("candidate", "random")],
        "calibrate": [("bot", "random")],
    }
    compared = _rows(store, "SELECT r.kind, c.a, c.b, c.score, c.pairs FROM comparisons c "
                            "JOIN results r ON r.id = c.result ORDER BY r.id")  # fmt: skip
    assert [(c["kind"], c["a"], c["b"]) for c in compared] == [
        ("tournament", "0", "1"), ("field", "candidate", "members.0"),
        ("regress", "candidate", "baseline"),
    ]  # fmt: skip
    assert all(c["score"] < 0.3 for c in compared)  # random loses to longest
    (only,) = hokm_sim.history("random").data["versions"]
    assert only["pairs"] == sum(c["pairs"] for c in compared)


@pytest.mark.parametrize(("versions", "comparisons"), [(1, 1), (2, 3)])
def test_the_history_headline_counts_in_words(versions, comparisons):
    from hokm_sim.analysis.results import HistoryResult

    elo = {"value": None, "low": None, "high": None}
    data = {"bot": "mybot", "anchor": "longest", "comparisons": comparisons}
    data["versions"] = [{"version": f"v{i}", "elo": elo} for i in range(versions)]
    words = HistoryResult(data).headline.split(";")[0]
    if versions == 1:
        assert words == "mybot: 1 version over 1 stored comparison"
    else:
        assert words == "mybot: 2 versions over 3 stored comparisons"
