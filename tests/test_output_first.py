"""An existing output is refused before any work is done (issue 35: 39 s on Spark, which
runs the input's checks and the prediction's preparation first): with an input that the work
would refuse (a NULL document id), the error names the output, not the input."""

from __future__ import annotations

import duckdb
import pytest

import sqlnb
from sqlnb.errors import SqlnbError


def test_an_existing_output_table_is_refused_before_the_input_is_read():
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE tokens AS "
        "SELECT * FROM (VALUES (1, 'a', 1), (2, 'b', 1)) t(doc_id, word, count)"
    )
    con.execute("CREATE TABLE labels AS SELECT * FROM (VALUES (1, 'x'), (2, 'y')) t(doc_id, label)")
    model = sqlnb.train(con, "tokens", "labels", model="m")
    con.execute("CREATE TABLE bad AS SELECT * FROM (VALUES (NULL, 'a', 1)) t(doc_id, word, count)")
    con.execute("CREATE TABLE out AS SELECT 1 AS x")
    with pytest.raises(SqlnbError, match="output table 'out' already exists"):
        model.predict_to("bad", "out")
    assert con.execute("SELECT * FROM out").fetchall() == [(1,)]
    with pytest.raises(SqlnbError, match="NULL"):  # the input's own refusal, given --replace
        model.predict_to("bad", "out", replace=True)
