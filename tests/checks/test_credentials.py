"""FX480: literal credentials (seeds 001 and 002), found in YAML, SET and hints, never printed."""
from __future__ import annotations

TABLE = """type: jdbc
columns:
  - {{name: id, type: BIGINT}}
with: {{connector: jdbc, url: "jdbc:mysql://db/x", table-name: t, username: u, password: {password}}}
"""
SINK = "type: print\ncolumns:\n  - {name: id, type: BIGINT}\nwith: {connector: print}\n"


def lint(make_workspace, cli, password: str, task: str):
    ws = make_workspace({
        "flinkx.yaml": "engine: flink\nsecrets: [db_password]\n",
        "projects/p/tables/dim.yaml": TABLE.format(password=password),
        "projects/p/tables/sink.yaml": SINK,
        "projects/p/tasks/t.sql": task,
    })
    return cli("lint", str(ws))


def test_literal_in_yaml(make_workspace, cli):
    result = lint(make_workspace, cli, "hunter2", "INSERT INTO sink SELECT id FROM dim;\n")
    (line,) = [l for l in result.stdout.splitlines() if "FX480" in l]
    assert "dim.yaml:4:" in line and "'password' of p.dim is a literal credential" in line
    assert "hunter2" not in result.stdout + result.stderr


def test_secret_placeholder_is_fine(make_workspace, cli):
    result = lint(make_workspace, cli, '"${db_password}"', "INSERT INTO sink SELECT id FROM dim;\n")
    assert " FX480 " not in result.stdout and result.exit_code == 0, result.lines


def test_literal_in_set_and_hint(make_workspace, cli):
    task = "SET dim.password = 's3cret';\nINSERT INTO sink SELECT id FROM dim /*+ OPTIONS('password' = 'other') */;\n"
    result = lint(make_workspace, cli, '"${db_password}"', task)
    found = [l for l in result.stdout.splitlines() if "FX480" in l]
    assert [l.split(":")[1] for l in found] == ["1", "2"], found
    assert "s3cret" not in result.stdout and "other'" not in result.stdout
