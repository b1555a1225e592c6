"""Shared fixtures: seeded random corpora and their scikit-learn counterparts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp


@dataclass
class Corpus:
    """A random labeled corpus: a tokens frame and a labels frame, split train/test."""

    train_tokens: pd.DataFrame
    train_labels: pd.DataFrame
    test_tokens: pd.DataFrame
    test_labels: pd.DataFrame

    def load(self, con: duckdb.DuckDBPyConnection) -> None:
        for name in ("train_tokens", "train_labels", "test_tokens", "test_labels"):
            frame = getattr(self, name)
            con.register("frame", frame)
            con.execute(f"CREATE OR REPLACE TABLE {name} AS SELECT * FROM frame")
            con.unregister("frame")

    def matrices(
        self, binary: bool = False
    ) -> tuple[sp.csr_matrix, np.ndarray, sp.csr_matrix, list]:
        """Train and test document-term matrices over the training vocabulary (sorted words),
        training labels, and the test documents' ids in row order."""
        vocab = sorted(set(self.train_tokens.loc[self.train_tokens["count"] > 0, "word"]))
        index = {w: i for i, w in enumerate(vocab)}

        def matrix(tokens: pd.DataFrame, docs: list) -> sp.csr_matrix:
            row_of = {d: i for i, d in enumerate(docs)}
            known = tokens[tokens["word"].isin(index)]
            m = sp.csr_matrix(
                (
                    known["count"].astype(float).to_numpy(),
                    (known["doc_id"].map(row_of).to_numpy(), known["word"].map(index).to_numpy()),
                ),
                shape=(len(docs), len(vocab)),
            )
            m.sum_duplicates()
            if binary:
                m.data = (m.data > 0).astype(float)
            return m

        train_docs = list(self.train_labels["doc_id"])
        test_docs = sorted(set(self.test_tokens["doc_id"]))
        y = self.train_labels["label"].to_numpy()
        return (
            matrix(self.train_tokens, train_docs),
            y,
            matrix(self.test_tokens, test_docs),
            test_docs,
        )


def random_corpus(
    seed: int,
    *,
    n_classes: int = 3,
    vocab: int = 200,
    n_train: int = 120,
    n_test: int = 40,
    doc_length: int = 30,
    label_kind: str = "text",
) -> Corpus:
    """Documents whose words follow class-dependent Zipf-like rates; a few test words are unseen
    and a few test documents have no known word."""
    rng = np.random.default_rng(seed)
    base = 1.0 / np.arange(1, vocab + 1) ** 1.1
    rates = np.array([rng.permutation(base) + base for _ in range(n_classes)])
    rates /= rates.sum(axis=1, keepdims=True)
    words = np.array([f"w{i}" for i in range(vocab)], dtype=object)

    def labels_of(k: np.ndarray) -> list:
        if label_kind == "int":
            return [int(x) * 7 - 3 for x in k]
        if label_kind == "bool":
            return [bool(x) for x in k]
        return [f"class {x:02d}" for x in k]

    def make(n: int, first_id: int, unseen: bool) -> tuple[pd.DataFrame, pd.DataFrame]:
        k = rng.integers(0, n_classes, size=n)
        rows = []
        for i, c in enumerate(k):
            length = int(rng.integers(1, 2 * doc_length))
            drawn = rng.choice(vocab, size=length, p=rates[c])
            ids, counts = np.unique(drawn, return_counts=True)
            rows += [(first_id + i, words[w], int(n)) for w, n in zip(ids, counts)]
            if unseen and i % 7 == 0:
                rows.append((first_id + i, f"unseen{i}", 2))
        if unseen:  # documents made only of unknown words
            rows += [(first_id + n + j, f"nowhere{j}", 1) for j in range(2)]
            k = np.concatenate([k, rng.integers(0, n_classes, size=2)])
        tokens = pd.DataFrame(rows, columns=["doc_id", "word", "count"])
        labels = pd.DataFrame({"doc_id": first_id + np.arange(len(k)), "label": labels_of(k)})
        return tokens, labels

    train_tokens, train_labels = make(n_train, 0, unseen=False)
    test_tokens, test_labels = make(n_test, 100_000, unseen=True)
    return Corpus(train_tokens, train_labels, test_tokens, test_labels)


def copy_database(source: Path, target: Path) -> Path:
    """A copy of the DuckDB file ``source`` (and its write-ahead log, if any) at ``target``: a
    database trained once per module, given to each test that writes to it."""
    import shutil

    shutil.copy(source, target)
    wal = source.with_name(source.name + ".wal")
    if wal.exists():
        shutil.copy(wal, target.with_name(target.name + ".wal"))
    return target


def untouched(copy: Path, original: Path) -> bool:
    """Whether the DuckDB file ``copy`` is still byte for byte the file it was copied from,
    with no write-ahead log beside it: then every table is as it was, for certain, and a test
    need not read them all to say so (a command that fails leaves the file as it found it;
    where this says False, the test compares every table's rows)."""
    import filecmp

    wal = copy.with_name(copy.name + ".wal")
    return not wal.exists() and filecmp.cmp(copy, original, shallow=False)


@pytest.fixture
def con() -> duckdb.DuckDBPyConnection:
    connection = duckdb.connect()
    yield connection
    connection.close()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "test.duckdb"


@pytest.fixture(params=["sqlite", "postgres", "spark", "clickhouse"])
def engine(request):
    """Each engine other than DuckDB, in a fresh namespace."""
    from engines import open_engine

    yield from open_engine(request.param)


@pytest.fixture
def spark_url(monkeypatch: pytest.MonkeyPatch):
    """A Spark URL whose commands, run in this process (``cli.run``), open the tests' one local
    session, in a fresh database, and leave it running: one JVM for every such command, not one
    each (what a session of its own changes is tests/test_spark.py's process tests' to show)."""
    from engines import open_engine

    import sqlnb.engine.spark

    opened = open_engine("spark")
    session = next(opened).db.connection
    stop = sqlnb.engine.spark.stop
    # connections imports it from sqlnb.engine.spark when a Spark URL is opened
    monkeypatch.setattr(sqlnb.engine.spark, "open_session", lambda url: session)
    monkeypatch.setattr(sqlnb.engine.spark, "stop", lambda s: None if s is session else stop(s))
    yield "local[2]"
    monkeypatch.undo()
    for _ in opened:  # the database dropped
        pass


@pytest.fixture
def reference():
    """DuckDB, the reference every engine is compared with."""
    from engines import open_engine

    yield from open_engine("duckdb")


# --- markers (pyproject.toml registers them; the README's Tests section says what each covers) --

ENGINE_MARKS = ("sqlite", "postgres", "spark", "clickhouse")
# whole files on one engine
MODULE_MARKS = {
    "test_sqlite.py": ("sqlite",),
    "test_security.py": ("postgres",),
    "test_spark.py": ("spark",),
    "test_clickhouse.py": ("clickhouse",),
}
# fixtures that open one engine
FIXTURE_MARKS = {"pg": "postgres", "spark": "spark", "spark_url": "spark"}
# tests/slow_in_ci.txt: the DuckDB tests that took 2 s or more in CI, out of the quick loop
SLOW_IN_CI = Path(__file__).with_name("slow_in_ci.txt")


def slow_in_ci() -> set[str]:
    """The node ids tests/slow_in_ci.txt lists (each line: CI's seconds, then the node id)."""
    lines = SLOW_IN_CI.read_text().splitlines()
    return {
        line.split(maxsplit=1)[1] for line in lines if line.strip() and not line.startswith("#")
    }


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test by the engines it runs on: its file, the fixtures it uses, and the
    engine it is parametrized with (a parameter whose value names an engine, other than a
    dialect printed to text), and ``slow`` on the tests tests/slow_in_ci.txt lists."""
    slow = slow_in_ci()
    for item in items:
        wanted = set(MODULE_MARKS.get(item.path.name, ()))
        wanted |= {
            FIXTURE_MARKS[f] for f in getattr(item, "fixturenames", ()) if f in FIXTURE_MARKS
        }
        callspec = getattr(item, "callspec", None)
        if callspec is not None:
            wanted |= {
                value
                for key, value in callspec.params.items()
                if isinstance(value, str) and value in ENGINE_MARKS and key != "dialect"
            }
        if item.nodeid in slow:
            wanted.add("slow")
        present = {mark.name for mark in item.iter_markers()}
        for name in sorted(wanted - present):
            item.add_marker(getattr(pytest.mark, name))
