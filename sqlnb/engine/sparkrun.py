"""How :class:`sqlnb.engine.spark.SparkBackend` runs sqlnb's statements on a session: which are
dynamic partition overwrites or temporary tables of a query, a query sent once through Spark
Connect, py4j's errors, and the Parquet files a command's statements read by path
(:class:`FileViews`)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import Any

from sqlglot import exp

from sqlnb.engine import scratch

# An overwrite of the partitions its rows name (sqlnb.versions.keeping), not of a given one,
# after the statement's WITH clause if it has one (the scoring table's: its pivot). (Where a
# literal holds such text, a static partition's overwrite runs in the dynamic mode: the same.)
DYNAMIC = re.compile(
    r"(\s*WITH\b.*?)?\s*INSERT\s+OVERWRITE\s+TABLE\s+\S+\s+PARTITION\s*\(\s*`?model`?\s*\)",
    re.IGNORECASE | re.DOTALL,
)
OVERWRITE_MODE = "spark.sql.sources.partitionOverwriteMode"
# A temporary table of a query as the Spark dialect writes it (Dialect.cached_temporary).
CACHED = re.compile(r"\s*CACHE\s+TABLE\s+(`[^`]*`|\w+)\s+AS\s+(.*)", re.IGNORECASE | re.DOTALL)


def sent_once(session: Any) -> Callable[[str], Any] | None:
    """Through Spark Connect, a query's DataFrame that reaches the server once, with the
    request for its rows (or its schema): ``session.sql`` is a round trip of its own, in which
    the server parses and analyzes the text only to hand it back, then does both again for
    the rows (a retraining's 9 reads: 9 round trips and analyses fewer). None: not
    Connect, or a client without that plan."""
    if not type(session).__module__.startswith("pyspark.sql.connect"):
        return None
    try:
        from pyspark.sql.connect.dataframe import DataFrame
        from pyspark.sql.connect.plan import SQL
    except ImportError:
        return None
    return lambda text: DataFrame(SQL(text), session)


def java_errors() -> tuple[type[BaseException], ...]:
    """py4j's error of a Java exception pyspark does not convert (classic Spark: a broadcast's
    failure comes wrapped in an ExecutionException), where py4j is installed (not Connect)."""
    try:
        from py4j.protocol import Py4JJavaError
    except ImportError:
        return ()
    return (Py4JJavaError,)


class FileViews:
    """The Parquet files a command's statements read by path, each as a temporary view of the
    file made at the first statement that names it and dropped at the command's end
    (:meth:`drop`). Spark infers a file's schema in a job at each analysis of a query that names
    it (``parquet.`path` ``): a training from a docs file paid it in each statement reading it,
    ``predict`` in its describe and its query; a view's schema is inferred once, when it is
    made. For a session of sqlnb's own that serves one command (the command line's) only: a
    caller's is left as it was (a lazy result of it, a DataFrame, would name the view after the
    command), and a Python caller's connection serves many commands, between which a file may
    change (a view keeps the file list it was made with)."""

    def __init__(self, session: Any, errors: tuple[type[BaseException], ...]) -> None:
        self.session, self.errors = session, errors
        self.views: dict[str, str] = {}  # a file's path as the statement gives it: its view

    def prepare(self, tree: exp.Expr) -> exp.Expr:
        """``tree`` reading the views of the files it names (a copy, where it names one)."""
        if tree.find(exp.ReadParquet) is None:
            return tree
        return tree.transform(self._viewed)

    def _viewed(self, node: exp.Expr) -> exp.Expr:
        read = node.this if isinstance(node, exp.Table) else None
        if not isinstance(read, exp.ReadParquet) or len(read.expressions) != 1:
            return node
        path = read.expressions[0]
        name = self._view(path.name) if path.is_string else None
        if name is not None:  # (else the file by path: its error is the statement's)
            node.set("this", exp.to_identifier(name, quoted=True))
        return node

    def _view(self, path: str) -> str | None:
        name = self.views.get(path)
        if name is None:
            name = scratch.fresh("sqlnb_file")
            try:  # (the file's schema inferred here, once)
                self.session.read.parquet(path).createOrReplaceTempView(name)
            except self.errors:
                return None
            self.views[path] = name
        return name

    def drop(self) -> None:
        """Drop the views made (the session as it was)."""
        for name in self.views.values():
            with contextlib.suppress(Exception):
                self.session.catalog.dropTempView(name)
        self.views.clear()
