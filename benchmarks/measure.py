"""One measurement of the benchmark, alone in its process (benchmarks/run.py starts one per run).

    python benchmarks/measure.py WHAT DATA_DIR [--kind K] [--db FILE] [--dump DIR]
                                 [--memory-limit SIZE] [--profile]

WHAT is one of:

    sklearn        read the Parquet files with pyarrow, build CSR matrices, fit the scikit-learn
                   estimator of --kind, predict_proba + argmax on the test set
    sqlnb-parquet  sqlnb.train and Model.predict_to straight from the Parquet files, in an
                   in-memory DuckDB
    sqlnb-tables   the same from tables of a DuckDB file (--db, copied first, untimed)
    groupby        the engine's limit for training: one GROUP BY label, word over the joined
                   training tokens and labels (from Parquet, or the tables of --db)
    join           the engine's limit for prediction: the test tokens joined to a (class, word)
                   table of the model's size, SUM(count * weight) per (doc, class)
    kinds          (no timing) which kinds and APIs the importable sqlnb has

Prints one JSON object on its last line of output: the seconds of each phase, their total, the
CPU seconds of the process over them, the 1-minute load average at the end, and the peak
resident memory of the process (VmHWM) with the same before the work began (imports).
With --dump, afterwards (untimed) writes the predicted labels of every test document and the
log-probabilities of the documents listed in DIR/sample.parquet, for the parity check.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import scipy.sparse as sp

Result = dict[str, Any]
WIDE_KINDS = ("gaussian",)  # read from a wide table; every other kind from tokens


class Timer:
    """Wall-clock seconds per phase (a phase timed twice adds up), and the CPU seconds of all
    the process's threads over the phases, which other load on the machine disturbs less."""

    def __init__(self) -> None:
        self.phases: dict[str, float] = {}
        self.cpu_phases: dict[str, float] = {}

    @contextlib.contextmanager
    def __call__(self, phase: str) -> Iterator[None]:
        start, cpu = time.perf_counter(), time.process_time()
        try:
            yield
        finally:
            self.phases[phase] = self.phases.get(phase, 0.0) + time.perf_counter() - start
            spent = time.process_time() - cpu
            self.cpu_phases[phase] = self.cpu_phases.get(phase, 0.0) + spent


def peak_rss_mib() -> float:
    """The process's peak resident memory: VmHWM, not ru_maxrss, which Linux carries over
    from the parent's memory at fork and exec."""
    with contextlib.suppress(OSError), open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def parquet(data: Path, name: str) -> str:
    return str(data / f"{name}.parquet")


def sample_ids(dump: Path) -> pa.Array:
    return pq.read_table(dump / "sample.parquet").column("doc_id").combine_chunks()


# --- scikit-learn ------------------------------------------------------------------------------


def estimator(kind: str) -> Any:
    from sklearn import naive_bayes as nb

    return {
        "multinomial": nb.MultinomialNB,
        "complement": nb.ComplementNB,
        "bernoulli": nb.BernoulliNB,
        "gaussian": nb.GaussianNB,
    }[kind]()


def csr(rows: np.ndarray, cols: np.ndarray, data: np.ndarray, shape: tuple[int, int]) -> Any:
    """A CSR matrix; built directly when the rows come grouped by document (as Parquet files
    written in document order do), else through scipy's linear-time COO conversion."""
    if len(rows) and np.all(rows[1:] >= rows[:-1]):
        indptr = np.zeros(shape[0] + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=shape[0]), out=indptr[1:])
        return sp.csr_matrix((data, cols, indptr), shape=shape)
    return sp.csr_matrix((data, (rows, cols)), shape=shape)


def train_matrix(data: Path) -> tuple[Any, np.ndarray, pa.Array]:
    """(X, y, vocabulary): one row per labeled document, one column per training word."""
    tokens = pq.read_table(parquet(data, "train_tokens"))
    labels = pq.read_table(parquet(data, "train_labels"))
    rows = pc.index_in(tokens.column("doc_id"), value_set=labels.column("doc_id"))
    counts = tokens.column("count").to_numpy()
    keep = counts > 0  # rows with count 0 add no word; unlabeled documents are not training data
    if rows.null_count:
        keep &= rows.is_valid().to_numpy()
    if not keep.all():
        tokens, rows, counts = tokens.filter(keep), rows.filter(keep), counts[keep]
    words = pc.dictionary_encode(tokens.column("word"))  # one dictionary shared by the chunks
    vocabulary = words.chunk(0).dictionary if words.num_chunks else pa.array([], pa.string())
    cols = np.concatenate([chunk.indices.to_numpy() for chunk in words.chunks])
    shape = (labels.num_rows, len(vocabulary))
    x = csr(rows.to_numpy(), cols, counts.astype(np.float64), shape)
    return x, labels.column("label").to_numpy(), vocabulary


def test_matrix(data: Path, vocabulary: pa.Array) -> tuple[Any, pa.Array]:
    """(X, doc_ids): one row per distinct test document; words outside the vocabulary dropped."""
    tokens = pq.read_table(parquet(data, "test_tokens"))
    docs = pc.unique(tokens.column("doc_id"))
    cols = pc.index_in(tokens.column("word"), value_set=vocabulary)
    known = pc.and_(cols.is_valid(), pc.greater(tokens.column("count"), 0))
    rows = pc.index_in(tokens.column("doc_id"), value_set=docs)
    x = csr(
        rows.filter(known).to_numpy(),
        cols.filter(known).to_numpy(),
        tokens.column("count").filter(known).to_numpy().astype(np.float64),
        (len(docs), len(vocabulary)),
    )
    return x, docs


def wide_matrix(data: Path, split: str) -> tuple[np.ndarray, np.ndarray, pa.Array]:
    """(X, y, doc_ids) of a wide table: every column but doc_id and label is a feature."""
    table = pq.read_table(parquet(data, f"{split}_wide"))
    features = [c for c in table.column_names if c not in ("doc_id", "label")]
    x = np.column_stack([table.column(c).to_numpy() for c in features])
    return x, table.column("label").to_numpy(), table.column("doc_id").combine_chunks()


def run_sklearn(args: argparse.Namespace, timer: Timer) -> Callable[[], None]:
    from threadpoolctl import threadpool_info

    model = estimator(args.kind)
    wide = args.kind in WIDE_KINDS
    with timer("load"):
        if wide:
            x, y, _ = wide_matrix(args.data, "train")
        else:
            x, y, vocabulary = train_matrix(args.data)
    with timer("fit"):
        model.fit(x, y)
    with timer("load"):
        if wide:
            x_test, _, docs = wide_matrix(args.data, "test")
        else:
            x_test, docs = test_matrix(args.data, vocabulary)
    with timer("predict"):
        proba = model.predict_proba(x_test)
        predicted = model.classes_[np.argmax(proba, axis=1)]
    args.info["blas"] = sorted(
        {f"{i['internal_api']} {i.get('architecture', '')}".strip() for i in threadpool_info()}
    )

    def dump() -> None:
        labels = pa.table({"doc_id": docs, "label": pa.array(predicted.astype(str))})
        pq.write_table(labels, args.dump / "sklearn_labels.parquet")
        wanted = sample_ids(args.dump)
        rows = pc.index_in(wanted, value_set=docs).to_numpy()
        log_proba = model.predict_log_proba(x_test[rows])
        n, k = log_proba.shape
        table = pa.table(
            {
                "doc_id": np.repeat(wanted.to_numpy(), k),
                "label": pa.array(np.tile(model.classes_.astype(str), n)),
                "log_proba": log_proba.reshape(-1),
            }
        )
        pq.write_table(table, args.dump / "sklearn_log_proba.parquet")

    return dump


# --- sqlnb -------------------------------------------------------------------------------------


def connection(args: argparse.Namespace, path: str = ":memory:") -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(path)
    if args.memory_limit:
        if not re.fullmatch(r"[0-9.]+ ?[KMGT]i?B", args.memory_limit):
            raise SystemExit(f"--memory-limit {args.memory_limit!r}: write e.g. 8GB")
        con.execute(f"SET memory_limit = '{args.memory_limit}'")
        # Somewhere to spill to beyond the limit, also for an in-memory database.
        spill = Path(tempfile.mkdtemp(prefix="sqlnb-spill-"))
        con.execute(f"SET temp_directory = '{spill}'")
    return con


def profiler(db: Any) -> Callable[[], list[tuple[float, str]]]:
    """Statement times from the tracer: each statement ends when the next one starts (the
    last when ``finish`` is called)."""
    stamps: list[tuple[float, str]] = []
    db.tracer = lambda text: stamps.append((time.perf_counter(), text))

    def finish() -> list[tuple[float, str]]:
        ends = [t for t, _ in stamps[1:]] + [time.perf_counter()]
        out = [(end - start, text) for (start, text), end in zip(stamps, ends)]
        stamps.clear()
        return out

    return finish


def sqlnb_sources(args: argparse.Namespace) -> tuple[Any, Any, Any, str]:
    """(training data, labels or None, test data, the test source as SQL) for sqlnb.train
    and Model.predict_to: Parquet paths, or the tables of the copied --db."""
    import sqlnb

    tables = args.what == "sqlnb-tables"
    if args.kind in WIDE_KINDS:
        train, test = (n if tables else parquet(args.data, n) for n in ("train_wide", "test_wide"))
        return (
            sqlnb.Table(train, id="doc_id", label="label"),
            None,
            sqlnb.Table(test, id="doc_id", label="label"),
            test if tables else f"'{test}'",
        )
    names = ("train_tokens", "train_labels", "test_tokens")
    train, labels, test = (n if tables else parquet(args.data, n) for n in names)
    return train, labels, test, test if tables else f"'{test}'"


def sample_source(args: argparse.Namespace, table: str) -> Any:
    import sqlnb

    if args.kind in WIDE_KINDS:
        return sqlnb.Table(table, id="doc_id", label="label")
    return table


def run_sqlnb(args: argparse.Namespace, timer: Timer) -> Callable[[], None]:
    import sqlnb

    if args.what == "sqlnb-tables":
        work = Path(tempfile.mkdtemp(prefix="sqlnb-bench-"))
        shutil.copy(args.db, work / "bench.duckdb")
        con = connection(args, str(work / "bench.duckdb"))
    else:
        con = connection(args)
    train, labels, test, test_sql = sqlnb_sources(args)
    db = sqlnb.connect(con)
    finish = profiler(db) if args.profile else None
    with timer("train"):
        given = (train,) if labels is None else (train, labels)
        model = sqlnb.train(db, *given, model="bench", kind=args.kind)
    if finish:
        args.info["train_statements"] = finish()
    with timer("predict"):
        model.predict_to(test, "sqlnb_bench_out")
    if finish:
        args.info["predict_statements"] = finish()
        db.tracer = None

    def dump() -> None:
        out = args.dump / f"{args.what}_labels.parquet"
        con.execute(f"COPY (SELECT doc_id, label FROM sqlnb_bench_out) TO '{out}'")
        con.execute(
            f"CREATE TEMP TABLE sqlnb_bench_sample AS SELECT * FROM {test_sql} "
            f"WHERE doc_id IN (SELECT doc_id FROM '{args.dump / 'sample.parquet'}')"
        )
        sample = sample_source(args, "sqlnb_bench_sample")
        log_proba = model.predict_log_proba(sample).arrow()
        if isinstance(log_proba, pa.RecordBatchReader):
            log_proba = log_proba.read_all()
        pq.write_table(log_proba, args.dump / f"{args.what}_log_proba.parquet")

    return dump


# --- the engine's limit ------------------------------------------------------------------------


def limit_sources(args: argparse.Namespace) -> tuple[duckdb.DuckDBPyConnection, dict[str, str]]:
    names = ("train_tokens", "train_labels", "test_tokens")
    if args.db:
        work = Path(tempfile.mkdtemp(prefix="sqlnb-bench-"))
        shutil.copy(args.db, work / "bench.duckdb")
        return connection(args, str(work / "bench.duckdb")), {n: n for n in names}
    return connection(args), {n: f"read_parquet('{parquet(args.data, n)}')" for n in names}


def run_groupby(args: argparse.Namespace, timer: Timer) -> None:
    con, src = limit_sources(args)
    with timer("groupby"):
        con.execute(
            "CREATE TABLE limit_counts AS "
            "SELECT l.label, t.word, SUM(t.count) AS count "
            f"FROM {src['train_tokens']} AS t JOIN {src['train_labels']} AS l "
            "ON l.doc_id = t.doc_id GROUP BY l.label, t.word"
        )


def run_join(args: argparse.Namespace, timer: Timer) -> None:
    con, src = limit_sources(args)
    con.execute(  # a (class, word) table of the model's size: every class x training word
        "CREATE TABLE limit_weights AS "
        "SELECT c.class_id, v.word, -1.0 - (hash(v.word) % 1000) / 100.0 - c.class_id AS weight "
        f"FROM (SELECT DISTINCT word FROM {src['train_tokens']}) AS v "
        f"CROSS JOIN (SELECT DENSE_RANK() OVER (ORDER BY label) - 1 AS class_id "
        f"FROM (SELECT DISTINCT label FROM {src['train_labels']})) AS c"
    )
    args.info["model_rows"] = con.execute("SELECT COUNT(*) FROM limit_weights").fetchone()[0]
    with timer("join"):
        con.execute(
            "CREATE TABLE limit_scores AS "
            "SELECT t.doc_id, w.class_id, SUM(t.count * w.weight) AS score "
            f"FROM {src['test_tokens']} AS t JOIN limit_weights AS w ON w.word = t.word "
            "GROUP BY t.doc_id, w.class_id"
        )


def kinds() -> Result:
    import sqlnb
    from sqlnb.kinds import KINDS

    return {
        "kinds": sorted(KINDS),
        "table": hasattr(sqlnb, "Table"),
        "version": sqlnb.__version__,
        "path": str(Path(sqlnb.__file__).resolve().parent),
    }


# --- main --------------------------------------------------------------------------------------


def imports(what: str) -> None:
    """Import what the measurement needs before the baseline memory is read."""
    if what == "sklearn":
        import sklearn.naive_bayes  # noqa: F401
        import threadpoolctl  # noqa: F401
    elif what.startswith("sqlnb-"):
        import sqlnb  # noqa: F401


def measure(args: argparse.Namespace) -> Result:
    timer = Timer()
    imports(args.what)
    baseline = peak_rss_mib()
    args.info = {}
    dump = None
    if args.what == "sklearn":
        dump = run_sklearn(args, timer)
    elif args.what.startswith("sqlnb-"):
        dump = run_sqlnb(args, timer)
    elif args.what == "groupby":
        run_groupby(args, timer)
    else:
        run_join(args, timer)
    result = {
        "phases": timer.phases,
        "seconds": sum(timer.phases.values()),
        "cpu_phases": timer.cpu_phases,
        "cpu_seconds": sum(timer.cpu_phases.values()),
        "load": os.getloadavg()[0],
        "peak_rss_mib": peak_rss_mib(),
        "baseline_rss_mib": baseline,
        "info": args.info,
    }
    if args.dump and dump:
        dump()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    whats = ("sklearn", "sqlnb-parquet", "sqlnb-tables", "groupby", "join", "kinds")
    parser.add_argument("what", choices=whats)
    parser.add_argument("data", type=Path, nargs="?")
    parser.add_argument("--kind", default="multinomial")
    parser.add_argument("--db", type=Path, help="a DuckDB file with the corpus as tables")
    parser.add_argument("--dump", type=Path, help="write predictions here for the parity check")
    parser.add_argument("--memory-limit", help="DuckDB's SET memory_limit, e.g. 8GB")
    parser.add_argument("--profile", action="store_true", help="time each sqlnb statement")
    args = parser.parse_args(argv)
    if args.what == "kinds":
        print(json.dumps(kinds()))
        return 0
    if args.data is None:
        parser.error(f"{args.what} needs DATA_DIR")
    if args.what == "sqlnb-tables" and not args.db:
        parser.error("sqlnb-tables needs --db")
    print(json.dumps(measure(args)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
