"""ClickHouse through the command line (issue 19): every kind trained and applied on chDB as on
DuckDB, the printed ClickHouse scripts run in chDB as printed, and a table classified in place.

Each command on chDB is its own process (chDB opens one folder per process, and the test
process may hold another); each on DuckDB, the reference, runs in this process (``cli.run``:
what a process would print, 1.5 s less a command). The data reaches both databases from the
same Parquet files.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import cli
import duckdb
import pandas as pd
import pytest
from conftest import random_corpus

pytest.importorskip("chdb")
pytestmark = pytest.mark.process  # every command on chDB: see the module's docstring

KINDS = [
    ("multinomial", ["--tokens", "tokens", "--labels", "labels"]),
    ("multinomial", ["--tokens", "tokens", "--labels", "labels", "--alpha", "0"]),
    ("bernoulli", ["--tokens", "tokens", "--labels", "labels", "--kind", "bernoulli"]),
    ("complement", ["--tokens", "tokens", "--labels", "labels", "--kind", "complement"]),
    ("multinomial", ["--docs", "docs"]),
    (
        "gaussian",
        [
            "--table",
            "flowers",
            "--label-column",
            "species",
            "--features",
            "petal",
            "--kind",
            "gaussian",
        ],
    ),
    (
        "categorical",
        [
            "--table",
            "flowers",
            "--label-column",
            "species",
            "--features",
            "stem",
            "--kind",
            "categorical",
        ],
    ),
    ("mixed", ["--table", "flowers", "--label-column", "species", "--features", "petal,stem"]),
]
SOURCES = {"--tokens": "test_tokens", "--docs": "docs", "--table": "flowers"}


def sqlnb(*args: str) -> str:
    """The command's stdout: on chDB as a process of its own (chDB opens one folder per
    process), on DuckDB in this process."""
    if any(str(a).startswith("chdb://") for a in args):
        return cli.process(*args, env=None, ok=True).stdout
    return cli.run(*args, env=None, ok=True).stdout


def chdb(folder: Path, *statements: str) -> list[list]:
    """Run statements in chDB in a process of its own; the rows of the last one."""
    code = (
        "import json, sys, clickhouse_connect\n"
        "c = clickhouse_connect.get_client(interface='chdb', path=sys.argv[1])\n"
        "*run, last = sys.argv[2:]\n"
        "[c.command(s) for s in run]\n"
        "print(json.dumps([list(r) for r in c.query(last).result_rows], default=str))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(folder), *statements],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def databases(tmp_path_factory) -> tuple[str, str, Path]:
    """The same tables in a DuckDB file and a chDB folder."""
    root = tmp_path_factory.mktemp("clickhouse")
    corpus = random_corpus(7, n_classes=3, vocab=80, n_train=60, n_test=20, doc_length=12)
    words = sorted(set(corpus.train_tokens["word"]))
    docs = pd.DataFrame(
        {
            "doc_id": range(40),
            "text": [
                " ".join(words[(i * 7 + j) % len(words)] for j in range(9)) for i in range(40)
            ],
            "label": [f"k{i % 3}" for i in range(40)],
        }
    )
    flowers = pd.DataFrame(
        {
            "id": range(45),
            "petal": [(i % 3) * 1.5 + (i % 7) * 0.1 for i in range(45)],
            "stem": [("short", "long", "bent")[(i * 5) % 3 if i % 4 else i % 3] for i in range(45)],
            "species": [f"s{i % 3}" for i in range(45)],
        }
    )
    tables = {
        "docs_ab": docs.assign(label=[("a", "b")[i % 2] for i in range(40)])[["doc_id", "label"]],
        "tokens": corpus.train_tokens,
        "labels": corpus.train_labels,
        "test_tokens": corpus.test_tokens,
        "docs": docs,
        "flowers": flowers,
    }
    duck = root / "db.duckdb"
    folder = root / "chdb"
    creates = []
    with duckdb.connect(str(duck)) as con:
        for name, frame in tables.items():
            path = root / f"{name}.parquet"
            frame.to_parquet(path)
            con.execute(f"CREATE TABLE {name} AS SELECT * FROM read_parquet('{path}')")
            creates.append(
                f"CREATE TABLE {name} ENGINE = MergeTree ORDER BY tuple() AS "
                f"SELECT * FROM file('{path}', Parquet)"
            )
    chdb(folder, *creates)
    return str(duck), f"chdb://{folder}", folder


def rows(output: str) -> dict:
    return {
        (r := json.loads(line))["doc_id"]: (r["label"], r["proba"])
        for line in output.split("\n")
        if line
    }


@pytest.mark.parametrize(("kind", "options"), KINDS, ids=[" ".join(o) for _, o in KINDS])
def test_every_kind_on_chdb_agrees_with_duckdb(databases, kind, options):
    duck, ch, _ = databases
    model = f"m_{abs(hash(tuple(options))) % 10**6}"
    source = next(SOURCES[o] for o in options if o in SOURCES)
    flag = next(o for o in options if o in SOURCES)
    results = []
    for db in (duck, ch):
        sqlnb("train", db, "--model", model, *options)
        out = sqlnb("predict", db, "--model", model, flag, source, "--format", "json")
        results.append(rows(out))
    want, got = results
    assert got.keys() == want.keys() and len(got) > 0
    for doc, (label, proba) in want.items():
        assert got[doc][0] == label, doc
        if proba is None:  # alpha = 0: every class impossible, the posterior undefined
            assert got[doc][1] is None, doc
        else:
            assert math.isclose(got[doc][1], proba, rel_tol=1e-9, abs_tol=1e-12), doc
    shown = json.loads(sqlnb("show", ch, "--model", model, "--json"))
    assert shown["kind"] == kind


def test_printed_clickhouse_scripts_run_in_chdb_as_printed(databases):
    duck, _, folder = databases
    sqlnb("train", duck, "--model", "scripted")
    train = sqlnb("sql", "train", duck, "--model", "scripted", "--dialect", "clickhouse")
    predict = sqlnb(
        "sql",
        "predict",
        duck,
        "--model",
        "scripted",
        "--tokens",
        "test_tokens",
        "--output",
        "scripted_out",
        "--dialect",
        "clickhouse",
    )
    statements = [s for s in (train + predict).split(";\n") if s.strip()]
    got = chdb(folder, *statements, "SELECT doc_id, label, proba FROM scripted_out")
    want = rows(
        sqlnb("predict", duck, "--model", "scripted", "--tokens", "test_tokens", "--format", "json")
    )
    assert {d: lab for d, lab, _ in got} == {d: v[0] for d, v in want.items()}
    assert all(math.isclose(p, want[d][1], rel_tol=1e-9) for d, _, p in got)


def test_classify_a_table_in_place_in_chdb(databases):
    duck, ch, folder = databases
    for db in (duck, ch):
        sqlnb("train", db, "--model", "inplace", "--docs", "docs")
        sqlnb(
            "classify",
            db,
            "--model",
            "inplace",
            "--update",
            "docs",
            "--id-column",
            "doc_id",
            "--text-column",
            "text",
            "--into",
            "predicted",
        )
    got = chdb(folder, "SELECT doc_id, predicted, text, label FROM docs ORDER BY doc_id")
    with duckdb.connect(duck, read_only=True) as con:
        want = con.execute("SELECT doc_id, predicted, text, label FROM docs ORDER BY doc_id")
        assert [tuple(r) for r in got] == want.fetchall()


def test_printed_scripts_from_raw_text_tokenize_for_clickhouse(databases):
    """A script printed from a DuckDB database for ClickHouse tokenizes as ClickHouse does
    (its own tokenizer SQL, no DuckDB-only parallel parts): train from text, then evaluate."""
    duck, _, folder = databases
    sqlnb("train", duck, "--model", "text_script", "--docs", "docs")
    options = ["--model", "text_script", "--docs", "docs", "--dialect", "clickhouse"]
    train = sqlnb("sql", "train", duck, *options)
    evaluate = sqlnb("sql", "evaluate", duck, *options)
    statements = [s for s in (train + evaluate).split(";\n") if s.strip()]
    confusion = statements.index(
        next(
            s
            for s in statements
            if "sqlnb_outcomes" in s and s.lstrip().upper().startswith("SELECT")
        )
    )
    got = chdb(folder, *statements[:confusion], statements[confusion])
    want = json.loads(sqlnb("evaluate", duck, "--model", "text_script", "--docs", "docs", "--json"))
    assert sorted(map(tuple, got)) == sorted(
        (c["true"], c["predicted"], c["count"]) for c in want["confusion"]
    )


def test_clickhouse_urls_open_a_server_or_chdb_with_sqlnbs_settings(monkeypatch, tmp_path):
    """clickhouse://user:password@host:port/database reaches clickhouse-connect's HTTP client
    with those parts (no server here: the client is recorded, not opened); chdb:///folder its
    chDB interface; both with the settings sqlnb relies on."""
    import clickhouse_connect

    from sqlnb.engine import connections

    calls = []

    class Client:
        def set_client_setting(self, name, value):
            calls.append(("setting", name, value))

    def get_client(**kwargs):
        calls.append(("client", kwargs))
        return Client()

    monkeypatch.setattr(clickhouse_connect, "get_client", get_client)
    _, name = connections.open_url("clickhouse://ann:p%40ss@ch.example:8443/sales")
    assert name == "clickhouse"
    assert calls[0] == (
        "client",
        {
            "host": "ch.example",
            "port": 8443,
            "username": "ann",
            "password": "p@ss",
            "database": "sales",
            "settings": connections.CLICKHOUSE_SETTINGS,
        },
    )
    assert ("setting", "join_use_nulls", 1) in calls
    calls.clear()
    connections.open_url(f"chdb://{tmp_path}")
    assert calls[0] == (
        "client",
        {"interface": "chdb", "path": str(tmp_path), "settings": connections.CLICKHOUSE_SETTINGS},
    )
    calls.clear()
    connections.open_url("clickhouse://localhost")
    assert calls[0][1]["port"] == 8123 and calls[0][1]["database"] == "default"


def test_growth_and_inspection_commands_on_chdb_agree_with_duckdb(databases):
    """append, retune, weights, tokenize and explain write the same rows on chDB as on DuckDB."""
    duck, ch, folder = databases
    for db in (duck, ch):
        sqlnb("train", db, "--model", "grow", "--tokens", "tokens", "--labels", "labels")
        sqlnb(
            "train",
            db,
            "--model",
            "grow",
            "--tokens",
            "test_tokens",
            "--labels",
            "labels",
            "--append",
        )
        sqlnb("retune", db, "--model", "grow", "--alpha", "0.5")
        sqlnb("train", db, "--model", "pair", "--docs", "docs", "--labels", "docs_ab")
        sqlnb("weights", db, "--model", "pair", "--output", "pair_weights")
        sqlnb("tokenize", db, "--docs", "docs", "--output", "doc_tokens")
        sqlnb(
            "explain",
            db,
            "--model",
            "grow",
            "--tokens",
            "test_tokens",
            "--top",
            "2",
            "--output",
            "why",
        )
    want = rows(
        sqlnb("predict", duck, "--model", "grow", "--tokens", "test_tokens", "--format", "json")
    )
    got = rows(
        sqlnb("predict", ch, "--model", "grow", "--tokens", "test_tokens", "--format", "json")
    )
    assert {d: v[0] for d, v in got.items()} == {d: v[0] for d, v in want.items()}
    assert all(math.isclose(got[d][1], want[d][1], rel_tol=1e-9) for d in want)
    with duckdb.connect(duck, read_only=True) as con:
        for table in ("pair_weights", "doc_tokens", "why"):
            ours = con.execute(f"SELECT * FROM {table}").fetchall()
            theirs = chdb(folder, f"SELECT * FROM {table}")
            assert len(theirs) == len(ours) > 0, table

            def key(row):  # by the columns that are not floats (floats may differ in the last bit)
                return str([v for v in row if not isinstance(v, float)])

            for a, b in zip(sorted(ours, key=key), sorted(map(tuple, theirs), key=key)):
                assert all(
                    math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)
                    if isinstance(x, float)
                    else x == y
                    for x, y in zip(a, b)
                ), (table, a, b)


def test_a_failed_command_removes_the_chdb_folder_it_created(tmp_path):
    """A Parquet path, which ClickHouse does not read by path, is one line naming the engine
    and the file; the chDB folder the command created is removed, one that existed is kept."""
    tokens, labels = tmp_path / "tokens.parquet", tmp_path / "labels.parquet"
    duckdb.sql(f"COPY (SELECT 1 AS doc_id, 'a' AS word, 1 AS count) TO '{tokens}'")
    duckdb.sql(f"COPY (SELECT 1 AS doc_id, 'x' AS label) TO '{labels}'")
    for existed in (False, True):
        folder = tmp_path / f"chdb_{existed}"
        if existed:
            folder.mkdir()
        args = ["train", f"chdb://{folder}", "--tokens", str(tokens), "--labels", str(labels)]
        done = cli.process(*args, env=None)  # a process: chDB opens one folder per process
        assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
        assert "clickhouse cannot read the Parquet file" in done.stderr
        assert folder.exists() == existed


def test_printed_mixed_script_runs_in_a_plain_chdb_session(databases):
    """A printed ClickHouse script sets the session settings sqlnb's own client uses
    (prefer_column_name_to_alias, ...): a mixed model's training runs as printed in a plain
    session and gives DuckDB's parameters."""
    duck, _, folder = databases
    options = ["--table", "flowers", "--id-column", "id", "--label-column", "species"]
    sqlnb("train", duck, "--model", "mixed_script", *options)
    script = sqlnb(
        "sql", "train", duck, "--model", "mixed_script", *options, "--dialect", "clickhouse"
    )
    assert script.startswith("SET join_use_nulls = 1;\nSET prefer_column_name_to_alias = 1;")
    statements = [s for s in script.split(";\n") if s.strip()]
    query = "SELECT feature, class_id, mean, var FROM sqlnb_gaussian WHERE model = 'mixed_script'"
    got = chdb(folder, *statements, query + " ORDER BY feature, class_id")
    with duckdb.connect(duck, read_only=True) as con:
        want = con.execute(query + " ORDER BY feature, class_id").fetchall()
    assert [r[:2] for r in got] == [list(r[:2]) for r in want]
    assert all(
        math.isclose(a, b, rel_tol=1e-12) for g, w in zip(got, want) for a, b in zip(g[2:], w[2:])
    )


def test_a_retraining_clears_rows_an_interrupted_write_left_where_it_writes(databases):
    """Without transactions a retraining skips deleting the replaced model's rows from the
    tables its settings say are empty (no tokenizer: issue 38), but not from a table it writes
    itself: a tokenizer row that an interrupted write left under the model's name would
    otherwise stand beside the new one, and the model would hold two tokenizers."""
    _, ch, folder = databases
    sqlnb("train", ch, "--tokens", "tokens", "--labels", "labels", "--model", "strays")
    left = "INSERT INTO sqlnb_tokenizers VALUES ('strays', 'left', true, '[a-c]+', 1, 2)"
    count = "SELECT settings FROM sqlnb_tokenizers WHERE model = 'strays'"
    assert chdb(folder, left, count) == [["left"]]
    sqlnb("train", ch, "--docs", "docs", "--model", "strays")
    (settings,) = chdb(folder, count)
    assert json.loads(settings[0])["ngrams"] == [1, 1]
