"""The engine's own pass that sqlnb's training is measured against, as a plain process: open a
DuckDB file, run one GROUP BY label, word over the joined Parquet files into a table, close.

    python benchmarks/plain.py DATA_DIR DB_FILE [--distinct]

With --distinct (Bernoulli's pass), over SELECT DISTINCT doc_id, word of the tokens.
"""

from __future__ import annotations

import sys
from pathlib import Path

import duckdb


def main() -> None:
    data, db = Path(sys.argv[1]).resolve(), sys.argv[2]
    tokens = f"read_parquet('{data / 'train_tokens.parquet'}')"
    labels = f"read_parquet('{data / 'train_labels.parquet'}')"
    if "--distinct" in sys.argv:
        source, count = f"(SELECT DISTINCT doc_id, word FROM {tokens})", "COUNT(*)"
    else:
        source, count = tokens, "SUM(t.count)"
    con = duckdb.connect(db)
    con.execute(
        f"CREATE TABLE counts AS SELECT l.label, t.word, {count} AS count FROM {source} AS t "
        f"JOIN {labels} AS l ON l.doc_id = t.doc_id GROUP BY l.label, t.word"
    )
    con.close()


if __name__ == "__main__":
    main()
