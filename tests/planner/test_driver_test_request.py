"""The driver's `{"test": ...}` request (java/src/flinkx/planner/TestJob.java) on Flink 2.3's jars, spoken to directly.

Rows in, typed rows out through the Source V2 / Sink V2 stand-in, in the fixture wire format
(planner/java FixtureValues); and the driver never runs what could load code: a catalog of a plugin's type,
ADD JAR, a SET outside the allow-list (docs/security.md).
"""
from __future__ import annotations

import json

import pytest

from flinkx_build.planner.session import open_planner
from tests.planner.conftest import jars_23  # noqa: F401 - the session fixture: Flink 2.3's jars
from tests.planner.conftest import needs_planner

pytestmark = [pytest.mark.flink, pytest.mark.network, needs_planner("2.3")]

TYPES = "id BIGINT, name STRING, amount DECIMAL(10, 2), ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), d DATE, " \
        "tags ARRAY<STRING>, attrs MAP<STRING, INT>, buyer ROW<city STRING, age INT>, ok BOOLEAN, ratio DOUBLE"
ROW = {"id": 7, "name": "ann", "amount": "10.50", "ts": "2026-01-01T10:00:05.123", "ltz": "2026-01-01T10:00:05Z",
       "d": "2026-01-01", "tags": ["a", "b"], "attrs": [["k", 1]], "buyer": ["Hangzhou", 30], "ok": True, "ratio": 0.25}


def _test(steps: list[dict], tables: dict[str, str] | None = None, mode: str = "stream") -> dict:
    return {"test": {"mode": mode, "prefix": "t:", "config": {"parallelism.default": "1", "table.local-time-zone": "UTC"},
                     "timeout_ms": 120_000, "steps": steps, "tables": tables or {}}}


@pytest.fixture(scope="module")
def driver(jars_23):
    planner = open_planner("2.3", fetch=False)
    yield planner
    planner.close()


def test_rows_come_back_typed_as_pyflinks_stand_in_writes_them(driver):
    given = json.dumps([{"kind": "+I", "values": ROW}])
    answer = driver.ask(_test([
        {"table": f"CREATE TABLE src ({TYPES}) WITH ('connector' = 'kafka')"},
        {"table": f"CREATE TABLE snk ({TYPES}) WITH ('connector' = 'print')"},
        {"insert": "INSERT INTO snk SELECT * FROM src"},
    ], {"src": given, "snk": "[]"}), 300)
    assert "collected" in answer, answer
    [row] = answer["collected"]["snk"]
    assert row["kind"] == "+I"
    assert row["values"] == {**ROW, "ltz": "2026-01-01T10:00:05Z", "buyer": {"city": "Hangzhou", "age": 30}}


def test_an_upsert_sink_gets_no_update_before_and_functions_are_stand_ins(driver):
    changes = [{"kind": "+I", "values": {"id": 1, "name": "ann"}}, {"kind": "-U", "values": {"id": 1, "name": "ann"}},
               {"kind": "+U", "values": {"id": 1, "name": "anna"}}, {"kind": "-D", "values": {"id": 1, "name": "anna"}}]
    answer = driver.ask(_test([
        {"table": "CREATE TABLE users (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'mysql-cdc')"},
        {"table": "CREATE TABLE dim (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'jdbc')"},
        {"function": {"name": "mask", "kind": "scalar", "returns": "STRING", "calls": [{"args": ["anna"], "returns": "a***"}]}},
        {"insert": "INSERT INTO dim SELECT id, mask(name) FROM users"},
    ], {"users": json.dumps(changes), "dim": "[]"}), 300)
    assert [(c["kind"], c["values"]["name"]) for c in answer["collected"]["dim"]] == [
        ("+I", None), ("+U", "a***"), ("-D", "a***")], answer


@pytest.mark.parametrize("step, refusal", [
    ({"other": "CREATE CATALOG lake WITH ('type' = 'hive')"}, {"not_run": "CreateCatalogOperation", "step": 0}),
    ({"other": "ADD JAR '/tmp/planted.jar'"}, {"not_run": "AddJarOperation", "step": 0}),
    ({"other": "LOAD MODULE hive"}, {"not_run": "LoadModuleOperation", "step": 0}),
    ({"set": ["pipeline.jars", "file:///tmp/planted.jar"]}, {"refused": "flinkx test does not apply SET 'pipeline.jars'"}),
    ({"set": ["table.resources.download-dir", "/tmp"]}, {"refused": "flinkx test does not apply SET 'table.resources.download-dir'"}),
])
def test_what_could_load_code_is_never_run(driver, step, refusal):
    """The Python side refuses these first (FX195, FX196); the driver refuses them again on the same policy."""
    answer = driver.ask(_test([step]), 300)
    assert {k: v for k, v in answer.items() if k != "id"} == refusal


def test_a_driver_that_ran_a_job_ends_by_itself_when_its_run_does(jars_23):
    """The MiniCluster's threads are not daemons: the driver exits when its stdin closes instead of waiting
    for flinkx's terminate (which used to cost every test run 5 s at its end)."""
    planner = open_planner("2.3", fetch=False)
    answer = planner.ask(_test([{"table": "CREATE TABLE t (a INT) WITH ('connector' = 'print')"},
                                {"insert": "INSERT INTO t SELECT 1"}], {"t": "[]"}), 300)
    assert answer.get("collected") == {"t": [{"kind": "+I", "values": {"a": 1}}]}, answer
    planner.close()
    assert planner._process.returncode == 0  # exited on its own, not by SIGTERM (143) or SIGKILL
