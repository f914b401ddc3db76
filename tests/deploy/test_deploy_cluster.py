"""`flinkx deploy` against a real standalone Flink 1.20.5 cluster (tests/deploy/conftest.py).

The tests follow one workspace through its life, in file order: first apply, a second apply, a
compatible upgrade through a savepoint, an incompatible one refused and then forced, a removed task.
Each test reads the cluster's own REST API to check what happened.
"""
from __future__ import annotations

import json
import re
import shutil
import time
import urllib.request

import pytest

from flinkx_build.cache_root import user_cache_dir
from tests.deploy.flink_cluster import jobs_by_task
from tests.deploy.flink_cluster import rest
from tests.deploy.flink_cluster import running
from tests.deploy.flink_cluster import free_port

pytestmark = [pytest.mark.flink, pytest.mark.slow]  # a real cluster: .ci/run runs it after the README command

SECRET = "archive-s3cr3t-7f3a"
TASKS = {"dws/clicks_1m", "dws/user_clicks", "ods/archive_clicks"}


@pytest.fixture(scope="module", autouse=True)
def cancel_jobs_at_the_end(flink_cluster):
    """The cluster lives for the session; its generators need not run through the other tests."""
    yield
    for job in rest(flink_cluster, "/jobs/overview")["jobs"]:
        if job["state"] == "RUNNING":
            request = urllib.request.Request(f"{flink_cluster.url}/jobs/{job['jid']}?mode=cancel", method="PATCH")
            urllib.request.urlopen(request, timeout=5).close()


@pytest.fixture
def deploy(cli, flink_cluster, deploy_workspace, monkeypatch, tmp_path_factory):
    archive = tmp_path_factory.getbasetemp() / SECRET
    monkeypatch.setenv("archive_dir", str(archive))

    def run(*args: str):
        return cli("deploy", str(deploy_workspace), "--cluster", flink_cluster.url, *args)

    run.archive = archive
    return run


def edit(path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_a_missing_secret_is_one_line_and_changes_nothing(deploy, flink_cluster, monkeypatch):
    monkeypatch.delenv("archive_dir")
    result = deploy("--apply")
    assert result.exit_code == 2
    (line,) = result.lines
    assert re.match(r"flinkx: error: \S+/clicks_archive\.yaml:\d+:\d+: FX601 secret 'archive_dir' is not set in the environment", line)
    assert jobs_by_task(flink_cluster) == {}


def test_the_plan_of_an_empty_cluster_creates_every_task(deploy):
    result = deploy("--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert {a["task"]: a["action"] for a in data["actions"]} == {task: "create" for task in TASKS}


def test_first_apply_creates_every_job_and_they_run(deploy, flink_cluster, deploy_workspace):
    began = time.monotonic()
    result = deploy("--apply")
    assert result.exit_code == 0, result.stdout + result.stderr
    print(f"first apply of 3 jobs: {time.monotonic() - began:.1f} s")
    jobs = running(flink_cluster)
    assert set(jobs) == TASKS
    for task, job_id in jobs.items():
        assert f"create {task}: job {job_id} RUNNING" in result.stdout
        params = rest(flink_cluster, f"/jobs/{job_id}/config")["execution-config"]["user-config"]
        assert params["flinkx.task"] == task and len(params["flinkx.fingerprint"]) == 16
        assert SECRET not in json.dumps(params)  # the stored statements keep ${archive_dir}
    deadline = time.monotonic() + 20  # the sink makes its folder with the first row it writes
    while not (deploy.archive / "clicks").is_dir() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert (deploy.archive / "clicks").is_dir()  # the secret reached the filesystem sink
    assert SECRET not in result.stdout + result.stderr
    written = [p for p in user_cache_dir().rglob("*") if p.is_file()]  # what flinkx's JVMs could have written
    assert not [p for p in written if SECRET in p.read_text(errors="replace")]


def test_a_second_apply_is_a_no_op(deploy, flink_cluster):
    before = running(flink_cluster)
    result = deploy("--apply")
    assert result.exit_code == 0, result.stderr
    assert "nothing to do, 3 job(s) unchanged" in result.stderr  # the summary, on stderr
    assert running(flink_cluster) == before


def test_a_compatible_change_is_proven_then_upgraded_through_a_savepoint(deploy, flink_cluster, deploy_workspace):
    old = running(flink_cluster)["dws/user_clicks"]
    edit(deploy_workspace / "projects/dws/tasks/user_clicks.sql", "FROM ods.clicks\n", "FROM ods.clicks\nWHERE url <> ''\n")
    plan = deploy()
    assert plan.exit_code == 0, plan.stderr
    assert re.search(r"upgrade +dws/user_clicks +job " + old, plan.stdout)
    assert "state: predicted: restores: no stateful operator changed" in plan.stdout
    proven = deploy("--prove")  # the trial without the apply: nothing stops
    assert proven.exit_code == 0, proven.stdout + proven.stderr
    assert "state: proven: restores: Flink restored every operator's state" in proven.stdout
    assert running(flink_cluster)["dws/user_clicks"] == old
    taken = re.search(r"trial dws/user_clicks: restores \(savepoint (\S+) of running job " + old, proven.stdout)[1]
    # --trial-from latest: no new savepoint, the newest the job has (the one --prove just took)
    latest = deploy("--prove", "--trial-from", "latest")
    assert latest.exit_code == 0, latest.stdout + latest.stderr
    assert re.search(r"trial dws/user_clicks: restores \(savepoint (\S+) ", latest.stdout)[1] == taken
    assert running(flink_cluster)["dws/user_clicks"] == old
    began = time.monotonic()
    result = deploy("--apply")
    assert result.exit_code == 0, result.stdout + result.stderr
    trial = re.search(r"trial dws/user_clicks: restores \(savepoint \S+ of running job \w+; ([\d.]+) s, of which the "
                      r"savepoint ([\d.]+) s\)", result.stdout)
    assert trial, result.stdout
    print(f"upgrade with its trial: {time.monotonic() - began:.1f} s, the trial {trial[1]} s (its savepoint {trial[2]} s)")
    new = running(flink_cluster)["dws/user_clicks"]
    assert new != old
    savepoint = re.search(r"stopped \(savepoint (\S+)\)", result.stdout)[1]
    assert f"job {new} RUNNING, restored from {savepoint}" in result.stdout
    restored = rest(flink_cluster, f"/jobs/{new}/checkpoints")["latest"]["restored"]
    assert restored["is_savepoint"] is True and restored["external_path"] == savepoint
    assert jobs_by_task(flink_cluster)["dws/user_clicks"][1]["state"] == "FINISHED"  # stop-with-savepoint


def test_a_change_of_meaning_is_refused_then_restored_when_allowed(deploy, flink_cluster, deploy_workspace):
    old = running(flink_cluster)["dws/clicks_1m"]
    edit(deploy_workspace / "projects/dws/tasks/clicks_1m.sql", "INTERVAL '1' MINUTE", "INTERVAL '2' MINUTE")
    refused = deploy("--apply")
    assert refused.exit_code == 1
    (line,) = [x for x in refused.lines if "FX602" in x]
    assert ("clicks_1m.sql:1:1: FX602 upgrade of dws/clicks_1m refused: proven: restores, the state means something "
            "else: GlobalWindowAggregate(") in line  # Flink restored it in the trial; the rule is the prediction's
    assert "window type or size changed: TumblingWindow(size=PT1M) -> TumblingWindow(size=PT2M)" in line
    assert "(rerun with --allow-changed-meaning" in line
    assert running(flink_cluster)["dws/clicks_1m"] == old  # nothing was touched

    allowed = deploy("--apply", "--allow-changed-meaning")
    assert allowed.exit_code == 0, allowed.stdout + allowed.stderr
    new = running(flink_cluster)["dws/clicks_1m"]
    savepoint = re.search(r"stopped \(savepoint (\S+)\)", allowed.stdout)[1]
    assert new != old and rest(flink_cluster, f"/jobs/{new}/checkpoints")["latest"]["restored"]["external_path"] == savepoint


def test_a_failed_trial_stops_nothing_and_names_the_operator_its_line_and_flinks_message(deploy, flink_cluster,
                                                                                         deploy_workspace):
    jobs_before = jobs_by_task(flink_cluster)["dws/user_clicks"]
    old = jobs_before[0]["jid"]
    task = deploy_workspace / "projects/dws/tasks/user_clicks.sql"
    edit(task, "COUNT(*) AS clicks", "COUNT(*) + MAX(user_id) AS clicks")
    refused = deploy("--apply")
    assert refused.exit_code == 1
    assert re.search(r"trial dws/user_clicks: will not restore \(savepoint \S+ of running job " + old, refused.stdout)
    (line,) = [x for x in refused.lines if "FX602" in x]
    insert_line = next(i for i, text in enumerate(task.read_text().splitlines(), 1) if text.startswith("INSERT"))
    assert (f"user_clicks.sql:{insert_line}:1: FX602 upgrade of dws/user_clicks refused: proven: will not restore: "
            "GroupAggregate(groupBy=[user_id]): Flink refused the running job's savepoint") in line, line
    assert "StateMigrationException" in line and "serializer" in line, line
    print(f"a failed trial: {line}")  # docs/deploy.md quotes it
    # the same job runs on: no stop, no new job
    after = jobs_by_task(flink_cluster)["dws/user_clicks"]
    assert [j["jid"] for j in after] == [j["jid"] for j in jobs_before] and after[0]["state"] == "RUNNING"

    forced = deploy("--apply", "--allow-fresh-start")
    assert forced.exit_code == 0, forced.stdout + forced.stderr
    new = running(flink_cluster)["dws/user_clicks"]
    assert new != old and "fresh start (--allow-fresh-start)" in forced.stdout
    assert rest(flink_cluster, f"/jobs/{new}/checkpoints")["latest"]["restored"] is None


def test_a_filter_before_the_filesystem_sink_keeps_its_writers_state(deploy, flink_cluster, deploy_workspace):
    """Submitted as SQL, a filter before the filesystem sink moves its writer's id and Flink refuses the savepoint
    ("Cannot map checkpoint/savepoint state", measured on 1.20 and 2.3); flinkx pins the writer to its old id."""
    old = running(flink_cluster)["ods/archive_clicks"]
    edit(deploy_workspace / "projects/ods/tasks/archive_clicks.sql", "FROM ods.clicks;", "FROM ods.clicks\nWHERE user_id IS NOT NULL;")
    result = deploy("--apply")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "trial ods/archive_clicks: restores" in result.stdout
    new = running(flink_cluster)["ods/archive_clicks"]
    savepoint = re.search(r"stopped \(savepoint (\S+)\)", result.stdout)[1]
    assert new != old and rest(flink_cluster, f"/jobs/{new}/checkpoints")["latest"]["restored"]["external_path"] == savepoint


def test_a_removed_tasks_job_is_stopped_with_a_savepoint(deploy, flink_cluster, deploy_workspace):
    old = running(flink_cluster)["ods/archive_clicks"]
    (deploy_workspace / "projects/ods/tasks/archive_clicks.sql").unlink()
    result = deploy("--apply")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert re.search(rf"remove ods/archive_clicks: job {old} stopped, savepoint file:\S+", result.stdout)
    assert rest(flink_cluster, f"/jobs/{old}")["state"] == "FINISHED"
    assert set(running(flink_cluster)) == {"dws/clicks_1m", "dws/user_clicks"}
    again = deploy("--apply")
    assert "nothing to do, 2 job(s) unchanged" in again.stderr


def test_an_unreachable_cluster_is_one_line_and_exit_2(cli, deploy_workspace):
    url = f"http://127.0.0.1:{free_port()}"
    result = cli("deploy", str(deploy_workspace), "--cluster", url)
    assert result.exit_code == 2
    assert result.lines == [f"flinkx: error: FX600 cannot reach the Flink cluster at {url} ([Errno 111] Connection refused)"]


# (a version flinkx has no facts for never gets this far: FX121 at flinkx.yaml, tests/planner/test_validate_targets.py)
@pytest.mark.parametrize("version", ["2.3"])
def test_a_workspace_on_another_flink_than_the_cluster_is_refused(cli, flink_cluster, tmp_path, deploy_workspace, version):
    """The cluster says its version (GET /overview); a plan for another Flink is refused before anything runs."""
    ws = tmp_path / "ws"
    shutil.copytree(deploy_workspace, ws, ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
    config = ws / "flinkx.yaml"
    text = config.read_text(encoding="utf-8")
    text = text.replace('flink_version: "1.20"', f'flink_version: "{version}"') if "flink_version" in text \
        else text + f'\nflink_version: "{version}"\n'
    config.write_text(text, encoding="utf-8")
    result = cli("deploy", str(ws), "--cluster", flink_cluster.url, "--plan")
    assert result.exit_code == 2
    assert result.lines == [f"flinkx: error: FX305 the cluster at {flink_cluster.url} runs Flink 1.20.5, but the "
                            f"workspace's flink_version is {version}: deploy to a {version} cluster, or change "
                            "flink_version (flinkx.yaml) and validate on that version first"]
