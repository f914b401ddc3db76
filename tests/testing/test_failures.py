"""Failing tests fail for the right reason, with a readable diff and exit code 1.

One run of the real CLI over a copy of the example workspace holding one failing case of each
kind (and one passing case), so the JVM starts once.
"""
from __future__ import annotations

import re

import pytest

from tests.testing.conftest import needs_flink
from tests.testing.conftest import run_flinkx

pytestmark = [pytest.mark.flink, needs_flink]

ROWS = """
      - {order_id: o1, user_id: 7, channel: app, quantity: 2, line_amount: "10.00", order_time: "2026-01-01 10:00:05"}
      - {order_id: o2, user_id: 8, channel: web, quantity: 1, line_amount: "5.50", order_time: "2026-01-01 10:00:40"}
"""
CASES = f"""
- name: passes
  task: dws/order_stats_1m
  given:
    dwd.dwd_orders:{ROWS}
  expect:
    dws.dws_order_stats_1m:
      rows:
        - {{channel: app, gmv: "10.00"}}
        - {{channel: web, gmv: "5.50"}}

- name: wrong expected row
  task: dws/order_stats_1m
  given:
    dwd.dwd_orders:{ROWS}
  expect:
    dws.dws_order_stats_1m:
      rows:
        - {{channel: app, gmv: "10.00"}}
        - {{channel: web, gmv: "5.60"}}

- name: missing row
  task: dws/order_stats_1m
  given:
    dwd.dwd_orders:{ROWS}
  expect:
    dws.dws_order_stats_1m:
      rows:
        - {{channel: app, gmv: "10.00"}}
        - {{channel: web, gmv: "5.50"}}
        - {{channel: mini_program, gmv: "1.00"}}

- name: extra row
  task: dws/order_stats_1m
  given:
    dwd.dwd_orders:{ROWS}
  expect:
    dws.dws_order_stats_1m:
      rows:
        - {{channel: app, gmv: "10.00"}}

- name: late row expected to count
  task: dws/order_stats_1m
  given:
    dwd.dwd_orders:
      - {{order_id: o1, channel: app, line_amount: "10.00", order_time: "2026-01-01 10:00:05"}}
      - {{order_id: o8, channel: app, line_amount: "4.00", order_time: "2026-01-01 10:02:10"}}
      - {{order_id: o9, channel: app, line_amount: "99.00", order_time: "2026-01-01 10:00:30"}}
  expect:
    dws.dws_order_stats_1m:
      rows:
        - {{window_start: "2026-01-01 10:00:00", order_cnt: 2, gmv: "109.00"}}
        - {{window_start: "2026-01-01 10:02:00", order_cnt: 1, gmv: "4.00"}}

- name: a job that fails at run time
  task: dws/bad_cast
  given:
    dwd.dwd_orders:
      - {{order_id: o1, channel: app, quantity: 1, line_amount: "1.00", order_time: "2026-01-01 10:00:00"}}
  expect:
    dws.dws_order_stats_1m: []

- name: wrong changelog kind
  task: dim/sync_dim_user
  given:
    ods.users:
      changelog:
        - [+I, {{user_id: 1, user_name: ann}}]
        - [-U, {{user_id: 1, user_name: ann}}]
        - [+U, {{user_id: 1, user_name: anna}}]
  expect:
    dim.dim_user:
      changelog:
        - [+I, {{user_id: 1, user_name: ann}}]
        - [-U, {{user_id: 1, user_name: ann}}]
        - [+U, {{user_id: 1, user_name: anna}}]
"""


BAD_TASK = """
SET dwd.dwd_orders.`watermark` = 'WATERMARK FOR order_time AS order_time';
INSERT INTO dws_order_stats_1m
SELECT window_start, window_end, channel, COUNT(*), CAST(MAX(order_id) AS BIGINT),
       CAST(SUM(quantity) AS BIGINT), CAST(SUM(line_amount) AS DECIMAL(16, 2))
FROM TABLE(TUMBLE(TABLE dwd.dwd_orders, DESCRIPTOR(order_time), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end, channel;
"""

CATALOG_TASK = """
CREATE CATALOG scratch WITH ('type' = 'hive');
INSERT INTO dws_order_stats_1m
SELECT order_time, order_time, channel, 1, 1, CAST(quantity AS BIGINT), CAST(line_amount AS DECIMAL(16, 2))
FROM dwd.dwd_orders;
"""

JAR_SETTING_TASK = """
SET 'pipeline.jars' = 'file:///tmp/connector.jar';
""" + CATALOG_TASK.split(";", 1)[1].lstrip("\n")


def line_of(case: str, fragment: str) -> int:
    """The line of `fragment` within case `case` of the test file (1-based)."""
    lines = CASES.lstrip("\n").splitlines()
    start = lines.index(f"- name: {case}")
    return next(i for i in range(start, len(lines)) if fragment in lines[i]) + 1


@pytest.fixture(scope="module")
def outcome(tmp_path_factory):
    import shutil

    from tests.conftest import EXAMPLE

    root = tmp_path_factory.mktemp("failing") / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".flinkx-cache", "build", "tests"))
    # a task Flink plans but cannot run: CAST('o1' AS BIGINT) fails in the job
    (root / "projects/dws/tasks/bad_cast.sql").write_text(BAD_TASK, encoding="utf-8")
    (root / "projects/dws/tests").mkdir()
    (root / "projects/dws/tests/failing.yaml").write_text(CASES.lstrip("\n"), encoding="utf-8")
    result = run_flinkx("test", "ws", cwd=root.parent)
    blocks: dict[str, list[str]] = {}
    current: list[str] = []
    for line in result.stdout.splitlines():
        m = re.match(r"^(PASS|FAIL)  [\w/]+: (.+?) \(", line)
        if m:
            current = blocks.setdefault(m[2], [m[1]])
        elif line.startswith("      "):
            current.append(line.strip())
    return result, blocks


def test_exit_code_and_summary(outcome):
    result, blocks = outcome
    assert result.returncode == 1, result.stdout + result.stderr
    assert "flinkx: 1 passed, 6 failed" in result.stderr  # the summary; results are on stdout
    assert blocks["passes"] == ["PASS"]


def test_wrong_expected_row(outcome):
    _, blocks = outcome
    block = blocks["wrong expected row"]
    assert block[0] == "FAIL"
    assert "dws.dws_order_stats_1m (rows): 1 missing row, 1 unexpected row (expected 2, got 2)" in block
    at = line_of("wrong expected row", "5.60")
    assert f'missing:    {{channel: web, gmv: "5.60"}}  (ws/projects/dws/tests/failing.yaml:{at})' in block
    assert 'closest actual row differs in gmv: expected "5.60", got "5.50"' in block
    assert 'unexpected: {channel: web, gmv: "5.50"}' in block


def test_missing_row(outcome):
    _, blocks = outcome
    block = blocks["missing row"]
    assert "dws.dws_order_stats_1m (rows): 1 missing row (expected 3, got 2)" in block
    at = line_of("missing row", "mini_program")
    assert f'missing:    {{channel: mini_program, gmv: "1.00"}}  (ws/projects/dws/tests/failing.yaml:{at})' in block
    assert not any(line.startswith("unexpected") for line in block)


def test_extra_row(outcome):
    _, blocks = outcome
    block = blocks["extra row"]
    assert "dws.dws_order_stats_1m (rows): 1 unexpected row (expected 1, got 2)" in block
    assert 'unexpected: {channel: web, gmv: "5.50"}' in block


def test_wrong_changelog_kind(outcome):
    """The jdbc sink is an upsert sink: Flink drops the -U, so the second change is the +U."""
    _, blocks = outcome
    block = blocks["wrong changelog kind"]
    assert "dim.dim_user (changelog): change 2 differs (kind)" in block
    at = line_of("wrong changelog kind", "dim.dim_user:") + 3
    assert f"expected: -U {{user_id: 1, user_name: ann}}  (ws/projects/dws/tests/failing.yaml:{at})" in block
    assert "actual:   +U {user_id: 1, user_name: anna}" in block


def test_the_late_row_is_dropped_by_flink(outcome):
    """Flink's watermark, not the tool, decides: o9 is late and does not count."""
    _, blocks = outcome
    block = blocks["late row expected to count"]
    assert "dws.dws_order_stats_1m (rows): 1 missing row, 1 unexpected row (expected 2, got 2)" in block
    assert "closest actual row differs in order_cnt: expected 2, got 1; gmv: expected \"109.00\", got \"10.00\"" in block


def test_a_job_failure_is_a_failed_test_with_flinks_root_cause(outcome):
    _, blocks = outcome
    assert blocks["a job that fails at run time"] == [
        "FAIL", "Flink could not run the test: the job failed: NumberFormatException: For input string: 'o1'. Invalid character found."]


def test_statements_outside_the_stand_ins_are_refused(tmp_path):
    """A task that creates a catalog or ships a jar with its job: `flinkx test` names the
    statement (FX195, FX196: the same lines lint gives) and runs no case."""
    import shutil

    from tests.conftest import EXAMPLE

    root = tmp_path / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".flinkx-cache", "build", "tests"))
    (root / "projects/dws/tasks/with_catalog.sql").write_text(CATALOG_TASK, encoding="utf-8")
    (root / "projects/dws/tasks/with_jar_setting.sql").write_text(JAR_SETTING_TASK, encoding="utf-8")
    (root / "projects/dws/tests").mkdir()
    (root / "projects/dws/tests/refused.yaml").write_text(
        "- name: a statement that could reach outside is refused\n  task: dws/with_catalog\n"
        "  expect:\n    dws.dws_order_stats_1m: []\n"
        "- name: a setting that ships a jar is refused\n  task: dws/with_jar_setting\n"
        "  expect:\n    dws.dws_order_stats_1m: []\n", encoding="utf-8")
    result = run_flinkx("test", "ws", cwd=tmp_path)
    out = result.stdout + result.stderr
    assert result.returncode == 1 and "Traceback" not in out, out
    assert "ws/projects/dws/tasks/with_catalog.sql:2:1: FX195 'CREATE CATALOG' makes Flink load code" in out, out
    assert "ws/projects/dws/tasks/with_jar_setting.sql:2:1: FX196 SET 'pipeline.jars' is not an engine setting" in out, out
    assert "PASS" not in out and "FAIL" not in out
