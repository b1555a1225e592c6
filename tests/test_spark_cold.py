"""Issue 38: a cold Spark command checks what it can before it starts any Spark work (a JVM
and its catalog take seconds): predict's output file and train's model name and --keep,
which need no database, and the name of the table it writes."""

from __future__ import annotations

import pytest
from cli import run

import sqlnb.engine.spark


def _no_spark(url: str) -> None:
    raise AssertionError(f"Spark started for {url}")


@pytest.mark.parametrize(
    ("output", "message"),
    [
        ("out.csv", "'out.csv' exists: give --replace to overwrite it"),
        ("out.txt", "'out.txt': a file must end in .parquet, .csv or .json"),
        ("", "not a table name: ''"),
        ("a.b.c.d", "not a table name: 'a.b.c.d'"),
        ("a..b", "not a table name: 'a..b'"),
    ],
)
def test_predict_checks_its_output_before_starting_spark(tmp_path, monkeypatch, output, message):
    if output:
        (tmp_path / output).write_text("kept\n")
    monkeypatch.setattr(sqlnb.engine.spark, "open_session", _no_spark)
    code, _, err = run("predict", "local[2]", "--docs", "docs", "--output", output, cwd=tmp_path)
    assert code != 0
    assert message in err
    assert "Spark started" not in err
    if output:
        assert (tmp_path / output).read_text() == "kept\n"  # left as it was


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--model", " "], "the model name is empty: give --model NAME"),
        (["--model", "a\x1fb"], "holds the character \\x1f"),
        (["--keep", "0"], "--keep"),
    ],
)
def test_train_checks_its_model_name_and_keep_before_starting_spark(
    tmp_path, monkeypatch, option, message
):
    monkeypatch.setattr(sqlnb.engine.spark, "open_session", _no_spark)
    code, _, err = run("train", "local[2]", "--docs", "docs", *option, cwd=tmp_path)
    assert code != 0
    assert message in err
    assert "Spark started" not in err
