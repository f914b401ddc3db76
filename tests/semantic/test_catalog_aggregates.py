"""Aggregates are the planner's (flink_data: isAggregator() of every supported version), not a hand
list: a global STDDEV emits updates, so writing it to an append-only sink is FX430, as Flink says
("doesn't support consuming update changes"). The hand list lacked STDDEV and VARIANCE."""
from __future__ import annotations

import pytest

from flinkx_build.semantic.functions import AGGREGATES
from flinkx_build.semantic.functions import WINDOW_ONLY
from tests.helpers import session_for
from tests.semantic.conftest import flink_rejects
from tests.semantic.conftest import workspace_with_tasks

SQL = ("INSERT INTO ods.events_kafka SELECT CAST(1 AS BIGINT), 'all', CAST({fn}(qty) AS BIGINT), "
       "CAST(NULL AS TIMESTAMP(3)) FROM ods.orders;\n")


def test_the_sets_come_from_the_planner():
    assert {"STDDEV", "VARIANCE", "GROUPING", "COUNT", "LISTAGG", "PERCENTILE"} <= AGGREGATES
    assert WINDOW_ONLY == {"ROW_NUMBER", "RANK", "DENSE_RANK", "PERCENT_RANK", "CUME_DIST", "NTILE", "LEAD", "LAG"}
    assert not AGGREGATES & WINDOW_ONLY


@pytest.mark.parametrize("fn", ["STDDEV", "VARIANCE"])
def test_a_global_stddev_into_an_append_only_sink(make_workspace, fn):
    session = session_for(workspace_with_tasks(make_workspace, {"t": SQL.format(fn=fn)}))
    task = session.workspace.projects["dwd"].tasks["t"]
    assert "FX430" in [d.code for d in session.analysed(task).diagnostics]


@pytest.mark.flink
def test_the_planner_agrees(make_workspace, flink):
    session = session_for(workspace_with_tasks(make_workspace, {"t": SQL.format(fn="STDDEV")}))
    task = session.workspace.projects["dwd"].tasks["t"]
    assert any("update changes" in m for m in flink_rejects(flink, session, task))
