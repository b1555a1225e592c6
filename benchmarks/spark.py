"""sqlnb on Spark against Spark MLlib's own Naive Bayes, from the same raw-text Parquet files
(issue 24). Whole processes, side by side, interleaved; medians.

    python benchmarks/spark.py [--sizes 2M,10M] [--repeat 3] [--master local[2]] [--markdown F]
    python benchmarks/spark.py --server 16310 [--cold 10M]  # issue 38's check (below)
    python benchmarks/spark.py --master sc://localhost:15202 --ui 18280 --sizes 2M  # warm server
    python benchmarks/spark.py --data /work/bench/data/10M_k20 ...  # a corpus of generate.py
    python benchmarks/spark.py --no-first ...  # no untimed first training (a warm catalog)
    python benchmarks/spark.py mllib TRAIN TEST OUT   # one MLlib run (a process of its own)
    MLLIB_SAVE=DIR python benchmarks/spark.py mllib ...  # its model saved there, loaded back

The corpus: 20 classes, 20,000 words, 50 to 150 words a document (100 on average), each class
drawing its words from a global Zipf(1.1) law mixed with 7% of its own ranking of the
vocabulary; 80% of the documents to train, 20% to score; ``docs(doc_id, text, label)``.

- **MLlib**: one process, ``RegexTokenizer`` (sqlnb's default pattern, lowercase) →
  ``CountVectorizer`` (every word) → ``StringIndexer`` → ``NaiveBayes`` (multinomial, smoothing
  1) fitted on the training file, then ``transform`` of the test file and its (doc_id, label,
  probability) written to Parquet. Run twice: with Spark's defaults, and with the same driver
  settings sqlnb's command line gives its own session (its class-data-sharing archive, its JIT
  compilers and shuffle partitions), so that the difference left is the work.
- **sqlnb**: two processes, as a user runs them: ``sqlnb train MASTER --docs train.parquet``
  and ``sqlnb predict MASTER --docs test.parquet --output out.parquet``, in a working
  directory whose catalog (``metastore_db``) an untimed first training created.
- **Through a warm Spark Connect server** (``--master sc://HOST:PORT``, started beforehand
  with ``--conf spark.sql.catalogImplementation=hive``): both sides are clients of the same
  server; with ``--ui PORT`` (the server's web UI) each run also reports the Spark jobs,
  completed stages and SQL executions it caused, read from Spark's REST API before and after.
- **Issue 38's check** (``--server PORT``): the benchmark starts its own Spark Connect server
  with pyspark's ``sbin/start-connect-server.sh`` (``local[2]``, Hive catalog, gRPC on PORT,
  its web UI on PORT + 1, in a folder of its own), alternates MLlib and sqlnb through it at
  ``--sizes`` (default 2M and 10M), with the server JVM's CPU seconds of each run (``/proc``),
  stops it, then runs the cold comparison (separate ``local[2]`` processes) at ``--cold``
  (default 10M).
- Every run reports the CPU seconds of its client process tree (user + system); every sqlnb
  run counts its statements (``SQLNB_PROFILE``); the last one's slowest are
  listed. Accuracy of both on the test file (untimed).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
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

    master = os.environ.get("MLLIB_MASTER", "local[2]")
    if master.startswith("sc://"):
        spark = SparkSession.builder.remote(master).getOrCreate()
    else:
        builder = SparkSession.builder.master(master).appName("mllib")
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
    saved = os.environ.get("MLLIB_SAVE")  # the model kept for later, as sqlnb's is: saved
    if saved:  # and loaded back (docs/performance.md: MLlib with its model saved)
        from pyspark.ml import PipelineModel

        model.write().overwrite().save(saved)
        model = PipelineModel.load(saved)
    labels = F.array(*[F.lit(x) for x in model.stages[2].labels])
    scored = model.transform(spark.read.parquet(test).select("doc_id", "text")).select(
        "doc_id",
        F.element_at(labels, F.col("prediction").cast("int") + 1).alias("label"),
        F.array_max(vector_to_array("probability")).alias("proba"),
    )
    scored.write.mode("overwrite").parquet(out)
    if not master.startswith("sc://"):  # (stopping a Connect session would end the server's)
        gateway = spark.sparkContext._gateway
        spark.stop()
        # its JVM waited for, as sqlnb waits for its own: else it ends after this process,
        # unreaped, and its CPU seconds are not the run's (RUSAGE_CHILDREN)
        gateway.shutdown()
        gateway.proc.stdin.close()
        gateway.proc.wait()


@contextmanager
def connect_server(folder: Path, port: int) -> Iterator[int]:
    """A Spark Connect server (``local[2]``, Hive catalog) started by pyspark's own script in
    ``folder`` (its catalog and warehouse), gRPC on ``port``, its web UI on ``port + 1``;
    stopped by pyspark's script at the end. Yields the server JVM's process id."""
    import pyspark

    home = Path(pyspark.__file__).parent
    folder.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "SPARK_HOME": str(home),
        "SPARK_LOCAL_IP": "127.0.0.1",
        "SPARK_LOG_DIR": str(folder / "logs"),
        "SPARK_PID_DIR": str(folder / "pids"),
    }
    settings = {
        "spark.master": "local[2]",
        "spark.sql.catalogImplementation": "hive",
        "spark.connect.grpc.binding.port": str(port),
        "spark.ui.port": str(port + 1),
        # the jobs, stages and SQL executions counted (the UI keeps 1,000 jobs by default)
        "spark.ui.retainedJobs": "1000000",
        "spark.ui.retainedStages": "1000000",
        "spark.sql.ui.retainedExecutions": "1000000",
    }
    options = [x for k, v in settings.items() for x in ("--conf", f"{k}={v}")]
    script = home / "sbin" / "start-connect-server.sh"
    subprocess.run([str(script), *options], cwd=folder, env=env, check=True, capture_output=True)
    try:
        deadline = time.monotonic() + 300
        while not _listening(port):
            if time.monotonic() > deadline:
                raise SystemExit(f"the Connect server did not start: see {folder / 'logs'}")
            time.sleep(1)
        yield int(next((folder / "pids").glob("*.pid")).read_text().strip())
    finally:
        stop = home / "sbin" / "stop-connect-server.sh"
        subprocess.run([str(stop)], cwd=folder, env=env, check=False, capture_output=True)


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


class Spark:
    """A Spark application's REST API (its web UI at ``port``): what a run caused; with
    ``pid`` (a server's JVM), the CPU seconds it used."""

    def __init__(self, port: int | None, pid: int | None = None) -> None:
        self.port = port
        self.pid = pid

    def cpu(self) -> float:
        """The server JVM's CPU seconds so far (user + system, from ``/proc``)."""
        if self.pid is None:
            return 0.0
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def _get(self, path: str) -> list[dict[str, object]]:
        import urllib.request

        base = f"http://localhost:{self.port}/api/v1/applications"
        with urllib.request.urlopen(base) as answer:
            app = json.load(answer)[0]["id"]
        with urllib.request.urlopen(f"{base}/{app}/{path}") as answer:
            found: list[dict[str, object]] = json.load(answer)
            return found

    def counts(self) -> tuple[int, int, int]:
        """Jobs, completed stages and SQL executions so far."""
        if self.port is None:
            return (0, 0, 0)
        jobs = self._get("jobs")
        stages = self._get("stages?status=complete")
        sql = self._get("sql?details=false&length=1000000")
        return len(jobs), len(stages), len(sql)


def timed(
    command: list[str],
    cwd: Path,
    env: dict[str, str] | None = None,
    spark: Spark | None = None,
    work: dict[str, list[tuple[int, int, int]]] | None = None,
    name: str = "",
) -> float:
    """The seconds of one process; with ``spark``, the jobs, stages and SQL executions it
    caused appended to ``work[name]``."""
    before = spark.counts() if spark else None
    server = spark.cpu() if spark else 0.0
    started, cpu = time.monotonic(), _children_cpu()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-3000:]}")
    seconds = time.monotonic() - started
    CPU.setdefault(name, []).append(_children_cpu() - cpu)
    if spark and spark.pid is not None:
        SERVER_CPU.setdefault(name, []).append(spark.cpu() - server)
    if spark and before is not None and work is not None:
        after = spark.counts()
        work.setdefault(name, []).append(tuple(a - b for a, b in zip(after, before)))  # type: ignore[arg-type]
    return seconds


CPU: dict[str, list[float]] = {}  # a run's CPU seconds (user + system, its process tree) by name
SERVER_CPU: dict[str, list[float]] = {}  # a run's CPU seconds of the Connect server's JVM


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


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
    from sqlnb.engine.jvm import COMPILERS

    archive = next(iter(sorted((cache.folder() or Path(".")).glob("spark-*.jsa"))), None)
    options = f"-XX:SharedArchiveFile={archive} -Xshare:auto -Xlog:disable" if archive else ""
    options = " ".join([options, *COMPILERS]).strip()  # (its JIT: C1 only)
    return {"spark.sql.shuffle.partitions": "4", "spark.driver.extraJavaOptions": options}


def median(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} s [{min(values):.1f}–{max(values):.1f}]"


def corpus(size: str, data: str | None) -> tuple[Path, Path, Path]:
    """The training and test files (and a working folder) of a size: generated here, or
    ``data``'s (a folder of benchmarks/generate.py: train_docs.parquet, test_docs.parquet)."""
    if data is not None:
        folder = Path(data)
        work = Path(os.environ.get("TMPDIR", "/tmp")) / f"sqlnb-spark-{folder.name}"
        work.mkdir(exist_ok=True)
        return folder / "train_docs.parquet", folder / "test_docs.parquet", work
    tokens = int(float(size.rstrip("M")) * 1_000_000)
    folder = generate(tokens, HERE / "data" / f"spark_{size}")
    work = folder / "sqlnb-work"
    work.mkdir(exist_ok=True)
    return folder / "train.parquet", folder / "test.parquet", work


def statements(profile: Path) -> list[dict[str, object]]:
    """The statements of a profiled run (and the file removed)."""
    records = [json.loads(x) for x in profile.read_text().splitlines()]
    profile.unlink()
    return [r for r in records if r["sql"] != "(close)"]


def run(
    sizes: list[str],
    repeat: int,
    master: str,
    ui: int | None = None,
    data: str | None = None,
    first: bool = True,
    pid: int | None = None,
) -> list[str]:
    python, lines = sys.executable, []
    spark = Spark(ui, pid) if ui else None
    lines.append(
        f"master {master}; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at start"
    )
    lines.append("")
    lines.append(
        "| token rows | MLlib (Spark's defaults) | MLlib (sqlnb's driver settings) | "
        "sqlnb train | sqlnb predict | sqlnb train + predict | ÷ MLlib | ÷ MLlib (same settings) "
        "| ÷ MLlib by round, wall; CPU | accuracy MLlib / sqlnb |"
    )
    lines.append("|---|---|---|---|---|---|---|---|---|---|")
    work_lines: list[str] = []
    rows: list[str] = []
    for size in sizes:
        train, test, work = corpus(size, data)
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
        if first:
            timed(train_args, work)  # untimed: the catalog, the class-data archive
        times: dict[str, list[float]] = {k: [] for k in ("ml", "ml2", "train", "predict")}
        jobs: dict[str, list[tuple[int, int, int]]] = {}
        counted: dict[str, list[int]] = {"train": [], "predict": []}
        last_run: dict[str, list[dict[str, object]]] = {}
        connect = master.startswith("sc://")
        for _ in range(repeat):
            ml_out = work / "mllib.parquet"
            mllib_args = [python, __file__, "mllib", str(train), str(test), str(ml_out)]
            env = {**os.environ, "MLLIB_MASTER": master}
            times["ml"].append(timed(mllib_args, work, env, spark, jobs, "ml"))
            if not connect:  # (a Connect server's settings are the server's)
                same = {**env, "SPARK_SETTINGS": json.dumps(sqlnb_settings())}
                times["ml2"].append(timed(mllib_args, work, same, name="ml2"))
            for name, args in (("train", train_args), ("predict", predict_args)):
                (work / f"{name}.prof").unlink(missing_ok=True)  # (an interrupted run's)
                profile = {**os.environ, "SQLNB_PROFILE": str(work / f"{name}.prof")}
                times[name].append(timed(args, work, profile, spark, jobs, name))
                last_run[name] = statements(work / f"{name}.prof")
                counted[name].append(len(last_run[name]))
        if not times["ml2"]:
            times["ml2"] = times["ml"]
        both = [t + p for t, p in zip(times["train"], times["predict"])]
        ratio = statistics.median(both) / statistics.median(times["ml"])
        ratio_same = statistics.median(both) / statistics.median(times["ml2"])
        used = SERVER_CPU if connect and SERVER_CPU else CPU  # (the server's, or the processes')
        by_round = [
            f"{(t + p) / m:.2f}" for t, p, m in zip(times["train"], times["predict"], times["ml"])
        ]
        by_cpu = [
            f"{(t + p) / m:.2f}" for t, p, m in zip(used["train"], used["predict"], used["ml"])
        ]
        rows.append(
            f"| {size} | {median(times['ml'])} | {median(times['ml2'])} | "
            f"{median(times['train'])} | {median(times['predict'])} | {median(both)} | "
            f"{ratio:.2f}× | {ratio_same:.2f}× | {', '.join(by_round)}; {', '.join(by_cpu)} | "
            f"{accuracy(ml_out, test):.4f} / {accuracy(out, test):.4f} |"
        )
        print(rows[-1], flush=True)
        runs = (("ml", "MLlib"), ("ml2", "MLlib, sqlnb's settings"), ("train", "sqlnb train"))
        for name, what in (*runs, ("predict", "sqlnb predict")):
            if name not in CPU:
                continue
            n = counted.get(name)
            done = jobs.get(name)
            cpu = CPU.pop(name)
            server = SERVER_CPU.pop(name, [])
            work_lines.append(
                f"| {size} | {what} | {statistics.median(times[name]):.1f} | "
                f"{statistics.median(cpu):.1f} ({', '.join(f'{c:.1f}' for c in cpu)}) | "
                + (f"{statistics.median(server):.1f} | " if server else "– | ")
                + (f"{statistics.median(n):.0f}" if n else "–")
                + " | "
                + (
                    " | ".join(f"{statistics.median(x[j] for x in done):.0f}" for j in range(3))
                    if done
                    else "– | – | –"
                )
                + " |"
            )
        for name in ("train", "predict"):
            lines += ["", f"Statements of the last `sqlnb {name}` at {size}, slowest first:", ""]
            records = last_run[name]
            total = sum(float(r["seconds"]) for r in records)  # type: ignore[arg-type]
            lines.append(f"{len(records)} statements, {total:.1f} s in all")
            for r in sorted(records, key=lambda r: -float(r["seconds"]))[:6]:  # type: ignore[arg-type]
                lines.append(f"- {r['seconds']:.2f} s `{' '.join(str(r['sql']).split())[:100]}`")
    return [
        *lines[:4],
        *rows,
        "",
        "| token rows | run | seconds | CPU s (client processes) | CPU s (server) | statements "
        "| Spark jobs | stages | SQL executions |",
        "|---|---|---|---|---|---|---|---|---|",
        *work_lines,
        *lines[4:],
    ]


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "mllib":
        mllib(*sys.argv[2:5])
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="2M,10M")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--ui", type=int, help="the Connect server's web UI port: count its jobs")
    parser.add_argument("--data", help="a corpus folder of benchmarks/generate.py")
    parser.add_argument("--markdown")
    parser.add_argument(
        "--no-first", action="store_true", help="no untimed first training (a warm catalog)"
    )
    parser.add_argument(
        "--server", type=int, help="start a Connect server on this port (its UI on the next)"
    )
    parser.add_argument("--cold", default="10M", help="with --server: the cold comparison's sizes")
    args = parser.parse_args()
    sizes = args.sizes.split(",")
    if args.server is None:
        lines = run(sizes, args.repeat, args.master, args.ui, args.data, not args.no_first)
    else:  # issue 38's check: through a server of its own, then cold processes
        folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"sqlnb-connect-{args.server}"
        with connect_server(folder, args.server) as pid:
            master, ui = f"sc://127.0.0.1:{args.server}", args.server + 1
            lines = run(sizes, args.repeat, master, ui, args.data, not args.no_first, pid)
        if args.cold:
            lines += ["", *run(args.cold.split(","), args.repeat, "local[2]", data=args.data)]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)


if __name__ == "__main__":
    main()
