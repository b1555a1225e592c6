"""Drift monitoring (issue 40): every column of a window against numpy within 1e-9, one row
per (window, class) with --every, divergence and unknown rate rising where the corpus drifts,
predicted_share equal to predict's shares, estimated_prior equal to what predict --priors
estimate uses on the window's documents, --output and --json, the refusals, and every engine
against DuckDB."""

from __future__ import annotations

import datetime
import json
import math
from collections import Counter
from pathlib import Path

import duckdb
import numpy as np
import pytest
from cli import ENV, run
from conftest import copy_database
from drift import corpus
from engines import duckdb_results

import sqlnb

DOCS = ("--docs", "every_doc", "--id-column", "doc_id", "--text-column", "text")


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tables and the model of :func:`make`, trained once for the module (issue 36): each
    test copies the file (``copy_database``) and changes only its copy."""
    path = tmp_path_factory.mktemp("monitor") / "trained.duckdb"
    make(path)
    return path


def make(path: Path) -> None:
    frame = corpus(11)
    with duckdb.connect(str(path)) as con:
        con.register("frame", frame)
        con.execute("CREATE TABLE early AS SELECT * FROM frame WHERE sent < '2024-03-01'")
        con.execute("CREATE TABLE every_doc AS SELECT *, CAST(sent AS DATE) AS day FROM frame")
        con.execute(
            "CREATE TABLE march AS SELECT * FROM every_doc WHERE day >= '2024-03-01' "
            "AND day < '2024-04-01'"
        )
    run("train", path, "--docs", "early", "--id-column", "doc_id", "--text-column", "text", ok=True)


def monitored(path: Path, *args: str) -> list[dict[str, object]]:
    out = run("monitor", path, *DOCS, "--json", *args, ok=True).stdout
    return json.loads(out)


def js(p: dict[str, float], q: dict[str, float]) -> float:
    """Jensen-Shannon divergence, log base 2, over the union of the words."""
    words = sorted(set(p) | set(q))
    pv, qv = np.array([p.get(w, 0.0) for w in words]), np.array([q.get(w, 0.0) for w in words])
    m = (pv + qv) / 2

    def kl(a: np.ndarray) -> float:
        keep = a > 0
        return float(np.sum(a[keep] * np.log2(a[keep] / m[keep])))

    return kl(pv) / 2 + kl(qv) / 2


def test_a_window_against_numpy(trained, tmp_path):
    path = tmp_path / "m.duckdb"
    copy_database(trained, path)
    frame = corpus(11)
    early = frame[frame.sent < "2024-03-01"]
    march = frame[(frame.sent >= "2024-03-01") & (frame.sent < "2024-04-01")]
    trained = Counter(w for t in early.text for w in t.split())
    total = sum(trained.values())
    p = {w: n / total for w, n in trained.items()}
    window = Counter(w for t in march.text for w in t.split())
    size = sum(window.values())
    q = {w: n / size for w, n in window.items()}
    rows = [r for r in monitored(path, "--time-column", "day") if r["window"] == "2024-03-01"]
    assert [r["label"] for r in rows] == ["ham", "spam"]
    unknown = sum(n for w, n in window.items() if w not in trained) / size
    prior = {k: n / len(early) for k, n in Counter(early.label).items()}
    # predict's shares on the window's documents, and its EM estimate of their priors
    out = run(
        "predict",
        path,
        "--docs",
        "march",
        "--id-column",
        "doc_id",
        "--text-column",
        "text",
        "--format",
        "csv",
        "--priors",
        "estimate",
        ok=True,
    )
    estimated = dict(
        pair.split("=") for pair in out.stderr.split("estimated priors: ")[1].strip().split(", ")
    )
    plain = run(
        "predict",
        path,
        "--docs",
        "march",
        "--id-column",
        "doc_id",
        "--text-column",
        "text",
        "--format",
        "csv",
        ok=True,
    ).stdout
    labels = Counter(line.split(",")[1] for line in plain.strip().splitlines()[1:])
    model = sqlnb.load(duckdb.connect(str(path), read_only=True))
    exact = model.new_priors("estimate", sqlnb.Docs("march"))
    for r in rows:
        assert r["documents"] == len(march) == 30
        assert r["tokens"] == size
        assert abs(r["unknown_rate"] - unknown) <= 1e-9 and unknown > 0.2
        assert abs(r["js_divergence"] - js(p, q)) <= 1e-9
        assert abs(r["training_prior"] - prior[r["label"]]) <= 1e-9
        assert r["predicted_share"] == labels[r["label"]] / len(march)
        assert abs(r["estimated_prior"] - exact[r["label"]]) <= 1e-9
        assert abs(r["estimated_prior"] - float(estimated[r["label"]])) <= 1e-6  # (printed %.6g)
    assert sum(r["predicted_share"] for r in rows) == 1


@pytest.mark.slow  # 16 s in CI (issue 36: out of the quick loop, still in CI)
def test_windows_by_month_week_and_none(trained, tmp_path):
    path = tmp_path / "w.duckdb"
    copy_database(trained, path)
    rows = monitored(path, "--time-column", "day", "--every", "month")
    assert [(r["window"], r["label"]) for r in rows] == [
        (f"2024-0{m}-01", label) for m in range(1, 5) for label in ("ham", "spam")
    ]
    by_window = {r["window"]: r for r in rows if r["label"] == "ham"}
    before = [by_window[f"2024-0{m}-01"] for m in (1, 2)]
    after = [by_window[f"2024-0{m}-01"] for m in (3, 4)]
    assert max(r["unknown_rate"] for r in before) == 0
    assert min(r["unknown_rate"] for r in after) > 0.2
    assert min(r["js_divergence"] for r in after) > 5 * max(r["js_divergence"] for r in before)
    ham = [r["predicted_share"] for r in by_window.values()]
    assert min(ham[:2]) > max(ham[2:])  # the label mix moved towards spam
    assert sum(r["documents"] for r in by_window.values()) == 120
    # TIMESTAMP windows, from Monday
    weeks = monitored(path, "--time-column", "sent", "--every", "week")
    starts = sorted({r["window"] for r in weeks})
    assert all(datetime.datetime.fromisoformat(s).weekday() == 0 for s in starts)
    assert all(s.endswith("00:00:00") for s in starts)
    assert sum(r["documents"] for r in weeks if r["label"] == "ham") == 120
    days = monitored(path, "--time-column", "day", "--every", "day")
    assert sum(r["documents"] for r in days if r["label"] == "ham") == 120
    # no time column: one window, NULL
    one = monitored(path)
    assert [r["window"] for r in one] == [None, None] and one[0]["documents"] == 120


def test_output_table_and_refusals(trained, tmp_path):
    path = tmp_path / "o.duckdb"
    copy_database(trained, path)
    rows = monitored(path, "--time-column", "day")
    run("monitor", path, *DOCS, "--time-column", "day", "--output", "drift", ok=True)
    with duckdb.connect(str(path), read_only=True) as con:
        types = dict(
            con.execute(
                "SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_name = 'drift'"
            ).fetchall()
        )
        stored = con.execute('SELECT * FROM drift ORDER BY "window", label').fetchall()
    assert types["window"] == "DATE" and types["documents"] == "BIGINT"
    assert [str(r[0]) for r in stored] == [r["window"] for r in rows]
    assert all(
        math.isclose(a, b, abs_tol=1e-12)
        for s, r in zip(stored, rows)
        for a, b in zip(s[3:], list(r.values())[3:])
    )
    for args, says in [
        (("--time-column", "day", "--every", "year"), "--every must be one of day, week, month"),
        (("--time-column", "text"), "column 'text' of table 'every_doc' is VARCHAR"),
        (("--time-column", "nope"), "no column 'nope'"),
    ]:
        code, _, err = run("monitor", path, *DOCS, *args)
        assert code == 1 and err.count("\n") == 1 and says in err, err
    code, _, err = run("monitor", path, *DOCS, "--output", "drift")
    assert code == 1 and "already exists" in err


def _frame_on(e, frame) -> None:
    """The corpus on an engine, its time column a TIMESTAMP."""
    text = frame.assign(sent=frame.sent.dt.strftime("%Y-%m-%d %H:%M:%S"))
    if e.name == "sqlite":
        con = e.db.connection
        con.execute(
            "CREATE TABLE every_doc (doc_id INTEGER, text TEXT, label TEXT, sent TIMESTAMP)"
        )
        con.executemany("INSERT INTO every_doc VALUES (?, ?, ?, ?)", text.values.tolist())
        return
    e.load("raw", text)
    from sqlglot import parse_one

    e.db.write_table(
        "every_doc",
        parse_one(
            "SELECT doc_id, text, label, CAST(sent AS TIMESTAMP) AS sent FROM raw", read="duckdb"
        ),
    )


def _monitored(e, everies: tuple[str, ...]) -> dict:
    from sqlnb import monitor

    frame = corpus(5)
    _frame_on(e, frame)
    e.load("early", frame[frame.sent < "2024-03-01"].drop(columns=["sent"]))
    model = sqlnb.train(e.db, sqlnb.Docs("early"))
    found = {}
    for every in everies:
        windows = monitor.Windows("sent", every)
        found[every], kind = monitor.monitor(e.db, model, sqlnb.Docs("every_doc"), windows)
        assert kind == "TIMESTAMP"
    return found


def test_every_engine_against_duckdb(engine):
    everies = ("month",) if engine.name == "spark" else ("month", "week")  # (Spark: slow)
    # DuckDB's side once for every engine (issue 36)
    results = [
        _monitored(engine, everies),
        duckdb_results(("monitor", everies), lambda r: _monitored(r, everies)),
    ]
    for every in everies:
        mine, theirs = results[0][every], results[1][every]
        assert len(mine) == len(theirs) >= 8
        for a, b in zip(mine, theirs):
            assert a["window"] == b["window"] and a["label"] == b["label"]
            assert a["documents"] == b["documents"] and a["tokens"] == b["tokens"]
            for column in (
                "unknown_rate",
                "js_divergence",
                "predicted_share",
                "training_prior",
                "estimated_prior",
            ):
                assert abs(a[column] - b[column]) <= 1e-9, (column, a, b)


@pytest.mark.parametrize("kind", ["gaussian"])
def test_refuses_a_model_that_is_not_text(tmp_path, kind):
    path = tmp_path / "g.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute(
            "CREATE TABLE t AS SELECT i AS id, i * 1.0 AS x, CASE WHEN i % 2 = 0 THEN "
            "'a' ELSE 'b' END AS label FROM range(20) AS r(i)"
        )
    run("train", path, "--table", "t", "--kind", kind, ok=True)
    code, _, err = run("monitor", path, "--tokens", "t")
    assert code == 1 and "monitor measures text drift: model 'default' is gaussian" in err


def test_report_draws_the_monitor_over_time(trained, tmp_path):
    """sqlnb report with the monitor's options embeds its rows and draws them."""
    path = tmp_path / "r.duckdb"
    copy_database(trained, path)
    rows = monitored(path, "--time-column", "day")
    html = tmp_path / "r.html"
    run("report", path, *DOCS, "--time-column", "day", "--output", html, ok=True)
    page = html.read_text()
    assert "Drift over time" in page and page.count("<polyline") >= 6
    embedded = page.split('id="sqlnb-report">')[1].split("</script>")[0]
    drawn = json.loads(embedded)["drift"]
    assert [(r["window"], r["label"], r["documents"]) for r in drawn] == [
        (r["window"], r["label"], r["documents"]) for r in rows
    ]
    assert all(
        abs(a[k] - b[k]) <= 1e-12
        for a, b in zip(drawn, rows)
        for k in ("js_divergence", "estimated_prior")
    )
    run("report", path, *DOCS, "--output", tmp_path / "plain.html", ok=True)
    assert "Drift over time" not in (tmp_path / "plain.html").read_text()


def test_the_new_data_is_read_once_for_its_tokens(trained, tmp_path):
    """One pass over the new documents' text: the statements that read the docs table are the
    windows' (ids and times) and the tokenizer's, once each; the posteriors, predict's labels,
    the drift and the priors' EM read the tokens and posteriors already computed."""
    path = tmp_path / "m.duckdb"
    copy_database(trained, path)
    profile = tmp_path / "profile.jsonl"
    env = {**ENV, "SQLNB_PROFILE": str(profile)}
    args = ("--time-column", "day", "--every", "month")
    rows = json.loads(run("monitor", path, *DOCS, "--json", *args, env=env, ok=True).stdout)
    statements = [json.loads(line)["sql"] for line in profile.read_text().splitlines()]
    reading = [s for s in statements if '"every_doc"' in s]
    assert len(reading) == 2, reading
    assert sum("DATE_TRUNC" in s for s in reading) == 1  # the windows
    assert len({str(r["window"]) for r in rows}) == 4
