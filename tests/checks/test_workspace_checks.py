"""FX470, FX471 (tasks that share a sink or a Kafka consumer group) and the opt-in FX495/FX496."""
from __future__ import annotations

KAFKA = """type: kafka
columns:
  - {name: a, type: INT}
with: {connector: kafka, topic: events, properties.bootstrap.servers: "k:9092", properties.group.id: shared, format: json}
"""
OUT = "type: blackhole\ncolumns:\n  - {name: a, type: INT}\nwith: {connector: blackhole}\n"
FN = "class: com.acme.Fn\nreturns: INT\n"


def run(make_workspace, cli, tasks: dict[str, str], *args: str):
    files = {"projects/p/tables/events.yaml": KAFKA, "projects/p/tables/out.yaml": OUT, "projects/p/tables/spare.yaml": OUT,
             "projects/p/functions/fn.yaml": FN}
    files.update({f"projects/p/tasks/{n}.sql": sql for n, sql in tasks.items()})
    return cli("lint", str(make_workspace(files)), *args)


def lines(result, code):
    return [line for line in result.stdout.splitlines() if f" {code} " in line]


def test_two_tasks_write_one_table(make_workspace, cli):
    result = run(make_workspace, cli, {"a": "INSERT INTO out SELECT a FROM events /*+ OPTIONS('properties.group.id' = 'a') */;\n",
                                       "b": "INSERT INTO out SELECT a FROM events /*+ OPTIONS('properties.group.id' = 'b') */;\n"})
    found = lines(result, "FX470")
    assert len(found) == 2 and any("a.sql:1:13" in f and "b.sql:1" in f for f in found)
    assert lines(result, "FX471") == []


def test_noqa_silences_an_intended_second_writer(make_workspace, cli):
    result = run(make_workspace, cli, {"a": "INSERT INTO out  -- noqa: FX470\nSELECT a FROM events /*+ OPTIONS('properties.group.id' = 'a') */;\n",
                                       "b": "INSERT INTO out  -- noqa: FX470\nSELECT a FROM events /*+ OPTIONS('properties.group.id' = 'b') */;\n"})
    assert lines(result, "FX470") == []


def test_shared_group_id(make_workspace, cli):
    result = run(make_workspace, cli, {"a": "INSERT INTO out SELECT a FROM events;\n", "b": "INSERT INTO spare SELECT a FROM events;\n"})
    found = lines(result, "FX471")
    assert len(found) == 2 and "events.yaml:4:" in found[0] and "'shared'" in found[0]


def test_unused_tables_and_functions_only_when_asked(make_workspace, cli):
    tasks = {"a": "INSERT INTO out SELECT a FROM events;\n"}
    assert lines(run(make_workspace, cli, tasks), "FX495") == []
    asked = run(make_workspace, cli, tasks, "--select", "FX495", "--select", "FX496")
    assert [l.split(": FX")[0].rsplit("/", 1)[-1] for l in lines(asked, "FX495")] == ["spare.yaml:1:1"]
    assert len(lines(asked, "FX496")) == 1 and asked.exit_code == 0
