"""Machine-readable output stays machine-readable (issue 33): with --format json, sarif or github,
stdout is one document of that format whatever happens, and the exit code says the rest."""
from __future__ import annotations

import json
import shutil

import pytest

from tests.conftest import EXAMPLE


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("build", ".flinkx-cache", "engines"))
    return root


@pytest.mark.parametrize("args", [
    ("lint", "no-such-folder", "--format", "json"),
    ("explain", ".", "no/such_task", "--format", "json"),
    ("impact", ".", "--base", "no-such-revision", "--format", "json"),
    ("lineage", ".", "no.such.column", "--format", "json"),
])
def test_a_usage_error_is_a_json_document_with_the_error(cli, ws, args):
    result = cli(*args, cwd=ws)
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    assert document["findings"] == [] and document["error"].startswith("flinkx: error: ")
    assert "flinkx: error: " in result.stderr  # the human line is still there


def test_a_bad_option_is_a_sarif_log_that_failed(cli, ws):
    result = cli("lint", ".", "--format", "sarif", "--no-such-option", cwd=ws)
    assert result.exit_code == 2
    run = json.loads(result.stdout)["runs"][0]
    assert run["results"] == []
    assert run["invocations"][0]["executionSuccessful"] is False
    assert "--no-such-option" in run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"]


def test_a_usage_error_in_github_format_is_a_workflow_command(cli, ws):
    result = cli("lint", "no-such-folder", "--format", "github", cwd=ws)
    assert result.exit_code == 2
    assert result.stdout.startswith("::error::flinkx: error: ")


def test_an_invalid_flinkx_yaml_is_a_json_document(cli, ws):
    (ws / "flinkx.yaml").write_text("engine: [flink]\n")
    result = cli("lint", ".", "--format", "json", cwd=ws)
    assert result.exit_code == 2
    assert "flinkx.yaml" in json.loads(result.stdout)["error"]


def test_an_internal_error_is_still_a_json_document(cli, ws, monkeypatch):
    # no input known to flinkx makes one (that is the fuzzer's oracle): stand one in
    import flinkx_build.commands.explain as explain

    def broken(rt):
        raise RuntimeError("stand-in bug")

    monkeypatch.setattr(explain, "explain_data", broken)
    result = cli("explain", ".", "dwd/refunds/enrich_refunds", "--format", "json", cwd=ws)
    assert result.exit_code == 2
    assert "internal error: RuntimeError: stand-in bug" in json.loads(result.stdout)["error"]


def test_a_task_that_fails_is_a_json_document_of_its_findings(cli, ws):
    task = ws / "projects/dwd/tasks/refunds/enrich_refunds.sql"
    task.write_text(task.read_text() + "\nINSERT INTO dwd.no_such_table SELECT 1;\n")
    result = cli("explain", ".", "dwd/refunds/enrich_refunds", "--format", "json", cwd=ws)
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert [f["code"] for f in document["findings"]] == ["FX130"] and document["error"] is None


def test_graph_json_holds_its_findings(cli, ws):
    (ws / "projects/dim/functions/mask_phone.yaml").write_text("")
    result = cli("graph", ".", "--format", "json", cwd=ws)
    assert result.exit_code == 1
    found = {(f["path"], f["code"]) for f in json.loads(result.stdout)["findings"]}
    assert ("projects/dim/functions/mask_phone.yaml", "FX104") in found
    assert any(line.startswith("projects/dim/functions/mask_phone.yaml:1:1: FX104 ") for line in result.stderr.splitlines())


def test_explain_json_of_a_clean_task_has_no_findings(cli, ws):
    result = cli("explain", ".", "dwd/refunds/enrich_refunds", "--format", "json", cwd=ws)
    assert result.exit_code == 0
    assert json.loads(result.stdout)["findings"] == []
