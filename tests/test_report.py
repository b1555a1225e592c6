"""sqlnb report: one self-contained HTML file whose numbers are evaluate's, computed in SQL."""

from __future__ import annotations

import json
import math
import re
import shutil
import sqlite3
import struct
import subprocess
import zlib
from pathlib import Path

import cli
import duckdb
import numpy as np
import pytest
from conftest import random_corpus

import sqlnb
from sqlnb.report import write_report

EVALUATE_KEYS = (
    "n_docs",
    "accuracy",
    "macro_f1",
    "log_loss",
    "brier",
    "ece",
    "per_class",
    "confusion",
    "reliability",
)


def embedded(page: str) -> dict:
    """The numbers the page embeds as JSON."""
    found = re.search(r'<script type="application/json" id="sqlnb-report">(.*?)</script>', page)
    assert found is not None
    return json.loads(found.group(1))


def text_model(k: int, kind: str = "multinomial", seed: int = 7) -> sqlnb.Model:
    corpus = random_corpus(seed, n_classes=k, vocab=60 * k, n_train=30 * k, n_test=12 * k)
    con = duckdb.connect()
    # One thread: DuckDB's parallel sums of doubles may differ in the last bit between two runs
    # of the same query, and these tests compare two runs (the report's and evaluate's) exactly.
    con.execute("SET threads = 1")
    corpus.load(con)
    return sqlnb.train(con, "train_tokens", "train_labels", model=f"m{k}", kind=kind)


def load_flowers(con: duckdb.DuckDBPyConnection) -> None:
    """Tables ``train`` (160 rows) and ``test`` (80 rows) of a wide table: two Gaussian and two
    categorical columns, with missing values."""
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 240)
    con.execute(
        "CREATE TABLE flowers (id INTEGER, label VARCHAR, petal DOUBLE, sepal DOUBLE, "
        "colour VARCHAR, size VARCHAR)"
    )
    con.executemany(
        "INSERT INTO flowers VALUES (?, ?, ?, ?, ?, ?)",
        [
            (
                i,
                ["setosa", "versicolor", "virginica"][k],
                float(rng.normal(1 + 1.5 * k, 0.8)),
                None if i % 11 == 0 else float(rng.normal(5 + 0.5 * k, 0.6)),
                ["white", "purple", "blue", "pink"][(k + int(rng.integers(0, 2))) % 4],
                None if i % 7 == 0 else ["S", "M", "L"][min(2, k + int(rng.integers(0, 2)))],
            )
            for i, k in enumerate(y)
        ],
    )
    con.execute("CREATE TABLE train AS SELECT * FROM flowers WHERE id < 160")
    con.execute("CREATE TABLE test AS SELECT * FROM flowers WHERE id >= 160")


def table_model() -> sqlnb.Model:
    con = duckdb.connect()
    con.execute("SET threads = 1")
    load_flowers(con)
    return sqlnb.train(con, sqlnb.Table("train"), model="flowers")


def check_numbers(model: sqlnb.Model, data, labels, path: Path) -> tuple[dict, str]:
    """The report's numbers (returned and embedded) are exactly evaluate's."""
    numbers = write_report(model, data, labels, path)
    page = path.read_text(encoding="utf-8")
    shown = embedded(page)
    expected = model.evaluate(data, labels)
    for key in EVALUATE_KEYS:
        assert numbers[key] == expected[key], key
        assert shown[key] == expected[key], key
    for key in ("accuracy", "macro_f1", "log_loss", "brier", "n_docs"):
        assert f'data-metric="{key}" data-value="{numbers[key]!r}"' in page
    assert shown["brier"] == numbers["brier"] and shown["reliability"] == numbers["reliability"]
    return numbers, page


def posteriors(model: sqlnb.Model, tokens: str, labels: str) -> tuple[dict, dict, dict]:
    """Per labeled document: its class probabilities, true label and predicted label."""
    con = model.db.connection
    truth = dict(con.execute(f"SELECT doc_id, CAST(label AS VARCHAR) FROM {labels}").fetchall())
    proba: dict = {}
    for doc, label, p in model.predict_proba(tokens).fetchall():
        proba.setdefault(doc, {})[str(label)] = p
    predicted = {doc: str(label) for doc, label, _ in model.predict(tokens).fetchall()}
    return proba, truth, predicted


@pytest.mark.parametrize("k", [2, 37])
def test_text_report_numbers_are_evaluates(tmp_path, k):
    model = text_model(k)
    numbers, page = check_numbers(model, "test_tokens", "test_labels", tmp_path / "r.html")
    assert numbers["n_docs"] == 12 * k + 2 and len(numbers["per_class"]) >= k - 1
    # Every cell of both heatmaps has a hover title, however many classes.
    assert page.count("<title>true ") == 2 * k * k

    # Brier score and reliability bins, recomputed here from the posteriors.
    proba, truth, predicted = posteriors(model, "test_tokens", "test_labels")
    assert set(proba) == set(truth)
    brier = np.mean([sum((p - (c == truth[d])) ** 2 for c, p in proba[d].items()) for d in proba])
    assert numbers["brier"] == pytest.approx(brier, abs=1e-12)
    bins: dict[int, list] = {}
    for doc, ps in proba.items():
        top = ps[predicted[doc]]
        # 15 equal-width right-closed bins: p in bin ceil(15 p)
        bins.setdefault(0 if top <= 0 else min(math.ceil(top * 15), 15), []).append(
            (top, predicted[doc] == truth[doc])
        )
    assert [b["bin"] for b in numbers["reliability"]] == sorted(bins)
    for b in numbers["reliability"]:
        docs = bins[b["bin"]]
        assert b["n_docs"] == len(docs)
        assert b["confidence"] == pytest.approx(np.mean([p for p, _ in docs]), abs=1e-12)
        assert b["accuracy"] == pytest.approx(np.mean([ok for _, ok in docs]), abs=1e-12)
    gaps = sum(b["n_docs"] * abs(b["accuracy"] - b["confidence"]) for b in numbers["reliability"])
    assert numbers["ece"] == pytest.approx(gaps / numbers["n_docs"], abs=1e-12)


@pytest.mark.parametrize("kind", ["multinomial", "complement", "bernoulli"])
def test_misclassified_documents_and_their_words(tmp_path, kind):
    model = text_model(4, kind=kind, seed=11)
    numbers = write_report(model, "test_tokens", "test_labels", tmp_path / "r.html")
    proba, truth, predicted = posteriors(model, "test_tokens", "test_labels")
    wrong = sorted((-proba[d][predicted[d]], d) for d in proba if predicted[d] != truth[d])
    shown = numbers["misclassified"]
    assert [d["doc_id"] for d in shown] == [d for _, d in wrong[:5]]
    con = model.db.connection
    log_theta = {
        (c, w): v
        for c, w, v in con.execute(
            "SELECT label, word, log_theta FROM sqlnb_log_theta WHERE model = ?", [model.name]
        ).fetchall()
    }
    if kind == "bernoulli":
        absent = con.execute(
            "SELECT c.label, a.word, a.log_absent FROM sqlnb_log_absent AS a JOIN sqlnb_classes "
            "AS c USING (model, class_id) WHERE a.model = ?",
            [model.name],
        ).fetchall()
        log_theta = {(c, w): log_theta[c, w] - v for c, w, v in absent}
    counts = dict(
        ((d, w), n)
        for d, w, n in con.execute(
            "SELECT doc_id, word, SUM(count) FROM test_tokens GROUP BY ALL"
        ).fetchall()
    )
    for doc in shown:
        assert doc["p_predicted"] == pytest.approx(proba[doc["doc_id"]][doc["predicted"]])
        assert doc["p_true"] == pytest.approx(proba[doc["doc_id"]][doc["true_label"]])
        words = doc["words"]
        known = {w for c, w in log_theta if c == doc["predicted"]}
        if not words:  # a document of only unknown words gets the prior: no word to show
            assert not any(d == doc["doc_id"] and w in known for d, w in counts)
        assert len(words) <= 12
        for w in words:
            n = 1 if kind == "bernoulli" else counts[doc["doc_id"], w["word"]]
            expected = n * (
                log_theta[doc["predicted"], w["word"]] - log_theta[doc["true_label"], w["word"]]
            )
            assert w["contribution"] == pytest.approx(expected, abs=1e-12)
        toward = [w["contribution"] for w in words if w["contribution"] > 0]
        assert toward == sorted(toward, reverse=True) and len(toward) <= 6


def test_table_model_report(tmp_path):
    model = table_model()
    data = sqlnb.Table("test")
    numbers, page = check_numbers(model, data, None, tmp_path / "r.html")
    assert numbers["n_docs"] == 80
    assert "Gaussian features" in page and "Categorical features" in page
    for feature in ("petal", "sepal", "colour", "size"):
        assert f"<h3>{feature}</h3>" in page or f">{feature}</text>" in page
    assert "Most indicative words" not in page
    assert numbers["model"]["n_features"] == 4 and numbers["model"]["n_docs"] == 160


def test_sqlite_report_matches_evaluate(tmp_path):
    corpus = random_corpus(5, n_classes=3, vocab=200)
    lite = sqlite3.connect(":memory:", isolation_level=None)
    for name in ("train_tokens", "train_labels", "test_tokens", "test_labels"):
        getattr(corpus, name).to_sql(name, lite, index=False)
    model = sqlnb.train(lite, "train_tokens", "train_labels")
    numbers = write_report(model, "test_tokens", "test_labels", tmp_path / "r.html")
    expected = model.evaluate("test_tokens", "test_labels")
    assert {k: numbers[k] for k in EVALUATE_KEYS} == expected
    assert numbers["misclassified"] and 0 <= numbers["brier"] <= 2


def test_self_contained_and_escaped(tmp_path):
    """No network reference of any kind; every name from the data is escaped."""
    con = duckdb.connect()
    evil_label, evil_word = '<b>"x"&</b>', "<script>alert(1)</script>"
    con.execute(
        "CREATE TABLE t AS SELECT * FROM (VALUES (1, ?, 3), (1, 'good', 1), (2, 'bad', 2), "
        "(3, ?, 1), (3, 'bad', 1)) AS v(doc_id, word, count)",
        [evil_word, evil_word],
    )
    con.execute(
        "CREATE TABLE l AS SELECT * FROM (VALUES (1, ?), (2, 'plain'), (3, 'plain')) "
        "AS v(doc_id, label)",
        [evil_label],
    )
    model = sqlnb.train(con, "t", "l", model="</title><script>x()</script>")
    numbers = write_report(model, "t", "l", tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    for raw in (evil_label, evil_word, "<script>x()"):
        assert raw not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;b&gt;&quot;x&quot;&amp;&lt;/b&gt;" in page
    assert embedded(page)["per_class"] == numbers["per_class"]
    assert evil_label in embedded(page)["per_class"]
    lowered = page.lower()
    assert "http:" not in lowered and "https:" not in lowered
    assert not re.search(r"""["'(=]\s*//""", page)  # no protocol-relative address either
    assert "<link" not in lowered and "src=" not in lowered and "@import" not in lowered
    assert lowered.count("<script") == 1  # the JSON data block: not a script that runs
    assert all(u.startswith("#") for u in re.findall(r"url\(([^)]*)\)", page))


@pytest.fixture
def db_file(tmp_path: Path) -> Path:
    path = tmp_path / "db.duckdb"
    with duckdb.connect(str(path)) as con:
        random_corpus(9, n_classes=3, vocab=200).load(con)
        load_flowers(con)
        sqlnb.train(con, "train_tokens", "train_labels", model="text")
        sqlnb.train(con, sqlnb.Table("train"), model="table")
    return path


def snapshot(path: Path) -> dict:
    with duckdb.connect(str(path), read_only=True) as con:
        names = [r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()]
        return {n: sorted(map(repr, con.execute(f'SELECT * FROM "{n}"').fetchall())) for n in names}


def report(*args: object) -> tuple[int, str]:
    """``sqlnb ARGS`` in this process (tests/cli.py): the exit code, stdout then stderr."""
    code, out, err = cli.run(*args, env=None)
    return code, out + err


def test_the_command(db_file, tmp_path):
    before = snapshot(db_file)
    out = tmp_path / "text.html"
    args = [
        "report",
        str(db_file),
        "--model",
        "text",
        "--tokens",
        "test_tokens",
        "--labels",
        "test_labels",
    ]
    code, output = report(*args, "--html", out)
    assert code == 0, output
    assert output.startswith(f"wrote {out}") and "accuracy" in output
    with duckdb.connect(str(db_file), read_only=True) as con:
        expected = sqlnb.load(con, "text").evaluate("test_tokens", "test_labels")
    shown = embedded(out.read_text(encoding="utf-8"))
    assert {k: shown[k] for k in ("n_docs", "accuracy", "confusion")} == {
        k: expected[k] for k in ("n_docs", "accuracy", "confusion")
    }
    assert shown["log_loss"] == pytest.approx(expected["log_loss"], rel=1e-12)

    table_args = ["--model", "table", "--table", "test", "--id-column", "id"]
    out = tmp_path / "table.html"
    code, output = report("report", db_file, *table_args, "--label-column", "label", "--html", out)
    assert code == 0, output
    assert embedded(out.read_text(encoding="utf-8"))["n_docs"] == 80
    assert snapshot(db_file) == before  # the report changed nothing in the database

    code, output = report("report", db_file, *table_args, "--html", out)
    assert code == 1 and "exists: give --replace" in output  # not overwritten
    nope = tmp_path / "nope.html"
    code, output = report("report", db_file, "--model", "nope", "--html", nope)
    assert code == 1 and "Error: no model named 'nope'" in output
    assert not nope.exists()
    code, output = report(*args, "--html", tmp_path / "missing" / "r.html")
    assert code == 1 and "Error: cannot write" in output
    assert snapshot(db_file) == before
    assert report("report", "--help")[0] == 0


# --- rendering in a real browser --------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or (
    "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
)


def png_rows(path: Path, limit: int) -> tuple[int, int, list[bytes]]:
    """Width, bytes per pixel and the first ``limit`` rows of an 8-bit, non-interlaced RGB(A) PNG
    (what Chromium writes), decoded without Pillow."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        header = body if kind == b"IHDR" else header
        idat += body if kind == b"IDAT" else b""
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and not interlace
    bpp = 3 if colour == 2 else 4
    stride = width * bpp
    raw = zlib.decompressobj().decompress(idat, (stride + 1) * min(limit, height))
    rows, prior = [], bytearray(stride)
    for r in range(min(limit, height)):
        kind, line = (
            raw[r * (stride + 1)],
            bytearray(raw[r * (stride + 1) + 1 : (r + 1) * (stride + 1)]),
        )
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prior[i], prior[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prior = line
    return width, bpp, rows


def pixels(path: Path, limit: int) -> list[tuple[int, int, int]]:
    """The RGB pixels of the first ``limit`` rows of a PNG: with Pillow if it is installed."""
    try:
        from PIL import Image
    except ImportError:
        width, bpp, rows = png_rows(path, limit)
        return [tuple(row[i : i + 3]) for row in rows for i in range(0, width * bpp, bpp)]
    with Image.open(path) as image:
        rgb = image.convert("RGB")
        data = rgb.crop((0, 0, rgb.width, min(limit, rgb.height))).tobytes()
    return [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
@pytest.mark.slow  # 23 s in CI (issue 36: out of the quick loop, still in CI)
def test_renders_in_headless_chromium(tmp_path):
    model = text_model(2)
    write_report(model, "test_tokens", "test_labels", tmp_path / "r.html")
    shot = tmp_path / "r.png"
    done = subprocess.run(
        [
            str(CHROMIUM),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            f"--screenshot={shot}",
            "--window-size=1200,2400",
            (tmp_path / "r.html").as_uri(),
        ],
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0 and shot.exists(), done.stderr.decode(errors="replace")[-2000:]
    seen = pixels(shot, 600)
    assert seen[0] == (0xF3, 0xF4, 0xF6)  # the page's background: the style sheet applied
    assert len(set(seen)) > 50  # text, cards and plots, not a blank page
    # The confusion matrix's diagonal (a dark blue of the SVG heatmap) is on screen.
    assert any(b > 140 and r < 80 and g < 100 for r, g, b in seen)
