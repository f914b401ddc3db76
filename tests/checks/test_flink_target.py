"""The version-sensitive tasks of issue 29 (tests/fixtures/flink_targets/workspace), linted as Flink
1.15, 1.20 and 2.3: flinkx's verdict on each task (rejects = an error-level finding) is the real
planner's verdict, recorded in expected.json from Verdict.java on each version's jars, and the
findings are the expected codes. The planners are re-run on the planner cases when their jars
are here (tests/facts/jars.py), so the recorded verdicts cannot go stale unnoticed.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.facts.jars import flink_lib
from tests.facts.jars import java_args
from tests.facts.jars import skip_reason
from tests.helpers import session_for

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "flink_targets"
EXPECTED = json.loads((FIXTURE / "expected.json").read_text())
VERSIONS = ("1.15", "1.20", "2.3")


def workspace_for(version: str, tmp_path: Path) -> Path:
    root = tmp_path / f"ws-{version}"
    shutil.copytree(FIXTURE / "workspace", root)
    config = root / "flinkx.yaml"
    config.write_text(config.read_text().replace('flink_version: "1.20"', f'flink_version: "{version}"'))
    return root


def lint_findings(version: str, tmp_path: Path) -> dict[str, list[tuple[str, str]]]:
    """Task -> [(code, severity)] of `flinkx lint` (a real subprocess, the sqlfluff rules included)
    in the task's file or a table file it uses."""
    root = workspace_for(version, tmp_path)
    done = subprocess.run([sys.executable, "-m", "flinkx_build", "lint", "--format", "json", str(root)],
                          capture_output=True, text=True, timeout=600, cwd=root)
    assert done.returncode in (0, 1), done.stderr
    findings = json.loads(done.stdout)
    session = session_for(root)
    out: dict[str, list[tuple[str, str]]] = {}
    for name, task in session.workspace.projects["dwd"].tasks.items():
        shown = [task.display_path] + [t.table.loc.path for t in session.analysed(task).tables.values()]
        files = {Path(p).relative_to(root).as_posix() if Path(p).is_absolute() else p for p in shown}
        out[name] = sorted({(f["code"], f["severity"]) for f in findings if f["path"] in files})
    return out


@pytest.mark.parametrize("version", VERSIONS)
def test_lint_agrees_with_the_planner_task_by_task(version, tmp_path):
    findings = lint_findings(version, tmp_path)
    planner = EXPECTED["planner"][version]
    assert set(findings) == set(planner)
    for task, verdict in planner.items():
        rejects = any(severity == "error" for _, severity in findings[task])
        assert rejects == verdict.startswith("rejects"), (version, task, findings[task], verdict)


@pytest.mark.parametrize("version", VERSIONS)
def test_each_task_gets_the_expected_codes(version, tmp_path):
    findings = lint_findings(version, tmp_path)
    expected = EXPECTED["flinkx"][version]
    for task, found in findings.items():
        assert sorted({code for code, _ in found}) == expected.get(task, []), (version, task)


@pytest.mark.flink
@pytest.mark.parametrize("version", VERSIONS)
def test_recorded_planner_verdicts_are_the_planners(version, tmp_path):
    reason = skip_reason(version)
    if reason:
        pytest.skip(reason)
    lib = flink_lib(version)
    classes = tmp_path / "classes"
    subprocess.run(["javac", "-nowarn", "-d", str(classes), "-cp", f"{lib}/*", str(FIXTURE / "Verdict.java")],
                   check=True, capture_output=True)
    cases = sorted((FIXTURE / "planner_cases").glob("*.sql"))
    done = subprocess.run(["java", *java_args(version), "-cp", f"{classes}:{lib}/*", "Verdict", *map(str, cases)],
                          capture_output=True, text=True, timeout=600)
    verdicts = {}
    for line in done.stdout.splitlines():
        if "\t" in line and line.split("\t", 1)[0].endswith(".sql"):
            path, verdict = line.split("\t", 1)
            verdicts[Path(path).stem] = verdict
    for task, recorded in EXPECTED["planner"][version].items():
        if recorded == "accepts":
            assert verdicts[task] == "OK", (task, verdicts[task])
        else:
            assert verdicts[task].startswith("ERROR"), (task, verdicts[task])
            assert recorded.split(": ", 1)[1] in verdicts[task], (task, verdicts[task])


KAFKA = ("type: kafka\ncolumns:\n  - {name: id, type: BIGINT}\n"
         "with: {connector: kafka, topic: t, properties.bootstrap.servers: \"k:9092\", format: json%s}\n")
TASK = "CREATE TEMPORARY TABLE out1 (id BIGINT) WITH ('connector' = 'blackhole');\n%sINSERT INTO out1 SELECT id FROM ev;\n"


def _lint(make_workspace, table: str, task: str) -> list[str]:
    root = make_workspace({"projects/ods/tables/ev.yaml": table, "projects/ods/tasks/t.sql": task})
    done = subprocess.run([sys.executable, "-m", "flinkx_build", "lint", "-q", str(root)], capture_output=True, text=True, cwd=root, timeout=300)
    return [line for line in done.stdout.splitlines() if "FX498" in line]


def test_a_kafka_startup_mode_outside_its_values_is_caught_where_written(make_workspace):
    # kafka is not in Flink's jars: its values are the connector's documented ones (connector_options.json)
    assert _lint(make_workspace, KAFKA % ", scan.startup.mode: latest", TASK % "") == [
        "projects/ods/tables/ev.yaml:4:109: FX498 'scan.startup.mode' = 'latest' is not a value the kafka connector accepts "
        "(one of: earliest-offset, latest-offset, group-offsets, timestamp, specific-offsets)"]
    assert _lint(make_workspace, KAFKA % ", scan.startup.mode: LATEST-OFFSET", TASK % "") == []  # Flink ignores case
    found = _lint(make_workspace, KAFKA % "", TASK % "SET ev.`scan.startup.mode` = 'latest';\n")
    assert len(found) == 1 and found[0].startswith("projects/ods/tasks/t.sql:2:1: FX498 'scan.startup.mode' = 'latest'")


def test_an_options_hint_value_is_checked_at_the_hint(make_workspace):
    task = ("CREATE TEMPORARY TABLE out1 (id BIGINT) WITH ('connector' = 'blackhole');\n"
            "INSERT INTO out1 SELECT id FROM ev /*+ OPTIONS('scan.startup.mode' = 'newest') */;\n")
    found = _lint(make_workspace, KAFKA % "", task)
    assert len(found) == 1 and found[0].startswith("projects/ods/tasks/t.sql:2:")
    assert "'scan.startup.mode' = 'newest'" in found[0]


def test_a_misspelt_configuration_key_is_a_warning_with_the_key_meant(cli, tmp_path):
    # issue 44 case 3: Flink ignores `table.exec.mini-batch.enable` without a word; the job runs without mini-batch
    from tests.helpers import edited_example
    from tests.helpers import one_verdict

    stats = "projects/dws/tasks/category_user_stats.sql"
    ws = edited_example(tmp_path, [(stats, "mini-batch.enabled", "mini-batch.enable")])
    assert one_verdict(cli, ws) == [
        f"{stats}:15:1: FX128 'table.exec.mini-batch.enable' is not a configuration key of Flink 1.20: Flink ignores it "
        "without a word (did you mean 'table.exec.mini-batch.enabled'?)"]


@pytest.mark.parametrize("key", ["table.exec.iceberg.use.v2.sink", "table.exec.hive.fallback-mapred-reader",
                                 "table.exec.mini-batch.enabled", "table.exec.state.ttl"])
def test_a_key_no_near_miss_of_a_flink_key_is_quiet(make_workspace, key):
    # connectors' own keys (hive, iceberg) are not in the target's facts: only near misses are reported
    from flinkx_build.checks.flink_target import option_finding
    from flinkx_build.flink_data import facts_for
    from flinkx_build.frontend.positions import Pos

    assert option_finding(facts_for("1.20"), key, "t.sql", Pos(1, 1)) is None
