"""Trust in a shared PostgreSQL database (issue 29): roles that try to steer another role's
``sqlnb_classify`` and ``sqlnb predict`` through a temporary table, a schema named after the
caller and operators in a schema everybody may write to; a role without rights told so.

Roles (cluster-wide, named after this process): alice trains (owns the schema ``shared`` the
models live in, as ``public`` was before PostgreSQL 15 everybody may create objects there),
bob reads, mallory attacks, carol has no rights. Every command opens its own connection.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

import cli
import pytest
from engines import POSTGRES_URL, unavailable

TEXTS = ["good tasty food great value", "bad stale awful food", "fine", "good bad"]
SUFFIX = f"{os.getpid()}"
ROLES = {name: f"sqlnb_{name}_{SUFFIX}" for name in ("alice", "bob", "mallory", "carol")}
SHARED = f"sqlnb_shared_{SUFFIX}"


def url(role: str, search_path: str) -> str:
    """The test server's URL as ``role``, with that search_path."""
    parts = urlsplit(POSTGRES_URL)
    netloc = f"{ROLES[role]}@{parts.hostname}:{parts.port or 5432}"
    query = "options=" + quote(f"-csearch_path={search_path}")
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def sqlnb(*args: str) -> cli.Result:
    """The command in this process (tests/cli.py): exit code, stdout, stderr."""
    return cli.run(*args, env={**os.environ, "COLUMNS": "200"})


def connect(role: str, search_path: str) -> Any:
    import psycopg

    return psycopg.connect(url(role, search_path), autocommit=True)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """The roles, the shared schema with a labeled corpus, and a model alice trained."""
    try:
        import psycopg
    except ImportError:
        unavailable("psycopg is not installed")
    try:
        admin = psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=3)
    except psycopg.Error as error:
        unavailable(f"no PostgreSQL at {POSTGRES_URL}: {str(error).strip()[:80]}")
    database = admin.execute("SELECT current_database()").fetchone()[0]
    for role in ROLES.values():
        admin.execute(f"DROP ROLE IF EXISTS {role}")
        admin.execute(f"CREATE ROLE {role} LOGIN")
    alice, bob, mallory = ROLES["alice"], ROLES["bob"], ROLES["mallory"]
    admin.execute(f"GRANT CREATE ON DATABASE {database} TO {mallory}")
    admin.execute(f"CREATE SCHEMA {SHARED} AUTHORIZATION {alice}")
    with connect("alice", SHARED) as a:
        a.execute(f"GRANT USAGE, CREATE ON SCHEMA {SHARED} TO {bob}, {mallory}")
        a.execute(f"ALTER DEFAULT PRIVILEGES IN SCHEMA {SHARED} GRANT SELECT ON TABLES TO {bob}")
        a.execute("CREATE TABLE docs (doc_id BIGINT, text TEXT, label TEXT)")
        rows = [
            (i, t, lab)
            for i, (t, lab) in enumerate(
                [
                    ("good tasty food great value", "good"),
                    ("great value good service", "good"),
                    ("tasty good fine", "good"),
                    ("bad stale awful food", "bad"),
                    ("awful bad service stale", "bad"),
                    ("stale bad value", "bad"),
                ]
                * 5
            )
        ]
        with a.cursor() as cursor:
            cursor.executemany("INSERT INTO docs VALUES (%s, %s, %s)", rows)
        a.execute("CREATE TABLE emails (id BIGINT, body TEXT)")
        with a.cursor() as cursor:
            cursor.executemany("INSERT INTO emails VALUES (%s, %s)", list(enumerate(TEXTS)))
    code, _, err = sqlnb("train", url("alice", SHARED), "--docs", "docs", "--model", "m")
    assert code == 0, err
    with connect("alice", SHARED) as a:
        a.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA {SHARED} TO {bob}, {mallory}")
        # a function of alice's that runs as alice, hardened as PostgreSQL advises
        a.execute(
            f"CREATE FUNCTION {SHARED}.wrapped(t TEXT) RETURNS TEXT LANGUAGE sql STABLE "
            f"SECURITY DEFINER SET search_path = {SHARED}, pg_temp "
            f"AS $$ SELECT {SHARED}.sqlnb_classify('m', t) $$"
        )
        truth = [a.execute("SELECT sqlnb_classify('m', %s)", [t]).fetchone()[0] for t in TEXTS]
    assert set(truth) == {"good", "bad"}
    yield admin, truth
    admin.execute(f"DROP SCHEMA IF EXISTS {SHARED} CASCADE")
    for role in ROLES.values():
        admin.execute(f"DROP SCHEMA IF EXISTS {role} CASCADE")
        admin.execute(f"DROP OWNED BY {role} CASCADE")
        admin.execute(f"DROP ROLE {role}")
    admin.close()


def classify(role: str, search_path: str) -> list[str]:
    with connect(role, search_path) as c:
        return [
            c.execute(f"SELECT {SHARED}.sqlnb_classify('m', %s)", [t]).fetchone()[0] for t in TEXTS
        ]


def test_a_temporary_table_does_not_shadow_the_model(cluster):
    _, truth = cluster
    with connect("mallory", SHARED) as c:
        c.execute(f"CREATE TEMP TABLE sqlnb_classes AS SELECT * FROM {SHARED}.sqlnb_classes")
        c.execute("UPDATE pg_temp.sqlnb_classes SET label = 'ATTACKER'")
        c.execute(f"CREATE TEMP TABLE sqlnb_scoring AS SELECT * FROM {SHARED}.sqlnb_scoring")
        c.execute("UPDATE pg_temp.sqlnb_scoring SET w0 = 100, w1 = -100")
        got = [c.execute("SELECT sqlnb_classify('m', %s)", [t]).fetchone()[0] for t in TEXTS]
        wrapped = [c.execute("SELECT wrapped(%s)", [t]).fetchone()[0] for t in TEXTS]
    assert got == truth
    assert wrapped == truth


def test_a_schema_named_after_the_caller_does_not_capture_the_model(cluster):
    admin, truth = cluster
    bob, mallory = ROLES["bob"], ROLES["mallory"]
    with connect("mallory", SHARED) as c:
        c.execute(f"CREATE SCHEMA {bob}")
        c.execute(f"GRANT USAGE ON SCHEMA {bob} TO {bob}")
        for table in ("sqlnb_models", "sqlnb_classes", "sqlnb_base", "sqlnb_scoring"):
            c.execute(f"CREATE TABLE {bob}.{table} AS SELECT * FROM {SHARED}.{table}")
            c.execute(f"GRANT SELECT ON {bob}.{table} TO {bob}")
        c.execute(f"UPDATE {bob}.sqlnb_classes SET label = 'ATTACKER'")
    try:
        assert classify("bob", f'"$user",{SHARED}') == truth
        # sqlnb's own commands keep the models in the first schema named explicitly
        code, out, err = sqlnb(
            "predict",
            url("bob", f'"$user",{SHARED}'),
            "--model",
            "m",
            "--docs",
            "emails",
            "--id-column",
            "id",
            "--text-column",
            "body",
            "--format",
            "csv",
        )
        assert code == 0, err
        assert [line.split(",")[1] for line in out.splitlines()[1:]] == truth
    finally:
        admin.execute(f"DROP SCHEMA {bob} CASCADE")
    assert mallory


def test_operators_in_a_writable_schema_change_nothing(cluster):
    admin, truth = cluster
    with connect("mallory", SHARED) as c:
        c.execute(f"CREATE TABLE {SHARED}.calls (who TEXT)")
        c.execute(f"GRANT INSERT ON {SHARED}.calls TO PUBLIC")
        for left, right in [
            ("double precision", "integer"),
            ("double precision", "bigint"),
            ("bigint", "integer"),
            ("double precision", "double precision"),
            ("text", "text"),
        ]:
            name = f"evil_{left.split()[0]}_{right.split()[0]}"
            for returns, suffix, ops in (
                (left, "", ("||",) if left == "text" else ("*", "+", "-")),
                ("boolean", "_cmp", ("=", "<", ">")),
            ):
                c.execute(
                    f"CREATE FUNCTION {SHARED}.{name}{suffix}(a {left}, b {right}) "
                    f"RETURNS {returns} LANGUAGE sql VOLATILE AS $$ INSERT INTO "
                    f"{SHARED}.calls SELECT current_user; SELECT "
                    f"{'a' if not suffix else 'true'} $$"
                )
                for op in ops:
                    c.execute(
                        f"CREATE OPERATOR {SHARED}.{op} (LEFTARG = {left}, RIGHTARG = "
                        f"{right}, FUNCTION = {SHARED}.{name}{suffix})"
                    )
    # bob's function calls, with the writable schema on his search path
    assert classify("bob", SHARED) == truth
    # alice trains again and predicts, in separate processes, with it on her search path
    code, _, err = sqlnb("train", url("alice", SHARED), "--docs", "docs", "--model", "m")
    assert code == 0, err
    code, out, err = sqlnb(
        "predict",
        url("alice", SHARED),
        "--model",
        "m",
        "--docs",
        "emails",
        "--id-column",
        "id",
        "--text-column",
        "body",
        "--format",
        "csv",
    )
    assert code == 0, err
    assert [line.split(",")[1] for line in out.splitlines()[1:]] == truth
    assert classify("bob", SHARED) == truth
    calls = admin.execute(f"SELECT who FROM {SHARED}.calls").fetchall()
    assert calls == []


def test_a_role_without_rights_is_told_so(cluster):
    commands = [
        ("models",),
        ("show", "--model", "m"),
        ("predict", "--model", "m", "--docs", "docs"),
    ]
    for args in commands:
        code, out, err = sqlnb(args[0], url("carol", SHARED), *args[1:])
        assert code == 1, (args, out, err)
        assert err.startswith("Error: permission denied for "), (args, err)
        assert err.count("\n") == 1, err
        assert out == ""


def test_a_null_model_name_is_a_clear_error(cluster):
    import psycopg

    with connect("bob", SHARED) as c, pytest.raises(psycopg.Error, match="the model name is NULL"):
        c.execute("SELECT sqlnb_classify(NULL, 'x')")


def test_user_text_cannot_close_the_functions_quoting(cluster, tmp_path):
    """A stop word and a pattern holding PostgreSQL's dollar quotes train and classify."""
    with connect("alice", SHARED) as a:
        a.execute("CREATE TABLE stops (word TEXT)")
        a.execute("INSERT INTO stops VALUES ('$sqlnb$'), ('$$'), ('$sqlnb1$')")
    code, _, err = sqlnb(
        "train",
        url("alice", SHARED),
        "--docs",
        "docs",
        "--model",
        "q",
        "--stop-words",
        "stops",
        "--token-pattern",
        "[a-z$]+",
        "--ngrams",
        "1-2",
    )
    assert code == 0, err
    with connect("bob", SHARED) as c:
        label = c.execute("SELECT sqlnb_classify('q', 'good $sqlnb$ food')").fetchone()[0]
    assert label == "good"
