"""The SQL files: every one parses, every placeholder is bound, names are never code."""

from __future__ import annotations

import pytest
import sqlglot
from sqlglot import exp

import sqlnb
from sqlnb import templates
from sqlnb.errors import SqlnbError


@pytest.mark.parametrize("name", templates.names())
def test_every_file_parses_and_documents_itself(name):
    text = (templates.sql_dir() / name).read_text()
    assert text.startswith("--"), f"sql/{name} needs a header comment"
    parts = name.split(".")  # a.<dialect>.sql is written in that dialect
    [tree] = sqlglot.parse(text, dialect=parts[-2] if len(parts) > 2 else "duckdb")
    assert tree is not None
    # Rendering with every placeholder bound leaves none behind.
    bindings = {
        p: exp.to_table("t") if _is_table(templates.parsed(name), p) else 1
        for p in templates.placeholders(name)
    }
    rendered = templates.render(name, **bindings)
    assert not list(rendered.find_all(exp.Placeholder))


def _is_table(tree: exp.Expr, name: str) -> bool:
    return any(
        isinstance(p.parent, exp.Table) for p in tree.find_all(exp.Placeholder) if p.name == name
    )


def test_unbound_and_unknown_placeholders_are_refused():
    with pytest.raises(SqlnbError, match="unbound placeholders \\['model'\\]"):
        templates.render("catalog/delete.sql", table=templates.table("t"))
    with pytest.raises(SqlnbError, match="unknown bindings \\['extra'\\]"):
        templates.render("catalog/delete.sql", table=templates.table("t"), model="m", extra=1)


def test_a_table_placeholder_refuses_a_plain_string():
    with pytest.raises(SqlnbError, match="stands for a table"):
        templates.render("catalog/delete.sql", table="sqlnb_models", model="m")


HOSTILE = ['x"; DROP TABLE y; --', "it's", "a b", "Ünïcødé ☃", "--", "/* c */", ";", "SELECT"]


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_are_quoted_never_executed(con, name):
    quoted = templates.table(name).sql("duckdb")
    con.execute("CREATE TABLE y (v INTEGER)")
    con.execute(
        f"CREATE TABLE {quoted} AS SELECT * FROM (VALUES (1, 'w', 2), (2, 'v', 1)) "
        "AS t(doc_id, word, count)"
    )
    column = templates.col(name, quoted=True).sql("duckdb")
    con.execute(
        f"CREATE TABLE labels AS SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t(doc_id, {column})"
    )
    model = sqlnb.train(con, name, sqlnb.Labels("labels", label=name), model=name)
    assert len(model.predict(name).fetchall()) == 2
    model.predict_to(name, name + "_out")
    tables = {
        r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()
    }
    assert {"y", name, name + "_out", "labels"} <= tables
    assert [m["model"] for m in sqlnb.models(con)] == [name]


def test_schema_qualified_names(con):
    con.execute("CREATE SCHEMA s")
    con.execute(
        "CREATE TABLE s.toks AS SELECT * FROM (VALUES (1, 'w'), (2, 'v')) AS t(doc_id, word)"
    )
    con.execute(
        "CREATE VIEW s.labs AS SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t(doc_id, label)"
    )
    model = sqlnb.train(con, "s.toks", "s.labs")
    assert sorted(model.predict("s.toks").fetchall())[0][:2] == (1, "a")
    with pytest.raises(SqlnbError, match="not a table name"):
        templates.table("a..b")


def test_parquet_sources(con, tmp_path):
    con.execute(
        "CREATE TABLE t AS SELECT * FROM (VALUES (1, 'w', 2), (2, 'v', 1)) "
        "AS v(doc_id, word, count)"
    )
    con.execute("CREATE TABLE l AS SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v(doc_id, label)")
    con.execute(f"COPY t TO '{tmp_path / 'tokens.parquet'}'")
    con.execute(f"COPY l TO '{tmp_path / 'labels.parquet'}'")
    model = sqlnb.train(con, str(tmp_path / "tokens.parquet"), str(tmp_path / "labels.parquet"))
    assert sorted(model.predict(str(tmp_path / "*.parquet").replace("*", "tok*")).fetchall())[0][
        :2
    ] == (1, "a")


def test_other_doc_id_types(con):
    """doc_id of any type: UUIDs here; the output keeps their type."""
    con.execute("CREATE TABLE t AS SELECT uuid() AS d, 'w' AS word FROM range(3)")
    con.execute("CREATE TABLE l AS SELECT d, 'a' AS label FROM t")
    model = sqlnb.train(con, sqlnb.Tokens("t", doc="d"), sqlnb.Labels("l", doc="d"))
    out = model.predict(sqlnb.Tokens("t", doc="d"))
    assert [str(t) for t in out.types] == ["UUID", "VARCHAR", "DOUBLE"]


def test_a_failed_training_leaves_the_previous_model(con, monkeypatch):
    con.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1, 'w'), (2, 'v')) AS v(doc_id, word)")
    con.execute("CREATE TABLE l AS SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v(doc_id, label)")
    sqlnb.train(con, "t", "l", model="m")
    before = con.execute("SELECT * FROM sqlnb_log_theta ORDER BY ALL").fetchall()
    # Fail inside the transaction, after the old rows were deleted and new ones inserted.
    from sqlnb.kinds.text import Multinomial

    derive = Multinomial.derive
    monkeypatch.setattr(
        Multinomial,
        "derive",
        lambda self, model, params, n_classes: [
            *derive(self, model, params, n_classes),
            sqlglot.parse_one("INSERT INTO nowhere VALUES (1)"),
        ],
    )
    con.execute("CREATE TABLE l2 AS SELECT * FROM (VALUES (1, 'c'), (2, 'c')) AS v(doc_id, label)")
    with pytest.raises(SqlnbError, match="nowhere"):
        sqlnb.train(con, "t", "l2", model="m")
    assert con.execute("SELECT * FROM sqlnb_log_theta ORDER BY ALL").fetchall() == before
    assert sqlnb.load(con, "m").predict("t").fetchall()


@pytest.mark.parametrize("order", [True, False])
def test_a_training_leaves_the_connections_settings_as_they_were(con, order):
    """sqlnb's writes need no insertion order, and turn it off only while they run."""
    con.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1, 'w'), (2, 'v')) AS v(doc_id, word)")
    con.execute("CREATE TABLE l AS SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v(doc_id, label)")
    con.execute(f"SET preserve_insertion_order = {order}")
    sqlnb.train(con, "t", "l", model="m").predict_to("t", "out")
    setting = con.execute("SELECT current_setting('preserve_insertion_order')").fetchone()[0]
    assert setting is order


def test_the_wide_table_has_a_column_per_class_of_a_block():
    from sqlnb.kinds import wide

    columns = [c.name for c in templates.parsed(wide.CREATE).find_all(exp.ColumnDef)]
    assert columns == ["model", "word", "base", *(f"w{j}" for j in range(wide.BLOCK))]
    for view in ("catalog/create_log_theta.sql", "catalog/create_log_absent.sql"):
        text = (templates.sql_dir() / view).read_text()
        assert f"% {wide.BLOCK}" in text and f"s.w{wide.BLOCK - 1}" in text
