"""A Spark Connect server started by pyspark's own ``sbin/start-connect-server.sh`` with nothing
configured keeps its catalog in memory (issue 35): a model written there vanished from
``models`` when the server restarted, and training again failed with Spark's
``LOCATION_ALREADY_EXISTS`` until its ``spark-warehouse/`` was deleted by hand. sqlnb refuses to
write there, in one line saying how to start the server, and writes nothing; started as that
line says, the models outlive a restart.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cli
import pytest
from engines import unavailable
from test_spark import assert_same, corpus, expected, one_client, predicted, succeeded

pytestmark = [pytest.mark.spark, pytest.mark.process, pytest.mark.slow]

__all__ = ["corpus"]  # the fixture, shared with test_spark.py


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@contextmanager
def connect_server(folder: Path, port: int, *conf: str) -> Iterator[str]:
    """A Spark Connect server started by pyspark's script in ``folder`` (its working directory:
    its warehouse and metastore go there), on ``port``, with only the ``conf`` given; stopped
    by pyspark's script at the end. Yields its URL."""
    import pyspark

    home = Path(pyspark.__file__).parent
    # nothing of Spark's configured but the JVM's own flags (SPARK_SUBMIT_OPTS: CI's C1-only
    # compiler and serial GC, which change no catalog and halve a short JVM's CPU)
    kept = ("SPARK_SUBMIT_OPTS",)
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("SPARK_") or k in kept},
        "SPARK_HOME": str(home),
        "SPARK_LOCAL_IP": "127.0.0.1",
        "SPARK_LOG_DIR": str(folder / "logs"),
        "SPARK_PID_DIR": str(folder / "pids"),
    }
    options = ["--conf", f"spark.connect.grpc.binding.port={port}", *conf]
    script = home / "sbin" / "start-connect-server.sh"
    subprocess.run([str(script), *options], cwd=folder, env=env, check=True,
                   capture_output=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 300
        while not listening(port):
            if time.monotonic() > deadline:
                logs = "".join(p.read_text()[-2000:] for p in (folder / "logs").glob("*.out"))
                pytest.fail(f"the Connect server did not start: {logs}")
            time.sleep(1)
        yield f"sc://127.0.0.1:{port}"
    finally:
        stop = home / "sbin" / "stop-connect-server.sh"
        subprocess.run([str(stop)], cwd=folder, env=env, check=False, capture_output=True)
        deadline = time.monotonic() + 60
        while listening(port) and time.monotonic() < deadline:
            time.sleep(0.5)


def test_a_connect_server_with_its_catalog_in_memory(corpus, tmp_path):
    if not Path("/usr/bin/java").exists() and not os.environ.get("JAVA_HOME"):
        unavailable("no Java for a Spark Connect server")
    server, client = tmp_path / "server", tmp_path / "client"
    server.mkdir()
    client.mkdir()
    port = free_port()
    train = ["--docs", str(corpus / "train.parquet"), "--model", "m"]
    with connect_server(server, port) as url:  # as pyspark's script starts it: in memory
        # one client process for both commands (each its own Connect session)
        commands = (["train", url, *train], ["models", url])
        refused, listed = cli.one_process(*commands, cwd=client, env=None)
        assert refused.returncode == 1, refused.stderr[-3000:]
        said = refused.stderr
        assert said.count("\n") == 1 and said.startswith("Error: ")
        assert "catalog in memory" in said
        assert "--conf spark.sql.catalogImplementation=hive" in said
        assert "m" not in succeeded(listed).split()
    warehouse = server / "spark-warehouse"
    assert not warehouse.exists() or not any(warehouse.iterdir())  # nothing was written
    hive = ("--conf", "spark.sql.catalogImplementation=hive")
    with connect_server(server, port, *hive) as url:
        [trained] = one_client(client, [["train", url, *train]])
        assert "trained multinomial" in trained
    with connect_server(server, port, *hive) as url:  # restarted: the model is still there
        test = ["--docs", str(corpus / "test.parquet")]
        listed, out = one_client(client, [["models", url], ["predict", url, "--model", "m", *test]])
        assert "m" in listed.split()
        assert_same(predicted(out), expected(corpus))
