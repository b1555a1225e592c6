"""The benchmark of issue 15: sqlnb's commands as whole processes, side by side with their peers.

    python benchmarks/speed.py --quick                     # 50k token rows, 1 run (a test runs it)
    python benchmarks/speed.py --sizes 1M,10M --classes 2,20 [--repeat 3] [--markdown FILE]

For every corpus (benchmarks/generate.py; the raw text of each document is its words joined by
spaces, made once beside it) every measurement is its own process, timed from outside
(wall seconds, peak memory), runs interleaved, medians of --repeat:

    plain GROUP BY    python benchmarks/plain.py: open a DuckDB file, one GROUP BY label, word
                      over the joined Parquet files into a table (Bernoulli: over the DISTINCT
                      doc_id, word), close
    sqlnb train       `sqlnb train DB --tokens train.parquet --labels labels.parquet --kind K`
    sqlnb predict     `sqlnb predict DB --model M --tokens test.parquet --output P --replace`
    scikit-learn      benchmarks/measure.py sklearn: pyarrow + CSR + fit + predict, one process
    ClickHouse NB     benchmarks/chnb.py: chDB's NAIVE_BAYES dictionary from raw text, train and
                      classify the test texts, one process (if chdb is installed)
    sqlnb text        `sqlnb train DB --docs train_docs.parquet` + `sqlnb predict DB --docs ...`

and the import of sqlnb's command line alone. One more `sqlnb train` of the first corpus runs
with SQLNB_PROFILE set, for the table of where a training's time goes. The report (Markdown)
goes to stdout, progress to stderr.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
from generate import DATA, Spec, default_folder, generate, parse_size, size_name

HERE = Path(__file__).resolve().parent
PYTHON = sys.executable
SQLNB = [PYTHON, "-m", "sqlnb"]
# sqlnb's command line with the SQL functions left out of every write: what a training costs
# without them (issue 35: within 10%)
BARE = [
    PYTHON,
    "-c",
    "import sqlnb.functions as m; m.refresh = lambda *a, **k: None; "
    "from sqlnb.cli import main; main()",
]
TEXT_KINDS = ("multinomial", "complement", "bernoulli")


@dataclass
class Runs:
    """The runs of one measurement: wall seconds and peak memory (MiB) of each."""

    seconds: list[float] = field(default_factory=list)
    peak: list[float] = field(default_factory=list)
    error: str | None = None

    def median(self) -> float | None:
        return statistics.median(self.seconds) if self.seconds and not self.error else None


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def run(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """A whole process: its wall seconds, its peak resident memory (MiB), its stdout."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=out, stderr=err, env=env or os.environ)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if process.returncode:
        raise RuntimeError(f"{' '.join(argv[:4])}...: {stderr.strip().splitlines()[-1:]}")
    return seconds, usage.ru_maxrss / 1024, stdout


def docs(folder: Path) -> None:
    """train_docs.parquet and test_docs.parquet (doc_id, text, label): each document's words,
    each repeated by its count, joined by spaces (made once)."""
    for split in ("train", "test"):
        target = folder / f"{split}_docs.parquet"
        if target.exists():
            continue
        duckdb.sql(
            f"COPY (SELECT t.doc_id, string_agg(repeat(t.word || ' ', t.count::INT), '' "
            "ORDER BY t.word) AS text, l.label "
            f"FROM read_parquet('{folder}/{split}_tokens.parquet') t "
            f"JOIN read_parquet('{folder}/{split}_labels.parquet') l USING (doc_id) "
            f"GROUP BY t.doc_id, l.label) TO '{target}' (FORMAT parquet)"
        )


@dataclass
class Corpus:
    rows: int
    classes: int
    folder: Path

    @property
    def name(self) -> str:
        return f"{size_name(self.rows)} rows, K = {self.classes}"


def jobs(corpus: Corpus, kinds: list[str], work: Path, chdb: bool) -> dict[str, list[list[str]]]:
    """Every measurement of a corpus: a name -> the commands of one run (run in order)."""
    f = corpus.folder
    tokens, labels = str(f / "train_tokens.parquet"), str(f / "train_labels.parquet")
    out: dict[str, list[list[str]]] = {}
    for kind in kinds:
        db = str(work / f"{kind}.duckdb")
        plain = [PYTHON, str(HERE / "plain.py"), str(f), str(work / f"plain-{kind}.duckdb")]
        out[f"plain:{kind}"] = [plain + (["--distinct"] if kind == "bernoulli" else [])]
        out[f"train:{kind}"] = [
            [
                *SQLNB,
                "train",
                db,
                "--tokens",
                tokens,
                "--labels",
                labels,
                "--model",
                "m",
                "--kind",
                kind,
            ]
        ]
        out[f"bare:{kind}"] = [[*BARE, *out[f"train:{kind}"][0][len(SQLNB) :]]]
        out[f"bare:{kind}"][0][len(BARE) + 1] = str(work / f"{kind}-bare.duckdb")
        out[f"predict:{kind}"] = [
            [
                *SQLNB,
                "predict",
                db,
                "--model",
                "m",
                "--tokens",
                str(f / "test_tokens.parquet"),
                "--output",
                "predictions",
                "--replace",
            ]
        ]
        out[f"sklearn:{kind}"] = [
            [PYTHON, str(HERE / "measure.py"), "sklearn", str(f), "--kind", kind]
        ]
    if chdb:
        out["chdb"] = [[PYTHON, str(HERE / "chnb.py"), str(f)]]
    text_db = str(work / "text.duckdb")
    out["text"] = [
        [*SQLNB, "train", text_db, "--docs", str(f / "train_docs.parquet"), "--model", "m"],
        [
            *SQLNB,
            "predict",
            text_db,
            "--model",
            "m",
            "--docs",
            str(f / "test_docs.parquet"),
            "--output",
            "predictions",
            "--replace",
        ],
    ]
    return out


def fresh(argv: list[str]) -> None:
    """Before a training: no database (each training starts from a new file)."""
    start = len(BARE) if argv[: len(BARE)] == BARE else len(SQLNB)
    ours = argv[: len(BARE)] == BARE or argv[: len(SQLNB)] == SQLNB
    if ours and argv[start : start + 1] == ["train"]:
        Path(argv[start + 1]).unlink(missing_ok=True)
        Path(argv[start + 1] + ".wal").unlink(missing_ok=True)
    if argv[1].endswith("plain.py"):
        Path(argv[3]).unlink(missing_ok=True)


def measure(corpus: Corpus, kinds: list[str], repeat: int, chdb: bool) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="sqlnb-speed-"))
    todo = jobs(corpus, kinds, work, chdb)
    results: dict[str, Runs] = {name: Runs() for name in todo}
    extra: dict[str, Any] = {}
    for r in range(repeat):
        for name, commands in todo.items():
            if results[name].error:
                continue
            try:
                total = 0.0
                for argv in commands:
                    fresh(argv)
                    seconds, peak, stdout = run(argv)
                    total += seconds
                    results[name].peak.append(peak)
                    if name == "chdb":
                        extra["chdb"] = json.loads(stdout.strip().splitlines()[-1])
                results[name].seconds.append(total)
                log(f"  {corpus.name} run {r + 1}: {name} {total:.2f} s")
            except (RuntimeError, json.JSONDecodeError) as error:
                results[name].error = str(error)
                log(f"  {corpus.name}: {name} failed: {error}")
    extra["text_accuracy"] = accuracy(work / "text.duckdb", corpus.folder)
    shutil.rmtree(work, ignore_errors=True)
    return {"runs": results, **extra}


def accuracy(db: Path, folder: Path) -> float | None:
    if not db.exists():
        return None
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(
            "SELECT AVG(CASE WHEN p.label = t.label THEN 1.0 ELSE 0.0 END) FROM predictions p "
            f"JOIN read_parquet('{folder}/test_docs.parquet') t ON t.doc_id = p.doc_id"
        ).fetchone()[0]


def stages(corpus: Corpus, repeat: int) -> list[tuple[str, float]]:
    """Where a training's time goes (median of --repeat): imports, each kind of statement
    (from SQLNB_PROFILE), and the rest (building the SQL in Python, the command line)."""
    work = Path(tempfile.mkdtemp(prefix="sqlnb-stages-"))
    f = corpus.folder
    samples: list[dict[str, float]] = []
    for _ in range(repeat):
        profile = work / "profile.jsonl"
        profile.unlink(missing_ok=True)
        imports, _, _ = run([PYTHON, "-c", "import sqlnb.cli"])
        start_only, _, _ = run([PYTHON, "-c", "pass"])
        db = str(work / "s.duckdb")
        fresh([*SQLNB, "train", db])
        total, _, _ = run(
            [
                *SQLNB,
                "train",
                db,
                "--tokens",
                str(f / "train_tokens.parquet"),
                "--labels",
                str(f / "train_labels.parquet"),
                "--model",
                "m",
            ],
            env={**os.environ, "SQLNB_PROFILE": str(profile)},
        )
        spent: dict[str, float] = {"Python start-up": start_only, "imports": imports - start_only}
        for line in profile.read_text().splitlines():
            event = json.loads(line)
            spent[stage(event["sql"])] = spent.get(stage(event["sql"]), 0.0) + event["seconds"]
        spent["building SQL, command line"] = total - sum(spent.values())
        spent["total"] = total
        samples.append(spent)
    shutil.rmtree(work, ignore_errors=True)
    names = list(samples[0])
    return [(n, statistics.median(s.get(n, 0.0) for s in samples)) for n in names]


def stage(sql: str) -> str:
    text = sql.lstrip()
    if sql == "(close)":
        return "close (DuckDB's checkpoint)"
    if text.startswith("INSERT INTO sqlnb_word_counts"):
        return "counting"
    if 'INSERT INTO "sqlnb_scoring"' in text:
        return "deriving the weights"
    if text.startswith(
        ("SELECT COUNT(*)", "SELECT CAST(l.label", "SELECT DISTINCT", "SELECT * FROM")
    ):
        return "checking the input"
    if text.startswith("COMMIT"):
        return "commit"
    return "other statements (catalog, prior, base, macros)"


def fmt(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def ratio(top: float | None, bottom: float | None) -> str:
    return "–" if top is None or bottom is None or not bottom else f"{top / bottom:.2f}×"


def report(
    measured: list[tuple[Corpus, dict[str, Any]]],
    kinds: list[str],
    profile: list[tuple[str, float]] | None,
    args: argparse.Namespace,
) -> str:
    lines = [
        f"# sqlnb speed ({time.strftime('%Y-%m-%d')})",
        "",
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores; Python "
        f"{platform.python_version()}, duckdb {duckdb.__version__}; medians of {args.repeat} "
        "whole processes, wall seconds, runs interleaved.",
        "",
        "## Training against the engine's own GROUP BY pass",
        "",
        "| corpus | kind | plain GROUP BY | sqlnb train | ratio | train without functions | "
        "train ÷ without |",
        "|---|---|---|---|---|---|---|",
    ]
    for corpus, m in measured:
        runs = m["runs"]
        for kind in kinds:
            a, b = runs[f"plain:{kind}"].median(), runs[f"train:{kind}"].median()
            c = runs[f"bare:{kind}"].median()
            lines.append(
                f"| {corpus.name} | {kind} | {fmt(a)} | {fmt(b)} | {ratio(b, a)} | {fmt(c)} | "
                f"{ratio(b, c)} |"
            )
    lines += [
        "",
        "## Train + predict against scikit-learn",
        "",
        "| corpus | kind | scikit-learn | sqlnb train | sqlnb predict | sqlnb ÷ scikit-learn |",
        "|---|---|---|---|---|---|",
    ]
    for corpus, m in measured:
        runs = m["runs"]
        for kind in kinds:
            s = runs[f"sklearn:{kind}"].median()
            t, p = runs[f"train:{kind}"].median(), runs[f"predict:{kind}"].median()
            both = None if t is None or p is None else t + p
            lines.append(
                f"| {corpus.name} | {kind} | {fmt(s)} | {fmt(t)} | {fmt(p)} | {ratio(both, s)} |"
            )
    lines += [
        "",
        "## Raw text: train + predict against ClickHouse's Naive Bayes (chDB)",
        "",
        "| corpus | ClickHouse NB | accuracy | sqlnb --docs (two processes) | accuracy | ratio |",
        "|---|---|---|---|---|---|",
    ]
    for corpus, m in measured:
        runs = m["runs"]
        c = runs["chdb"].median() if "chdb" in runs else None
        chdb_accuracy = m.get("chdb", {}).get("accuracy")
        s = runs["text"].median()
        lines.append(
            f"| {corpus.name} | {fmt(c)} | {fmt(chdb_accuracy, 4)} | {fmt(s)} | "
            f"{fmt(m.get('text_accuracy'), 4)} | {ratio(s, c)} |"
        )
    if profile:
        lines += [
            "",
            f"## Where a training's time goes ({measured[0][0].name}, multinomial)",
            "",
            "| stage | seconds |",
            "|---|---|",
        ]
        lines += [f"| {name} | {seconds:.3f} |" for name, seconds in profile]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="50k token rows, K = 20, 1 run")
    parser.add_argument("--sizes", default="1M,10M")
    parser.add_argument("--classes", default="2,20")
    parser.add_argument("--kinds", default=",".join(TEXT_KINDS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data-root", type=Path, default=DATA)
    parser.add_argument("--markdown", type=Path, help="also write the report to this file")
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.classes, args.repeat = "50k", "20", 1
    kinds = [k for k in args.kinds.split(",") if k]
    try:
        import chdb  # noqa: F401

        has_chdb = True
    except ImportError:
        has_chdb = False
        log("chdb is not installed: no ClickHouse comparison (pip install chdb)")
    # sqlnb's bytecode, as an installed package has it (pip compiles at install; an editable
    # checkout run with PYTHONDONTWRITEBYTECODE would compile every module in every process)
    import sqlnb

    compileall.compile_dir(Path(sqlnb.__file__).parent, quiet=1)
    measured = []
    for size in args.sizes.split(","):
        for k in args.classes.split(","):
            spec = Spec(rows=parse_size(size), classes=int(k))
            folder = default_folder(spec.rows, spec.classes, root=args.data_root)
            generate(spec, folder, log=False)
            docs(folder)
            corpus = Corpus(spec.rows, spec.classes, folder)
            log(f"{corpus.name}: {folder}")
            measured.append((corpus, measure(corpus, kinds, args.repeat, has_chdb)))
    profile = stages(measured[0][0], args.repeat)
    text = report(measured, kinds, profile, args)
    sys.stdout.write(text)
    if args.markdown:
        args.markdown.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
