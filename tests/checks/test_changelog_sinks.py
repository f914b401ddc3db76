"""FX431: upsert tables need a key (Flink's upsert-kafka factory and JDBC sink refuse otherwise).

The validator's stand-in connector does not play these factory checks, so these cases
are flinkx's alone; FX430 (updates into an append-only sink) is checked against the
real planner in tests/semantic/test_agreement.py.
"""
from __future__ import annotations

from tests.helpers import session_for
from tests.semantic.conftest import workspace_with_tasks

JDBC_NOKEY = """
    type: jdbc
    columns:
      - {name: channel, type: STRING}
      - {name: cnt, type: BIGINT}
    with: {connector: jdbc, url: "jdbc:mysql://db:3306/dw", table-name: stats}
"""


def codes(make_workspace, sql: str, extra: dict | None = None) -> list[str]:
    ws = workspace_with_tasks(make_workspace, {"t": sql})
    for rel, text in (extra or {}).items():
        (ws / rel).write_text(text)
    session = session_for(ws)
    task = session.workspace.projects["dwd"].tasks["t"]
    return [d.code for d in session.analysed(task).diagnostics if d.code.startswith("FX43")]


def test_upsert_kafka_without_key(make_workspace):
    assert codes(make_workspace, "INSERT INTO upsert_nokey SELECT channel, COUNT(*) FROM ods.orders GROUP BY channel;\n") == ["FX431"]


def test_upsert_kafka_with_key(make_workspace):
    assert codes(make_workspace, "INSERT INTO upsert_stats SELECT channel, COUNT(*) FROM ods.orders GROUP BY channel;\n") == []


def test_jdbc_sink_fed_updates_without_key(make_workspace, tmp_path):
    import textwrap

    extra = {"projects/dwd/tables/jdbc_stats.yaml": textwrap.dedent(JDBC_NOKEY)}
    assert codes(make_workspace, "INSERT INTO jdbc_stats SELECT channel, COUNT(*) FROM ods.orders GROUP BY channel;\n", extra) == ["FX431"]
    # appends into a keyless jdbc table are fine
    assert codes(make_workspace, "INSERT INTO jdbc_stats SELECT channel, id FROM ods.orders;\n", extra) == []
