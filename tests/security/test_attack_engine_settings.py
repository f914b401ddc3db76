"""A task's SETs never choose where a job goes, what it loads or where it writes (issue 26, item 5).

`flinkx test` used to apply a task's `SET 'rest.address'/'rest.port'` (the serialized job graph
was POSTed to that port) and its checkpoint and RocksDB folders (created outside the workspace),
and `deploy --apply` let a task's `SET 'pipeline.jars'` choose the jars shipped with the job. Each
test builds the hostile workspace here and runs the real command: the FX196 line points at the
SET, and nothing reaches the address or the folders.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from flinkx_build import engine_settings
from tests.helpers import flink_available
from tests.security.hostile_ws import tree_state
from tests.security.hostile_ws import workspace

needs_flink = pytest.mark.skipif(flink_available() is not None, reason=f"Flink extra not usable: {flink_available()}")

PASSING_TEST = """- name: paid orders pass
  task: p/t
  given:
    p.orders:
      rows:
        - {order_id: a, amount: 1.5, paid: true}
        - {order_id: b, amount: 2.5, paid: false}
  expect:
    p.kafka_sink:
      rows:
        - {order_id: a, amount: 1.5}
"""
INSERT = "INSERT INTO kafka_sink SELECT order_id, amount FROM orders WHERE paid;\n"


class Listener:
    """A socket on 127.0.0.1 that records every connection made to it (and closes it at once)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = int(self.sock.getsockname()[1])
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.sock.close()


def _flinkx_test(tmp_path: Path, ws: Path) -> subprocess.CompletedProcess:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {**os.environ, "HOME": str(home), "FLINKX_HOME": str(home / "flinkx"), "TMPDIR": str(home)}
    return subprocess.run([sys.executable, "-m", "flinkx_build", "test", ".", "--timeout", "60"], cwd=ws, env=env,
                          capture_output=True, text=True, timeout=900)


def _test_workspace(tmp_path: Path, task: str) -> Path:
    ws = workspace(tmp_path / "ws", task)
    (ws / "projects" / "p" / "tests").mkdir()
    (ws / "projects" / "p" / "tests" / "t.yaml").write_text(PASSING_TEST, encoding="utf-8")
    return ws


@pytest.mark.parametrize("key", ["rest.address", "rest.port", "jobmanager.rpc.address", "execution.target",
                                 "execution.checkpointing.dir", "state.checkpoints.dir", "state.savepoints.dir",
                                 "state.backend.rocksdb.localdir", "state.backend.type", "pipeline.jars",
                                 "pipeline.classpaths", "python.executable", "python.files", "table.resources.download-dir",
                                 "table.catalog-modification.listeners", "io.tmp.dirs", "high-availability.storageDir"])
def test_settings_that_choose_addresses_paths_code_or_state_are_refused(key):
    assert engine_settings.refusal(key), key
    assert engine_settings.refusal(key.upper()), key


@pytest.mark.parametrize("key", ["table.exec.mini-batch.enabled", "table.exec.state.ttl", "table.exec.source.idle-timeout",
                                 "table.local-time-zone", "parallelism.default", "pipeline.name",
                                 "execution.checkpointing.interval", "execution.checkpointing.mode"])
def test_planner_and_execution_options_are_allowed(key):
    assert engine_settings.refusal(key) == ""


def test_lint_reports_each_refused_set_at_its_position(tmp_path):
    ws = workspace(tmp_path / "ws", "SET 'table.exec.mini-batch.enabled' = 'true';\n"
                                    "SET 'rest.port' = '8081';\n"
                                    "  SET execution.checkpointing.dir = 'file:///var/tmp/ckpt';\n" + INSERT)
    result = subprocess.run([sys.executable, "-m", "flinkx_build", "lint", "."], cwd=ws, capture_output=True, text=True,
                            timeout=120)
    lines = [line for line in result.stdout.splitlines() if " FX196 " in line]
    assert [line.split(" FX196 ")[0] for line in lines] == ["projects/p/tasks/t.sql:2:1:", "projects/p/tasks/t.sql:3:3:"], result.stdout
    assert "SET 'rest.port' is not an engine setting a task may change" in lines[0]
    assert result.returncode == 1 and "Traceback" not in result.stderr


@pytest.mark.flink
@needs_flink
def test_flinkx_test_never_sends_the_job_to_an_address_a_task_sets(tmp_path):
    listener = Listener()
    try:
        ws = _test_workspace(tmp_path, f"SET 'rest.address' = '127.0.0.1';\nSET 'rest.port' = '{listener.port}';\n" + INSERT)
        before = tree_state(ws)
        began = time.monotonic()
        result = _flinkx_test(tmp_path, ws)
        elapsed = time.monotonic() - began
    finally:
        listener.close()
    assert listener.connections == 0, "the job went to the address the task SET"
    assert "Traceback" not in result.stderr, result.stderr
    out = result.stdout + result.stderr
    assert "projects/p/tasks/t.sql:1:1: FX196 SET 'rest.address' is not an engine setting" in out, out
    assert "projects/p/tasks/t.sql:2:1: FX196 SET 'rest.port' is not an engine setting" in out, out
    assert result.returncode == 1
    assert tree_state(ws) == before
    assert elapsed < 600


@pytest.mark.flink
@needs_flink
def test_flinkx_test_never_creates_the_state_folders_a_task_sets(tmp_path):
    outside = tmp_path / "outside"  # outside the workspace
    task = ("SET 'execution.checkpointing.interval' = '100 ms';\n"
            f"SET 'execution.checkpointing.dir' = '{(outside / 'checkpoints').as_uri()}';\n"
            "SET 'state.backend.type' = 'rocksdb';\n"
            f"SET 'state.backend.rocksdb.localdir' = '{outside / 'rocksdb'}';\n" + INSERT)
    ws = _test_workspace(tmp_path, task)
    result = _flinkx_test(tmp_path, ws)
    assert not outside.exists(), sorted(str(p) for p in outside.rglob("*"))
    out = result.stdout + result.stderr
    for line, key in ((2, "execution.checkpointing.dir"), (3, "state.backend.type"), (4, "state.backend.rocksdb.localdir")):
        assert f"projects/p/tasks/t.sql:{line}:1: FX196 SET '{key}'" in out, out
    assert "FX196 SET 'execution.checkpointing.interval'" not in out
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr


@pytest.mark.flink
@needs_flink
def test_a_task_with_allowed_settings_still_runs_its_test(tmp_path):
    """The allow-list takes nothing a task needs away: planner and execution options apply, and
    the job still runs on the test's own mini-cluster."""
    task = ("SET 'table.exec.mini-batch.enabled' = 'false';\nSET 'pipeline.name' = 'mine';\n"
            "SET 'execution.checkpointing.interval' = '1 min';\n" + INSERT)
    result = _flinkx_test(tmp_path, _test_workspace(tmp_path, task))
    assert result.returncode == 0, (result.stdout, result.stderr)
    assert "PASS" in result.stdout


def test_deploy_apply_refuses_a_tasks_jars_before_it_contacts_the_cluster(tmp_path):
    """`SET 'pipeline.jars'` to a jar committed in the workspace: deploy names the SET and stops;
    the cluster (a listener here: nothing may reach it) is never contacted."""
    ws = workspace(tmp_path / "ws", "SET 'pipeline.jars' = 'file:///work/lib/evil.jar';\n" + INSERT)
    listener = Listener()
    try:
        result = subprocess.run([sys.executable, "-m", "flinkx_build", "deploy", ".", "--apply",
                                 "--cluster", f"http://127.0.0.1:{listener.port}"], cwd=ws,
                                capture_output=True, text=True, timeout=300)
    finally:
        listener.close()
    assert listener.connections == 0
    assert "projects/p/tasks/t.sql:1:1: FX196 SET 'pipeline.jars' is not an engine setting" in result.stdout + result.stderr
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr


@pytest.mark.flink
@needs_flink
def test_the_deploy_client_never_submits_with_a_tasks_jars(tmp_path):
    """The submission itself refuses the SET too (a rollback submits statements that come back
    from the cluster, not from the checked build): nothing is sent to the cluster."""
    from flinkx_build.deploy.client import FlinkClient
    from flinkx_build.deploy.identity import Statement
    from flinkx_build.deploy.submission import DeployFlinkError

    jar = tmp_path / "lib" / "evil.jar"
    jar.parent.mkdir()
    jar.write_bytes(b"PK\x05\x06" + b"\0" * 18)  # an empty zip: it only has to exist
    statements = [
        Statement("set", f"SET 'pipeline.jars' = '{jar.as_uri()}'"),
        Statement("create_table", "CREATE TEMPORARY TABLE src (s STRING) WITH ('connector' = 'datagen')"),
        Statement("create_table", "CREATE TEMPORARY TABLE snk (s STRING) WITH ('connector' = 'blackhole')"),
        Statement("insert", "INSERT INTO snk SELECT s FROM src"),
    ]
    listener = Listener()
    try:
        with FlinkClient("1.20", []) as flink:
            with pytest.raises(DeployFlinkError) as refused:
                flink.submit(statements, f"http://127.0.0.1:{listener.port}", "flinkx:ws/p/t", {})
    finally:
        listener.close()
    assert listener.connections == 0
    assert str(refused.value).startswith("FX196 SET 'pipeline.jars' is not an engine setting"), refused.value
