"""The statements that add a result to a PostgreSQL store, as SQLAlchemy compiles
them for PostgreSQL with numbered parameters (:func:`hokm_sim.store.schema.writes`),
as libpq takes them (:mod:`.libpq`): the SQL, and the order of its parameters; and the
query of the store's schema version. Made by ``python -m hokm_sim.store.schema``
(then ``ruff format``); a test holds it to what SQLAlchemy compiles now."""

# ruff: noqa: E501

SCHEMA = 2
VERSION = "SELECT max(version) FROM hokm_sim_schema"
STATEMENTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "delete": (
        "DELETE FROM results WHERE results.folder = $1::VARCHAR",
        ("folder",),
    ),
    "result": (
        "INSERT INTO results (created, kind, command, version, seed, size, partial, headline, figures, verdict, folder) VALUES ($1::VARCHAR, $2::VARCHAR, $3::VARCHAR, $4::VARCHAR, $5::VARCHAR, $6::BIGINT, $7, $8::VARCHAR, $9::VARCHAR, $10::VARCHAR, $11::VARCHAR) RETURNING results.id",
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
        "INSERT INTO bots (result, role, name, digest, git_commit, dirty, path, place) VALUES ($1::INTEGER, $2::VARCHAR, $3::VARCHAR, $4::VARCHAR, $5::VARCHAR, $6, $7::VARCHAR, $8::INTEGER)",
        ("result", "role", "name", "digest", "git_commit", "dirty", "path", "place"),
    ),
    "comparisons": (
        "INSERT INTO comparisons (result, a, b, score, low, high, pairs) VALUES ($1::INTEGER, $2::VARCHAR, $3::VARCHAR, $4, $5, $6, $7::BIGINT)",
        ("result", "a", "b", "score", "low", "high", "pairs"),
    ),
}
