"""One object per task and one per statement: resolve makes them, semantic completes them.

Issue 27: the analysis was two half-models (a resolved task and a semantic model per task), and
every check, lint, lineage and the summary received or looked up both.
"""
from __future__ import annotations

import dataclasses
import inspect
import typing

from flinkx_build.checks import REGISTRY
from flinkx_build.resolve import analysed as analysed_module
from flinkx_build.resolve.analysed import AnalysedStatement
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.semantic import analyze
from tests.helpers import session_for
from tests.semantic.conftest import workspace_with_tasks

SQL = "INSERT INTO order_sink SELECT o.id, o.qty, o.price, o.brnd FROM ods.orders o;\n"
RESOLVE_FIELDS = {"parsed", "tables", "functions", "in_statement_set", "emit"}


def _analysed(make_workspace, sql: str = SQL) -> tuple[object, AnalysedTask]:
    session = session_for(workspace_with_tasks(make_workspace, {"t": sql}))
    return session, session.analysed(session.workspace.projects["dwd"].tasks["t"])


def test_a_statement_holds_what_resolve_bound_and_what_semantic_found(make_workspace):
    _, task = _analysed(make_workspace)
    (statement,) = task.statements
    assert isinstance(statement, AnalysedStatement)
    assert sorted(b.key for b in statement.tables) == ["dwd.order_sink", "ods.orders"]  # resolve
    assert statement.sink_table().key == "dwd.order_sink" and [r.role for r, _ in statement.table_refs()].count("write") == 1
    assert statement.sink == "dwd.order_sink" and [o.name for o in statement.outputs][:2] == ["id", "qty"]  # semantic
    assert [b.status for b in task.bindings()].count("unknown") == 1  # o.brnd
    assert "FX401" in [d.code for d in task.diagnostics]  # the checks read the same object


def test_analysing_again_gives_the_same_facts(make_workspace):
    session, task = _analysed(make_workspace)
    before = [(b.status, b.ref.parts) for b in task.bindings()], task.column_lineage()
    analyze(session.workspace, task)
    assert ([(b.status, b.ref.parts) for b in task.bindings()], task.column_lineage()) == before


def test_clearing_resets_every_column_fact_and_keeps_what_resolve_bound(make_workspace):
    _, task = _analysed(make_workspace)
    (statement,) = task.statements
    tables = list(statement.tables)
    statement.clear_column_facts()
    fresh = AnalysedStatement(statement.parsed)
    for f in dataclasses.fields(AnalysedStatement):
        if f.name not in RESOLVE_FIELDS:
            assert getattr(statement, f.name) == getattr(fresh, f.name), f.name
    assert statement.tables == tables


def test_no_object_points_back_at_its_task():
    """A statement does not point at its task, nor anything in the model at a task or a cache."""
    own = [c for c in vars(analysed_module).values() if inspect.isclass(c) and c.__module__ == analysed_module.__name__]
    assert AnalysedStatement in own and AnalysedTask in own
    for cls in own:
        hints = typing.get_type_hints(cls, vars(analysed_module))
        for name, hint in hints.items():
            text = str(hint)
            assert "AnalysedTask" not in text and "Cache" not in text and "Session" not in text, f"{cls.__name__}.{name}: {text}"


def test_every_check_takes_the_workspace_and_the_one_analysed_task():
    for check in REGISTRY:
        if check.run is not None:
            assert list(inspect.signature(check.run).parameters) == ["ws", "analysed"], check.name
