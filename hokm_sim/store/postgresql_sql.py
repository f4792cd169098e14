"""The statements that add a result to a PostgreSQL store, as SQLAlchemy compiles
them for psycopg (:func:`hokm_sim.store.schema.writes`; parameters named for their
columns), and the query of the store's schema version. Made by ``python -m
hokm_sim.store.schema`` (then ``ruff format``); a test holds it to what SQLAlchemy
compiles now."""

# ruff: noqa: E501

SCHEMA = 2
VERSION = "SELECT max(version) FROM hokm_sim_schema"
STATEMENTS: dict[str, str] = {
    "delete": "DELETE FROM results WHERE results.folder = %(folder)s::VARCHAR",
    "result": "INSERT INTO results (created, kind, command, version, seed, size, partial, headline, figures, verdict, folder) VALUES (%(created)s::VARCHAR, %(kind)s::VARCHAR, %(command)s::VARCHAR, %(version)s::VARCHAR, %(seed)s::VARCHAR, %(size)s::BIGINT, %(partial)s, %(headline)s::VARCHAR, %(figures)s::VARCHAR, %(verdict)s::VARCHAR, %(folder)s::VARCHAR) RETURNING results.id",
    "bots": "INSERT INTO bots (result, role, name, digest, git_commit, dirty, path, place) VALUES (%(result)s::INTEGER, %(role)s::VARCHAR, %(name)s::VARCHAR, %(digest)s::VARCHAR, %(git_commit)s::VARCHAR, %(dirty)s, %(path)s::VARCHAR, %(place)s::INTEGER)",
    "comparisons": "INSERT INTO comparisons (result, a, b, score, low, high, pairs) VALUES (%(result)s::INTEGER, %(a)s::VARCHAR, %(b)s::VARCHAR, %(score)s, %(low)s, %(high)s, %(pairs)s::BIGINT)",
}
