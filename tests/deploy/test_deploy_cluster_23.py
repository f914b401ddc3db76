"""`flinkx deploy` against a real standalone Flink 2.3.0 cluster (issue 29 item 5).

The cluster is assembled from PyPI's two 2.3.0 wheels (tests/deploy/flink_dist.py) and lives for this
module. The workspace is the deploy companion with `flink_version: "2.3"`: deploy plans and submits
with flinkx's planner driver on the 2.3 jars (deploy/driver_client.py). The
tests follow it in file order: create, an upgrade proven by a trial in 2.3's MiniCluster and restored from
its savepoint, a change of meaning refused, a filter before the filesystem sink whose writer keeps its state
(pinned), a removed task; and a 1.20 workspace refused.
"""
from __future__ import annotations

import json
import re
import shutil
import time
import urllib.request

import pytest

from tests.deploy.conftest import WORKSPACE
from tests.deploy.flink_cluster import jobs_by_task
from tests.deploy.flink_cluster import rest
from tests.deploy.flink_cluster import running
from tests.deploy.flink_cluster import start_cluster
from tests.deploy.flink_dist import NoDistribution
from tests.deploy.flink_dist import distribution
from tests.planner.conftest import needs_planner

pytestmark = [pytest.mark.flink, pytest.mark.network, pytest.mark.slow, needs_planner("2.3")]

SECRET = "archive-s3cr3t-23"
TASKS = {"dws/clicks_1m", "dws/user_clicks", "ods/archive_clicks"}


@pytest.fixture(scope="module")
def cluster_23(tmp_path_factory):
    root = tmp_path_factory.mktemp("flink23-cluster")
    try:
        source = distribution(root, "2.3")
    except NoDistribution as exc:
        pytest.fail(f"no Flink 2.3 distribution: {exc}")
    cluster = start_cluster(root, source)
    print(f"Flink 2.3 cluster up in {cluster.started_in:.1f} s")
    try:
        yield cluster
    finally:
        for job in rest(cluster, "/jobs/overview")["jobs"]:
            if job["state"] == "RUNNING":
                request = urllib.request.Request(f"{cluster.url}/jobs/{job['jid']}?mode=cancel", method="PATCH")
                urllib.request.urlopen(request, timeout=5).close()
        cluster.stop()


@pytest.fixture(scope="module")
def workspace_23(tmp_path_factory):
    root = tmp_path_factory.mktemp("deploy-ws-23") / "deploy-demo"
    shutil.copytree(WORKSPACE, root, ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
    config = root / "flinkx.yaml"
    config.write_text(config.read_text().replace('flink_version: "1.20"', 'flink_version: "2.3"'))
    return root


@pytest.fixture
def deploy(cli, cluster_23, workspace_23, monkeypatch, tmp_path_factory):
    monkeypatch.setenv("archive_dir", str(tmp_path_factory.getbasetemp() / SECRET))

    def run(*args: str):
        return cli("deploy", str(workspace_23), "--cluster", cluster_23.url, *args)

    return run


def edit(path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_the_cluster_says_it_runs_flink_2_3(cluster_23):
    assert rest(cluster_23, "/overview")["flink-version"] == "2.3.0"


def test_first_apply_creates_every_job_on_2_3(deploy, cluster_23):
    began = time.monotonic()
    result = deploy("--apply")
    assert result.exit_code == 0, result.stdout + result.stderr
    print(f"first apply of 3 jobs on 2.3: {time.monotonic() - began:.1f} s")
    jobs = running(cluster_23)
    assert set(jobs) == TASKS
    for task, job_id in jobs.items():
        assert f"create {task}: job {job_id} RUNNING" in result.stdout
        params = rest(cluster_23, f"/jobs/{job_id}/config")["execution-config"]["user-config"]
        assert params["flinkx.task"] == task and params["flinkx.flink-version"] == "2.3.0"
        assert SECRET not in json.dumps(params)
    assert SECRET not in result.stdout + result.stderr
    again = deploy("--apply")
    assert "nothing to do, 3 job(s) unchanged" in again.stderr


def test_a_compatible_change_upgrades_through_a_savepoint_with_its_state_restored(deploy, cluster_23, workspace_23):
    old = running(cluster_23)["dws/user_clicks"]
    edit(workspace_23 / "projects/dws/tasks/user_clicks.sql", "FROM ods.clicks\n", "FROM ods.clicks\nWHERE url <> ''\n")
    plan = deploy()
    assert plan.exit_code == 0, plan.stderr
    assert re.search(r"upgrade +dws/user_clicks +job " + old, plan.stdout)
    assert "state: predicted: restores: no stateful operator changed" in plan.stdout  # 2.3's compiled plans
    began = time.monotonic()
    result = deploy("--apply")
    assert result.exit_code == 0, result.stdout + result.stderr
    trial = re.search(r"trial dws/user_clicks: restores \(savepoint \S+ of running job \w+; ([\d.]+) s", result.stdout)
    assert trial, result.stdout  # proven in 2.3's own MiniCluster before the stop
    print(f"upgrade with its trial on 2.3: {time.monotonic() - began:.1f} s, the trial {trial[1]} s")
    new = running(cluster_23)["dws/user_clicks"]
    assert new != old
    savepoint = re.search(r"stopped \(savepoint (\S+)\)", result.stdout)[1]
    assert f"job {new} RUNNING, restored from {savepoint}" in result.stdout
    restored = rest(cluster_23, f"/jobs/{new}/checkpoints")["latest"]["restored"]
    assert restored["is_savepoint"] is True and restored["external_path"] == savepoint
    assert jobs_by_task(cluster_23)["dws/user_clicks"][1]["state"] == "FINISHED"  # stop-with-savepoint


def test_a_change_of_meaning_is_refused_on_2_3s_compiled_plans(deploy, cluster_23, workspace_23):
    task = workspace_23 / "projects/dws/tasks/clicks_1m.sql"
    old = running(cluster_23)["dws/clicks_1m"]
    edit(task, "INTERVAL '1' MINUTE", "INTERVAL '2' MINUTE")
    refused = deploy("--apply")
    assert refused.exit_code == 1
    (line,) = [x for x in refused.lines if "FX602" in x]
    assert "proven: restores, the state means something else: GlobalWindowAggregate(" in line
    assert "window type or size changed: TumblingWindow(size=PT1M) -> TumblingWindow(size=PT2M)" in line
    assert running(cluster_23)["dws/clicks_1m"] == old
    edit(task, "INTERVAL '2' MINUTE", "INTERVAL '1' MINUTE")  # back: the next test applies the workspace


def test_a_filter_before_the_filesystem_sink_keeps_its_writers_state_on_2_3(deploy, cluster_23, workspace_23):
    """As on 1.20: submitted as SQL, a filter before the filesystem sink moves its writer's id and 2.3 refuses the
    savepoint (measured); pinned to its old id, the writer keeps its state, proven by the trial first."""
    old = running(cluster_23)["ods/archive_clicks"]
    task = workspace_23 / "projects/ods/tasks/archive_clicks.sql"
    edit(task, "FROM ods.clicks;", "FROM ods.clicks\nWHERE user_id IS NOT NULL;")
    result = deploy("--apply")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "trial ods/archive_clicks: restores" in result.stdout
    new = running(cluster_23)["ods/archive_clicks"]
    savepoint = re.search(r"stopped \(savepoint (\S+)\)", result.stdout)[1]
    assert new != old and rest(cluster_23, f"/jobs/{new}/checkpoints")["latest"]["restored"]["external_path"] == savepoint


def test_a_removed_tasks_job_is_stopped_with_a_savepoint_on_2_3(deploy, cluster_23, workspace_23):
    old = running(cluster_23)["ods/archive_clicks"]
    (workspace_23 / "projects/ods/tasks/archive_clicks.sql").unlink()
    result = deploy("--apply")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert re.search(rf"remove ods/archive_clicks: job {old} stopped, savepoint file:\S+", result.stdout)
    assert rest(cluster_23, f"/jobs/{old}")["state"] == "FINISHED"
    assert set(running(cluster_23)) == {"dws/clicks_1m", "dws/user_clicks"}


def test_a_1_20_workspace_is_refused_by_the_2_3_cluster(cli, cluster_23, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(WORKSPACE, ws, ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
    result = cli("deploy", str(ws), "--cluster", cluster_23.url, "--apply")
    assert result.exit_code == 2
    assert result.lines == [f"flinkx: error: FX305 the cluster at {cluster_23.url} runs Flink 2.3.0, but the "
                            "workspace's flink_version is 1.20: deploy to a 1.20 cluster, or change flink_version "
                            "(flinkx.yaml) and validate on that version first"]
    assert set(running(cluster_23)) == {"dws/clicks_1m", "dws/user_clicks"}  # nothing changed
