"""`flinkx test` on a 2.3 workspace runs jobs in flinkx's driver (planner/java TestJob): even with flinkx's own
refusals (FX195/FX196) bypassed and the steps handed to the driver directly, no jar, class, catalog or module a
task names is loaded, and a table whose connector is the planted one runs on the stand-in."""
from __future__ import annotations

import json

import pytest

from flinkx_build.planner.session import open_planner
from flinkx_build.planner.session import planner_problem
from tests.planner.conftest import jars_23  # noqa: F401 - the session fixture: Flink 2.3's jars
from tests.planner.conftest import needs_planner
from tests.security.test_planner_driver import planted_jar

pytestmark = [pytest.mark.flink, pytest.mark.network, needs_planner("2.3"),
              pytest.mark.skipif(planner_problem("1.20", fetch=True) is not None, reason="the planted jar compiles on 1.20's jars")]


def _test(steps: list[dict], tables: dict | None = None) -> dict:
    return {"test": {"mode": "stream", "prefix": "s:", "config": {}, "timeout_ms": 120_000, "steps": steps,
                     "tables": tables or {}}}


def test_a_test_job_never_loads_a_jar_a_task_names(tmp_path, jars_23):
    marker = tmp_path / "planted-code-ran"
    jar = planted_jar(tmp_path / "jar", marker)
    hostile = [
        {"other": f"ADD JAR '{jar}'"},
        {"set": ["pipeline.jars", jar.as_uri()]},
        {"set": ["pipeline.classpaths", jar.as_uri()]},
        {"other": f"CREATE TEMPORARY FUNCTION f AS 'planted.Planted' USING JAR '{jar}'"},
        {"other": "CREATE CATALOG c WITH ('type' = 'planted')"},
        {"other": "LOAD MODULE planted"},
    ]
    with open_planner("2.3", fetch=False) as driver:
        answers = [driver.ask(_test([step]), 300) for step in hostile]
        ran = driver.ask(_test([
            {"table": "CREATE TABLE t (a INT) WITH ('connector' = 'planted')"},
            {"function": {"name": "g", "kind": "scalar", "returns": "INT", "calls": None}},
            {"insert": "INSERT INTO t SELECT g(1)"},
        ], {"t": json.dumps([])}), 300)
    assert not marker.exists(), "a jar a task named was loaded"
    assert all("not_run" in a or "refused" in a for a in answers), answers
    assert ran.get("collected") == {"t": [{"kind": "+I", "values": {"a": None}}]}, ran
