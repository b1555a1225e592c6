"""Classifying 100,000 rows of raw text: through the sqlnb_classify/sqlnb_proba macros (plain
SQL, no sqlnb import) and through `sqlnb predict` (Model.predict_to), on the bundled reviews.

    python benchmarks/macros.py [--rows 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import duckdb

import sqlnb
from sqlnb.demo import DATA


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "macros.duckdb"
        con = duckdb.connect(str(path))
        con.execute("CREATE TABLE reviews AS SELECT * FROM read_parquet(?)", [str(DATA)])
        con.execute(
            "CREATE TABLE train AS SELECT doc_id, text, label FROM reviews WHERE split = 'train'"
        )
        # Distinct texts, so that no two rows can share a result.
        con.execute(
            "CREATE TABLE emails AS SELECT range AS id, r.text || ' #' || range AS body "
            f"FROM range({args.rows}) JOIN reviews AS r ON r.doc_id = 1 + range % 5000"
        )
        model = sqlnb.train(con, sqlnb.Docs("train"), model="reviews")
        timings: dict[str, list[float]] = {"macro": [], "predict": []}
        for _ in range(args.repeat):
            start = time.perf_counter()
            con.execute(
                "CREATE OR REPLACE TABLE by_macro AS SELECT id, "
                "sqlnb_classify('reviews', body) AS label, "
                "sqlnb_proba('reviews', body) AS proba FROM emails"
            )
            timings["macro"].append(time.perf_counter() - start)
            start = time.perf_counter()
            model.predict_to(sqlnb.Docs("emails", id="id", text="body"), "by_predict", replace=True)
            timings["predict"].append(time.perf_counter() - start)
        same, gap = con.execute(
            "SELECT COUNT(*) FILTER (WHERE m.label = p.label), MAX(abs(m.proba - p.proba)) "
            "FROM by_macro m JOIN by_predict p ON m.id = p.doc_id"
        ).fetchone()
        macro, predict = (statistics.median(timings[k]) for k in ("macro", "predict"))
        print(
            f"{args.rows} rows: macros {macro:.2f} s, sqlnb predict {predict:.2f} s, "
            f"{macro / predict:.2f}x (median of {args.repeat}); same labels: {same}/{args.rows}, "
            f"largest difference of probability: {gap:.1e}"
        )


if __name__ == "__main__":
    main()
