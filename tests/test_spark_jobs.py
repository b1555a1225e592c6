"""Issue 38: the Spark jobs of a command, from Spark's status tracker (a job group a command),
on tests/test_training_statements.py's corpus. ``evaluate`` reads its outcomes in four queries,
one of them three times: from a temporary view each read computed the whole prediction again
(105 jobs); from a local checkpoint the prediction runs once."""

from __future__ import annotations

import pandas as pd
import pytest
from engines import open_engine
from sqlglot import exp
from test_training_statements import LABELS, TOKENS

import sqlnb
from sqlnb import versions

# evaluate's jobs before (17a261b) and the most it may take now (58 measured)
EVALUATE_BEFORE, EVALUATE_AT_MOST = 105, 60


@pytest.fixture(scope="module")
def trained():
    """The corpus and a multinomial model "m" of it, in a fresh Spark database."""
    opened = open_engine("spark")
    engine = next(opened)
    engine.load("tokens", pd.DataFrame(TOKENS, columns=["doc_id", "word", "count"]))
    engine.load("labels", pd.DataFrame(LABELS, columns=["doc_id", "label"]))
    sqlnb.train(engine.db, "tokens", "labels", model="m")
    yield engine.db
    for _ in opened:  # the database dropped
        pass


def _jobs(db: sqlnb.Database, group: str, command) -> tuple[object, int]:
    """``command()``'s result and the Spark jobs it ran."""
    context = db.connection.sparkContext
    context.setJobGroup(group, group)
    try:
        result = command()
    finally:
        context.setJobGroup("sqlnb-tests", "")
    return result, len(context.statusTracker().getJobIdsForGroup(group))


@pytest.mark.spark
def test_evaluate_computes_its_outcomes_once(trained):
    model = sqlnb.load(trained, "m")
    (found, seen), jobs = _jobs(
        trained,
        "sqlnb-evaluate",
        lambda: _statements(trained, lambda: model.evaluate("tokens", "labels")),
    )
    assert jobs <= EVALUATE_AT_MOST < EVALUATE_BEFORE
    # the catalog row not read again after the load (its calibration came with it), neither
    # before the query (the query checks the model: its message is found in Spark's wrapped
    # error, test_a_stale_model_is_refused_in_one_line) nor after it (three reads before)
    assert not [s for s in seen if s.startswith("SELECT m.model AS model")]
    assert not [s for s in seen if "sqlnb_calibration" in s.split(" FROM ")[0]]
    # the same measures as DuckDB's of the same model
    reference = next(open_engine("duckdb"))
    reference.load("tokens", pd.DataFrame(TOKENS, columns=["doc_id", "word", "count"]))
    reference.load("labels", pd.DataFrame(LABELS, columns=["doc_id", "label"]))
    sqlnb.train(reference.db, "tokens", "labels", model="m")
    expected = sqlnb.load(reference.db, "m").evaluate("tokens", "labels")
    assert found.keys() == expected.keys()
    assert found["n_docs"] == expected["n_docs"] == len(LABELS)
    for label, measures in expected["per_class"].items():
        assert found["per_class"][label] == pytest.approx(measures, rel=1e-9)
    for key in ("accuracy", "macro_f1", "log_loss", "brier", "ece"):
        assert found[key] == pytest.approx(expected[key], rel=1e-9, abs=1e-12)
    assert found["confusion"] == expected["confusion"]
    assert [b["n_docs"] for b in found["reliability"]] == [
        b["n_docs"] for b in expected["reliability"]
    ]
    # nothing left behind: the checkpoint's view is dropped
    views = [t.name for t in trained.connection.catalog.listTables() if t.isTemporary]
    assert not [v for v in views if v.startswith("sqlnb_outcomes")]


def _statements(db: sqlnb.Database, command) -> tuple[object, list[str]]:
    """``command()``'s result and the statements it ran, each on one line."""
    seen: list[str] = []
    db.timer = lambda text, _seconds: seen.append(" ".join(text.split()))
    try:
        return command(), seen
    finally:
        db.timer = None


# The tables a multinomial model trained from a tokens table, uncalibrated, has no rows in.
EMPTY = ("sqlnb_tokenizers", "sqlnb_calibration", "sqlnb_doc_freq", "sqlnb_doc_count",
         "sqlnb_transform")  # fmt: skip


@pytest.mark.spark
def test_a_retraining_copies_and_overwrites_only_what_the_model_has(trained):
    """Spark has no transactions: a retraining copies the replaced version under its key.
    Before, it copied 12 tables (five of them empty for this model) and overwrote the five
    empty partitions again (34 statements); the catalog row says which are empty. The kept
    version still has every row the model had (tests/test_versions.py: its predictions, and
    a rollback's)."""

    def rows(where: str) -> list[list[tuple]]:  # without the model column
        named = exp.column("model").eq(exp.convert(where))
        tables = ("sqlnb_word_counts", "sqlnb_scoring", "sqlnb_classes", "sqlnb_base")
        found = [trained.fetch(exp.select("*").from_(t).where(named)) for t in tables]
        return [sorted(tuple(v for v in r if v != where) for r in t) for t in found]

    before = rows("m")
    _, seen = _statements(trained, lambda: sqlnb.train(trained, "tokens", "labels", model="m"))
    touching = [s for s in seen if s.startswith("INSERT") and any(e in s for e in EMPTY)]
    assert touching == []
    assert len(seen) <= 24 < 34
    assert rows(versions.kept(trained, "m")[-2].where) == before  # the version replaced


@pytest.mark.spark
def test_predict_reads_the_catalog_only_at_the_load(trained):
    """The query checks in what it reads that the model is the one loaded (raise_error), so the
    catalog row is not read after it, nor before it: the load read it, with its calibration's
    method (no probe of sqlnb_calibration). Evaluate's: test_evaluate_computes_its_outcomes_once."""
    model = sqlnb.load(trained, "m")
    (n, seen), jobs = _jobs(
        trained,
        "sqlnb-predict",
        lambda: _statements(trained, lambda: model.predict_to("tokens", "p_once", replace=True)),
    )
    assert n == len(LABELS)
    assert not [s for s in seen if s.startswith("SELECT m.model AS model")]  # 1 before
    assert not [s for s in seen if s.startswith("SELECT MIN(")]  # the probe: 1 before
    assert jobs <= 9  # 14 before the read after the query went (4 jobs), 11 before this


@pytest.mark.spark
def test_a_stale_model_is_refused_in_one_line(trained):
    """A model retrained after it was loaded: the prediction's own check (raise_error in the
    query, sql/predict/current.sql) refuses it in one line, though classic Spark's broadcast
    wraps the message in a Java ExecutionException (py4j's error: sqlnb.engine.messages)."""
    sqlnb.train(trained, "tokens", "labels", model="stale")
    stale = sqlnb.load(trained, "stale")
    sqlnb.train(trained, "tokens", "labels", model="stale", alpha=2.0)
    for act in (
        lambda: stale.predict_to("tokens", "p_stale", replace=True),
        lambda: stale.evaluate("tokens", "labels"),
        lambda: trained.fetch(stale.prediction_query("tokens", early=False)),
    ):
        with pytest.raises(sqlnb.SqlnbError) as refused:
            act()
        assert str(refused.value) == (
            "model 'stale' was retrained or dropped after it was loaded: load it again"
        )


@pytest.mark.spark
def test_predict_to_a_file_sorts_in_one_partition_without_a_range_shuffle(trained, tmp_path):
    """A printed or written prediction is in document order: on Spark the rows are gathered in
    one partition and sorted there (SORT BY), not by ORDER BY's range shuffle (a sampling job
    and an exchange); the writer takes the columns' types from its plan (no describe of the
    query first). The same rows, in order, as DuckDB's."""
    from sqlnb.engine import bulk

    model = sqlnb.load(trained, "m")
    query = bulk.in_order(trained, model.prediction_query("tokens"), ["doc_id"])
    out = tmp_path / "p.parquet"
    (n, seen), jobs = _jobs(
        trained, "sqlnb-file", lambda: _statements(trained, lambda: trained.write_file(query, out))
    )
    assert [s for s in seen if "SORT BY doc_id" in s and "ORDER BY" not in s] == seen  # one
    assert "/*+ REPARTITION(1) */" in seen[0] and "COALESCE(1)" not in seen[0]  # (not one task)
    assert len(seen) == 1 and jobs <= 6  # (6 before too here: at 2M ORDER BY took 2 more)
    got = pd.read_parquet(out)
    reference = next(open_engine("duckdb"))
    reference.load("tokens", pd.DataFrame(TOKENS, columns=["doc_id", "word", "count"]))
    reference.load("labels", pd.DataFrame(LABELS, columns=["doc_id", "label"]))
    expected = sqlnb.train(reference.db, "tokens", "labels", model="m").predict("tokens").fetchall()
    assert n == len(expected) == len(got)
    assert list(got["doc_id"]) == sorted(d for d, _, _ in expected)  # in order
    for (doc, label, proba), row in zip(sorted(expected), got.itertuples()):
        assert (row.doc_id, row.label) == (doc, label)
        assert row.proba == pytest.approx(proba, abs=1e-9)


class _Conf:
    """A Connect session's settings, as the server answers them."""

    def __init__(self, master: str | None) -> None:
        self.master, self.values = master, {}

    def get(self, key: str) -> str:
        if self.master is None:
            raise RuntimeError("the server does not say")
        return self.master

    def set(self, key: str, value: str) -> None:
        self.values[key] = value


class _Session:
    def __init__(self, master: str | None) -> None:
        self.conf = _Conf(master)


def test_a_connect_session_on_one_machine_plans_without_adaptive_execution():
    """Adaptive execution runs each shuffle as a job and plans again after it: on a Connect
    server that runs on one machine, sqlnb's own session turns it off and shuffles into two
    partitions a core; a cluster's server, or one that does not say, is left as configured."""
    from sqlnb.engine import spark

    settings = {}
    for master in ("local[3]", "local", "spark://h:7077", "yarn", None):
        session = _Session(master)
        spark._plan_locally(session)
        settings[master] = session.conf.values
    assert settings == {
        "local[3]": {"spark.sql.adaptive.enabled": "false", "spark.sql.shuffle.partitions": "6"},
        "local": {"spark.sql.adaptive.enabled": "false", "spark.sql.shuffle.partitions": "2"},
        "spark://h:7077": {},
        "yarn": {},
        None: {},
    }


@pytest.mark.spark
def test_a_url_never_takes_the_session_a_process_already_runs(trained):
    """Spark's getOrCreate returns the process's running session whatever the URL asks for,
    and sqlnb stops a session it opened at its close: given ``local[2]`` where the caller's
    session runs, sqlnb refuses in one line (pass the session instead) and the session lives."""
    with pytest.raises(sqlnb.SqlnbError, match=r"^a Spark session already runs in this process"):
        sqlnb.train("local[2]", "tokens", "labels", model="other")
    assert trained.connection.sql("SELECT 1 AS one").collect()[0][0] == 1
    assert "other" not in [m["model"] for m in sqlnb.models(trained)]
