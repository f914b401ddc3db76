"""Predicted verdicts on pairs of SQL versions, compiled by the planner driver on Flink 1.20 (no cluster).

The restore suite (test_restore_verdicts.py) checks every rule against Flink's own restores; these tests pin
what a verdict says: the operator, the rule, the ids that decide a lost state, and the Flink version rule.
"""
from __future__ import annotations

import pytest

from flinkx_build.deploy import compat
from flinkx_build.deploy.identity import Statement
from tests.planner.conftest import needs_planner

pytestmark = [pytest.mark.flink, needs_planner("1.20")]

SOURCE = ("CREATE TEMPORARY TABLE src (k INT, u STRING, v BIGINT, ts TIMESTAMP(3), pt AS PROCTIME(), "
          "WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen')")


def sink(name: str, columns: str) -> Statement:
    return Statement("create_table", f"CREATE TEMPORARY TABLE {name} ({columns}) WITH ('connector' = 'blackhole')")


@pytest.fixture(scope="module")
def plan():
    from flinkx_build.deploy.driver_client import DriverFlink

    with DriverFlink("1.20", []) as flink:
        def compile_job(*inserts: str, sinks: tuple[Statement, ...] = ()) -> compat.CompiledJob:
            statements = [Statement("create_table", SOURCE), *sinks, *(Statement("insert", i) for i in inserts)]
            return flink.compile_job(statements)
        yield compile_job


AGG_SINK = (sink("agg", "k INT, c BIGINT, s BIGINT, m BIGINT"),)
GROUP = "INSERT INTO agg SELECT k, COUNT(*), SUM(v), 0 FROM src GROUP BY k"


def test_the_driver_gives_each_operator_its_plan_node_and_id(plan):
    job = plan(GROUP, sinks=AGG_SINK)
    (aggregate,) = [n for n in job.plan["nodes"] if n["type"].startswith("stream-exec-group-aggregate")]
    (operator,) = [o for o in job.operators if o.node == aggregate["id"]]
    assert operator.name == f"GroupAggregate[{aggregate['id']}]" and len(operator.id) == 32
    assert plan(GROUP, sinks=AGG_SINK).operators[-1].id == job.operators[-1].id  # Flink's hash: the same every time


def test_an_added_aggregate_will_not_restore_and_names_the_operator(plan):
    old = plan(GROUP, sinks=AGG_SINK)
    new = plan("INSERT INTO agg SELECT k, COUNT(*), SUM(v), MAX(v) FROM src GROUP BY k", sinks=AGG_SINK)
    verdict = compat.classify(old, new, "1.20.5")
    assert verdict.level == compat.WILL_NOT_RESTORE, verdict.summary
    (change,) = verdict.changes
    assert change.operator == "GroupAggregate(groupBy=[k])"
    assert verdict.summary.startswith("predicted: will not restore: GroupAggregate(groupBy=[k]): an aggregate added")


def test_a_same_type_key_expression_restores_with_another_meaning(plan):
    old = plan(GROUP, sinks=AGG_SINK)
    new = plan("INSERT INTO agg SELECT k + 1, COUNT(*), SUM(v), 0 FROM src GROUP BY k + 1", sinks=AGG_SINK)
    verdict = compat.classify(old, new, "1.20.5")
    assert verdict.level == compat.OTHER_MEANING and verdict.restores, verdict.summary
    assert "grouping keys changed: [k INT] -> [EXPR$0 INT] (same types: the state is kept under other keys)" in verdict.summary


def test_a_removed_stateful_statement_loses_its_state(plan):
    sinks = (*AGG_SINK, sink("agg2", "u STRING, c BIGINT"))
    old = plan(GROUP, "INSERT INTO agg2 SELECT u, COUNT(*) FROM src GROUP BY u", sinks=sinks)
    new = plan(GROUP, sinks=sinks)
    verdict = compat.classify(old, new, "1.20.5")
    assert verdict.level == compat.WILL_NOT_RESTORE
    assert any("kept under an operator id the new job does not have" in c.rule for c in verdict.changes)


def test_a_flink_version_change_is_unknown(plan):
    old = plan(GROUP, sinks=AGG_SINK)
    assert old.plan["flinkVersion"] == "1.20"
    older = compat.CompiledJob({**old.plan, "flinkVersion": "1.19"}, old.operators)
    verdict = compat.classify(older, old, "1.20.5")
    assert verdict.level == compat.UNKNOWN and not verdict.restores
    assert verdict.summary == "predicted: unknown: the Flink version changed (1.19 -> 1.20): only a trial tells"


def test_without_operator_ids_nothing_is_predicted_to_restore(plan):
    old, new = plan(GROUP, sinks=AGG_SINK), plan(GROUP.replace("FROM src", "FROM src WHERE v > 0"), sinks=AGG_SINK)
    assert compat.classify(old, new, "1.20.5").level == compat.RESTORES
    blind = compat.classify(compat.CompiledJob(old.plan), compat.CompiledJob(new.plan), "1.20.5")
    assert blind.level == compat.UNKNOWN


def test_row_fields_reads_both_type_forms():
    from flinkx_build.deploy.compat_rules import row_fields

    assert row_fields("ROW<`k` INT, `a,b` DECIMAL(10, 2), `EXPR$1` BIGINT NOT NULL>") == [
        ("k", "INT"), ("a,b", "DECIMAL(10, 2)"), ("EXPR$1", "BIGINT NOT NULL")]
    assert row_fields({"type": "ROW", "fields": [{"name": "k", "fieldType": "INT"}]}) == [("k", "INT")]
