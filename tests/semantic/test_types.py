"""The model's output types are the ones Flink derives (the planner's resolved schema)."""
from __future__ import annotations

import pytest

from tests.facts.verdict import verdicts
from tests.helpers import session_for

# expression over ods.orders -> the type flinkx infers (nullability aside)
EXPRESSIONS = {
    "qty": "INT",
    "price * qty": "DECIMAL(21, 2)",
    "price + price": "DECIMAL(11, 2)",
    "price / qty": "DECIMAL(21, 13)",
    "qty + id": "BIGINT",
    "qty * 1.5": "DECIMAL(13, 1)",
    "qty + 2.5e0": "DOUBLE",
    "CAST(price AS DECIMAL(16, 2))": "DECIMAL(16, 2)",
    "COUNT(*)": "BIGINT",
    "SUM(qty)": "INT",
    "SUM(price)": "DECIMAL(38, 2)",
    "MAX(channel)": "STRING",
    "LOWER(channel)": "STRING",
    "COALESCE(channel, 'x')": "STRING",
    "CASE WHEN qty > 1 THEN id ELSE 0 END": "BIGINT",
    "qty > 1": "BOOLEAN",
    "CHAR_LENGTH(channel)": "INT",
    "ts": "TIMESTAMP(3)",
    "DATE_FORMAT(ts, 'yyyy')": "STRING",
    "'abc'": "CHAR(3)",
    "12": "INT",
}
AGGREGATES = {"COUNT(*)", "SUM(qty)", "SUM(price)", "MAX(channel)"}


def _strip_null(text: str) -> str:
    return text.replace(" NOT NULL", "")


@pytest.fixture(scope="module")
def typed(tmp_path_factory):
    import textwrap

    from tests.conftest import write_tree
    from tests.semantic.conftest import TABLES

    root = tmp_path_factory.mktemp("types") / "ws"
    tasks = {}
    for i, expr in enumerate(EXPRESSIONS):
        group = " GROUP BY channel" if expr in AGGREGATES else ""
        tasks[f"projects/dwd/tasks/e{i}.sql"] = f"SELECT {expr} AS x FROM ods.orders{group};\n"
    write_tree(root, {k: textwrap.dedent(v) for k, v in {**TABLES, **tasks}.items()})
    session = session_for(root)
    ours, cases = {}, {}
    for i, expr in enumerate(EXPRESSIONS):
        task = session.workspace.projects["dwd"].tasks[f"e{i}"]
        found = session.analysed(task).statements[-1].outputs[0].type
        ours[expr] = found.format() if found else None
        script = session.compiled(task)
        cases[f"e{i}"] = [s.text for s in script.statements[:-1] if s.kind == "create_table"] + [script.statements[-1].text]
    flinks = verdicts("1.20", cases, "--schema")  # Flink's own resolved schema, real connectors
    return {expr: (ours[expr], flinks[f"e{i}"].removeprefix("TYPE ")) for i, expr in enumerate(EXPRESSIONS)}


@pytest.mark.flink
@pytest.mark.parametrize("expr", list(EXPRESSIONS))
def test_type_matches_flink(typed, expr):
    ours, flinks = typed[expr]
    assert _strip_null(flinks) == EXPRESSIONS[expr], f"Flink says {flinks}: the table is wrong"
    assert ours == flinks  # nullability included

