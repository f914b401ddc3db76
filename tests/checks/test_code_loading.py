"""FX195: statements that make Flink load code, decided on the parsed tokens (comments cannot hide
a keyword, and a string literal is not one)."""
from __future__ import annotations

import pytest

GEN = "type: datagen\ncolumns:\n  - {name: a, type: STRING}\nwith: {connector: datagen}\n"
OUT = "type: blackhole\ncolumns:\n  - {name: a, type: STRING}\nwith: {connector: blackhole}\n"
INSERT = "INSERT INTO out SELECT a FROM gen;\n"


def findings(make_workspace, cli, task: str) -> list[str]:
    ws = make_workspace({"projects/p/tables/gen.yaml": GEN, "projects/p/tables/out.yaml": OUT, "projects/p/tasks/t.sql": task})
    result = cli("lint", str(ws))
    return [line.split("t.sql:", 1)[1] for line in result.stdout.splitlines() if " FX195 " in line]


@pytest.mark.parametrize("statement, at, keywords", [
    ("CREATE TEMPORARY FUNCTION f AS 'x.F' LANGUAGE JAVA USING JAR 'lib/f.jar';", "1:1", "USING JAR"),
    ("CREATE FUNCTION f AS 'x.F' USING /* a jar */ JAR 'lib/f.jar';", "1:1", "USING JAR"),
    ("CREATE TEMPORARY SYSTEM FUNCTION f AS 'm.f' LANGUAGE -- python\n PYTHON;", "1:1", "LANGUAGE PYTHON"),
    ("/* a catalog */ CREATE CATALOG c WITH ('type' = 'jdbc');", "1:17", "CREATE CATALOG"),
    ("-- lead\n  CREATE /* c */ CATALOG c WITH ('type' = 'hive');", "2:3", "CREATE CATALOG"),
    # the in-memory type only when it is the one type: a second `'type'` could name a plugin
    ("CREATE CATALOG c WITH ('type' = 'generic_in_memory', 'type' = 'hive');", "1:1", "CREATE CATALOG"),
    ("CREATE CATALOG c WITH ('TYPE' = 'GENERIC_IN_MEMORY_X');", "1:1", "CREATE CATALOG"),
    ("ALTER CATALOG c SET ('type' = 'generic_in_memory');", "1:1", "ALTER CATALOG"),
])
def test_statements_that_load_code_are_named_at_the_statement(make_workspace, cli, statement, at, keywords):
    (line,) = findings(make_workspace, cli, statement + "\n" + INSERT)
    assert line.startswith(f"{at}: FX195 '{keywords}' makes Flink load code"), line


@pytest.mark.parametrize("task", [
    "CREATE TEMPORARY FUNCTION f AS 'x.F' LANGUAGE JAVA;\n" + INSERT,  # a class: planned as a stand-in
    "INSERT INTO out SELECT 'USING JAR' FROM gen;\n",  # a literal is not a keyword
    "-- CREATE CATALOG c\n" + INSERT,  # a comment is not a statement
    # Flink's own in-memory catalog loads no outside code (engine_settings.SAFE_CATALOG_TYPES)
    "CREATE CATALOG c COMMENT 'scratch' WITH ('type' = 'generic_in_memory', 'default-database' = 'd');\n" + INSERT,
    "CREATE /* c */ CATALOG IF NOT EXISTS c WITH ('type'='generic_in_memory');\n" + INSERT,
])
def test_what_loads_no_code_is_not_named(make_workspace, cli, task):
    assert findings(make_workspace, cli, task) == []
