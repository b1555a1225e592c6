"""The DuckDB files sqlnb creates open in the DuckDB command-line client a user can install
(issue 35): pip's ``duckdb-cli`` 1.5 refused them ('Trying to read a database file with version
number 69'), being written in DuckDB 2.0's storage format. sqlnb creates them in DuckDB 1.5's;
a file of the user's keeps its own. With the client at hand (``$SQLNB_TEST_DUCKDB_CLI`` or
``duckdb`` on PATH; CI installs it), the README's ad-hoc SQL runs in it with predict's labels.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import cli
import duckdb
import pytest
from engines import unavailable

pytestmark = pytest.mark.process

TEXTS = [
    (1, "good tasty food, great value", "good"),
    (2, "great value and good service", "good"),
    (3, "bad stale awful food", "bad"),
    (4, "awful bad service, stale", "bad"),
    (5, "fine, just fine", "meh"),
    (6, "it was fine and ok", "meh"),
]


def version_number(path: Path) -> int:
    """The storage version number in a DuckDB file's header (after its checksum and 'DUCK')."""
    header = path.read_bytes()[:20]
    assert header[8:12] == b"DUCK"
    return int.from_bytes(header[12:20], "little")


def storage(path: Path) -> str:
    with duckdb.connect(str(path), read_only=True) as con:
        (tags,) = con.execute(
            "SELECT tags FROM duckdb_databases() WHERE NOT internal AND database_name <> 'temp'"
        ).fetchone()
    return str(tags["storage_version"])


def sqlnb(cwd: Path, *args: str) -> str:
    """``python -m sqlnb ARGS`` as its own process (tests/cli.py), in this environment: the file
    is created by that command's own DuckDB, as a user's would be."""
    return cli.process(*args, env=None, cwd=cwd, timeout=300, ok=True).stdout


@pytest.fixture()
def trained(tmp_path: Path) -> Path:
    """A DuckDB file sqlnb created (``train`` from a Parquet file of texts)."""
    with duckdb.connect() as con:
        con.execute("CREATE TABLE t (doc_id BIGINT, text VARCHAR, label VARCHAR)")
        con.executemany("INSERT INTO t VALUES (?, ?, ?)", TEXTS)
        con.execute(f"COPY t TO '{tmp_path / 'docs.parquet'}' (FORMAT parquet)")
    sqlnb(tmp_path, "train", "new.duckdb", "--docs", "docs.parquet", "--model", "m")
    return tmp_path / "new.duckdb"


def test_sqlnb_creates_files_duckdb_1_5_reads(trained):
    assert storage(trained) == "v1.5.0+"
    assert version_number(trained) <= 68  # the newest DuckDB 1.5 reads (64 to 68)


def test_a_file_of_the_users_keeps_its_storage_version(tmp_path):
    path = tmp_path / "mine.duckdb"
    with duckdb.connect(str(path)) as con:  # DuckDB 2.0's own format
        con.execute("CREATE TABLE docs (doc_id BIGINT, text VARCHAR, label VARCHAR)")
        con.executemany("INSERT INTO docs VALUES (?, ?, ?)", TEXTS)
    before = storage(path)
    sqlnb(tmp_path, "train", str(path), "--docs", "docs", "--model", "m")
    assert storage(path) == before


def duckdb_cli() -> str:
    found = os.environ.get("SQLNB_TEST_DUCKDB_CLI") or shutil.which("duckdb")
    if not found:
        unavailable("no DuckDB command-line client (pip install duckdb-cli)")
    return str(found)


def test_the_duckdb_client_runs_the_readme_sql(trained):
    client = duckdb_cli()
    args = ["--model", "m", "--docs", "docs.parquet", "--format", "json"]
    printed = sqlnb(trained.parent, "predict", str(trained), *args)
    predicted = [json.loads(line) for line in printed.splitlines() if line.strip()]
    query = (
        "SELECT doc_id, sqlnb_classify('m', text) AS label, sqlnb_proba('m', text) AS p "
        "FROM 'docs.parquet' ORDER BY doc_id"
    )
    command = [client, "-readonly", "-json", str(trained), "-c", query]
    done = subprocess.run(command, capture_output=True, text=True, cwd=trained.parent, timeout=120)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert len(rows) == len(TEXTS)
    assert [(r["doc_id"], r["label"]) for r in rows] == [
        (r["doc_id"], r["label"]) for r in predicted
    ]
    for got, want in zip(rows, predicted):
        assert abs(got["p"] - want["proba"]) <= 1e-9
