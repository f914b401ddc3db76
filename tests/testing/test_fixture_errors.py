"""Fixture mistakes are FX5xx lines at their YAML position, before anything runs (exit 1)."""
from __future__ import annotations

import os
import re
import sys

import pytest

from tests.testing.conftest import needs_flink
from tests.testing.conftest import expect_broken_line
from tests.testing.conftest import fragment_at
from tests.testing.conftest import run_broken_tests
from tests.testing.conftest import run_flinkx

BROKEN = """
- name: typos
  task: dws/order_stats_1m
  given:
    dwd.dwd_orders:
      - {order_id: o1, chanel: app, order_time: "2026-01-01 10:00:05"}
      - {order_id: o2, channel: app, order_time: "2026-01-01 25:00:00"}
      - {order_id: o3, line_amount: "1.005"}
  expect:
    dws.dws_order_stats_1m:
      rows:
        - {channel: app, gmv: "10.00"}

- name: wrong tables
  task: dws/order_stats_1m
  given:
    dwd.dwd_refunds: []
  expect:
    dwd.dwd_orders: []

- name: unknown task
  task: dws/order_stat_1m
  expect:
    dws.dws_order_stats_1m: []

- name: a computed column and a changelog into an append-only source
  task: dwd/orders/enrich_orders
  given:
    ods.kafka_orders:
      changelog:
        - [+I, {order_id: o1, line_amount: "10.00"}]
        - [-D, {order_id: o1}]
        - [+X, {order_id: o1}]
  expect:
    dwd.dwd_orders: []

- name: results for a function the task does not call
  task: dwd/orders/enrich_orders
  functions:
    dim:mask_phon:
      - {args: ["13812345678"], returns: "138****5678"}
    dim:parse_ua:
      - {args: [x], returns: [not, a, string]}
  expect:
    dwd.dwd_orders: []

- name: a column the task prunes
  task: dwd/refunds/enrich_refunds
  given:
    dim.dim_shop:
      - {shop_id: 1, province: Zhejiang}
  expect:
    dwd.dwd_refunds: []

- name: one table under two names
  task: dws/order_stats_1m
  given:
    dwd.dwd_orders: []
    dwd.DWD_ORDERS: []
  expect:
    dws.dws_order_stats_1m: []

- name: a chain to nowhere
  task: dws/order_stats_1m
  given:
    dwd.dwd_orders:
      from: {test: typo, table: dwd.dwd_orders}
  descripton: a typo in a key
  expect:
    dws.dws_order_stats_1m: []

- name: typos
  task: dws/order_stats_1m
  expect:
    dws.dws_order_stats_1m: []
"""
LINES = BROKEN.lstrip("\n").splitlines()


def at(fragment: str, nth: int = 1) -> tuple[int, int]:
    return fragment_at(LINES, fragment, nth)


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    return run_broken_tests(tmp_path_factory.mktemp("broken") / "ws", BROKEN)


expect_line = expect_broken_line


@needs_flink
def test_nothing_runs_and_exit_code_is_1(broken):
    result, seconds, _ = broken
    assert result.returncode == 1, result.stdout + result.stderr
    assert not any(line.startswith(("PASS", "FAIL")) for line in result.stdout.splitlines())
    # a hang guard, not a speed budget: no JVM, no job, only the workspace is read (2.4 s here; about ten times that)
    assert seconds < 30


@needs_flink
def test_unknown_column_with_did_you_mean(broken):
    expect_line(broken[2], at("chanel"),
                "FX504 table dwd.dwd_orders has no column 'chanel' (did you mean 'channel'?)")


@needs_flink
def test_bad_timestamp(broken):
    line, col = at('"2026-01-01 25:00:00"')
    expect_line(broken[2], (line, col),
                "FX505 column 'order_time' of dwd.dwd_orders: '2026-01-01 25:00:00' is not a valid TIMESTAMP(3); "
                "write 'YYYY-MM-DD HH:MM:SS[.fff]'")


@needs_flink
def test_decimal_with_too_many_places(broken):
    expect_line(broken[2], at('"1.005"'),
                "FX505 column 'line_amount' of dwd.dwd_orders: '1.005' is not a valid DECIMAL(12, 2): more than 2 decimal places")


@needs_flink
def test_tables_the_task_does_not_read_or_write(broken):
    lines = broken[2]
    expect_line(lines, at("dwd.dwd_refunds"),
                "FX502 task dws/order_stats_1m does not read table 'dwd.dwd_refunds' (did you mean 'dwd.dwd_orders'?)")
    expect_line(lines, at("dwd.dwd_orders: []"),
                "FX503 task dws/order_stats_1m does not write table 'dwd.dwd_orders' (did you mean 'dws.dws_order_stats_1m'?)")


@needs_flink
def test_unknown_task(broken):
    expect_line(broken[2], at("dws/order_stat_1m"),
                "FX501 unknown task 'dws/order_stat_1m' (did you mean 'dws/order_stats_1m'?)")


@needs_flink
def test_computed_column_and_impossible_changes(broken):
    lines = broken[2]
    expect_line(lines, at("line_amount: \"10.00\"}]"),
                "FX509 column 'line_amount' of ods.kafka_orders is computed by the DDL and cannot be given")
    expect_line(lines, at("[-D"), "FX506 ods.kafka_orders is an insert-only source; it cannot produce -D (it produces +I)")
    expect_line(lines, at("+X"), "FX506 unknown change kind '+X' (expected one of: +I, -U, +U, -D)")


@needs_flink
def test_bad_reference_unknown_key_and_duplicate(broken):
    lines = broken[2]
    expect_line(lines, at("{test: typo"),
                "FX508 no test named 'typo' (did you mean 'typos'?)")
    expect_line(lines, at("descripton:"),
                "FX500 unknown key 'descripton' in a test case (did you mean 'description'?)")
    line, col = at("name: typos", 2)
    assert any(re.fullmatch(rf"ws/projects/dws/tests/broken.yaml:{line}:{col}: FX507 test 'typos' is defined twice \(first at .*broken.yaml:1\)", x) for x in lines), lines


@needs_flink
def test_a_column_the_task_prunes(broken):
    expect_line(broken[2], at("province"),
                "FX504 column 'province' of dim.dim_shop is not in this task's DDL "
                "(dataphinColumnPruning keeps only the columns the task reads) (leave it out)")


@needs_flink
def test_a_table_given_twice(broken):
    expect_line(broken[2], at("dwd.DWD_ORDERS"), "FX500 table dwd.dwd_orders is listed twice under given")


@needs_flink
def test_functions(broken):
    lines = broken[2]
    expect_line(lines, at("dim:mask_phon:"),
                "FX510 task dwd/orders/enrich_orders does not call function 'dim:mask_phon' (did you mean 'dim:mask_phone'?)")
    expect_line(lines, at("[not, a, string]"),
                "FX505 function 'dim:parse_ua' returns STRING: a list is not a valid STRING: a string is expected")


def test_without_java_the_message_is_the_one_validate_gives(tmp_path):
    """Exit 2 and the same reason as `flinkx validate` when Flink cannot run."""
    from tests.conftest import EXAMPLE

    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = os.path.dirname(sys.executable)  # python, but no java
    test = run_flinkx("test", str(EXAMPLE), cwd=tmp_path, env=env)
    validate = run_flinkx("validate", str(EXAMPLE), cwd=tmp_path, env=env)
    assert test.returncode == 2 and validate.returncode == 2, test.stderr + validate.stderr
    assert "Java" in test.stderr
    assert test.stderr.replace("flinkx test", "flinkx validate") == validate.stderr
