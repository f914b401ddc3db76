"""`flinkx impact --state-compat`: the deploy verdict per changed task, in the PR report."""
from __future__ import annotations

import json
import shutil

import pytest

from tests.deploy.conftest import WORKSPACE
from tests.graph.gitrepo import git
from tests.helpers import flink_available
from tests.planner.conftest import needs_planner

_REASON = flink_available()
pytestmark = [pytest.mark.flink, pytest.mark.skipif(_REASON is not None, reason=f"Flink unavailable: {_REASON}")]


def test_impact_shows_the_verdict_of_each_changed_streaming_task(cli, tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(WORKSPACE, repo / "deploy", ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    window = repo / "deploy/projects/dws/tasks/clicks_1m.sql"
    window.write_text(window.read_text().replace("INTERVAL '1' MINUTE", "INTERVAL '2' MINUTE"))
    counts = repo / "deploy/projects/dws/tasks/user_clicks.sql"
    counts.write_text(counts.read_text().replace("FROM ods.clicks\n", "FROM ods.clicks\nWHERE url <> ''\n"))
    archive = repo / "deploy/projects/ods/tasks/archive_clicks.sql"  # comments and layout only
    archive.write_text("-- reformatted\n" + archive.read_text().replace("SELECT user_id, url, ts\n", "select user_id,\n  url, ts -- all\n"))

    result = cli("impact", str(repo / "deploy"), "--base", "HEAD", "--state-compat", "--format", "json", "--fail-on", "never")
    assert result.exit_code == 0, result.stdout + result.stderr
    impacts = {i["node"]: i for i in json.loads(result.stdout)["impacts"]}
    window_verdict = impacts["task.dws.clicks_1m"]["state_compatibility"]
    assert window_verdict["verdict"] == "other-meaning"
    assert "window type or size changed: TumblingWindow(size=PT1M) -> TumblingWindow(size=PT2M)" in window_verdict["summary"]
    assert impacts["task.dws.user_clicks"]["state_compatibility"]["verdict"] == "restores"
    assert "task.ods.archive_clicks" not in impacts  # a comment and layout change is no change

    text = cli("impact", str(repo / "deploy"), "--base", "HEAD", "--state-compat", "--fail-on", "never")
    assert ("      state: predicted: restores, the state means something else: GlobalWindowAggregate(groupBy=[user_id]"
            in text.stdout), text.stdout
    plain = cli("impact", str(repo / "deploy"), "--base", "HEAD", "--format", "json", "--fail-on", "never")
    assert "state_compatibility" not in plain.stdout  # only behind the option


@pytest.mark.network
@needs_planner("2.3")
def test_a_2_3_workspace_is_judged_on_2_3s_compiled_plans(cli, tmp_path):
    """--state-compat compiles both sides with the workspace's own Flink: 2.3's planner driver, not 1.20's client."""
    repo = tmp_path / "repo"
    shutil.copytree(WORKSPACE, repo / "deploy", ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
    config = repo / "deploy/flinkx.yaml"
    config.write_text(config.read_text().replace('flink_version: "1.20"', 'flink_version: "2.3"'))
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    window = repo / "deploy/projects/dws/tasks/clicks_1m.sql"
    window.write_text(window.read_text().replace("INTERVAL '1' MINUTE", "INTERVAL '2' MINUTE"))
    counts = repo / "deploy/projects/dws/tasks/user_clicks.sql"
    counts.write_text(counts.read_text().replace("FROM ods.clicks\n", "FROM ods.clicks\nWHERE url <> ''\n"))
    result = cli("impact", str(repo / "deploy"), "--base", "HEAD", "--state-compat", "--format", "json", "--fail-on", "never")
    assert result.exit_code == 0, result.stdout + result.stderr
    impacts = {i["node"]: i for i in json.loads(result.stdout)["impacts"]}
    window_verdict = impacts["task.dws.clicks_1m"]["state_compatibility"]
    assert window_verdict["verdict"] == "other-meaning"
    assert "window type or size changed: TumblingWindow(size=PT1M) -> TumblingWindow(size=PT2M)" in window_verdict["summary"]
    assert impacts["task.dws.user_clicks"]["state_compatibility"]["verdict"] == "restores"
