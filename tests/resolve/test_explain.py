"""`flinkx explain` on seed 000's five-INSERT example: keys per query, each with its source line.

docs/decisions.md explains why table3 and table5 follow the seed's stated
rules (hint > SET, SET fills the rest) rather than its comments.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "seed000_five_inserts"
TASK = "projects/p/tasks/five_inserts.sql"


@pytest.fixture
def explained(tmp_path, cli):
    ws = tmp_path / "five"
    shutil.copytree(FIXTURE, ws)
    result = cli("explain", str(ws), "p/five_inserts", "--format", "json")
    assert result.exit_code == 0, result.lines
    data = json.loads(result.stdout)
    by_line = {}
    for table in data["tables"]:
        if table["table"] == "p.dim_table":
            for line in table["used_at_lines"]:
                by_line[line] = table
    return by_line


def short(origin: str) -> str:
    """'set /tmp/.../tasks/five_inserts.sql:1' -> 'set five_inserts.sql:1'"""
    layer, path = origin.split(" ", 1)
    return f"{layer} {path.rsplit('/', 1)[-1]}"


def keys(table):
    return {k: (table[k]["columns"], short(table[k]["from"])) for k in ("primary_key", "index", "unique_index") if table[k]["columns"]}


def test_five_inserts_get_their_effective_keys_with_sources(explained):
    set_line = "set five_inserts.sql:1"
    assert keys(explained[4]) == {"index": (["field1"], set_line)}  # table1
    assert keys(explained[10]) == {"index": (["field2"], "hint five_inserts.sql:12")}  # table2
    assert keys(explained[16]) == {"primary_key": (["field2"], "hint five_inserts.sql:18"), "index": (["field1"], set_line)}  # table3
    assert keys(explained[22]) == {"primary_key": (["field1"], "hint five_inserts.sql:24"), "index": (["field1"], set_line)}  # table4
    assert keys(explained[28]) == {"index": (["field1"], set_line), "unique_index": (["field2", "field3"], "hint five_inserts.sql:30")}  # table5


def test_each_insert_compiles_against_its_own_ddl(tmp_path, cli):
    ws = tmp_path / "five"
    shutil.copytree(FIXTURE, ws)
    assert cli("build", str(ws)).exit_code == 0
    sql = " ".join((ws / "build" / "p" / "five_inserts.sql").read_text().split())
    assert "CREATE TABLE dim_table__3 ( field1 VARCHAR, field2 VARCHAR, field3 VARCHAR, PRIMARY KEY (field2), INDEX (field1) )" in sql
    assert "INSERT INTO table3 SELECT source_table.* FROM source_table JOIN dim_table__3 AS dim_table FOR SYSTEM_TIME AS OF PROCTIME()" not in sql
    assert "JOIN dim_table__3 FOR SYSTEM_TIME AS OF PROCTIME() AS dim_table ON" in sql


def test_text_format_names_layer_and_line(tmp_path, cli):
    ws = tmp_path / "five"
    shutil.copytree(FIXTURE, ws)
    result = cli("explain", str(ws), "p/five_inserts")
    assert result.exit_code == 0
    assert "primary key: (field2) <- hint" in result.stdout and "five_inserts.sql:18" in result.stdout


def test_unknown_task_is_a_usage_error(tmp_path, cli):
    ws = tmp_path / "five"
    shutil.copytree(FIXTURE, ws)
    result = cli("explain", str(ws), "p/five_insert")
    assert result.exit_code == 2
    assert "unknown task 'p/five_insert' (did you mean 'p/five_inserts'?)" in result.stderr


def test_options_hint_wins_over_set_for_its_query(make_workspace, cli):
    """Issue 10, check 14: explain shows the value Flink runs, the hint's, with the hint's line."""
    ws = make_workspace({
        "projects/p/tables/gen.yaml": "type: datagen\ncolumns:\n  - {name: a, type: INT}\nwith: {connector: datagen}\n",
        "projects/p/tables/out.yaml": "type: blackhole\ncolumns:\n  - {name: a, type: INT}\nwith: {connector: blackhole}\n",
        "projects/p/tasks/t.sql": (
            "SET gen.`rows-per-second` = '5';\n"
            "INSERT INTO out SELECT a FROM gen /*+ OPTIONS('rows-per-second' = '9') */;\n"
            "INSERT INTO out SELECT a FROM gen;\n"
        ),
    })
    result = cli("explain", str(ws), "p/t", "--format", "json")
    assert result.exit_code == 0, result.lines
    gen = [t for t in json.loads(result.stdout)["tables"] if t["table"] == "p.gen"]
    by_lines = {tuple(t["used_at_lines"]): t["options"]["rows-per-second"] for t in gen}
    assert by_lines[(2,)]["value"] == "9" and by_lines[(2,)]["from"].startswith("hint ") and by_lines[(2,)]["from"].endswith("t.sql:2")
    assert by_lines[(3,)]["value"] == "5" and by_lines[(3,)]["from"].startswith("set ")
