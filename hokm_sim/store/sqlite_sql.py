"""The statements that add a result to a SQLite store, as SQLAlchemy compiles
them (:func:`hokm_sim.store.schema.writes`): the SQL, and the order of its
parameters. Made by ``python -m hokm_sim.store.schema`` (then ``ruff format``);
a test holds it to what SQLAlchemy compiles now."""

# ruff: noqa: E501

SCHEMA = 2
STATEMENTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "delete": (
        "DELETE FROM results WHERE results.folder = ?",
        ("folder",),
    ),
    "result": (
        "INSERT INTO results (created, kind, command, version, seed, size, partial, headline, figures, verdict, folder) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            "created",
            "kind",
            "command",
            "version",
            "seed",
            "size",
            "partial",
            "headline",
            "figures",
            "verdict",
            "folder",
        ),
    ),
    "bots": (
        "INSERT INTO bots (result, role, name, digest, git_commit, dirty, path, place) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        ("result", "role", "name", "digest", "git_commit", "dirty", "path", "place"),
    ),
    "comparisons": (
        "INSERT INTO comparisons (result, a, b, score, low, high, pairs) VALUES (?, ?, ?, ?, ?, ?, ?)",
        ("result", "a", "b", "score", "low", "high", "pairs"),
    ),
}
