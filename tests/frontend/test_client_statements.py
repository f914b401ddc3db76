"""Statements of Flink's SQL client are named as such, not "cannot parse" (frontend/client_statements.py).

Flink is the oracle both ways: its parser takes every one of them (so the message must not say
they are wrong SQL), and flinkx's grammar has no rule for any (a task is one job).
"""
from __future__ import annotations

import pytest

from flinkx_build.frontend.client_statements import client_statement

CLIENT = {
    "SHOW CREATE": "SHOW CREATE TABLE src",
    "DESC": "DESC src",
    "RESET": "RESET 'table.local-time-zone'",
    "ADD JAR": "ADD JAR '/opt/udf.jar'",
    "REMOVE JAR": "REMOVE JAR '/opt/udf.jar'",
    "LOAD MODULE": "LOAD MODULE hive WITH ('hive-version' = '3.1.3')",
    "UNLOAD MODULE": "UNLOAD MODULE hive",
    "USE MODULES": "USE MODULES hive, core",
    "ANALYZE TABLE": "ANALYZE TABLE src COMPUTE STATISTICS",
    "CALL": "CALL cat.sys.compact('db.t')",
    "STOP JOB": "STOP JOB '228d70913eab60dda85c5e7f78b5782c' WITH SAVEPOINT",
    "COMPILE PLAN": "COMPILE PLAN '/tmp/plan.json' FOR INSERT INTO snk SELECT id FROM src",
    "COMPILE AND EXECUTE PLAN": "COMPILE AND EXECUTE PLAN '/tmp/plan.json' FOR INSERT INTO snk SELECT id FROM src",
    "EXECUTE PLAN": "EXECUTE PLAN '/tmp/plan.json'",
}


def _workspace(make_workspace, statements: list[str]):
    return make_workspace({
        "projects/p/project.yaml": "name: p\n",
        "projects/p/tables/src.yaml": "name: src\ntype: datagen\ncolumns:\n  - {name: id, type: BIGINT}\n",
        "projects/p/tables/snk.yaml": "name: snk\ntype: blackhole\ncolumns:\n  - {name: id, type: BIGINT}\n",
        "projects/p/tasks/t.sql": "".join(f"-- statement {i}\n{sql};\n" for i, sql in enumerate(statements)),
    })


def test_each_is_named_at_its_first_keyword_with_what_to_do(make_workspace, cli):
    ws = _workspace(make_workspace, list(CLIENT.values()))
    result = cli("lint", str(ws))
    assert result.exit_code == 1
    findings = [line for line in result.lines if " FX120 " in line]
    assert len(findings) == len(CLIENT), result.lines
    for index, (line, name) in enumerate(zip(findings, CLIENT)):
        assert f"t.sql:{2 * index + 2}:1: FX120 '{name}' is a SQL client statement, not part of a job (" in line, line
    assert "deploy.jars" in findings[list(CLIENT).index("ADD JAR")]
    assert "SQL client:" in findings[list(CLIENT).index("SHOW CREATE")]
    assert cli("build", str(ws)).exit_code == 1


def test_other_statements_that_do_not_parse_keep_their_message(make_workspace, cli):
    ws = _workspace(make_workspace, ["EXPLAIN ESTIMATED_COST SELEC id FROM src", "SELEC id FROM src",
                                     "INSERT INTO snk SELECT id FROM src"])
    lines = [line for line in cli("lint", str(ws)).lines if " FX120 " in line]
    assert len(lines) == 2 and not any("SQL client" in line for line in lines), lines
    assert client_statement("describe_table_counts") is None  # a word that begins like one is not one
    assert client_statement("/* c */ add  jar 'x'").name == "ADD JAR"




@pytest.mark.flink
@pytest.mark.parametrize("sql", [pytest.param(s, id=k) for k, s in CLIENT.items()])
def test_flink_parses_it(flink, sql):
    assert flink.parse_only(sql) is None
