"""The driver JVM's options of a Spark session sqlnb starts (sqlnb.engine.spark): where Spark's
log goes, the class-data-sharing archive its classes are mapped from, and its JIT compilers.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from pathlib import Path

from sqlnb import cache
from sqlnb.engine import scratch

# Spark's log: warnings and errors of the last command to a file; nothing on the console.
LOG4J2 = """\
rootLogger.level = warn
rootLogger.appenderRef.file.ref = file
appender.file.type = File
appender.file.name = file
appender.file.fileName = {log}
appender.file.append = false
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = %d{{yy/MM/dd HH:mm:ss}} %p %c{{1}}: %m%n%ex
logger.pygw.name = org.apache.spark.api.python.PythonGatewayServer
logger.pygw.level = warn
logger.repl.name = org.apache.spark.repl.Main
logger.repl.level = warn
"""

# The environment's Java options that a driver's JVM reads too (spark-submit's, the JVM's own)
JAVA_OPTIONS = ("SPARK_SUBMIT_OPTS", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS")

# C1 only, and the code cache C2 would have had. A command's JVM lives a minute: with both
# compilers, C2 spent 26 of a cold 10M retraining's 72 CPU-s (15 of predict's 43) optimising
# Spark's planning, the SQL parser, Hive's and Derby's start, the closure cleaner, which run
# once; C1's code for the executors' loops is slower (their 13 CPU-s -> 16), far less than C2
# costs. C1 alone shrinks the cache to 48 MB, which a long-lived session (sqlnb.Model on a
# URL) outgrows, compiling again what it threw away (docs/performance.md).
COMPILERS = ("-XX:TieredStopAtLevel=1", "-XX:ReservedCodeCacheSize=256m")


def compiler_options(given: str = "") -> list[str]:
    """:data:`COMPILERS`, but none where the JVM's options ``given`` choose the compilers.

    >>> compiler_options(), compiler_options("-Xmx2g -XX:-TieredCompilation")
    (['-XX:TieredStopAtLevel=1', '-XX:ReservedCodeCacheSize=256m'], [])
    """
    if re.search(r"-XX:(TieredStopAtLevel=|[+-]TieredCompilation\b|ReservedCodeCacheSize=)", given):
        return []
    return list(COMPILERS)


def logging_options(log: Path) -> list[str]:
    """The JVM options that send Spark's log to ``log`` (a log4j2 file written beside it)."""
    config = log.with_suffix(".log4j2.properties")
    with contextlib.suppress(OSError):
        config.parent.mkdir(parents=True, exist_ok=True)
        text = LOG4J2.format(log=log)
        if not config.exists() or config.read_text() != text:
            partial = config.with_name(f".{config.name}.{os.getpid()}")
            partial.write_text(text)
            partial.replace(config)
        return [f"-Dlog4j2.configurationFile={config}"]
    return []


class Sharing:
    """The JVM's class-data-sharing archive: used if there is one, else made at the end of
    this command (written under a name of this process's, renamed when the JVM has ended)."""

    def __init__(self, archive: Path | None, making: Path | None) -> None:
        self.archive, self.making = archive, making

    @property
    def options(self) -> list[str]:
        quiet = "-Xlog:disable"  # the JVM's notes on the classes it could not archive
        if self.archive is not None:
            return [f"-XX:SharedArchiveFile={self.archive}", "-Xshare:auto", quiet]
        if self.making is not None:
            return [f"-XX:ArchiveClassesAtExit={self.making}", quiet]
        return []

    def finish(self) -> None:
        """After the JVM has ended: keep the archive it made."""
        if self.making is not None and self.making.exists():
            final = self.making.with_name(self.making.name.split(".")[0] + ".jsa")
            with contextlib.suppress(OSError):
                self.making.replace(final)


def class_sharing(folder: Path | None, given: str = "") -> Sharing:
    """The archive for this JVM and these jars, in sqlnb's cache folder (none if the cache is
    off); an archive of a process that is gone is removed. None where the JVM's options
    ``given`` map an archive already: theirs is used (a JVM that maps a dynamic archive cannot
    write one, and would not start).

    >>> class_sharing(None).options, class_sharing(Path("."), "-XX:SharedArchiveFile=a").options
    ([], [])
    """
    if folder is None or "-XX:SharedArchiveFile=" in given:
        return Sharing(None, None)
    key = _archive_key()
    archive = folder / f"spark-{key}.jsa"
    if archive.exists() and cache.ours(archive):
        return Sharing(archive, None)
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        scratch.sweep(folder, f"spark-{key}.", (".jsa",))
        return Sharing(None, folder / f"spark-{key}.{os.getpid()}.jsa")
    return Sharing(None, None)


def _archive_key() -> str:
    """What an archive is valid for: this Java, and pyspark's version and jars."""
    import pyspark

    jars = Path(pyspark.__file__).parent / "jars"
    java = os.environ.get("JAVA_HOME", "") or str(Path(os.path.realpath(_which("java"))))
    stamp = [pyspark.__version__, java, *sorted(p.name for p in jars.glob("*.jar"))]
    return hashlib.sha256("\n".join(stamp).encode()).hexdigest()[:16]


def class_data_archive() -> Path | None:
    """The class-data-sharing archive sqlnb's sessions start from, once a first command has
    made it (in sqlnb's cache folder, the user's own): another JVM on pyspark's jars can map
    its start-up classes from it too (``-XX:SharedArchiveFile``: the tests' session, CI's)."""
    folder = cache.folder()
    if folder is None or not cache.ours(folder):
        return None
    archive = folder / f"spark-{_archive_key()}.jsa"
    return archive if archive.exists() and cache.ours(archive) else None


def _which(program: str) -> str:
    for place in os.environ.get("PATH", "").split(os.pathsep):
        candidate = Path(place) / program
        if candidate.is_file():
            return str(candidate)
    return program
