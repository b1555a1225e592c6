"""A seeded generator of synthetic text corpora for the benchmark (issue 7).

    python benchmarks/generate.py --rows 10M --classes 20 --seed 0 [--out DIR]

Words follow a Zipf-Mandelbrot law over a vocabulary of 200,000 words; every class perturbs
the rates of its own random tenth of the vocabulary (a log-normal factor), so classes differ
the way topics do. Documents have Poisson(100) tokens (at least 1) and a label drawn from
mildly unequal class priors; 20% of them, at random, are the test split. Written in chunks, so
memory stays bounded at any size, as four Parquet files in DIR (default
benchmarks/data/<rows>_k<K>):

    train_tokens.parquet, test_tokens.parquet   doc_id BIGINT, word VARCHAR, count INTEGER
                                                (one row per distinct (doc, word))
    train_labels.parquet, test_labels.parquet   doc_id BIGINT, label VARCHAR

plus meta.json with the parameters and what was written. A folder whose meta.json matches the
request is reused as it is. The corpus stops at the first document that reaches the requested
number of token rows (train and test together).

With --wide, also (for Gaussian Naive Bayes) train_wide.parquet and test_wide.parquet: doc_id
BIGINT, label VARCHAR and 20 DOUBLE features f00 ... f19, as many rows in all as the corpus has
token rows (10M rows x 20 features at 10M), each feature normal with a class-dependent mean and
deviation.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

DATA = Path(__file__).resolve().parent / "data"
TOKENS_SCHEMA = pa.schema([("doc_id", pa.int64()), ("word", pa.string()), ("count", pa.int32())])
LABELS_SCHEMA = pa.schema([("doc_id", pa.int64()), ("label", pa.string())])
SUFFIXES = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9, "b": 10**9}
DOCS_PER_CHUNK = 20_000  # about 1.4M token rows: a few tens of MB at a time


@dataclass(frozen=True)
class Spec:
    """Everything that determines a corpus."""

    rows: int
    classes: int
    seed: int = 0
    vocabulary: int = 200_000
    zipf_exponent: float = 1.0
    zipf_shift: float = 2.7
    doc_length: float = 100.0
    test_fraction: float = 0.2
    perturbed_fraction: float = 0.1
    perturbation_sigma: float = 0.7
    version: int = 1


def parse_size(text: str) -> int:
    """``'50k'``, ``'10M'``, ``'1G'`` or ``'1000000'`` as a number.

    >>> parse_size("10M"), parse_size("50k"), parse_size("1_000")
    (10000000, 50000, 1000)
    """
    text = text.strip().lower().replace("_", "")
    suffix = text[-1] if text and text[-1] in SUFFIXES else ""
    return int(float(text.removesuffix(suffix)) * SUFFIXES[suffix])


def size_name(rows: int) -> str:
    """The short name of a size: 50k, 10M, 1G.

    >>> size_name(50_000), size_name(10_000_000), size_name(1_000_000_000), size_name(1234)
    ('50k', '10M', '1G', '1234')
    """
    for suffix, scale in (("G", 10**9), ("M", 10**6), ("k", 10**3)):
        if rows % scale == 0:
            return f"{rows // scale}{suffix}"
    return str(rows)


def default_folder(rows: int, classes: int, seed: int = 0, root: Path = DATA) -> Path:
    """benchmarks/data/10M_k20 (10M_k20_s1 for seed 1)."""
    return root / (f"{size_name(rows)}_k{classes}" + (f"_s{seed}" if seed else ""))


def words(n: int) -> list[str]:
    """``n`` distinct lowercase words, shortest first (bijective base 26: a ... z, aa, ab ...),
    so frequent words are short, as in a language."""
    out = []
    for i in range(n):
        letters = []
        i += 1
        while i:
            i, r = divmod(i - 1, 26)
            letters.append(chr(97 + r))
        out.append("".join(reversed(letters)))
    return out


def labels(classes: int) -> list[str]:
    """Class names that sort as their numbers: c00, c01, ..."""
    width = len(str(classes - 1))
    return [f"c{k:0{width}d}" for k in range(classes)]


class Corpus:
    """The word distributions of a spec and a sampler of documents."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        rng = np.random.default_rng([spec.seed, 0])
        ranks = np.arange(1, spec.vocabulary + 1, dtype=np.float64)
        base = (ranks + spec.zipf_shift) ** -spec.zipf_exponent
        self.cdf = np.empty((spec.classes, spec.vocabulary))
        for k in range(spec.classes):
            rates = base.copy()
            chosen = rng.random(spec.vocabulary) < spec.perturbed_fraction
            factor = rng.lognormal(0.0, spec.perturbation_sigma, int(chosen.sum()))
            rates[chosen] *= factor
            self.cdf[k] = np.cumsum(rates / rates.sum())
            self.cdf[k, -1] = 1.0
        self.prior = rng.dirichlet(np.full(spec.classes, 10.0))
        self.words = pa.array(words(spec.vocabulary), pa.string())
        self.labels = pa.array(labels(spec.classes), pa.string())

    def chunk(self, index: int, first_doc: int) -> tuple[pa.Table, pa.Table]:
        """Documents first_doc, first_doc + 1, ...: (tokens, labels), sorted by doc_id, word."""
        spec = self.spec
        rng = np.random.default_rng([spec.seed, 1, index])
        n = DOCS_PER_CHUNK
        label = rng.choice(spec.classes, size=n, p=self.prior)
        length = np.maximum(rng.poisson(spec.doc_length, n), 1)
        doc = np.repeat(np.arange(n), length)
        word = np.empty(len(doc), dtype=np.int64)
        token_class = np.repeat(label, length)
        uniform = rng.random(len(doc))
        for k in range(spec.classes):
            mine = token_class == k
            word[mine] = np.searchsorted(self.cdf[k], uniform[mine], side="right")
        key, count = np.unique(doc * spec.vocabulary + word, return_counts=True)
        doc_of_row, word_of_row = np.divmod(key, spec.vocabulary)
        tokens = pa.table(
            [
                pa.array(doc_of_row + first_doc),
                self.words.take(pa.array(word_of_row)),
                pa.array(count.astype(np.int32)),
            ],
            schema=TOKENS_SCHEMA,
        )
        labels = pa.table(
            [pa.array(np.arange(n) + first_doc), self.labels.take(pa.array(label))],
            schema=LABELS_SCHEMA,
        )
        return tokens, labels

    def is_test(self, index: int) -> np.ndarray:
        """Which documents of a chunk are in the test split."""
        rng = np.random.default_rng([self.spec.seed, 2, index])
        result: np.ndarray = rng.random(DOCS_PER_CHUNK) < self.spec.test_fraction
        return result


class Writers:
    """The four Parquet files of a corpus, written chunk by chunk."""

    def __init__(self, folder: Path) -> None:
        self.files = {
            f"{split}_{what}": pq.ParquetWriter(folder / f"{split}_{what}.parquet", schema)
            for split in ("train", "test")
            for what, schema in (("tokens", TOKENS_SCHEMA), ("labels", LABELS_SCHEMA))
        }
        self.rows = dict.fromkeys(self.files, 0)

    def write(self, name: str, table: pa.Table) -> None:
        self.files[name].write_table(table)
        self.rows[name] += table.num_rows

    def close(self) -> None:
        for writer in self.files.values():
            writer.close()


def split_rows(tokens: pa.Table, labels: pa.Table, test: np.ndarray) -> dict[str, pa.Table]:
    docs = tokens.column("doc_id").to_numpy() - labels.column("doc_id")[0].as_py()
    token_test = pa.array(test[docs])
    label_test = pa.array(test)
    return {
        "train_tokens": tokens.filter(pc.invert(token_test)),
        "test_tokens": tokens.filter(token_test),
        "train_labels": labels.filter(pc.invert(label_test)),
        "test_labels": labels.filter(label_test),
    }


def truncate(tokens: pa.Table, labels: pa.Table, rows: int) -> tuple[pa.Table, pa.Table]:
    """The chunk's documents up to and including the one whose rows reach ``rows``."""
    last = tokens.column("doc_id")[rows - 1].as_py()
    docs = tokens.column("doc_id").to_numpy()
    end = int(np.searchsorted(docs, last, side="right"))
    n_docs = last - labels.column("doc_id")[0].as_py() + 1
    return tokens.slice(0, end), labels.slice(0, n_docs)


def generate(spec: Spec, folder: Path, *, log: bool = True) -> Path:
    """Write the corpus of ``spec`` to ``folder`` (reused if already there) and return it."""
    meta_path = folder / "meta.json"
    if meta_path.exists() and json.loads(meta_path.read_text()).get("spec") == asdict(spec):
        return folder
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    start = time.perf_counter()
    corpus = Corpus(spec)
    writers = Writers(folder)
    written, first_doc, index = 0, 0, 0
    try:
        while written < spec.rows:
            tokens, labels = corpus.chunk(index, first_doc)
            if written + tokens.num_rows >= spec.rows:
                tokens, labels = truncate(tokens, labels, spec.rows - written)
            parts = split_rows(tokens, labels, corpus.is_test(index)[: labels.num_rows])
            for name, table in parts.items():
                writers.write(name, table)
            written += tokens.num_rows
            first_doc += labels.num_rows
            index += 1
            if log:
                print(f"\r{written:,} token rows, {first_doc:,} documents", end="", file=sys.stderr)
    finally:
        writers.close()
    seconds = time.perf_counter() - start
    if log:
        print(f" in {seconds:.1f} s -> {folder}", file=sys.stderr)
    meta = {"spec": asdict(spec), "rows": writers.rows, "documents": first_doc, "seconds": seconds}
    meta_path.write_text(json.dumps(meta, indent=2) + "\n")
    return folder


WIDE_FEATURES = 20
ROWS_PER_WIDE_CHUNK = 100_000


def wide_chunk(
    spec: Spec,
    means: np.ndarray,
    scales: np.ndarray,
    prior: np.ndarray,
    index: int,
    first: int,
    n: int,
) -> pa.Table:
    rng = np.random.default_rng([spec.seed, 3, index])
    label = rng.choice(spec.classes, size=n, p=prior)
    values = means[label] + scales[label] * rng.standard_normal((n, means.shape[1]))
    columns = {
        "doc_id": pa.array(np.arange(first, first + n)),
        "label": pa.array(labels(spec.classes)).take(pa.array(label)),
    }
    columns |= {f"f{j:02d}": pa.array(values[:, j]) for j in range(means.shape[1])}
    return pa.table(columns)


def generate_wide(spec: Spec, folder: Path, *, log: bool = True) -> Path:
    """Write train_wide.parquet and test_wide.parquet (reused if meta_wide.json matches)."""
    meta_path = folder / "meta_wide.json"
    total = max(spec.rows, 1)
    if meta_path.exists():
        meta = json.loads(meta_path.read_text())
        if meta.get("spec") == asdict(spec) and sum(meta.get("rows", {}).values()) == total:
            return folder
    folder.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    rng = np.random.default_rng([spec.seed, 4])
    means = rng.normal(0.0, 1.0, (spec.classes, WIDE_FEATURES))
    scales = rng.lognormal(0.0, 0.5, (spec.classes, WIDE_FEATURES))
    prior = rng.dirichlet(np.full(spec.classes, 10.0))
    schema = wide_chunk(spec, means, scales, prior, 0, 0, 1).schema
    writers = {s: pq.ParquetWriter(folder / f"{s}_wide.parquet", schema) for s in ("train", "test")}
    rows = dict.fromkeys(writers, 0)
    try:
        for index, first in enumerate(range(0, total, ROWS_PER_WIDE_CHUNK)):
            n = min(ROWS_PER_WIDE_CHUNK, total - first)
            table = wide_chunk(spec, means, scales, prior, index, first, n)
            test = pa.array(
                np.random.default_rng([spec.seed, 5, index]).random(n) < spec.test_fraction
            )
            for split, part in (
                ("train", table.filter(pc.invert(test))),
                ("test", table.filter(test)),
            ):
                writers[split].write_table(part)
                rows[split] += part.num_rows
    finally:
        for writer in writers.values():
            writer.close()
    seconds = time.perf_counter() - start
    if log:
        print(
            f"{total:,} wide rows x {WIDE_FEATURES} features in {seconds:.1f} s -> {folder}",
            file=sys.stderr,
        )
    meta = {"spec": asdict(spec), "rows": rows, "seconds": seconds}
    meta_path.write_text(json.dumps(meta, indent=2) + "\n")
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", required=True, help="token rows in all: 50k, 1M, 10M, 1G ...")
    parser.add_argument("--classes", type=int, default=2, help="number of classes K")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--vocabulary", type=parse_size, default=200_000)
    parser.add_argument("--out", type=Path, help="folder (default benchmarks/data/<rows>_k<K>)")
    parser.add_argument("--wide", action="store_true", help="also the wide (Gaussian) tables")
    args = parser.parse_args(argv)
    if args.classes < 2:
        parser.error("--classes must be at least 2")
    rows = parse_size(args.rows)
    spec = Spec(rows=rows, classes=args.classes, seed=args.seed, vocabulary=args.vocabulary)
    folder = generate(spec, args.out or default_folder(rows, args.classes, args.seed))
    if args.wide:
        generate_wide(spec, folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
