"""Bad timelines are FX5xx lines at their YAML position, found before any JVM starts (exit 1)."""
from __future__ import annotations


import pytest

from tests.testing.conftest import expect_broken_line
from tests.testing.conftest import fragment_at
from tests.testing.conftest import run_broken_tests

BROKEN = """
- name: a watermark going backwards
  task: dws/order_stats_1m
  timeline:
    - watermark: "2026-01-01 10:02:00"
    - watermark: {dwd.dwd_orders: "2026-01-01 10:01:00"}
  expect:
    dws.dws_order_stats_1m: []

- name: unknown tables in steps
  task: dws/order_stats_1m
  timeline:
    - rows:
        dwd.dwd_order: [{order_id: o1}]
    - idle: dwd.dwd_refunds
    - expect:
        dws.dws_order_stat_1m: []

- name: times that are not times
  task: dws/order_stats_1m
  timeline:
    - proctime: "2026-01-01 12:00:00"
    - proctime: "2026-01-01 11:00:00"
    - watermark: "ten past"
    - rows:
        dwd.dwd_orders: [{order_id: o1, chanel: app}]
    - expect:
        dws.dws_order_stats_1m:
          kinds: [+I, +X]
  expect:
    dws.dws_order_stats_1m: []

- name: steps the task cannot take
  task: dwd/orders/enrich_orders
  timeline:
    - watermark: {dim.dim_user: "2026-01-01 10:01:00"}
    - sleep: 5
    - idle: {dim.dim_user: yes}
    - state_keys: [LookupJoin]
    - state_keys: {LookupJoin: some}
  expect:
    dwd.dwd_orders: []

- name: a timeline in batch mode
  task: dws/order_stats_1m
  mode: batch
  timeline:
    - watermark: "2026-01-01 10:02:00"
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


def test_nothing_runs_and_exit_code_is_1(broken):
    result, seconds, lines = broken
    assert result.returncode == 1, result.stdout + result.stderr
    assert not any(line.startswith(("PASS", "FAIL")) for line in result.stdout.splitlines())
    # one line per mistake, nothing else: no cascade from a bad step into the next
    assert len([line for line in lines if ": FX5" in line]) == 14, lines
    assert seconds < 30  # a hang guard: no JVM starts (about 3 s here)


def test_a_watermark_going_backwards(broken):
    expect_line(broken[2], at('"2026-01-01 10:01:00"'),
                "FX512 the watermark of dwd.dwd_orders goes backwards: 2026-01-01 10:01:00 is before the one at "
                "line 4 (a watermark only advances; reorder the steps)")


def test_steps_naming_unknown_tables(broken):
    lines = broken[2]
    expect_line(lines, at("dwd.dwd_order:"), "FX502 task dws/order_stats_1m does not read table 'dwd.dwd_order' "
                "(did you mean 'dwd.dwd_orders'?)")
    expect_line(lines, at("dwd.dwd_refunds"), "FX502 task dws/order_stats_1m does not read table 'dwd.dwd_refunds' "
                "(did you mean 'dwd.dwd_orders'?)")
    expect_line(lines, at("dws.dws_order_stat_1m:"), "FX503 task dws/order_stats_1m does not write table "
                "'dws.dws_order_stat_1m' (did you mean 'dws.dws_order_stats_1m'?)")


def test_times_and_values(broken):
    lines = broken[2]
    expect_line(lines, at('"2026-01-01 11:00:00"'), "FX512 processing time goes backwards: 2026-01-01 11:00:00 is "
                "before the one at line 21 (processing time only advances; reorder the steps)")
    expect_line(lines, at('"ten past"'), "FX512 watermark time 'ten past' is not a timestamp "
                "(write 'YYYY-MM-DD HH:MM:SS[.fff]', in UTC)")
    expect_line(lines, at("chanel"), "FX504 table dwd.dwd_orders has no column 'chanel' (did you mean 'channel'?)")
    expect_line(lines, at("+X"), "FX506 unknown change kind '+X' (expected one of: +I, -U, +U, -D)")


def test_steps_the_task_cannot_take(broken):
    lines = broken[2]
    expect_line(lines, at('"2026-01-01 10:01:00"}', 2), "FX511 dim.dim_user has no WATERMARK in this task: a watermark "
                "step on it moves nothing (declare a WATERMARK on it, or drop the step)")
    expect_line(lines, at("sleep"), "FX500 unknown timeline step 'sleep' (expected one of: rows, watermark, idle, "
                "active, proctime, expect, state_keys)")
    expect_line(lines, at("{dim.dim_user: yes}"), "FX500 idle takes a source table or a list of them")
    expect_line(lines, at("[LookupJoin]"), "FX500 state_keys takes a mapping of operator: number of keys "
                "(e.g. state_keys: {GlobalWindowAggregate: 1})")
    expect_line(lines, at("some}"), "FX500 state_keys of 'LookupJoin' must be a number of keys (0 or more)")
    expect_line(lines, at('watermark: "2026-01-01 10:02:00"', 2), "FX511 a timeline needs a stream task: batch "
                "mode has no watermarks or processing time (remove 'mode: batch' or the timeline)")
