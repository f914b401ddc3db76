"""Version-sensitive tasks through both real planners (issue 29): each target's verdict, task by task.

The driver (flinkx_build/planner/java) plans on the target's own jars: 1.20 and 2.3 each from its pinned
apache-flink-libraries archive (unpacked once a machine, tests/conftest.py).
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from flinkx_build.planner.session import open_planner
from flinkx_build.validate.contract import CompiledStatement
from flinkx_build.validate.contract import ScriptToValidate
from flinkx_build.validate.contract import UdfStub
from tests.planner.conftest import needs_planner

pytestmark = [pytest.mark.flink, pytest.mark.network, needs_planner("1.20"), needs_planner("2.3")]
FIXTURE = Path(__file__).parents[1] / "fixtures" / "targets"

ORDERS = "CREATE TEMPORARY TABLE orders (order_id BIGINT, user_id BIGINT, amount DECIMAL(10, 2), payload STRING) WITH ('connector' = 'kafka')"
TOTALS = ("CREATE TEMPORARY TABLE totals (user_id BIGINT, total DECIMAL(38, 2), PRIMARY KEY (user_id) NOT ENFORCED) "
          "WITH ('connector' = 'jdbc')")
BODIES = "CREATE TEMPORARY TABLE bodies (order_id BIGINT, body STRING) WITH ('connector' = 'print')"
SIDE_INPUT = ("CREATE TEMPORARY TABLE side_input (key BIGINT, `value` VARCHAR) WITH ('connector.type' = 'filesystem', "
              "'connector.path' = 'file:///opt/flink/data/side_input.txt', 'format.type' = 'csv')")
MISMATCH = "INSERT INTO totals SELECT CAST(COUNT(*) AS BIGINT) AS user_id, SUM(amount) AS total FROM orders GROUP BY order_id"
# task -> (statements, verdict on 1.20, verdict on 2.3): None = accepted, else a piece of Flink's message
CASES: dict[str, tuple[list[str], str | None, str | None]] = {
    "upsert key differs, no ON CONFLICT": ([ORDERS, TOTALS, MISMATCH], None, "upsert key that differs from the primary key"),
    "upsert key differs, ON CONFLICT": ([ORDERS, TOTALS, MISMATCH + " ON CONFLICT DO DEDUPLICATE"], "Encountered", None),
    "upsert key is the primary key": ([ORDERS, TOTALS, "INSERT INTO totals SELECT user_id, SUM(amount) FROM orders GROUP BY user_id"],
                                      None, None),
    "PARSE_JSON (2.1+)": ([ORDERS, BODIES, "INSERT INTO bodies SELECT order_id, JSON_STRING(PARSE_JSON(payload)) FROM orders"],
                          "No match found for function signature PARSE_JSON", None),
    "VARIANT column (2.1+)": (["CREATE TEMPORARY TABLE v (id BIGINT, body VARIANT) WITH ('connector' = 'print')"], "VARIANT", None),
    "option removed in 2.0": ([ORDERS, BODIES, "SET 'table.exec.topn-cache-size' = '1000'",
                               "INSERT INTO bodies SELECT order_id, payload FROM orders"], None, None),


    "a declared function": ([ORDERS, BODIES, "CREATE TEMPORARY FUNCTION mask AS 'com.shop.Mask'",
                             "INSERT INTO bodies SELECT order_id, mask(payload) FROM orders"], None, None),
    "a function without a declaration": ([ORDERS, "CREATE TEMPORARY FUNCTION other AS 'com.shop.Other'"],
                                         "return type is not declared", "return type is not declared"),
    # issue 44 case 15: nexmark q13's side input, a legacy descriptor table ('connector.type'), joined by lookup
    "a legacy connector.type table": ([ORDERS, SIDE_INPUT, BODIES, "INSERT INTO bodies SELECT o.order_id, s.`value` FROM "
                                       "(SELECT *, PROCTIME() AS p_time FROM orders) AS o JOIN side_input FOR SYSTEM_TIME "
                                       "AS OF o.p_time AS s ON MOD(o.order_id, 10000) = s.key"], None, None),
}
UDFS = (UdfStub("mask", "STRING"),)


def _script(name: str, statements: list[str]) -> ScriptToValidate:
    compiled = tuple(CompiledStatement(sql, 3 + 2 * i, 1, "other", (1 + i, 1)) for i, sql in enumerate(statements))
    return ScriptToValidate(f"p/{name}", f"{name}.sql", compiled, UDFS)


@pytest.fixture(scope="module")
def planners(jars_23):
    opened = {version: open_planner(version, fetch=False) for version in ("1.20", "2.3")}
    yield opened
    for planner in opened.values():
        planner.close()


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("version", ["1.20", "2.3"])
def test_each_target_gives_its_own_verdict(planners, case, version):
    statements, on_120, on_23 = CASES[case]
    expected = on_120 if version == "1.20" else on_23
    findings = planners[version].validate(_script(case.replace(" ", "_"), statements))
    if expected is None:
        assert findings == [], [f.message for f in findings]
    else:
        assert findings and expected in findings[0].message, [f.message for f in findings]
        assert not findings[0].extra.get("internal"), findings[0].message


def test_each_planner_is_its_target(planners):
    assert planners["1.20"].flink_version.startswith("1.20.")
    assert planners["2.3"].flink_version == "2.3.0"


@pytest.mark.parametrize("version, rejected", [("1.20", set()), ("2.3", {"upsert_key_differs"})])
def test_validate_runs_the_workspace_on_its_flink_version(tmp_path, jars_23, version, rejected):
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURE, ws)
    (ws / "flinkx.yaml").write_text(f'engine: flink\nflink_version: "{version}"\n', encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "flinkx_build", "validate", "ws"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=900)
    assert "Traceback" not in done.stderr
    found = {line.split("/tasks/")[1].split(".sql")[0] for line in done.stdout.splitlines() if ": FX300 " in line}
    assert found == rejected, done.stdout + done.stderr
    assert done.returncode == (1 if rejected else 0), done.stderr
    if rejected:
        assert ("ws/projects/p/tasks/upsert_key_differs.sql:2:1: FX300 the query's upsert key differs from the primary key of "
                "p.order_totals (group by the sink's primary key, or add ON CONFLICT DO DEDUPLICATE after the query)") in done.stdout
