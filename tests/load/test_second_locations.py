"""Issue 16 (messages): a locked-option error points to the `locked:` line, and explain credits a
primary key to its `primary_key:` line, not to line 1 of the YAML."""
from __future__ import annotations

import json

TABLE = """# a dimension
name: dim
type: datagen
columns:
  - {name: id, type: BIGINT}
  - {name: v, type: STRING}
primary_key: [id]
with: {connector: datagen, rows-per-second: "1"}
locked: [rows-per-second]
"""
OUT = "type: blackhole\ncolumns:\n  - {name: id, type: BIGINT}\nwith: {connector: blackhole}\n"


def workspace(make_workspace, task: str):
    return make_workspace({"projects/p/tables/dim.yaml": TABLE, "projects/p/tables/out.yaml": OUT, "projects/p/tasks/t.sql": task})


def test_locked_option_names_the_locked_line(make_workspace, cli):
    ws = workspace(make_workspace, "SET dim.`rows-per-second` = '5';\nINSERT INTO out SELECT id FROM dim;\n")
    result = cli("build", str(ws))
    (line,) = [l for l in result.stdout.splitlines() if " FX160 " in l]
    assert line.endswith("dim.yaml:9)") and "(locked by the meta table at " in line


def test_explain_credits_the_primary_key_line(make_workspace, cli):
    ws = workspace(make_workspace, "INSERT INTO out SELECT id FROM dim;\n")
    result = cli("explain", str(ws), "p/t", "--format", "json")
    dim = next(t for t in json.loads(result.stdout)["tables"] if t["table"] == "p.dim")
    assert dim["primary_key"]["from"].endswith("dim.yaml:7")
