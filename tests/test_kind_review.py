"""Issue 37's mends: dropping a model reads its version rows once; ClickHouse's model row is
the list form's lookup row, bound from its tree."""

from __future__ import annotations

import duckdb
from drift import corpus

import sqlnb
from sqlnb import versions


def test_drop_reads_the_version_rows_once(tmp_path):
    path = tmp_path / "v.duckdb"
    with duckdb.connect(str(path)) as con:
        con.register("frame", corpus(7))
        con.execute("CREATE TABLE docs AS SELECT * FROM frame")
    db = sqlnb.connect(str(path))
    for _ in range(3):
        sqlnb.train(db, sqlnb.Docs("docs"), model="m", keep=10)
    sqlnb.train(db, sqlnb.Docs("docs"), model="other", keep=10)
    assert [v.version for v in versions.kept(db, "m")] == [1, 2, 3]
    texts: list[str] = []
    db.tracer = texts.append
    sqlnb.drop(db, "m")
    db.tracer = None
    read = [t for t in texts if "FROM sqlnb_versions" in t and "ORDER BY v.version" in t]
    assert len(read) == 1, read
    assert versions.kept(db, "m") == []
    assert [v.version for v in versions.kept(db, "other")] == [1]


def test_clickhouse_model_row_is_the_lookup_row_without_its_words():
    """ClickHouse's model row is bound from the list form's lookup row (sql/macros/lookup.sql):
    its columns are the lookup row's, in the order of sqlnb_ch_models' columns, and no word
    list (those are the per-word dictionaries') nor anything only they read is left in it."""
    from sqlglot import exp

    from sqlnb import templates
    from sqlnb.functions import clickhouse, lists

    lookup = lists._lookup(exp.convert("m")).named_selects
    row = clickhouse.model_row(exp.convert("m"))
    assert row.named_selects == list(clickhouse.ROW)
    assert set(clickhouse.ROW) < set(lookup)
    table = (templates.sql_dir() / "functions/clickhouse/models.sql.in").read_text()
    body = table.split("sqlnb_ch_models (")[1].split(") ENGINE")[0]
    columns = [line.split()[0] for line in body.strip().splitlines()]
    assert columns == ["model", *clickhouse.ROW, "hierarchy", "confidence"]
    text = row.sql("clickhouse")
    for gone in ("owner", "start", "idf", "occupied", "LIST(", "ARRAY_AGG", "LOGICAL_OR"):
        assert gone not in text, gone
