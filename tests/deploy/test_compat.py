"""State-compatibility verdicts on pairs of SQL versions, planned by the real Flink 1.20 planner.

One embedded JVM for the module; each test compiles the old and the new job to COMPILE PLAN JSON
and classifies the change. No cluster is needed.
"""
from __future__ import annotations

import pytest

from flinkx_build.deploy import compat
from flinkx_build.deploy.identity import Statement
from flinkx_build.validate.engine import flink_available

_REASON = flink_available()
pytestmark = [pytest.mark.flink, pytest.mark.skipif(_REASON is not None, reason=f"Flink unavailable: {_REASON}")]

SOURCE = ("CREATE TEMPORARY TABLE src (k INT, u STRING, v BIGINT, ts TIMESTAMP(3), pt AS PROCTIME(), "
          "WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen')")


def sink(name: str, columns: str) -> Statement:
    return Statement("create_table", f"CREATE TEMPORARY TABLE {name} ({columns}) WITH ('connector' = 'blackhole')")


@pytest.fixture(scope="module")
def plan(tmp_path_factory):
    from flinkx_build.deploy.flink import DeployFlink

    root = tmp_path_factory.mktemp("compat")
    with DeployFlink(root / "flink-logs", []) as flink:
        def compile_job(*inserts: str, sinks: tuple[Statement, ...] = ()) -> dict:
            statements = [Statement("create_table", SOURCE), *sinks, *(Statement("insert", i) for i in inserts)]
            return flink.compile_plan(statements)
        yield compile_job


AGG_SINK = (sink("agg", "k INT, c BIGINT, s BIGINT, m BIGINT"),)


def test_a_filter_before_the_aggregate_is_fully_compatible(plan):
    old = plan("INSERT INTO agg SELECT k, COUNT(*), SUM(v), 0 FROM src GROUP BY k", sinks=AGG_SINK)
    new = plan("INSERT INTO agg SELECT k, COUNT(*), SUM(v), 0 FROM src WHERE v > 0 GROUP BY k", sinks=AGG_SINK)
    verdict = compat.classify(old, new)
    assert verdict.level == compat.COMPATIBLE, verdict.summary
    assert verdict.summary == "fully compatible: no stateful operator changed"


def test_an_added_aggregate_is_partially_compatible_and_names_the_operator(plan):
    old = plan("INSERT INTO agg SELECT k, COUNT(*), SUM(v), 0 FROM src GROUP BY k", sinks=AGG_SINK)
    new = plan("INSERT INTO agg SELECT k, COUNT(*), SUM(v), MAX(v) FROM src GROUP BY k", sinks=AGG_SINK)
    verdict = compat.classify(old, new)
    assert verdict.level == compat.PARTIAL, verdict.summary
    (change,) = verdict.changes
    assert change.operator == "GroupAggregate(groupBy=[k])"
    assert "aggregate added ($MAX$1(v BIGINT)" in change.rule


def test_changed_grouping_keys_are_incompatible(plan):
    old = plan("INSERT INTO agg SELECT k, COUNT(*), SUM(v), 0 FROM src GROUP BY k", sinks=AGG_SINK)
    new = plan("INSERT INTO agg SELECT k, COUNT(*), SUM(v), 0 FROM src GROUP BY k, u", sinks=AGG_SINK)
    verdict = compat.classify(old, new)
    assert verdict.level == compat.INCOMPATIBLE, verdict.summary
    assert "grouping keys changed: [k INT] -> [k INT, u VARCHAR(2147483647)]" in verdict.summary


WINDOW_SINK = (sink("win", "ws TIMESTAMP(3), k INT, c BIGINT"),)
WINDOW = ("INSERT INTO win SELECT window_start, k, COUNT(*) FROM TABLE(TUMBLE(TABLE src, DESCRIPTOR(ts), INTERVAL '{size}' MINUTE)) "
          "GROUP BY window_start, window_end, k")


def test_a_changed_window_size_is_incompatible(plan):
    verdict = compat.classify(plan(WINDOW.format(size=1), sinks=WINDOW_SINK), plan(WINDOW.format(size=5), sinks=WINDOW_SINK))
    assert verdict.level == compat.INCOMPATIBLE, verdict.summary
    assert "window type or size changed: TumblingWindow(size=PT1M) -> TumblingWindow(size=PT5M)" in verdict.summary


DEDUP_SINK = (sink("dd", "k INT, u STRING, v BIGINT"),)
DEDUP = "INSERT INTO dd SELECT k, u, v FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY {key} ORDER BY pt {order}) AS rn FROM src) WHERE rn = 1"


def test_changed_deduplication_ordering_or_keys_are_incompatible(plan):
    first = plan(DEDUP.format(key="k", order="ASC"), sinks=DEDUP_SINK)
    last = plan(DEDUP.format(key="k", order="DESC"), sinks=DEDUP_SINK)
    by_user = plan(DEDUP.format(key="u", order="ASC"), sinks=DEDUP_SINK)
    ordering = compat.classify(first, last)
    assert ordering.level == compat.INCOMPATIBLE and "deduplicate ordering changed" in ordering.summary
    keys = compat.classify(first, by_user)
    assert keys.level == compat.INCOMPATIBLE and "deduplicate keys changed" in keys.summary


def test_a_removed_stateful_operator_is_incompatible(plan):
    old = plan("INSERT INTO agg SELECT k, COUNT(*), SUM(v), 0 FROM src GROUP BY k", sinks=AGG_SINK)
    new = plan("INSERT INTO agg SELECT k, 1, v, 0 FROM src", sinks=AGG_SINK)
    verdict = compat.classify(old, new)
    assert verdict.level == compat.INCOMPATIBLE
    assert verdict.changes[0].rule.startswith("stateful operator removed")


TWO_SINKS = (sink("agg", "k INT, c BIGINT, s BIGINT, m BIGINT"), sink("agg2", "u STRING, c BIGINT, m BIGINT"))


def test_several_stateful_changes_at_once_are_unknown(plan):
    old = plan("INSERT INTO agg SELECT k, COUNT(*), SUM(v), 0 FROM src GROUP BY k",
               "INSERT INTO agg2 SELECT u, COUNT(*), 0 FROM src GROUP BY u", sinks=TWO_SINKS)
    new = plan("INSERT INTO agg SELECT k, COUNT(*), SUM(v), MAX(v) FROM src GROUP BY k",
               "INSERT INTO agg2 SELECT u, COUNT(*), MIN(v) FROM src GROUP BY u", sinks=TWO_SINKS)
    verdict = compat.classify(old, new)
    assert verdict.level == compat.UNKNOWN, verdict.summary
    assert verdict.summary.startswith("unknown: 2 stateful changes at once")
    assert len(verdict.changes) == 2 and all(c.level == compat.PARTIAL for c in verdict.changes)


def test_a_flink_version_change_is_unknown(plan):
    old = plan("INSERT INTO agg SELECT k, COUNT(*), SUM(v), 0 FROM src GROUP BY k", sinks=AGG_SINK)
    assert old["flinkVersion"] == "1.20"
    # A plan compiled by another Flink: the only field a version change is sure to alter.
    older = {**old, "flinkVersion": "1.19"}
    verdict = compat.classify(older, old)
    assert verdict.level == compat.UNKNOWN
    assert verdict.summary == "unknown: the Flink version changed (1.19 -> 1.20)"


def test_row_fields_reads_both_type_forms():
    assert compat.row_fields("ROW<`k` INT, `a,b` DECIMAL(10, 2), `EXPR$1` BIGINT NOT NULL>") == [
        ("k", "INT"), ("a,b", "DECIMAL(10, 2)"), ("EXPR$1", "BIGINT NOT NULL")]
    assert compat.row_fields({"type": "ROW", "fields": [{"name": "k", "fieldType": "INT"}]}) == [("k", "INT")]
