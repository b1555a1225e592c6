"""The benchmark of issue 7: sqlnb against scikit-learn and against the engine's own limit.

    python benchmarks/run.py --quick
    python benchmarks/run.py --sizes 1M,10M --classes 2,20 [--repeat 3] [--kinds multinomial]

For every corpus (benchmarks/generate.py, made if missing) and kind, each run of each
measurement is its own process (benchmarks/measure.py), so its peak memory is its own:

    scikit-learn     pyarrow + CSR + fit + predict_proba/argmax
    sqlnb parquet    sqlnb.train + predict_to straight from the Parquet files (in-memory DuckDB)
    sqlnb tables     the same from tables of a DuckDB file (loaded beforehand, untimed)
    GROUP BY, join   the engine's limit: one GROUP BY label, word over the joined training data;
                     the test tokens joined to a (class, word) table of the model's size, summed
                     per (doc, class); from Parquet and from the tables

Runs are interleaved and the median of --repeat runs is reported, with ratios measured side by
side, the peak RSS of each, and a parity check: sqlnb's labels identical to scikit-learn's and
log-probabilities within 1e-9 (on up to --sample test documents). The report (Markdown) goes
to stdout, progress to stderr; the exit code is 1 if a measurement failed or parity does not
hold.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import duckdb
from generate import DATA, Spec, default_folder, generate, generate_wide, parse_size, size_name

HERE = Path(__file__).resolve().parent
MEASURE = HERE / "measure.py"
TOLERANCE = 1e-9
WIDE_KINDS = ("gaussian",)
KIND_NAMES = ("multinomial", "bernoulli", "gaussian")
SQLNB = ("sqlnb-parquet", "sqlnb-tables")
OPENBLAS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


@dataclass(frozen=True)
class Job:
    """One measurement: what, of which kind, from which source (tables: the DuckDB file)."""

    what: str
    kind: str = "multinomial"
    tables: bool = False

    @property
    def label(self) -> str:
        if self.what in ("groupby", "join"):
            return f"{self.what}-{'tables' if self.tables else 'parquet'}"
        return f"{self.kind}:{self.what}"


@dataclass
class Outcome:
    """The runs of one job and their medians."""

    runs: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None

    def median(self, key: str = "seconds") -> float:
        return statistics.median(r[key] for r in self.runs)

    def phase(self, name: str, key: str = "phases") -> float:
        return statistics.median(r[key].get(name, 0.0) for r in self.runs)

    def peak(self) -> float:
        return max(r["peak_rss_mib"] for r in self.runs)

    def info(self) -> dict[str, Any]:
        return dict(self.runs[0]["info"]) if self.runs else {}


@dataclass
class Corpus:
    rows: int
    classes: int
    folder: Path
    meta: dict[str, Any]
    outcomes: dict[Job, Outcome] = field(default_factory=dict)
    parity: dict[str, str] = field(default_factory=dict)
    parity_ok: bool = True

    @property
    def name(self) -> str:
        return f"{size_name(self.rows)} K={self.classes}"


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# --- preparation -------------------------------------------------------------------------------


def child_env(args: argparse.Namespace, job: Job | None) -> dict[str, str]:
    env = dict(os.environ)
    if args.sqlnb_src:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [args.sqlnb_src, env.get("PYTHONPATH")]))
    if job is not None and job.what == "sklearn" and args.sklearn_openblas == "clean":
        for name in OPENBLAS:
            env.pop(name, None)
    return env


def sqlnb_facts(args: argparse.Namespace) -> dict[str, Any]:
    """The kinds and version of the sqlnb the children import (it may be --sqlnb-src)."""
    command = [sys.executable, str(MEASURE), "kinds"]
    done = subprocess.run(command, capture_output=True, text=True, env=child_env(args, None))
    if done.returncode:
        raise SystemExit(f"Error: cannot import sqlnb: {last_line(done.stderr)}")
    facts: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return facts


def usable_kinds(wanted: list[str], facts: dict[str, Any]) -> list[str]:
    kinds = []
    for kind in wanted:
        if kind not in facts["kinds"]:
            log(f"{kind}: kind not available yet (sqlnb has {', '.join(facts['kinds'])}); skipped")
        elif kind in WIDE_KINDS and not facts["table"]:
            log(f"{kind}: kind not available yet (no sqlnb.Table for wide tables); skipped")
        else:
            kinds.append(kind)
    return kinds


def load_tables(folder: Path) -> Path:
    """A DuckDB file with the corpus as tables (made once, untimed): the sqlnb-tables input."""
    target = folder / "tables.duckdb"
    names = [p.stem for p in sorted(folder.glob("*.parquet"))]
    if target.exists():
        with duckdb.connect(str(target), read_only=True) as con:
            have = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        if have >= set(names):
            return target
        target.unlink()
    partial = folder / "tables.duckdb.partial"
    partial.unlink(missing_ok=True)
    with duckdb.connect(str(partial)) as con:
        for name in names:
            con.execute(f"CREATE TABLE {name} AS FROM read_parquet('{folder / name}.parquet')")
    partial.rename(target)
    return target


def write_sample(folder: Path, dump: Path, size: int, *, wide: bool) -> int:
    """Up to ``size`` test documents (0: all), evenly spread, for the log-probability check."""
    dump.mkdir(parents=True, exist_ok=True)
    source = folder / ("test_wide.parquet" if wide else "test_labels.parquet")
    with duckdb.connect() as con:
        n = con.execute(f"SELECT COUNT(*) FROM '{source}'").fetchone()[0]
        stride = max(1, -(-n // size)) if size else 1
        con.execute(
            f"COPY (SELECT doc_id FROM (SELECT doc_id, ROW_NUMBER() OVER (ORDER BY doc_id) - 1 "
            f"AS i FROM '{source}') WHERE i % {stride} = 0) TO '{dump / 'sample.parquet'}'"
        )
        return int(con.execute(f"SELECT COUNT(*) FROM '{dump / 'sample.parquet'}'").fetchone()[0])


# --- running -----------------------------------------------------------------------------------


def last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "(no output)"


def run_job(
    args: argparse.Namespace, corpus: Corpus, job: Job, db: Path, dump: Path | None
) -> dict[str, Any] | str:
    """One run of a job in its own process: its result, or the error's last line."""
    data = corpus.folder
    command = [sys.executable, str(MEASURE), job.what, str(data), "--kind", job.kind]
    if job.tables or job.what == "sqlnb-tables":
        command += ["--db", str(db)]
    if dump is not None:
        command += ["--dump", str(dump)]
    if args.memory_limit:
        command += ["--memory-limit", args.memory_limit]
    if args.profile and job.what in SQLNB:
        command.append("--profile")
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, env=child_env(args, job), timeout=args.timeout
        )
    except subprocess.TimeoutExpired:
        return f"timed out after {args.timeout} s"
    if done.returncode:
        return f"exit {done.returncode}: {last_line(done.stderr)}"
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def jobs_for(kinds: list[str]) -> list[Job]:
    jobs = [Job(what, kind) for kind in kinds for what in ("sklearn", *SQLNB)]
    if any(kind not in WIDE_KINDS for kind in kinds):
        jobs += [Job(what, tables=t) for t in (False, True) for what in ("groupby", "join")]
    return jobs


def measure_corpus(args: argparse.Namespace, corpus: Corpus, kinds: list[str], work: Path) -> None:
    db = load_tables(corpus.folder)
    jobs = jobs_for(kinds)
    dumps = {kind: work / corpus.folder.name / kind for kind in kinds}
    for kind, dump in dumps.items():
        write_sample(corpus.folder, dump, args.sample, wide=kind in WIDE_KINDS)
    corpus.outcomes = {job: Outcome() for job in jobs}
    for repeat in range(args.repeat):
        for job in jobs:
            outcome = corpus.outcomes[job]
            if outcome.error:
                continue
            dump = dumps.get(job.kind) if repeat == 0 and job.what in ("sklearn", *SQLNB) else None
            start = time.perf_counter()
            result = run_job(args, corpus, job, db, dump)
            took = time.perf_counter() - start
            if isinstance(result, str):
                outcome.error = result
                log(f"  {corpus.name} {job.label}: FAILED: {result}")
                continue
            outcome.runs.append(result)
            log(
                f"  {corpus.name} {job.label} run {repeat + 1}: {result['seconds']:.3f} s, "
                f"CPU {result['cpu_seconds']:.3f} s (process {took:.1f} s), "
                f"peak {result['peak_rss_mib']:.0f} MiB, load {result['load']:.1f}"
            )
    for kind, dump in dumps.items():
        check_parity(corpus, kind, dump)


def check_parity(corpus: Corpus, kind: str, dump: Path) -> None:
    """sqlnb's labels equal scikit-learn's; log-probabilities within TOLERANCE on the sample."""
    reference = dump / "sklearn_labels.parquet"
    for what in SQLNB:
        mine = dump / f"{what}_labels.parquet"
        if not (reference.exists() and mine.exists()):
            corpus.parity[f"{kind}:{what}"] = "not checked (a measurement failed)"
            corpus.parity_ok = False
            continue
        with duckdb.connect() as con:
            n, differ = con.execute(
                f"SELECT COUNT(*), COUNT(*) FILTER (a.label IS DISTINCT FROM b.label) "
                f"FROM '{reference}' AS a FULL JOIN '{mine}' AS b USING (doc_id)"
            ).fetchone()
            n_docs, missing, worst = con.execute(
                f"SELECT COUNT(DISTINCT doc_id), "
                f"COUNT(*) FILTER (a.log_proba IS NULL OR b.log_proba IS NULL), "
                f"MAX(ABS(a.log_proba - b.log_proba)) "
                f"FROM '{dump / 'sklearn_log_proba.parquet'}' AS a "
                f"FULL JOIN '{dump / f'{what}_log_proba.parquet'}' AS b USING (doc_id, label)"
            ).fetchone()
        worst = float("nan") if worst is None else float(worst)
        ok = differ == 0 and missing == 0 and worst <= TOLERANCE
        corpus.parity_ok &= ok
        corpus.parity[f"{kind}:{what}"] = (
            f"{'passed' if ok else 'FAILED'} (labels identical: {differ == 0}, "
            f"{differ} of {n} differ; max |log-proba diff| {worst:.2e} "
            f"{'<=' if ok else 'vs'} {TOLERANCE:g} on {n_docs} documents"
            + (f", {missing} missing" if missing else "")
            + ")"
        )


# --- the report --------------------------------------------------------------------------------


def load_range(corpora: list[Corpus]) -> str:
    loads = [r["load"] for c in corpora for o in c.outcomes.values() for r in o.runs]
    return f"{min(loads):.1f} to {max(loads):.1f}" if loads else "unknown"


def machine(facts: dict[str, Any], args: argparse.Namespace, corpora: list[Corpus]) -> str:
    cpu = "unknown CPU"
    with open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as info:
        kib = int(next(line for line in info if line.startswith("MemTotal")).split()[1])
    versions = ", ".join(
        f"{name} {metadata.version(name)}"
        for name in ("duckdb", "scikit-learn", "numpy", "scipy", "pyarrow")
    )
    blas = "unset" if args.sklearn_openblas == "clean" else "inherited"
    return (
        f"Machine: {cpu}, {os.cpu_count()} cores, {kib / 2**20:.1f} GiB RAM; "
        f"{platform.system()} {platform.release()}; Python {platform.python_version()}, "
        f"{versions}; sqlnb {facts['version']} ({facts['path']}). DuckDB with its default "
        f"threads{', memory_limit ' + args.memory_limit if args.memory_limit else ''}; "
        f"OPENBLAS_* {blas} for scikit-learn. Median of {args.repeat} run(s), each in its own "
        "process; CPU s is the CPU time of all its threads; peak RSS is that process's VmHWM "
        f"(imports included). 1-minute load average during the runs: {load_range(corpora)}."
    )


def seconds(outcome: Outcome | None, phase: str | None = None, cpu: bool = False) -> float | None:
    """A median wall-clock (or CPU) time: the total, or one phase's."""
    if outcome is None or outcome.error or not outcome.runs:
        return None
    if phase:
        return outcome.phase(phase, "cpu_phases" if cpu else "phases")
    return outcome.median("cpu_seconds" if cpu else "seconds")


def fmt(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def ratio(top: float | None, bottom: float | None) -> str:
    return "–" if top is None or not bottom else f"{top / bottom:.2f}×"


def ratios(mine: Outcome | None, other: Outcome | None, phase: str | None = None) -> str:
    """The wall-clock ratio (and the CPU-time ratio)."""
    wall = ratio(seconds(mine, phase), seconds(other))
    cpu = ratio(seconds(mine, phase, cpu=True), seconds(other, cpu=True))
    return "–" if wall == "–" else f"{wall} ({cpu})"


def describe(corpus: Corpus, kind: str) -> str:
    rows = corpus.meta["rows"]
    if kind in WIDE_KINDS:
        wide = corpus.meta.get("wide", {})
        return f"{corpus.name}: {sum(wide.values()):,} rows × 20 features"
    return (
        f"{corpus.name}: {rows['train_tokens']:,}/{rows['test_tokens']:,} token rows, "
        f"{rows['train_labels']:,}/{rows['test_labels']:,} docs"
    )


PHASES = {
    "sklearn": ("scikit-learn", ("load", "fit", "predict")),
    "sqlnb-parquet": ("sqlnb from Parquet", ("train", "predict")),
    "sqlnb-tables": ("sqlnb from tables", ("train", "predict")),
    "groupby": ("GROUP BY label, word", ()),
    "join": ("join + GROUP BY doc, class", ()),
}


def times_table(corpora: list[Corpus]) -> list[str]:
    lines = [
        "| corpus | kind | measurement | source | total s | phases s | CPU s "
        "| peak RSS MiB (imports) |",
        "|---|---|---|---|--:|---|--:|--:|",
    ]
    for corpus in corpora:
        for job, outcome in corpus.outcomes.items():
            name, phases = PHASES[job.what]
            source = "tables" if job.tables or job.what == "sqlnb-tables" else "Parquet"
            kind = "" if job.what in ("groupby", "join") else job.kind
            if outcome.error:
                cells = f"FAILED: {outcome.error} | | | "
            else:
                parts = " · ".join(f"{p} {fmt(outcome.phase(p))}" for p in phases)
                base = outcome.median("baseline_rss_mib")
                cpu = fmt(outcome.median("cpu_seconds"))
                peak = f"{outcome.peak():.0f} ({base:.0f})"
                cells = f"{fmt(outcome.median())} | {parts} | {cpu} | {peak}"
            lines.append(f"| {corpus.name} | {kind} | {name} | {source} | {cells} |")
    return lines


def ratios_table(corpora: list[Corpus], kinds: list[str]) -> list[str]:
    lines = [
        "| corpus | kind | sqlnb ÷ scikit-learn, end to end, wall (CPU): Parquet / tables "
        "| sqlnb train ÷ GROUP BY: Parquet / tables | sqlnb predict ÷ join: Parquet / tables "
        "| peak RSS MiB: scikit-learn / sqlnb Parquet / sqlnb tables |",
        "|---|---|---|---|---|---|",
    ]
    for corpus in corpora:
        got = {job.label: outcome for job, outcome in corpus.outcomes.items()}
        for kind in kinds:
            sk = got.get(f"{kind}:sklearn")
            cells = []
            for measure, limit in (("seconds", None), ("train", "groupby"), ("predict", "join")):
                pair = []
                for source in ("parquet", "tables"):
                    mine = got.get(f"{kind}:sqlnb-{source}")
                    if limit is None:
                        pair.append(ratios(mine, sk))
                    elif kind in WIDE_KINDS:
                        pair.append("–")
                    else:
                        pair.append(ratios(mine, got.get(f"{limit}-{source}"), measure))
                cells.append(" / ".join(pair))
            peaks = [got.get(f"{kind}:{w}") for w in ("sklearn", *SQLNB)]
            cells.append(
                " / ".join("–" if o is None or o.error else f"{o.peak():.0f}" for o in peaks)
            )
            lines.append(f"| {describe(corpus, kind)} | {kind} | {' | '.join(cells)} |")
    return lines


def report(
    corpora: list[Corpus], kinds: list[str], facts: dict[str, Any], args: argparse.Namespace
) -> str:
    lines = [
        machine(facts, args, corpora),
        "",
        *times_table(corpora),
        "",
        *ratios_table(corpora, kinds),
        "",
    ]
    for corpus in corpora:
        for key, text in corpus.parity.items():
            lines.append(f"- parity {corpus.name} {key}: {text}")
    if args.profile:
        lines += ["", *profile_lines(corpora)]
    return "\n".join(lines)


def profile_lines(corpora: list[Corpus], top: int = 4) -> list[str]:
    """The slowest statements sqlnb ran (first run), from the tracer's timestamps."""
    lines = []
    for corpus in corpora:
        for job, outcome in corpus.outcomes.items():
            for phase in ("train_statements", "predict_statements"):
                statements = outcome.info().get(phase)
                if not statements:
                    continue
                lines.append(
                    f"{corpus.name} {job.label} {phase.split('_')[0]}, slowest statements:"
                )
                for took, text in sorted(statements, key=lambda s: -s[0])[:top]:
                    lines.append(f"    {took:7.3f} s  {text[:160]}")
    return lines


# --- main --------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="50k token rows, K=2 and K=20, 1 run")
    parser.add_argument("--sizes", default="1M,10M", help="token rows, e.g. 1M,10M,100M")
    parser.add_argument("--classes", default="2,20", help="numbers of classes, e.g. 2,20")
    parser.add_argument("--kinds", default=",".join(KIND_NAMES))
    parser.add_argument("--repeat", type=int, help="runs per measurement (default 3; quick 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--sample",
        type=int,
        default=10_000,
        help="test documents in the log-probability check (0: all)",
    )
    parser.add_argument("--data-root", type=Path, default=DATA)
    parser.add_argument("--memory-limit", help="SET memory_limit in DuckDB, e.g. 8GB")
    parser.add_argument(
        "--sklearn-openblas",
        choices=("inherit", "clean"),
        default="inherit",
        help="clean: unset OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE for scikit-learn",
    )
    parser.add_argument("--sqlnb-src", help="import sqlnb from this folder (e.g. a snapshot)")
    parser.add_argument("--profile", action="store_true", help="list sqlnb's slowest statements")
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds per process")
    parser.add_argument("--markdown", type=Path, help="also write the report to this file")
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.classes = "50k", "2,20"
        args.repeat = args.repeat or 1
    args.repeat = args.repeat or 3
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    facts = sqlnb_facts(args)
    kinds = usable_kinds([k for k in args.kinds.split(",") if k], facts)
    if not kinds:
        raise SystemExit("Error: no kind to measure")
    corpora = []
    with tempfile.TemporaryDirectory(prefix="sqlnb-bench-") as work:
        for rows in (parse_size(s) for s in args.sizes.split(",")):
            for classes in (int(k) for k in args.classes.split(",")):
                spec = Spec(rows=rows, classes=classes, seed=args.seed)
                folder = generate(spec, default_folder(rows, classes, args.seed, args.data_root))
                if any(k in WIDE_KINDS for k in kinds):
                    generate_wide(spec, folder)
                meta = json.loads((folder / "meta.json").read_text())
                if (folder / "meta_wide.json").exists():
                    meta["wide"] = json.loads((folder / "meta_wide.json").read_text())["rows"]
                corpus = Corpus(rows, classes, folder, meta)
                log(f"{corpus.name}: {folder}")
                measure_corpus(args, corpus, kinds, Path(work))
                corpora.append(corpus)
    text = report(corpora, kinds, facts, args)
    print(text)
    if args.markdown:
        args.markdown.write_text(text + "\n")
    failed = any(o.error for c in corpora for o in c.outcomes.values())
    return 1 if failed or not all(c.parity_ok for c in corpora) else 0


if __name__ == "__main__":
    sys.exit(main())
