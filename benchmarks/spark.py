"""sqlnb on Spark against Spark MLlib's own Naive Bayes, from the same raw-text Parquet files
(issue 24). Whole processes, side by side, interleaved; medians.

    python benchmarks/spark.py [--sizes 2M,10M] [--repeat 3] [--master local[2]] [--markdown F]
    python benchmarks/spark.py mllib TRAIN TEST OUT   # one MLlib run (a process of its own)

The corpus: 20 classes, 20,000 words, 50 to 150 words a document (100 on average), each class
drawing its words from a global Zipf(1.1) law mixed with 7% of its own ranking of the
vocabulary; 80% of the documents to train, 20% to score; ``docs(doc_id, text, label)``.

- **MLlib**: one process, ``RegexTokenizer`` (sqlnb's default pattern, lowercase) →
  ``CountVectorizer`` (every word) → ``StringIndexer`` → ``NaiveBayes`` (multinomial, smoothing
  1) fitted on the training file, then ``transform`` of the test file and its (doc_id, label,
  probability) written to Parquet. Run twice: with Spark's defaults, and with the same driver
  settings sqlnb's command line gives its own session (its class-data-sharing archive and
  shuffle partitions), so that the difference left is the work.
- **sqlnb**: two processes, as a user runs them: ``sqlnb train MASTER --docs train.parquet``
  and ``sqlnb predict MASTER --docs test.parquet --output out.parquet``, in a working
  directory whose catalog (``metastore_db``) an untimed first training created.
- Accuracy of both on the test file (untimed), and what each of sqlnb's statements took
  (``SQLNB_PROFILE``) in the last run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PATTERN = r"[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*"  # sqlnb's default, in Java's syntax


def generate(tokens: int, out: Path, seed: int = 1) -> Path:
    """The corpus of about ``tokens`` words in ``out`` (train.parquet, test.parquet)."""
    import duckdb
    import numpy as np

    if (out / "test.parquet").exists():
        return out
    out.mkdir(parents=True, exist_ok=True)
    classes, size, mix = 20, 20_000, 0.07
    rng = np.random.default_rng(seed)
    words: set[str] = set()
    while len(words) < size:
        for n in rng.integers(3, 11, size=size):
            words.add("".join(chr(97 + c) for c in rng.integers(0, 26, size=n)))
    vocabulary = np.array(sorted(words)[:size])
    rng.shuffle(vocabulary)
    zipf = 1.0 / np.arange(1, size + 1) ** 1.1
    zipf /= zipf.sum()
    cls, ids, starts = [], [], []
    for k in range(classes):
        p = (1 - mix) * zipf + mix * zipf[np.argsort(rng.permutation(size))]
        p /= p.sum()
        cls.append(np.full(size, k))
        ids.append(np.arange(size))
        starts.append(np.concatenate([[0.0], np.cumsum(p)[:-1]]))
    con = duckdb.connect()
    con.register(
        "c", {"cls": np.concatenate(cls), "wid": np.concatenate(ids), "lo": np.concatenate(starts)}
    )
    con.register("v", {"wid": np.arange(size), "word": vocabulary})
    con.execute("CREATE TABLE cdf AS SELECT c.cls::INT cls, c.lo, v.word FROM c JOIN v USING (wid)")
    n_docs = tokens // 100
    con.execute(
        f"CREATE TABLE d AS SELECT i::BIGINT doc_id, (hash(i, 'class') % {classes})::INT cls, "
        f"(50 + hash(i, 'len') % 101)::INT len FROM range({n_docs}) r(i)"
    )
    con.execute(
        "CREATE TABLE t AS SELECT doc_id, cls, pos, (hash(doc_id, pos, 'u') % 1000000007)::DOUBLE"
        " / 1000000007 AS u FROM (SELECT doc_id, cls, unnest(range(len)) pos FROM d)"
    )
    con.execute(
        "CREATE TABLE docs AS SELECT t.doc_id, string_agg(c.word, ' ' ORDER BY t.pos) AS text, "
        "printf('class_%02d', any_value(t.cls)) AS label FROM t ASOF JOIN cdf c "
        "ON t.cls = c.cls AND t.u >= c.lo GROUP BY t.doc_id"
    )
    for name, where in (("train", "doc_id % 5 <> 0"), ("test", "doc_id % 5 = 0")):
        con.execute(
            f"COPY (SELECT * FROM docs WHERE {where} ORDER BY doc_id) TO '{out / name}.parquet' "
            "(FORMAT parquet)"
        )
    return out


def mllib(train: str, test: str, out: str) -> None:
    """One run of MLlib's pipeline (see the module's docstring)."""
    import warnings

    warnings.filterwarnings("ignore")
    from pyspark.ml import Pipeline
    from pyspark.ml.classification import NaiveBayes
    from pyspark.ml.feature import CountVectorizer, RegexTokenizer, StringIndexer
    from pyspark.ml.functions import vector_to_array
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    builder = SparkSession.builder.master(os.environ.get("MASTER", "local[2]")).appName("mllib")
    for key, value in json.loads(os.environ.get("SPARK_SETTINGS", "{}")).items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    pipeline = Pipeline(
        stages=[
            RegexTokenizer(inputCol="text", outputCol="tokens", pattern=PATTERN, gaps=False),
            CountVectorizer(inputCol="tokens", outputCol="features", vocabSize=1 << 24),
            StringIndexer(inputCol="label", outputCol="y", stringOrderType="alphabetAsc"),
            NaiveBayes(featuresCol="features", labelCol="y", modelType="multinomial"),
        ]
    )
    model = pipeline.fit(spark.read.parquet(train))
    labels = F.array(*[F.lit(x) for x in model.stages[2].labels])
    scored = model.transform(spark.read.parquet(test).select("doc_id", "text")).select(
        "doc_id",
        F.element_at(labels, F.col("prediction").cast("int") + 1).alias("label"),
        F.array_max(vector_to_array("probability")).alias("proba"),
    )
    scored.write.mode("overwrite").parquet(out)
    spark.stop()


def timed(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    started = time.monotonic()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-3000:]}")
    return time.monotonic() - started


def accuracy(out: Path, test: Path) -> float:
    import duckdb

    source = f"'{out}/*.parquet'" if out.is_dir() else f"'{out}'"
    with duckdb.connect() as con:
        (found,) = con.execute(
            "SELECT AVG(CASE WHEN o.label = t.label THEN 1.0 ELSE 0 END) "
            f"FROM read_parquet({source}) o JOIN read_parquet('{test}') t USING (doc_id)"
        ).fetchall()[0]
    return float(found)


def sqlnb_settings() -> dict[str, str]:
    """The driver settings sqlnb's command line gives a local[2] session it starts."""
    from sqlnb import cache

    archive = next(iter(sorted((cache.folder() or Path(".")).glob("spark-*.jsa"))), None)
    options = f"-XX:SharedArchiveFile={archive} -Xshare:auto -Xlog:disable" if archive else ""
    return {"spark.sql.shuffle.partitions": "4", "spark.driver.extraJavaOptions": options}


def median(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} s [{min(values):.1f}–{max(values):.1f}]"


def run(sizes: list[str], repeat: int, master: str) -> list[str]:
    python, lines = sys.executable, []
    lines.append(
        f"master {master}; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at start"
    )
    lines.append("")
    lines.append(
        "| token rows | MLlib (Spark's defaults) | MLlib (sqlnb's driver settings) | "
        "sqlnb train | sqlnb predict | sqlnb train + predict | ÷ MLlib | ÷ MLlib (same settings) "
        "| accuracy MLlib / sqlnb |"
    )
    lines.append("|---|---|---|---|---|---|---|---|---|")
    for size in sizes:
        tokens = int(float(size.rstrip("M")) * 1_000_000)
        data = generate(tokens, HERE / "data" / f"spark_{size}")
        train, test = data / "train.parquet", data / "test.parquet"
        work = data / "sqlnb-work"
        work.mkdir(exist_ok=True)
        train_args = [python, "-m", "sqlnb", "train", master, "--docs", str(train), "--model", "m"]
        out = work / "out.parquet"
        predict_args = [
            python,
            "-m",
            "sqlnb",
            "predict",
            master,
            "--docs",
            str(test),
            "--model",
            "m",
            "--output",
            str(out),
            "--replace",
        ]
        timed(train_args, work)  # untimed: the catalog, the class-data archive
        times: dict[str, list[float]] = {k: [] for k in ("ml", "ml2", "train", "predict")}
        for i in range(repeat):
            ml_out = work / "mllib.parquet"
            mllib_args = [python, __file__, "mllib", str(train), str(test), str(ml_out)]
            env = {**os.environ, "MASTER": master}
            times["ml"].append(timed(mllib_args, work, env))
            same = {**env, "SPARK_SETTINGS": json.dumps(sqlnb_settings())}
            times["ml2"].append(timed(mllib_args, work, same))
            last = i == repeat - 1
            profile = {**os.environ, "SQLNB_PROFILE": str(work / "train.prof")} if last else None
            times["train"].append(timed(train_args, work, profile))
            if last:
                profile = {**os.environ, "SQLNB_PROFILE": str(work / "predict.prof")}
            times["predict"].append(timed(predict_args, work, profile))
        both = [t + p for t, p in zip(times["train"], times["predict"])]
        ratio = statistics.median(both) / statistics.median(times["ml"])
        ratio_same = statistics.median(both) / statistics.median(times["ml2"])
        lines.append(
            f"| {size} | {median(times['ml'])} | {median(times['ml2'])} | "
            f"{median(times['train'])} | {median(times['predict'])} | {median(both)} | "
            f"{ratio:.2f}× | {ratio_same:.2f}× | {accuracy(ml_out, test):.4f} / "
            f"{accuracy(out, test):.4f} |"
        )
        print(lines[-1], flush=True)
        for name in ("train", "predict"):
            lines += ["", f"Statements of the last `sqlnb {name}` at {size}, slowest first:", ""]
            records = [json.loads(x) for x in (work / f"{name}.prof").read_text().splitlines()]
            (work / f"{name}.prof").unlink()
            total = sum(r["seconds"] for r in records)
            lines.append(f"{len(records)} statements, {total:.1f} s in all")
            for r in sorted(records, key=lambda r: -r["seconds"])[:6]:
                lines.append(f"- {r['seconds']:.2f} s `{' '.join(r['sql'].split())[:100]}`")
    return lines


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "mllib":
        mllib(*sys.argv[2:5])
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="2M,10M")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--markdown")
    args = parser.parse_args()
    lines = run(args.sizes.split(","), args.repeat, args.master)
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)


if __name__ == "__main__":
    main()
