"""Flink 1.15 (Huawei DLI's) as a target: flinkx's one driver on 1.15.4's own jars. The workspace of
tests/fixtures/flink_targets on 1.15, its verdicts checked against what 1.15's own planner says of the same
statements with the real connectors (expected.json, re-run by tests/checks/test_flink_target.py); flinkx test on
1.15's runtime; deploy, which does not run on 1.15 yet, says so in one line. Real CLI processes, real JVMs."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from flinkx_build.planner.session import open_planner
from flinkx_build.validate.contract import CompiledStatement
from flinkx_build.validate.contract import ScriptToValidate
from tests.checks.test_flink_target import lint_findings
from tests.conftest import EXAMPLE
from tests.planner.conftest import needs_planner

pytestmark = [pytest.mark.flink, needs_planner("1.15")]
FIXTURE = Path(__file__).parents[1] / "fixtures" / "flink_targets"
PLANNER_115 = json.loads((FIXTURE / "expected.json").read_text())["planner"]["1.15"]
REJECTED = {task for task, verdict in PLANNER_115.items() if verdict.startswith("rejects")}
# what the driver cannot see: its stand-in connector takes any option, so a connector option's value is the
# fast check's (FX498 from the 1.15 filesystem factory's facts), as on every target
CONNECTOR_OPTIONS = {"bad_enum_value"}


def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURE / "workspace", ws)
    config = ws / "flinkx.yaml"
    config.write_text(config.read_text().replace('flink_version: "1.20"', 'flink_version: "1.15"'), encoding="utf-8")
    return ws


def flinkx(ws: Path, *args: str, planner: bool = True) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not (planner and k == "FLINKX_NO_PLANNER")}
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args, ws.name], cwd=ws.parent, env=env,
                          capture_output=True, text=True, timeout=900)


def tasks_with(code: str, done: subprocess.CompletedProcess) -> set[str]:
    return {line.split("/tasks/")[1].split(".sql")[0] for line in done.stdout.splitlines()
            if f": {code} " in line and "/tasks/" in line}


def test_validate_rejects_what_115s_planner_rejects_task_by_task(tmp_path):
    done = flinkx(workspace(tmp_path), "validate")
    assert "Traceback" not in done.stderr and done.returncode == 1, done.stdout + done.stderr
    assert tasks_with("FX300", done) == REJECTED - CONNECTOR_OPTIONS, done.stdout
    # Flink 1.15's verdicts in the task's words (compile/flink_messages.py), at the task's token
    assert ("ws/projects/dwd/tasks/on_conflict_deduplicate.sql:1:92: FX300 Flink's parser does not expect 'ON' here"
            in done.stdout)
    # 1.15 names an unknown type by its parser's node class: said as a type, at the type
    assert ("ws/projects/dwd/tables/json_sink.yaml:4:5: FX300 'VARIANT' is not a data type of this Flink version"
            in done.stdout)


def test_lint_with_the_planner_gives_115s_verdict_and_fx301_where_only_the_planner_sees_it(tmp_path, monkeypatch):
    monkeypatch.delenv("FLINKX_NO_PLANNER", raising=False)  # lint as a user runs it: with the planner
    findings = lint_findings("1.15", tmp_path / "all")
    assert {task for task, found in findings.items() if any(severity == "error" for _, severity in found)} == REJECTED
    ws = workspace(tmp_path)
    task = ws / "projects" / "dwd" / "tasks" / "wrong_arity.sql"
    task.write_text(task.read_text(encoding="utf-8").rstrip("\n") + " -- noqa: FX126\n", encoding="utf-8")
    silenced = flinkx(ws, "lint")  # the fast check off: the planner's verdict is the finding
    [line] = [line for line in silenced.stdout.splitlines() if "wrong_arity.sql:" in line]
    assert line.startswith("ws/projects/dwd/tasks/wrong_arity.sql:1:45: FX301 REGEXP_EXTRACT takes 2 arguments"), \
        silenced.stdout


def test_a_values_query_plans_on_115():
    # 1.15's ClosureCleaner reaches into java.lang by reflection when it plans a VALUES source: on Java 17 the
    # driver needs the options Flink's own distribution starts with (targets.JAVA17_OPENS), or every such
    # task would be a false FX300 (InaccessibleObjectException)
    statements = ["CREATE TEMPORARY TABLE out1 (id INT, name STRING) WITH ('connector' = 'blackhole')",
                  "INSERT INTO out1 SELECT id, name FROM (VALUES (1, 'a'), (2, 'b')) AS t (id, name)"]
    compiled = tuple(CompiledStatement(sql, 1 + i, 1, "other", (1 + i, 1)) for i, sql in enumerate(statements))
    with open_planner("1.15", fetch=True) as planner:
        assert planner.flink_version == "1.15.4"
        findings = planner.validate(ScriptToValidate("p/values", "values.sql", compiled, ()))
    assert findings == [], [f.message for f in findings]


def test_upgrade_check_from_115_plans_on_the_target_and_says_the_state_trial_did_not_run(tmp_path):
    ws = workspace(tmp_path)
    done = subprocess.run([sys.executable, "-m", "flinkx_build", "upgrade-check", ws.name, "--to", "2.3"], cwd=tmp_path,
                          env={k: v for k, v in os.environ.items() if k != "FLINKX_NO_PLANNER"}, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stdout + done.stderr
    assert "Flink 1.15 -> 2.3:" in done.stdout
    # 2.3's planner judged the tasks (the upsert key 2.3 refuses, which 1.15 plans)
    assert "upsert_key_missing_on_conflict" in done.stdout
    # the restore trial runs on deploy's client, which 1.15 does not have yet: not proven, said why
    state = [line for line in done.stdout.splitlines() if " FX499 " in line and "removed_option.sql" in line]
    assert state and "not proven: no restore trial runs on Flink 1.15 yet" in state[0], done.stdout


def test_flinkx_test_runs_on_115s_runtime(tmp_path):
    # the example's cases that need what 1.15's API does differently: a lookup join (its lookup is a table
    # function), a timeline (its jobs finish only after a checkpoint) with state TTL on the timeline's clock (the
    # state backend by 1.15's option name), every job on the driver's own MiniCluster (1.15's executor)
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws)
    config = ws / "flinkx.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace('flink_version: "1.20"', 'flink_version: "1.15"'),
                      encoding="utf-8")
    assert 'flink_version: "1.15"' in config.read_text(encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "flinkx_build", "test", "ws", "--select", "dws/first_orders",
                           "--select", "dwd/orders/enrich_orders"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stdout + done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("flinkx: 3 passed, 0 failed"), done.stdout + done.stderr


def test_deploy_says_in_one_line_that_it_does_not_run_on_115(tmp_path, make_workspace):
    make_workspace({"flinkx.yaml": 'engine: flink\nflink_version: "1.15"\n', "projects/p/tasks/t.sql": (
        "CREATE TEMPORARY TABLE src (id BIGINT) WITH ('connector' = 'datagen');\n"
        "CREATE TEMPORARY TABLE out1 (id BIGINT) WITH ('connector' = 'blackhole');\n"
        "INSERT INTO out1 SELECT id FROM src;\n")})
    done = subprocess.run([sys.executable, "-m", "flinkx_build", "deploy", "ws", "--plan", "--cluster", "http://127.0.0.1:9"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stdout + done.stderr
    assert done.stderr.strip().splitlines()[-1].endswith(
        "FX302 flinkx deploy does not run on Flink 1.15 (docs/targets.md)"), done.stderr
