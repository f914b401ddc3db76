"""Seed 001's Flink OpenSource SQL examples (Huawei DLI, jobs on Flink 1.15) checked against Flink 1.15's own
planner (issue 42 item 2). The examples are tasks of a 1.15 workspace (tests/fixtures/seed001_dli_115, README
there: where each comes from). Flink is the oracle: Verdict.java runs each on the 1.15.4 jars with the real
connectors of the distribution, and flinkx's lint with the 1.15 planner and validate must agree: no finding at all
where 1.15 accepts, an error where it rejects the SQL. Where the bare distribution rejects only because a jar
DLI ships is not on its class path (parquet, the hive catalog, mysql-cdc), the SQL around it is proven on 1.15
by the same statements on a connector the distribution has. Real CLI processes, real JVMs."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import EXAMPLE
from tests.facts.jars import skip_reason
from tests.facts.verdict import verdicts
from tests.planner.conftest import needs_planner

pytestmark = [pytest.mark.flink, needs_planner("1.15")]
FIXTURE = Path(__file__).parents[1] / "fixtures" / "seed001_dli_115"
TASKS = FIXTURE / "projects" / "dli" / "tasks"
EXPECTED = json.loads((FIXTURE / "expected.json").read_text(encoding="utf-8"))
ACCEPTED = {task for task, verdict in EXPECTED["planner"].items() if verdict == "accepts"}
CLASS_PATH = {task for task, verdict in EXPECTED["planner"].items() if verdict.startswith("rejects (class path)")}
# the jar DLI ships that the bare distribution lacks, swapped for one it has: what is left is the seed's SQL
ON_A_SHIPPED_CONNECTOR = {
    "obs_source_print": [("'parquet'", "'csv'")],
    "mysql_cdc_server_id_hint": [("'mysql-cdc'", "'datagen'"), (", 'hostname' = 'db', 'username' = 'u', 'password' = "
                                                                "'${mysql_password}', 'database-name' = 'd', "
                                                                "'table-name' = 't'", ""),
                                 (", PRIMARY KEY (id) NOT ENFORCED", ""),
                                 ("/*+ OPTIONS('server-id'='5401-5404') */", "/*+ OPTIONS('rows-per-second'='5') */")],
    "datagen_print_default_catalog": [],  # hive_catalog's job without its catalog: in the default one
}


def verdicts_of(files: list[Path], version: str = "1.15") -> dict[str, str]:
    """Flink's verdict on each task file as written (Verdict.java splits its statements)."""
    return verdicts(version, {path.stem: [path.read_text(encoding="utf-8")] for path in files})


def flinkx(ws: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "FLINKX_NO_PLANNER"}  # as a user runs it: with the planner
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args, ws.name], cwd=ws.parent, env=env,
                          capture_output=True, text=True, timeout=900)


def test_the_recorded_verdicts_are_115s():
    found = verdicts_of(sorted(TASKS.glob("*.sql")))
    assert set(found) == set(EXPECTED["planner"]), found
    for task, recorded in EXPECTED["planner"].items():
        if recorded == "accepts":
            assert found[task] == "OK", (task, found[task])
        else:
            assert found[task].startswith("ERROR") and recorded.split(": ", 1)[1] in found[task], (task, found[task])


def test_what_only_the_class_path_rejects_plans_on_a_connector_115_ships(tmp_path):
    # the seed's SQL around DLI's jar (the obs path, the file.path metadata column, the OPTIONS hint on a source)
    # is 1.15's: the same statements on a connector or format of the distribution plan
    cases = tmp_path / "cases"
    cases.mkdir()
    for task, swaps in ON_A_SHIPPED_CONNECTOR.items():
        text = (TASKS / f"{task}.sql").read_text(encoding="utf-8")
        for old, new in swaps:
            assert old in text, (task, old)
            text = text.replace(old, new)
        (cases / f"{task}.sql").write_text(text, encoding="utf-8")
    assert verdicts_of(sorted(cases.glob("*.sql"))) == {task: "OK" for task in ON_A_SHIPPED_CONNECTOR}
    assert CLASS_PATH - {"hive_catalog", "hive_catalog_second_job"} <= set(ON_A_SHIPPED_CONNECTOR)


def _by_task(done: subprocess.CompletedProcess) -> dict[str, list[tuple[str, str]]]:
    assert "Traceback" not in done.stderr, done.stderr
    out: dict[str, list[tuple[str, str]]] = {}
    for finding in json.loads(done.stdout):
        assert "/tasks/" in finding["path"], finding  # no finding outside the tasks (flinkx.yaml, ...)
        task = finding["path"].split("/tasks/")[1].removesuffix(".sql")
        out.setdefault(task, []).append((finding["code"], finding["severity"]))
    return out


def test_lint_with_115s_planner_agrees_with_115_example_by_example(tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURE, ws)
    done = flinkx(ws, "-v", "lint", "--format", "json")
    assert done.returncode == 1, done.stdout + done.stderr
    # 1.15's planner judged every task a fast check does not already reject
    assert f"planner: {len(EXPECTED['planner']) - len(EXPECTED['flinkx'])} task(s) planned" in done.stderr
    found = _by_task(done)
    # every example 1.15 accepts lints clean: no finding of any check, not even a warning
    assert not ACCEPTED & set(found), {task: found[task] for task in ACCEPTED & set(found)}
    assert {task: sorted({code for code, _ in codes}) for task, codes in found.items()} == EXPECTED["flinkx"]
    assert all(severity == "error" for codes in found.values() for _, severity in codes)


def test_the_findings_say_the_fix_at_the_token(tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURE, ws)
    done = flinkx(ws, "validate")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stdout + done.stderr
    lines = sorted(done.stdout.splitlines())
    assert len(lines) == 3, lines  # one line a rejected example: the catalog's tables are not a cascade
    # the page's GROUPING SET: Flink 1.15 stops at it too ("Incorrect syntax near the keyword 'GROUPING'")
    assert lines[0].startswith("ws/projects/dli/tasks/cube_spelled_out.sql:1:246: FX120 cannot parse: 'SET ( (")
    assert lines[0].endswith("(write GROUPING SETS: GROUPING SET is not a Flink keyword)")
    assert lines[1].startswith("ws/projects/dli/tasks/hive_catalog.sql:1:1: FX195 'CREATE CATALOG'")
    assert lines[2].startswith("ws/projects/dli/tasks/hive_catalog_second_job.sql:1:1: FX195 'CREATE CATALOG'")


@pytest.mark.parametrize("version", ["1.20", "2.3"])
def test_what_115_accepts_the_later_targets_accept_too(version):
    # nothing seed 001 shows is 1.15-only: its syntax belongs in the 1.20 showcase (docs/decisions.md)
    reason = skip_reason(version)
    if reason:
        pytest.skip(reason)
    found = verdicts_of([TASKS / f"{task}.sql" for task in sorted(ACCEPTED)], version)
    assert found == {task: "OK" for task in ACCEPTED}, found


def test_the_showcase_with_seed_001s_syntax_lints_clean_and_validates_on_115(tmp_path):
    # example-workspace/ on DLI's target: `--` comments inside WITH and SHA2 (seed 001's forms),
    # with everything else it shows
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    config = ws / "flinkx.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace('flink_version: "1.20"', 'flink_version: "1.15"'),
                      encoding="utf-8")
    assert 'flink_version: "1.15"' in config.read_text(encoding="utf-8")
    lint = flinkx(ws, "-v", "lint")
    assert lint.returncode == 0 and lint.stdout == "", lint.stdout + lint.stderr
    tasks = len(list((ws / "projects").glob("*/tasks/**/*.sql")))
    assert f"planner: {tasks} task(s) planned" in lint.stderr, lint.stderr
    validate = flinkx(ws, "validate")
    assert validate.returncode == 0 and f"Flink accepts all {tasks} tasks" in validate.stderr, validate.stdout + validate.stderr
