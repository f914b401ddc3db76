"""`flinkx deploy --plan` on a pull request never loads the workspace's code (issue 26, item 1).

The deploy tests' real Flink cluster (tests/deploy/conftest.py, started once a session) runs the
task's job; the pull request then makes the task call a function from a jar it commits. Before,
the plan's state-compatibility verdict planned the new SQL with `USING JAR` executed, and the jar's
static initialiser ran on the CI machine.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request

import pytest

from tests.deploy.conftest import flink_cluster  # noqa: F401 - the session's cluster
from tests.security.hostile_ws import evil_jar
from tests.security.hostile_ws import tree_state
from tests.security.hostile_ws import workspace

pytestmark = pytest.mark.flink

CALLS_F = ("CREATE TEMPORARY FUNCTION f AS 'evil.Evil' LANGUAGE JAVA USING JAR 'lib/evil.jar';\n"
           "INSERT INTO kafka_sink SELECT f(order_id), amount FROM orders WHERE paid;\n")


def _jobs(cluster) -> list[dict]:
    with urllib.request.urlopen(cluster.url + "/jobs/overview", timeout=5) as response:
        return [j for j in json.load(response)["jobs"] if j["name"] == "flinkx:hostile/p/t"]


def _deploy(cluster, ws, tmp_path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(tmp_path), "FLINKX_HOME": str(tmp_path / "flinkx-home")}
    return subprocess.run([sys.executable, "-m", "flinkx_build", "deploy", ".", "--cluster", cluster.url, *args],
                          cwd=ws, env=env, capture_output=True, text=True, timeout=600)


def test_deploy_plan_of_an_upgrade_never_loads_a_committed_jar(flink_cluster, tmp_path):  # noqa: F811
    marker = tmp_path / "evil-code-ran"
    ws = workspace(tmp_path / "ws")
    try:
        applied = _deploy(flink_cluster, ws, tmp_path, "--apply")
        assert applied.returncode == 0, applied.stdout + applied.stderr
        (running,) = [j["jid"] for j in _jobs(flink_cluster) if j["state"] == "RUNNING"]
        (ws / "lib").mkdir()
        (ws / "lib" / "evil.jar").write_bytes(evil_jar(tmp_path / "jar", marker).read_bytes())
        (ws / "projects" / "p" / "tasks" / "t.sql").write_text(CALLS_F, encoding="utf-8")
        before = tree_state(ws)

        planned = _deploy(flink_cluster, ws, tmp_path, "--plan")

        assert not marker.exists(), "the committed jar's code ran while planning"
        out = planned.stdout + planned.stderr
        assert "projects/p/tasks/t.sql:1:1: FX195 'USING JAR' makes Flink load code" in out, out
        assert planned.returncode == 1 and "Traceback" not in out, out
        assert [j["jid"] for j in _jobs(flink_cluster) if j["state"] == "RUNNING"] == [running]
        assert tree_state(ws) == before
    finally:
        for job in _jobs(flink_cluster):
            if job["state"] == "RUNNING":
                request = urllib.request.Request(f"{flink_cluster.url}/jobs/{job['jid']}?mode=cancel", method="PATCH")
                urllib.request.urlopen(request, timeout=5).close()
