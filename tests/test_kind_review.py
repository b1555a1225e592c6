"""Issue 37's mends: dropping a model reads its version rows once; ClickHouse's model row is
the list form's lookup row, bound from its tree; the package at most 13 import layers deep."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import duckdb
from drift import corpus

import sqlnb
from sqlnb import versions


def test_drop_reads_the_version_rows_once(tmp_path):
    path = tmp_path / "v.duckdb"
    with duckdb.connect(str(path)) as con:
        con.register("frame", corpus(7))
        con.execute("CREATE TABLE docs AS SELECT * FROM frame")
    db = sqlnb.connect(str(path))
    for _ in range(3):
        sqlnb.train(db, sqlnb.Docs("docs"), model="m", keep=10)
    sqlnb.train(db, sqlnb.Docs("docs"), model="other", keep=10)
    assert [v.version for v in versions.kept(db, "m")] == [1, 2, 3]
    texts: list[str] = []
    db.tracer = texts.append
    sqlnb.drop(db, "m")
    db.tracer = None
    read = [t for t in texts if "FROM sqlnb_versions" in t and "ORDER BY v.version" in t]
    assert len(read) == 1, read
    assert versions.kept(db, "m") == []
    assert [v.version for v in versions.kept(db, "other")] == [1]


def test_clickhouse_model_row_is_the_lookup_row_without_its_words():
    """ClickHouse's model row is bound from the list form's lookup row (sql/macros/lookup.sql):
    its columns are the lookup row's, in the order of sqlnb_ch_models' columns, and no word
    list (those are the per-word dictionaries') nor anything only they read is left in it."""
    from sqlglot import exp

    from sqlnb import templates
    from sqlnb.engine import spellings
    from sqlnb.functions import clickhouse, lists

    lookup = lists._lookup(exp.convert("m")).named_selects
    row = clickhouse.model_row(exp.convert("m"))
    assert row.named_selects == list(clickhouse.ROW)
    assert set(clickhouse.ROW) < set(lookup)
    table = (templates.sql_dir() / "functions/clickhouse/models.sql.in").read_text()
    body = table.split("sqlnb_ch_models (")[1].split(") ENGINE")[0]
    columns = [line.split()[0] for line in body.strip().splitlines()]
    assert columns == ["model", *clickhouse.ROW, "hierarchy", "confidence", "threshold"]
    text = row.sql(spellings.CLICKHOUSE)  # as the engine writes it (its spellings included)
    for gone in ("owner", "start", "idf", "occupied", "LIST(", "ARRAY_AGG", "LOGICAL_OR"):
        assert gone not in text, gone


def layers(root: Path) -> dict[str, int]:
    """Each module's import layer: one above everything it imports at module level (imports
    under TYPE_CHECKING or inside functions left out), as issue 37's check counts them."""
    modules = {}
    for path in root.rglob("*.py"):
        name = ".".join(path.relative_to(root.parent).with_suffix("").parts)
        modules[name.removesuffix(".__init__")] = path
    imported: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        found = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            for sub in ast.walk(node) if isinstance(node, (ast.If, ast.Try)) else [node]:
                if isinstance(sub, ast.Import):
                    found |= {a.name for a in sub.names if a.name in modules}
                elif isinstance(sub, ast.ImportFrom):
                    base = sub.module or ""
                    if sub.level:
                        base = ".".join(
                            package[: len(package) - sub.level + 1] + [base] * bool(base)
                        )
                    for a in sub.names:
                        full = f"{base}.{a.name}"
                        found |= {full} if full in modules else {base} & set(modules)
        imported[name] = found - {name}

    @functools.cache
    def layer(name: str) -> int:
        return 1 + max((layer(d) for d in imported[name]), default=0)

    return {name: layer(name) for name in modules}


def test_the_package_is_at_most_13_import_layers_deep():
    """Issue 37: the import layers at most 13 deep (the functions wing no longer sits under
    the write path); a new module-level import that deepens it fails here, not in review."""
    found = layers(Path(sqlnb.__file__).parent)
    deepest = max(found.values())
    assert deepest <= 13, sorted((n for n, d in found.items() if d == deepest))
