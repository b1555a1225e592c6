"""Issue 35, point 5: the fixed Python cost of a command. A training imports what it needs
(no pandas, NumPy, pyarrow, rich, report or other engines' modules), and the templates' cache
on disk is keyed by sqlnb's files, so that an edited template is parsed again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from sqlnb import cache, templates

# What a DuckDB training from a tokens table must not import: each costs tens of
# milliseconds of every command, and none of them is used on that path.
NOT_ON_THE_TRAIN_PATH = (
    "pandas",
    "numpy",
    "pyarrow",
    "rich",
    "sklearn",
    "scipy",
    "pyspark",
    "chdb",
    "psycopg",
    "sqlnb.report",
    "sqlnb.engine.spark",
    "sqlnb.engine.postgres",
    "sqlnb.engine.clickhouse",
    "sqlnb.engine.spellings",  # sqlglot's PostgreSQL and ClickHouse dialects, sqlnb's spellings
    "sqlnb.monitor",
    "sqlnb.semisupervised",
    "re2",  # (the default pattern is not compiled in Python)
)

PROBE = """
import json, sys
from sqlnb.cli import main
try:
    main(sys.argv[1:])
except SystemExit as done:
    code = done.code
print(json.dumps([code, sorted(sys.modules)]), file=sys.stderr)
"""


@pytest.mark.process
def test_a_duckdb_training_imports_only_what_it_uses(tmp_path: Path):
    """A process of its own: the modules a fresh interpreter imports (stderr is not a
    terminal, as in a script or a benchmark; the progress bar's rich is for terminals)."""
    con = duckdb.connect(str(tmp_path / "m.duckdb"))
    con.execute(
        "CREATE TABLE tokens AS SELECT * FROM (VALUES (1, 'cheap', 2), (1, 'pills', 1),"
        " (2, 'meeting', 1), (2, 'notes', 3)) AS t(doc_id, word, count)"
    )
    con.execute(
        "CREATE TABLE labels AS SELECT * FROM (VALUES (1, 'spam'), (2, 'ham')) AS t(doc_id, label)"
    )
    con.close()
    env = {**os.environ, "PYTHONPATH": str(Path(templates.__file__).parents[1])}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "train", str(tmp_path / "m.duckdb")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    code, modules = json.loads(done.stderr.strip().splitlines()[-1])
    assert code in (0, None), done.stderr
    assert "trained multinomial model 'default'" in done.stdout
    imported = [
        m for m in modules if any(m == n or m.startswith(n + ".") for n in NOT_ON_THE_TRAIN_PATH)
    ]
    assert imported == []
    assert "sqlnb.training" in modules  # the control: the probe sees the command's imports


def test_the_stamp_changes_with_a_file_s_size_or_time(tmp_path: Path):
    """What keys the parsed templates (and the macros' text) on disk: an edited .sql or .py
    file (its size or modification time) is a new key; other files and __pycache__ are not."""
    sql = tmp_path / "sql" / "train"
    sql.mkdir(parents=True)
    (sql / "prior.sql").write_text("SELECT 1 AS one\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("x = 1\n")
    roots = [tmp_path / "pkg", tmp_path / "sql"]
    first = cache.stamp(roots)
    assert cache.stamp(roots) == first
    (tmp_path / "pkg" / "notes.txt").write_text("not code")
    (tmp_path / "pkg" / "__pycache__").mkdir()
    (tmp_path / "pkg" / "__pycache__" / "a.py").write_text("y = 2\n")
    assert cache.stamp(roots) == first
    (sql / "prior.sql").write_text("SELECT 2 AS two\n")  # the same size: a newer time
    os.utime(sql / "prior.sql", ns=(1, 10**18))
    second = cache.stamp(roots)
    assert second != first
    (sql / "prior.sql").write_text("SELECT 22 AS two\n")
    os.utime(sql / "prior.sql", ns=(1, 10**18))
    assert cache.stamp(roots) not in (first, second)
    (sql / "new.sql").write_text("SELECT 3\n")
    assert cache.stamp(roots) not in (first, second)


def test_the_templates_key_covers_the_sql_folder():
    """The stamp that keys the templates covers the folder they are read from."""
    root = templates.sql_dir()
    package = Path(cache.__file__).resolve().parent
    assert root in (package / "_sql", package.parent / "sql")
    assert set(templates.names()) == {p.relative_to(root).as_posix() for p in root.rglob("*.sql")}


def test_a_template_rendered_again_is_a_tree_of_its_own():
    """The first rendering hands out the unpickled tree itself, the next ones copies: no two
    renderings share a node, nor do they share one with :func:`templates.parsed`."""
    name = "catalog/delete.sql"
    first = templates.render(name, table=templates.table("t"), model="a")
    second = templates.render(name, table=templates.table("t"), model="b")
    shared = templates.parsed(name)
    assert first.sql("duckdb") == "DELETE FROM \"t\" WHERE model = 'a'"
    assert second.sql("duckdb") == "DELETE FROM \"t\" WHERE model = 'b'"
    ids = {id(n) for n in first.walk()}
    assert not ids & {id(n) for n in second.walk()}
    assert not ids & {id(n) for n in shared.walk()}
    assert shared.find(templates.exp.Placeholder) is not None  # the shared tree is unbound


def test_the_dialects_name_sqlnb_s_spellings_as_sqlglot_registers_them():
    """sqlnb.engine.dialects names them without importing them (see the test above)."""
    from sqlnb.engine import dialects, spellings

    assert (dialects.POSTGRES, dialects.CLICKHOUSE) == (spellings.POSTGRES, spellings.CLICKHOUSE)
    assert dialects.dialect("postgres").sqlglot == "sqlnbpostgres"
    assert dialects.dialect("clickhouse").sqlglot == "sqlnbclickhouse"


def test_predict_lists_sqlnb_s_relations_once_not_one_by_one(tmp_path: Path, monkeypatch):
    """`sqlnb predict` reads the catalog in the command's probing scope: one listing of
    sqlnb's relations, no probe of a single name (it asked for sqlnb_models twice,
    sqlnb_classes and sqlnb_calibration one by one)."""
    import sqlnb
    from sqlnb.engine.backends import DuckDBBackend
    from tests import cli

    path = str(tmp_path / "m.duckdb")
    con = duckdb.connect(path)
    con.execute(
        "CREATE TABLE tokens AS SELECT * FROM (VALUES (1, 'cheap', 2), (1, 'pills', 1),"
        " (2, 'meeting', 1), (2, 'notes', 3)) AS t(doc_id, word, count)"
    )
    con.execute(
        "CREATE TABLE labels AS SELECT * FROM (VALUES (1, 'spam'), (2, 'ham')) AS t(doc_id, label)"
    )
    sqlnb.train(con, "tokens", "labels", model="m")
    con.close()
    asked: list[str] = []
    one, every = DuckDBBackend.relation_type, DuckDBBackend.relations
    monkeypatch.setattr(DuckDBBackend, "relation_type", lambda b, n: asked.append(n) or one(b, n))
    monkeypatch.setattr(DuckDBBackend, "relations", lambda b: asked.append("*") or every(b))
    cli.run("predict", path, "--model", "m", "--output", "p", ok=True)
    assert asked == ["*"]
    assert duckdb.connect(path).sql('SELECT COUNT(*) FROM "p"').fetchall() == [(2,)]
