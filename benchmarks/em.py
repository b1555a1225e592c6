"""When semi-supervised EM helps: test accuracy of labeled-only training and of EM on real
corpora (../shared/data, or any folder of the same layout), with a few labeled documents per
class and every other training document unlabeled.

    python benchmarks/em.py [DATA_DIR]

The labeled documents are the first N of each class by doc_id; the model is multinomial, 10
EM iterations. For each corpus, N, alpha and the unlabeled weight lambda it prints the test
accuracy of the labeled-only model (sqlnb train on the labeled documents alone; its vocabulary
is theirs), of lambda = 0 (the labeled-only model over the vocabulary of both sets, where EM
starts), and of EM. Each training runs in DuckDB through the Python API, one database per
corpus.
"""

from __future__ import annotations

import sys
from pathlib import Path

import duckdb

import sqlnb

CORPORA = ("bbc_news", "fine_foods")
PER_CLASS = (10, 30)
ALPHAS = (1.0, 0.05)
WEIGHTS = (0.1, 1.0)


def tables(con: duckdb.DuckDBPyConnection, folder: Path, per_class: int) -> None:
    docs, tokens = folder / "docs.parquet", folder / "tokens.parquet"
    con.execute(f"CREATE OR REPLACE TABLE docs AS SELECT * FROM read_parquet('{docs}')")
    con.execute(f"CREATE OR REPLACE TABLE tokens AS SELECT * FROM read_parquet('{tokens}')")
    con.execute(
        "CREATE OR REPLACE TABLE labels AS SELECT doc_id, label FROM ("
        "SELECT doc_id, label, ROW_NUMBER() OVER (PARTITION BY label ORDER BY doc_id) AS rn "
        f"FROM docs WHERE split = 'train') WHERE rn <= {per_class}"
    )
    for name, where in (
        ("labeled", "doc_id IN (SELECT doc_id FROM labels)"),
        (
            "unlabeled",
            "doc_id IN (SELECT doc_id FROM docs WHERE split = 'train') "
            "AND doc_id NOT IN (SELECT doc_id FROM labels)",
        ),
        ("test_tokens", "doc_id IN (SELECT doc_id FROM docs WHERE split = 'test')"),
    ):
        con.execute(f"CREATE OR REPLACE TABLE {name} AS SELECT * FROM tokens WHERE {where}")
    con.execute(
        "CREATE OR REPLACE TABLE test_labels AS SELECT doc_id, label FROM docs WHERE split = 'test'"
    )


def accuracy(con: duckdb.DuckDBPyConnection, model: sqlnb.Model) -> float:
    return float(model.evaluate("test_tokens", "test_labels")["accuracy"])


def main(root: Path) -> None:
    print("| corpus | labeled per class | α | labeled only | λ = 0 | " +
          " | ".join(f"EM λ = {w:g}" for w in WEIGHTS) + " |")  # fmt: skip
    print("|---|---|---|---|---|" + "---|" * len(WEIGHTS))
    for name in CORPORA:
        folder = root / name
        if not folder.is_dir():
            continue
        for per_class in PER_CLASS:
            con = duckdb.connect()
            tables(con, folder, per_class)
            for alpha in ALPHAS:
                plain = sqlnb.train(con, "labeled", "labels", model="plain", alpha=alpha)
                cells = [accuracy(con, plain)]
                for weight in (0.0, *WEIGHTS):
                    model = sqlnb.train(
                        con, "labeled", "labels", model="em", alpha=alpha,
                        unlabeled="unlabeled", em=(weight, 10, 0.0),
                    )  # fmt: skip
                    cells.append(accuracy(con, model))
                print(
                    f"| {name} | {per_class} | {alpha:g} | "
                    + " | ".join(f"{c:.4f}" for c in cells)
                    + " |"
                )
            con.close()


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else here.parent.parent / "shared" / "data")
