"""Spark: the session sqlnb starts for a database URL, and Spark's :class:`Backend`.

``local[N]`` (or ``spark://local[N]``) starts Spark in this process; ``spark://HOST:PORT`` is a
standalone master; ``sc://HOST:PORT`` is a Spark Connect server (also Databricks Connect's way
in). A session sqlnb starts itself keeps its tables where Spark's own shells do with Hive
support: a Derby metastore in ``metastore_db/`` and the data in ``spark-warehouse/``, both in
the working directory, so that a second command, and ``spark-sql`` or ``pyspark`` started in
the same folder, see the models and the SQL functions; ``SPARK_CONF_DIR/spark-defaults.conf``
overrides any of it. Its output is sqlnb's alone: Spark's log and the JVM's own lines go to
``spark.log`` in sqlnb's cache folder, and the JVM's start-up classes are kept there as a
class-data-sharing archive (made by the first command, about 190 MB), which halves the time
a command takes to start Spark; its JIT compiles with C1 only (sqlnb.engine.jvm: the JVM's
options).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlglot import exp

from sqlnb import cache
from sqlnb.engine import jvm, scratch, sparkrun
from sqlnb.engine.backends import Backend, Row
from sqlnb.engine.dialects import duckdb_type
from sqlnb.errors import SqlnbError

LOCAL = re.compile(r"local(\[([0-9]+|\*)(,\s*[0-9]+)?\])?")


def master_of(url: str) -> str:
    """The Spark master (or Connect URL) a database URL names.

    >>> master_of("spark://local[2]"), master_of("local"), master_of("spark://h:7077")
    ('local[2]', 'local', 'spark://h:7077')
    """
    rest = url.removeprefix("spark://")
    return rest if LOCAL.fullmatch(rest) else url


def is_spark_url(text: str) -> bool:
    """Whether ``text`` names Spark: ``spark://...``, ``sc://...`` or ``local[N]``.

    >>> [is_spark_url(t) for t in ("local[2]", "local", "spark://h:7077", "db.duckdb")]
    [True, True, True, False]
    """
    return text.startswith(("spark://", "sc://")) or LOCAL.fullmatch(text) is not None


def open_session(url: str) -> Any:
    """A SparkSession for ``url`` (see the module's docstring), quiet."""
    _quiet_python()
    from pyspark.sql import SparkSession

    if url.startswith("sc://"):
        try:  # a session of its own (getOrCreate: the process's active one, of any server)
            session = SparkSession.builder.remote(url).create()
        except ImportError as error:  # the Connect client's packages
            raise SqlnbError(
                f"Spark Connect needs {error.name or 'grpcio'}: pip install 'sqlnb[spark]'"
            ) from None
        _plan_locally(session)
        return session
    from pyspark import SparkContext

    if SparkContext._active_spark_context is not None:  # getOrCreate would return it (and
        # sqlnb would stop it at its close): one context a process
        raise SqlnbError(
            f"a Spark session already runs in this process: pass it to sqlnb instead of {url!r}"
        )
    defaults = _spark_defaults()
    builder = SparkSession.builder.master(master_of(url)).appName("sqlnb")
    if "spark.sql.catalogImplementation" not in defaults:
        builder = builder.enableHiveSupport()
    builder = builder.config("spark.ui.showConsoleProgress", "false")
    cores = _local_cores(master_of(url))
    if cores and "spark.sql.shuffle.partitions" not in defaults:
        # Spark's 200 are for a cluster; on one machine each is a task to schedule (a cold
        # prediction of 4,000 texts: 14.8 s with 200, 10.9 s with 4 on local[2])
        builder = builder.config("spark.sql.shuffle.partitions", str(2 * cores))
    folder = cache.folder()
    if folder is not None and folder.exists() and not cache.ours(folder):
        folder = None  # another user's, or writable by others: no archive read from it
    log = Path(folder or Path.cwd()) / "spark.log"
    given = defaults.get("spark.driver.extraJavaOptions", "")
    options = [given, *jvm.logging_options(log)]
    if "derby.stream.error.file" not in given:  # Derby's log beside Spark's, not in the cwd
        options.append(f"-Dderby.stream.error.file={log.with_name('derby.log')}")
    environment = " ".join(os.environ.get(name, "") for name in jvm.JAVA_OPTIONS)
    sharing = jvm.class_sharing(folder, f"{given} {environment}")
    options += [*sharing.options, *jvm.compiler_options(f"{given} {environment}")]
    builder = builder.config("spark.driver.extraJavaOptions", " ".join(o for o in options if o))
    with _output_to(log):  # the JVM's own start-up lines (and whatever it prints later)
        session = builder.getOrCreate()
    session._sqlnb_sharing = sharing  # type: ignore[attr-defined]  # finished at close
    return session


def _plan_locally(session: Any) -> None:
    """Where a Spark Connect server runs on one machine (``local[N]``), sqlnb's session (a
    Connect session's settings are its own, not the server's) plans without adaptive
    execution, on 2N shuffle partitions as the sessions sqlnb starts: adaptive execution runs
    each shuffle as a job of its own and plans again after it, which on sqlnb's small outputs
    buys nothing (at 2M token rows the derivation 8 -> 5 jobs, server CPU 2.2 -> 1.4 s; a
    retraining and its prediction 94 -> 69 jobs). A cluster's server is left as configured."""
    with contextlib.suppress(Exception):  # (a server that does not say: as it is)
        cores = _local_cores(str(session.conf.get("spark.master")))
        if cores:
            session.conf.set("spark.sql.adaptive.enabled", "false")
            session.conf.set("spark.sql.shuffle.partitions", str(2 * cores))


def _local_cores(master: str) -> int | None:
    """The cores of a local master (``local``: 1, ``local[*]``: the machine's), else None.

    >>> _local_cores("local[3]"), _local_cores("local"), _local_cores("spark://h:7077")
    (3, 1, None)
    """
    found = LOCAL.fullmatch(master)
    if found is None:
        return None
    if found.group(2) is None:
        return 1
    return os.cpu_count() or 1 if found.group(2) == "*" else int(found.group(2))


def _quiet_python() -> None:
    """pyspark's own Python output: the FutureWarning it gives for pandas >= 3, and the
    record (a JSON line and a traceback) it logs for every error it converts, caught or not."""
    warnings.filterwarnings(
        "ignore", message="PySpark does not yet fully support pandas", category=FutureWarning
    )
    with contextlib.suppress(ImportError):
        from pyspark.logger import PySparkLogger

        for name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
            PySparkLogger.getLogger(name).setLevel(logging.CRITICAL + 1)


def _spark_defaults() -> dict[str, str]:
    """The settings of ``$SPARK_CONF_DIR/spark-defaults.conf``, as spark-submit reads them."""
    where = os.environ.get("SPARK_CONF_DIR")
    if not where:
        return {}
    found: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in (Path(where) / "spark-defaults.conf").read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                key, _, value = re.split(r"(\s+|=)", line, maxsplit=1)
                found[key] = value.strip()
    return found


@contextlib.contextmanager
def _output_to(log: Path) -> Iterator[None]:
    """File descriptors 1 and 2 on ``log`` within the block: a child process started in it
    (the JVM) writes there for good; this process gets its stdout and stderr back."""
    try:
        target = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    except OSError:
        target = os.open(os.devnull, os.O_WRONLY)
    saved = [os.dup(1), os.dup(2)]
    try:
        for fd in (1, 2):
            os.dup2(target, fd)
        yield
    finally:
        for fd, was in zip((1, 2), saved):
            os.dup2(was, fd)
            os.close(was)
        os.close(target)


def stop(session: Any) -> None:
    """Stop a session sqlnb started, and wait for its JVM to end (it writes its class-data
    archive as it ends)."""
    sharing = getattr(session, "_sqlnb_sharing", None)
    try:
        gateway = session.sparkContext._gateway
    except Exception:  # Spark Connect: no JVM here
        gateway = None
    with contextlib.suppress(Exception):
        session.stop()
    process = getattr(gateway, "proc", None)
    if gateway is not None and process is not None:
        with contextlib.suppress(Exception):
            gateway.shutdown()
        with contextlib.suppress(Exception):
            if process.stdin is not None:
                process.stdin.close()  # the gateway ends when its stdin closes
            process.wait(timeout=120)
    if sharing is not None:
        sharing.finish()


class SparkBackend(Backend):
    """Spark SQL on a SparkSession (classic or Connect). Which of sqlnb's tables exist is read
    from the catalog once and kept (the catalog is slow to ask, and sqlnb's statements are
    what changes it)."""

    lazy = True
    typed_files = False  # its Parquet writer takes them from the plan: no describe first
    sorts_one_partition = True
    distributes_documents = True
    keeps_in_overwrite = True

    def __init__(self, session: Any, *, owned: bool = False, alone: bool = False) -> None:
        from pyspark.errors import PySparkException

        self.errors = (PySparkException, *sparkrun.java_errors())
        super().__init__(session)
        self.owned = owned
        # a session of sqlnb's own for one command (the command line's: connections.ALONE),
        # not a Python caller's connection, which serves many (its files may change between)
        self.alone = owned and alone
        self._relations: dict[str, str] | None = None
        # the columns of each query described, in one command's session (only its statements
        # change the tables), until a statement changes a table or a view
        self._described: dict[str, dict[str, str]] = {}
        self._checkpoints: dict[str, Any] = {}  # (kept until dropped: a Connect client
        # releases a DataFrame's server-side rows when its object is collected)
        self._query = sparkrun.sent_once(session) or session.sql
        # a Parquet file a statement names: a view of it, in one command's session
        self._files = sparkrun.FileViews(session, self.errors) if self.alone else None

    def check_writable(self) -> None:
        """A Spark Connect server started with nothing configured (pyspark's
        ``sbin/start-connect-server.sh``) keeps its catalog in memory: the models would vanish
        from it when the server stops, their files left in its warehouse folder to make the
        next training fail (``LOCATION_ALREADY_EXISTS``). A session of this process is the
        caller's to configure."""
        if not type(self.connection).__module__.startswith("pyspark.sql.connect"):
            return
        catalog = ""  # (given a default, conf.get returns it: a static setting counts as unset)
        with contextlib.suppress(Exception):
            catalog = str(self.connection.conf.get("spark.sql.catalogImplementation"))
        if catalog == "in-memory":
            raise SqlnbError(
                "this Spark Connect server keeps its catalog in memory: a model written there is "
                "lost when the server stops (its files left to fail the next training); start "
                "the server with --conf spark.sql.catalogImplementation=hive"
            )

    def run(self, text: str, fetch: bool) -> list[Row]:
        if not fetch and re.match(r"\s*(CREATE|DROP|ALTER)\b", text, re.IGNORECASE):
            self._relations = None  # the catalog changes: read it again when asked
            self._described.clear()
        cached = sparkrun.CACHED.match(text)
        if cached is not None and not fetch:  # a temporary table of a query (Dialect)
            self._checkpoint(text, cached.group(1), cached.group(2))
            return []
        if self._checkpoints and re.match(r"\s*DROP\b", text, re.IGNORECASE):
            self._checkpoints = {k: f for k, f in self._checkpoints.items() if k not in text}
        if fetch:
            return [tuple(r) for r in self._query(text).collect()]
        if sparkrun.DYNAMIC.match(text):  # a partition of each key its rows hold (Backend)
            with self._dynamic():
                self.connection.sql(text)
            return []
        self.connection.sql(text)
        return []

    @contextlib.contextmanager
    def _dynamic(self) -> Iterator[None]:
        """Spark's dynamic partition overwrite for one statement: only the partitions its
        rows hold are replaced, each after the job (a caller's session gets its setting back).
        Under the static mode such a statement would replace every partition, but Spark
        refuses it there: it reads the table it overwrites."""
        conf = self.connection.conf
        was = str(conf.get(sparkrun.OVERWRITE_MODE))  # (Spark's default when unset: static)
        conf.set(sparkrun.OVERWRITE_MODE, "dynamic")
        try:
            yield
        finally:
            conf.set(sparkrun.OVERWRITE_MODE, was)

    def _checkpoint(self, text: str, name: str, query: str) -> None:
        """``CACHE TABLE name AS query`` as a temporary view of the query's rows, computed
        once and cut from the plan that computed them (a local checkpoint): a cached relation
        keeps its plan, whose stages Spark runs again for each further read of it in one query
        (evaluate's per-class query read its outcomes twice: 17 jobs, 4 from a checkpoint)."""
        self._described.clear()  # (a view of this name may be described again)
        frame = self.connection.sql(query)
        try:
            frame = frame.localCheckpoint(eager=True)
        except AttributeError:  # a client without checkpoints: Spark's own cache
            self.connection.sql(text)
            return
        frame.createOrReplaceTempView(name)
        self._checkpoints[name] = frame

    def relation(self, text: str) -> Any:
        return self.connection.sql(text)

    def prepare(self, tree: exp.Expr) -> exp.Expr:
        return tree if self._files is None else self._files.prepare(tree)

    def describe(self, text: str) -> dict[str, str]:
        """A query's columns: a round trip of its own (a training asked the same three
        times of its docs table), asked once in one command's session of sqlnb's own."""
        known = self._described.get(text)
        if known is None:
            schema = self._query(text).schema
            known = {f.name: duckdb_type(f.dataType.simpleString()) for f in schema.fields}
            if self.alone:
                self._described[text] = known
        return dict(known)

    def relations(self) -> dict[str, str] | None:
        return None  # relation_type lists them once (its own cache)

    def relation_type(self, name: str) -> str | None:
        if self._relations is None:  # (the catalog's listTables reads each table's metadata
            # too: 0.2-0.3 s warm against 0.05-0.1 s for the two lists of names)
            views = {r[1] for r in self._query("SHOW VIEWS LIKE 'sqlnb_*'").collect() if not r[2]}
            listed = self._query("SHOW TABLES LIKE 'sqlnb_*'").collect()
            self._relations = {
                r[1]: "view" if r[1] in views else "table" for r in listed if not r[2]
            }
        if name.startswith("sqlnb_"):
            return self._relations.get(name)
        if not self.connection.catalog.tableExists(name):
            return None
        kind = self.connection.catalog.getTable(name).tableType
        return "view" if "VIEW" in str(kind).upper() else "table"

    def write_parquet(self, text: str, path: Path, types: dict[str, str]) -> None:
        """Spark's Parquet writer, as one part file moved into place. Through Spark Connect
        the query reaches the server once, with the write (``session.sql`` would analyze it
        in a round trip of its own first: a job more for each Parquet file it reads, whose
        schema Spark infers in a job at each analysis)."""
        with scratch.folder(path.parent, ".sqlnb-") as folder:
            out = Path(folder).resolve() / "out"
            self._query(text).coalesce(1).write.parquet(out.as_uri())
            parts = sorted(out.glob("part-*.parquet"))
            if not parts:
                raise OSError(f"Spark wrote no Parquet file into {out}")
            parts[0].replace(path)

    def load_parquet(self, path: Path, name: str, create: str) -> None:
        self._described.clear()
        self.connection.read.parquet(path.resolve().as_uri()).createOrReplaceTempView(name)

    def unload(self, name: str) -> None:
        self._described.clear()
        self.connection.catalog.dropTempView(name)

    def close(self) -> None:
        """A session sqlnb started ends with the command; a caller's lives on."""
        if self.owned:
            if self._files is not None:
                self._files.drop()
            stop(self.connection)
