"""FX441 (warning): a lookup join that matches no key of the dimension. FX440 is checked
against the real planner in tests/semantic/test_agreement.py."""
from __future__ import annotations

from tests.helpers import session_for
from tests.semantic.conftest import workspace_with_tasks

PROCTIME = "SET ods.orders.procTime = pt AS PROCTIME();\n"


def findings(make_workspace, sql: str):
    ws = workspace_with_tasks(make_workspace, {"t": PROCTIME + sql})
    session = session_for(ws)
    task = session.workspace.projects["dwd"].tasks["t"]
    return [d for d in session.analysed(task).diagnostics if d.code.startswith("FX44")]


def test_lookup_on_a_non_key_column_warns(make_workspace):
    (finding,) = findings(make_workspace, "INSERT INTO order_sink SELECT o.id, o.qty, o.price, d.brand FROM ods.orders o JOIN dim.dim_product FOR SYSTEM_TIME AS OF o.pt AS d ON o.channel = d.category;\n")
    assert finding.code == "FX441" and finding.severity == "warning"
    assert "matches (category), which covers no primary key or index of it (keys: (id))" in finding.message
    assert (finding.line, finding.col) == (2, 84)  # the dimension table after JOIN


def test_lookup_on_the_key_and_more_is_fine(make_workspace):
    assert findings(make_workspace, "INSERT INTO order_sink SELECT o.id, o.qty, o.price, d.brand FROM ods.orders o JOIN dim.dim_product FOR SYSTEM_TIME AS OF o.pt AS d ON o.product_id = d.id AND d.category = 'x';\n") == []


def test_an_on_the_model_does_not_understand_is_left_alone(make_workspace):
    sql = "INSERT INTO order_sink SELECT o.id, o.qty, o.price, d.brand FROM ods.orders o JOIN dim.dim_product FOR SYSTEM_TIME AS OF o.pt AS d ON o.product_id = d.id + 0 OR o.qty = 1;\n"
    assert [f.code for f in findings(make_workspace, sql)] == []
