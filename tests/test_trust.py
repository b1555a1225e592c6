"""Trust in a shared PostgreSQL database, second round (issue 34): objects another role made
under sqlnb's names before the owner's first training (tables with a trigger, a rule or grants
to everyone, a recorded sqlnb_functions row with its own sqlnb_classify), an overload of
sqlnb_classify for VARCHAR in a schema later on the search path, a lock held by another role,
and a user's table named like one of sqlnb's.

Roles (cluster-wide, named after this process): alice owns the models, bob reads them,
mallory may create objects in the schema the models live in, carol has no rights. Every
command opens its own connection; each case ends in one line, runs nothing as alice, and leaves
every table as it was.
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

import cli
import duckdb
import pytest
from engines import POSTGRES_URL, unavailable

import sqlnb
from sqlnb.errors import SqlnbError

pytestmark = pytest.mark.postgres

SUFFIX = f"{os.getpid()}"
ROLES = {name: f"sqlnb_t{name}_{SUFFIX}" for name in ("alice", "bob", "mallory", "carol")}
REFERENCE = f"sqlnb_tref_{SUFFIX}"  # a model alice trained, whose tables mallory copies
OPEN = f"sqlnb_topen_{SUFFIX}"  # mallory's own schema, on bob's search path after the models'
DOCS = [
    ("good tasty food great value", "good"),
    ("great value good service", "good"),
    ("tasty good fine", "good"),
    ("bad stale awful food", "bad"),
    ("awful bad service stale", "bad"),
    ("stale bad value", "bad"),
] * 3
TEXTS = ["good tasty food great value", "bad stale awful food", "fine", "good bad"]
_schemas = itertools.count()


def url(role: str, search_path: str) -> str:
    parts = urlsplit(POSTGRES_URL)
    netloc = f"{ROLES[role]}@{parts.hostname}:{parts.port or 5432}"
    query = "options=" + quote(f"-csearch_path={search_path}")
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def run(*args: str) -> cli.Result:
    """The command in this process (tests/cli.py): exit code, stdout, stderr."""
    return cli.run(*args, env={**os.environ, "COLUMNS": "200"})


def connect(role: str, search_path: str) -> Any:
    import psycopg

    return psycopg.connect(url(role, search_path), autocommit=True)


def one_line_error(code: int, out: str, err: str, *needles: str) -> None:
    assert code == 1, (code, out, err)
    assert err.startswith("Error: ") and err.count("\n") == 1, err
    for needle in needles:
        assert needle in err, (needle, err)


@pytest.fixture(scope="module")
def admin() -> Iterator[Any]:
    """The four roles, a reference model of alice's, mallory's own schema; dropped after."""
    try:
        import psycopg
    except ImportError:
        unavailable("psycopg is not installed")
    try:
        admin = psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=3)
    except psycopg.Error as error:
        unavailable(f"no PostgreSQL at {POSTGRES_URL}: {str(error).strip()[:80]}")
    for role in ROLES.values():
        admin.execute(f"DROP ROLE IF EXISTS {role}")
        admin.execute(f"CREATE ROLE {role} LOGIN")
    admin.execute(f"CREATE SCHEMA {OPEN} AUTHORIZATION {ROLES['mallory']}")
    admin.execute(f"GRANT USAGE ON SCHEMA {OPEN} TO PUBLIC")
    schema(admin, REFERENCE)
    code, _, err = run("train", url("alice", REFERENCE), "--docs", "docs", "--model", "m")
    assert code == 0, err
    with connect("alice", REFERENCE) as a:
        a.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA {REFERENCE} TO PUBLIC")
    yield admin
    for role in ROLES.values():
        admin.execute(f"DROP OWNED BY {role} CASCADE")
    for role in ROLES.values():
        admin.execute(f"DROP ROLE {role}")
    admin.close()


def schema(admin: Any, name: str) -> str:
    """A schema owned by the administrator where alice and mallory may create objects and bob
    may read, with alice's docs (VARCHAR texts), her secret table, and mallory's marker table
    (anyone may insert: a trigger of hers running as alice writes there)."""
    alice, bob, mallory = ROLES["alice"], ROLES["bob"], ROLES["mallory"]
    admin.execute(f"CREATE SCHEMA {name}")
    admin.execute(f"GRANT USAGE, CREATE ON SCHEMA {name} TO {alice}, {mallory}")
    admin.execute(f"GRANT USAGE ON SCHEMA {name} TO {bob}")
    with connect("alice", name) as a:
        a.execute(f"ALTER DEFAULT PRIVILEGES IN SCHEMA {name} GRANT SELECT ON TABLES TO {bob}")
        a.execute("CREATE TABLE docs (doc_id BIGINT, text VARCHAR, label TEXT)")
        with a.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO docs VALUES (%s, %s, %s)", [(i, t, y) for i, (t, y) in enumerate(DOCS)]
            )
        a.execute("CREATE TABLE emails (id BIGINT, body VARCHAR(200), short CHAR(40))")
        with a.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO emails VALUES (%s, %s, %s)", [(i, t, t) for i, t in enumerate(TEXTS)]
            )
        a.execute("CREATE TABLE secrets (s TEXT)")
        a.execute("INSERT INTO secrets VALUES ('the password')")
    with connect("mallory", name) as m:
        m.execute("CREATE TABLE calls (who TEXT, what TEXT)")
        m.execute("GRANT INSERT ON calls TO PUBLIC")
        # what mallory's triggers and functions run: note who ran them, grant alice's secrets
        m.execute(
            "CREATE FUNCTION evil() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"INSERT INTO {name}.calls VALUES (current_user, TG_TABLE_NAME); "
            f"EXECUTE 'GRANT SELECT ON {name}.secrets TO {mallory}'; RETURN NULL; END $$"
        )
        m.execute(f"GRANT EXECUTE ON FUNCTION {name}.evil() TO PUBLIC")
    return name


@pytest.fixture
def fresh(admin: Any) -> Iterator[str]:
    name = schema(admin, f"sqlnb_tfresh_{SUFFIX}_{next(_schemas)}")
    yield name
    admin.execute(f"DROP SCHEMA {name} CASCADE")


def state(admin: Any, name: str) -> dict[str, Any]:
    """Every relation and function of the schema with its owner and rows, the calls marker,
    and whether mallory may read alice's secrets."""
    relations = admin.execute(
        "SELECT c.relname, c.relkind, pg_get_userbyid(c.relowner) FROM pg_class AS c "
        "WHERE c.relnamespace = %s::regnamespace ORDER BY 1",
        [name],
    ).fetchall()
    rows = {
        r[0]: sorted(map(str, admin.execute(f'SELECT * FROM {name}."{r[0]}"').fetchall()))
        for r in relations
        if r[1] in ("r", "v")
    }
    functions = admin.execute(
        "SELECT p.oid::regprocedure::text, pg_get_userbyid(p.proowner) FROM pg_proc AS p "
        "WHERE p.pronamespace = %s::regnamespace ORDER BY 1",
        [name],
    ).fetchall()
    secret = admin.execute(
        "SELECT has_table_privilege(%s, %s, 'SELECT')", [ROLES["mallory"], f"{name}.secrets"]
    ).fetchone()[0]
    return {"relations": relations, "rows": rows, "functions": functions, "secret": secret}


def squat(name: str, table: str, how: str) -> None:
    """Mallory makes ``table`` (with sqlnb's columns) in schema ``name`` before alice trains."""
    with connect("mallory", name) as m:
        m.execute(f"CREATE TABLE {name}.{table} (LIKE {REFERENCE}.{table})")
        if how in ("trigger", "public"):
            m.execute(f"GRANT ALL ON {name}.{table} TO PUBLIC")
        if how == "trigger":
            m.execute(
                f"CREATE TRIGGER t AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON {name}.{table} "
                f"FOR EACH STATEMENT EXECUTE FUNCTION {name}.evil()"
            )
        if how == "rule":
            m.execute(f"GRANT ALL ON {name}.{table} TO PUBLIC")
            m.execute(
                f"CREATE RULE r AS ON INSERT TO {name}.{table} DO ALSO "
                f"INSERT INTO {name}.calls VALUES (current_user, 'rule')"
            )


@pytest.mark.parametrize(
    "table", ["sqlnb_models", "sqlnb_classes", "sqlnb_word_counts", "sqlnb_functions"]
)
@pytest.mark.parametrize("how", ["trigger", "public", "rule", "owned"])
def test_a_squatted_table_is_refused_before_anything_is_written(admin, fresh, table, how):
    squat(fresh, table, how)
    before = state(admin, fresh)
    code, out, err = run("train", url("alice", fresh), "--docs", "docs", "--model", "m")
    one_line_error(code, out, err, f"{fresh}.{table}", ROLES["mallory"], "refusing table")
    after = state(admin, fresh)
    assert after == before
    assert after["rows"]["calls"] == []
    assert not after["secret"]


def test_a_recorded_functions_row_does_not_keep_the_attackers_classify(admin, fresh):
    """Mallory records sqlnb_functions as current and puts her own sqlnb_classify in place."""
    with connect("mallory", fresh) as m:
        m.execute(f"CREATE TABLE {fresh}.sqlnb_functions (LIKE {REFERENCE}.sqlnb_functions)")
        m.execute(f"INSERT INTO {fresh}.sqlnb_functions SELECT * FROM {REFERENCE}.sqlnb_functions")
        m.execute(f"GRANT ALL ON {fresh}.sqlnb_functions TO PUBLIC")
        m.execute(
            f"CREATE FUNCTION {fresh}.sqlnb_classify(model TEXT, body TEXT) RETURNS TEXT "
            f"LANGUAGE sql VOLATILE AS $$ INSERT INTO {fresh}.calls VALUES (current_user, body) "
            "RETURNING 'good' $$"
        )
        m.execute(f"GRANT EXECUTE ON FUNCTION {fresh}.sqlnb_classify(TEXT, TEXT) TO PUBLIC")
    before = state(admin, fresh)
    code, out, err = run("train", url("alice", fresh), "--docs", "docs", "--model", "m")
    one_line_error(code, out, err, ROLES["mallory"], "refusing")
    assert "sqlnb_classify(text, text)" in err or "sqlnb_functions" in err
    assert state(admin, fresh) == before
    # alone, the function is refused too, naming it
    with connect("mallory", fresh) as m:
        m.execute(f"DROP TABLE {fresh}.sqlnb_functions")
    code, out, err = run("train", url("alice", fresh), "--docs", "docs", "--model", "m")
    one_line_error(code, out, err, f"function '{fresh}.sqlnb_classify(text, text)'")
    assert state(admin, fresh)["rows"]["calls"] == []


def test_the_api_refuses_with_one_sqlnb_error(admin, fresh):
    squat(fresh, "sqlnb_classes", "trigger")
    before = state(admin, fresh)
    with connect("alice", fresh) as a:
        db = sqlnb.connect(a)
        with pytest.raises(SqlnbError, match=f"refusing table '{fresh}.sqlnb_classes'") as error:
            sqlnb.train(db, sqlnb.Docs("docs"), model="m")
        assert "\n" not in str(error.value)
    assert state(admin, fresh) == before


def test_a_table_made_during_the_training_is_refused_before_it_is_written(admin, fresh):
    """Mallory makes sqlnb_word_counts, with her trigger, after sqlnb's checks and before its
    CREATE TABLE IF NOT EXISTS (which then skips it): the check before the first write that
    follows finds it."""
    made = []

    def tracer(text: str) -> None:
        if not made and text.startswith("CREATE TABLE IF NOT EXISTS"):
            squat(fresh, "sqlnb_word_counts", "trigger")
            made.append(text)

    with connect("alice", fresh) as a:
        db = sqlnb.connect(a)
        db.tracer = tracer
        with pytest.raises(SqlnbError, match=f"refusing table '{fresh}.sqlnb_word_counts'"):
            sqlnb.train(db, sqlnb.Docs("docs"), model="m")
    assert made
    after = state(admin, fresh)
    assert after["rows"]["calls"] == [] and not after["secret"]
    assert [r[0] for r in after["relations"] if r[2] == ROLES["alice"]] == [
        "docs",
        "emails",
        "secrets",
    ]


def test_a_trigger_or_a_grant_on_the_owners_own_table_is_refused(admin, fresh):
    """Alice grants TRIGGER on her table by mistake; mallory adds a trigger."""
    code, _, err = run("train", url("alice", fresh), "--docs", "docs", "--model", "m")
    assert code == 0, err
    with connect("alice", fresh) as a:
        a.execute(f"GRANT TRIGGER ON sqlnb_classes TO {ROLES['mallory']}")
    with connect("mallory", fresh) as m:
        m.execute(
            f"CREATE TRIGGER t AFTER INSERT OR DELETE ON {fresh}.sqlnb_classes "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {fresh}.evil()"
        )
    before = state(admin, fresh)
    code, out, err = run("train", url("alice", fresh), "--docs", "docs", "--model", "m")
    one_line_error(code, out, err, "other roles may change it", f"{ROLES['mallory']} (TRIGGER)")
    assert state(admin, fresh) == before
    with connect("alice", fresh) as a:
        a.execute(f"REVOKE TRIGGER ON sqlnb_classes FROM {ROLES['mallory']}")
    code, out, err = run("train", url("alice", fresh), "--docs", "docs", "--model", "m")
    one_line_error(code, out, err, "trigger t that sqlnb did not make", ROLES["alice"])
    after = state(admin, fresh)
    assert after["rows"]["calls"] == [] and not after["secret"]
    with connect("alice", fresh) as a:
        a.execute("DROP TRIGGER t ON sqlnb_classes")
    code, _, err = run("train", url("alice", fresh), "--docs", "docs", "--model", "m")
    assert code == 0, err


def test_readers_refuse_an_object_neither_they_nor_the_models_owner_made(admin, fresh):
    code, _, err = run("train", url("alice", fresh), "--docs", "docs", "--model", "m")
    assert code == 0, err
    code, out, err = run("models", url("bob", fresh))
    assert code == 0, err
    with connect("mallory", fresh) as m:  # a gaussian model's table, which alice has not
        m.execute(f"CREATE VIEW {fresh}.sqlnb_gaussian AS SELECT * FROM {fresh}.calls")
    for role in ("bob", "alice"):
        code, out, err = run("models", url(role, fresh))
        one_line_error(code, out, err, f"view '{fresh}.sqlnb_gaussian'", ROLES["mallory"])


def test_overloads_in_another_schema_do_not_capture_the_call(admin, fresh):
    """Mallory's sqlnb_classify for VARCHAR (and others) in a schema after the models' on
    bob's search path; in the models' schema she cannot make one for a pair of text types."""
    import psycopg

    code, _, err = run("train", url("alice", fresh), "--docs", "docs", "--model", "m")
    assert code == 0, err
    with connect("alice", fresh) as a:
        truth = [
            a.execute("SELECT sqlnb_classify('m', %s::text)", [t]).fetchone()[0] for t in TEXTS
        ]
        proba = [a.execute("SELECT sqlnb_proba('m', %s::text)", [t]).fetchone()[0] for t in TEXTS]
    assert set(truth) == {"good", "bad"}
    with connect("mallory", fresh) as m:
        m.execute(f"CREATE TABLE {OPEN}.calls (who TEXT)")
        m.execute(f"GRANT INSERT ON {OPEN}.calls TO PUBLIC")
        for types in (
            "VARCHAR, VARCHAR",
            "TEXT, VARCHAR",
            "UNKNOWN, VARCHAR",
            "NAME, VARCHAR",
            "ANYELEMENT, ANYELEMENT",
            "TEXT, ANYELEMENT",
            "ANYCOMPATIBLE, ANYCOMPATIBLE",
        ):
            for name, returns in (("sqlnb_classify", "TEXT"), ("sqlnb_proba", "FLOAT8")):
                value = "'ATTACKER'" if returns == "TEXT" else "-1"
                with pytest.raises(psycopg.Error) if "UNKNOWN" in types else _nothing():
                    m.execute(
                        f"CREATE FUNCTION {OPEN}.{name}({types}) RETURNS {returns} LANGUAGE sql "
                        f"VOLATILE AS $$ INSERT INTO {OPEN}.calls SELECT current_user "
                        f"RETURNING {value} $$"
                    )
        for types in ("VARCHAR, VARCHAR", "TEXT, BPCHAR", "VARCHAR, TEXT"):
            with pytest.raises(psycopg.Error, match="already exists"):
                m.execute(
                    f"CREATE FUNCTION {fresh}.sqlnb_classify({types}) RETURNS TEXT "
                    "LANGUAGE sql AS $$ SELECT 'ATTACKER' $$"
                )
    for role in ("bob", "alice"):
        with connect(role, f"{fresh},{OPEN}") as c:
            for column in ("body", "short", "body::text", "CAST(body AS VARCHAR(10))"):
                got = c.execute(
                    f"SELECT sqlnb_classify('m', {column}), sqlnb_proba('m', {column}) "
                    "FROM emails ORDER BY id"
                ).fetchall()
                if "10" not in column:
                    assert [g[0] for g in got] == truth, column
                    assert [g[1] for g in got] == pytest.approx(proba, rel=1e-12)
                else:
                    assert all(g[0] in ("good", "bad") and 0 < g[1] <= 1 for g in got)
            got = c.execute(
                "SELECT sqlnb_classify(m, body) FROM emails, (SELECT 'm'::varchar AS m) AS x "
                "ORDER BY id"
            ).fetchall()
            assert [g[0] for g in got] == truth
            # the qualified call with text arguments: PostgreSQL's exact match
            got = c.execute(
                f"SELECT {fresh}.sqlnb_classify('m'::text, body::text) FROM emails ORDER BY id"
            ).fetchall()
            assert [g[0] for g in got] == truth
    assert admin.execute(f"SELECT * FROM {OPEN}.calls").fetchall() == []


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *args: object) -> None:
        return None


def test_a_lock_another_role_holds_does_not_stop_training(admin, fresh):
    """Any role could take the advisory lock sqlnb took; the writers' lock is now a lock of
    sqlnb_models, which only a role that may write it can take."""
    import psycopg

    code, _, err = run("train", url("alice", fresh), "--docs", "docs", "--model", "m")
    assert code == 0, err
    with connect("mallory", fresh) as m, connect("bob", fresh) as b:
        m.execute("SELECT pg_advisory_lock(hashtext(%s))", [f"sqlnb.{fresh}"])
        m.execute("SELECT pg_advisory_lock(hashtext('sqlnb.public'))")
        for c in (b, m):
            c.execute("BEGIN")
            with pytest.raises(psycopg.Error, match="permission denied"):
                c.execute(f"LOCK TABLE {fresh}.sqlnb_models IN SHARE ROW EXCLUSIVE MODE")
            c.execute("ROLLBACK")
        b.execute("BEGIN")
        b.execute(f"LOCK TABLE {fresh}.sqlnb_models IN ACCESS SHARE MODE")  # a reader's
        b.execute(f"SELECT count(*) FROM {fresh}.sqlnb_models")
        started = time.monotonic()
        code, _, err = run(
            "train", url("alice", fresh), "--docs", "docs", "--model", "m2", "--wait", "20"
        )
        assert code == 0, err
        assert time.monotonic() - started < 20
        b.execute("ROLLBACK")
    with connect("bob", fresh) as b:
        assert b.execute("SELECT count(*) FROM sqlnb_models").fetchone()[0] == 2


def test_a_held_lock_stops_a_write_after_the_wait_in_one_line(admin, fresh):
    import psycopg

    # the first training of a schema: an advisory lock, bounded by --wait
    before = state(admin, fresh)
    with connect("mallory", fresh) as m:
        m.execute("SELECT pg_advisory_lock(hashtext(%s))", [f"sqlnb.{fresh}"])
        started = time.monotonic()
        code, out, err = run(
            "train", url("alice", fresh), "--docs", "docs", "--model", "m", "--wait", "1.5"
        )
        waited = time.monotonic() - started
    one_line_error(code, out, err, "being written by another session", "after 1.5 s")
    assert 1.5 <= waited < 15
    assert state(admin, fresh) == before
    code, _, err = run("train", url("alice", fresh), "--docs", "docs", "--model", "m")
    assert code == 0, err
    # another session of alice's writing: waits, then stops
    with connect("alice", fresh) as a:
        a.execute("BEGIN")
        a.execute("LOCK TABLE sqlnb_models IN SHARE ROW EXCLUSIVE MODE")
        before = state(admin, fresh)
        started = time.monotonic()
        code, out, err = run(
            "train", url("alice", fresh), "--docs", "docs", "--model", "m", "--wait", "1"
        )
        waited = time.monotonic() - started
        one_line_error(code, out, err, "still locked after 1 s", "--wait")
        assert 1 <= waited < 15
        assert state(admin, fresh) == before
        a.execute("ROLLBACK")
    # the API waits 30 s by default, and as long as it is told
    with psycopg.connect(url("alice", fresh), autocommit=True) as c:
        assert sqlnb.connect(c).backend.wait == 30
    told = sqlnb.Database.connect(url("alice", fresh), wait=2)
    assert told.backend.wait == 2
    told.close()


def test_a_role_without_rights_is_told_so(admin, fresh):
    code, _, err = run("train", url("alice", fresh), "--docs", "docs", "--model", "m")
    assert code == 0, err
    code, out, err = run("train", url("carol", fresh), "--docs", "docs", "--model", "m")
    one_line_error(code, out, err, "permission denied")
    code, out, err = run("models", url("carol", fresh))
    one_line_error(code, out, err, "permission denied")


def test_a_users_table_named_sqlnb_classes_is_refused(admin, fresh, tmp_path):
    """PostgreSQL: export and train; DuckDB: train. One line naming the table, unchanged."""
    code, _, err = run("train", url("alice", fresh), "--docs", "docs", "--model", "m")
    assert code == 0, err
    with connect("alice", fresh) as a:
        a.execute("ALTER TABLE sqlnb_classes RENAME TO kept")
        a.execute("CREATE TABLE sqlnb_classes (a INT, b TEXT)")
        a.execute("INSERT INTO sqlnb_classes VALUES (1, 'mine')")
    before = state(admin, fresh)
    for args in (
        ("export", url("alice", fresh), "--model", "m", "-o", str(tmp_path / "m.sqlnb")),
        ("train", url("alice", fresh), "--docs", "docs", "--model", "m"),
        ("predict", url("alice", fresh), "--docs", "docs", "--model", "m"),
        ("models", url("alice", fresh)),
    ):
        code, out, err = run(*args)
        one_line_error(code, out, err, "table 'sqlnb_classes' is not one of sqlnb's")
    assert state(admin, fresh) == before
    assert not (tmp_path / "m.sqlnb").exists()

    path = tmp_path / "user.duckdb"
    with duckdb.connect(str(path)) as c:
        c.execute("CREATE TABLE docs (doc_id BIGINT, text VARCHAR, label VARCHAR)")
        c.executemany(
            "INSERT INTO docs VALUES (?, ?, ?)", [(i, t, y) for i, (t, y) in enumerate(DOCS)]
        )
        c.execute("CREATE TABLE sqlnb_classes (a INT, b VARCHAR)")
        c.execute("INSERT INTO sqlnb_classes VALUES (1, 'mine')")
    code, out, err = run("train", str(path), "--docs", "docs", "--model", "m")
    one_line_error(code, out, err, "table 'sqlnb_classes' is not one of sqlnb's")
    with duckdb.connect(str(path)) as c:
        assert c.execute("SELECT * FROM sqlnb_classes").fetchall() == [(1, "mine")]
        tables = {
            r[0] for r in c.execute("SELECT table_name FROM information_schema.tables").fetchall()
        }
    assert tables == {"docs", "sqlnb_classes"}
