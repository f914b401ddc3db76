"""Bad inputs: one `path:line:col: FXnnn message` line each, exit 1, earlier build intact."""
from __future__ import annotations

import re

import pytest

BASE = {
    "flinkx.yaml": "engine: flink\nvariables: {env: prod}\n",
    "projects/ods/tables/orders.yaml": """
        type: datagen
        columns:
          - {name: order_id, type: STRING}
          - {name: amount, type: "DECIMAL(10, 2)"}
        with: {connector: datagen}
    """,
    "projects/ods/tables/order_sink.yaml": """
        type: blackhole
        columns:
          - {name: order_id, type: STRING}
          - {name: amount, type: "DECIMAL(10, 2)"}
        with: {connector: blackhole}
    """,
    "projects/ods/functions/clean_id.yaml": "class: com.acme.CleanId\nreturns: STRING\n",
    "projects/ods/tasks/copy.sql": "INSERT INTO order_sink SELECT order_id, amount FROM orders;\n",
}

LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<code>FX\d{3}) (?P<msg>.+)$")


@pytest.fixture
def built(make_workspace, cli):
    ws = make_workspace(BASE)
    result = cli("build", str(ws))
    assert result.exit_code == 0, result.lines
    before = (ws / "build" / "ods" / "copy.sql").read_text()
    return ws, before


def break_and_build(cli, ws, rel, text):
    path = ws / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return cli("build", str(ws))


def only_error(result):
    assert result.exit_code == 1, result.lines
    assert "Traceback" not in result.stdout + result.stderr
    errors = [LINE.match(line) for line in result.stdout.splitlines()]  # findings on stdout
    assert errors and all(errors), result.stdout
    assert result.stderr.startswith("flinkx: ") and len(result.stderr.splitlines()) == 1  # the summary
    return errors


@pytest.mark.parametrize(
    "rel, text, code, where, message",
    [
        ("projects/ods/tasks/copy.sql", "INSERT INTO order_sink\nSELECT order_id, amount FROM ordres;\n", "FX130", (2, 30), "unknown table 'ordres' in project 'ods' (did you mean 'orders'?)"),
        ("projects/ods/tasks/copy.sql", "INSERT INTO order_sink SELECT order_id, amount FROM odz.orders;\n", "FX131", (1, 53), "unknown project 'odz' (did you mean 'ods'?)"),
        ("projects/ods/tasks/copy.sql", "INSERT INTO order_sink SELECT ods:clean_ic(order_id), amount FROM orders;\n", "FX140", (1, 31), "function 'clean_ic' not found in project 'ods' (did you mean 'clean_id'?)"),
        ("projects/ods/tasks/copy.sql", "INSERT INTO order_sink SELECT order_id, amount FROM orders WHERE '${evn}' = 'prod';\n", "FX110", (1, 67), "unknown variable '${evn}' (did you mean 'env'?)"),
        ("projects/ods/tasks/copy.sql", "INSERT INTO order_sink SELECT order_id, amount FROM orders;\nSELECT FROM WHERE;\n", "FX120", (2, 1), "cannot parse"),
        ("projects/ods/tables/orders.yaml", "type: datagen\ncolumns:\n  - {name: order_id, type: STRING\nwith: {connector: datagen}\n", "FX101", None, "malformed YAML"),
        ("projects/ods/tables/orders.yaml", "type: datagen\nwith: {connector: datagen}\n", "FX102", (1, 1), "meta table 'orders' has no 'columns'"),
    ],
)
def test_bad_input_gives_one_positioned_line(built, cli, rel, text, code, where, message):
    ws, before = built
    result = break_and_build(cli, ws, rel, text)
    errors = only_error(result)
    ours = [m for m in errors if m["code"] == code]
    assert ours, result.stdout
    first = ours[0]
    assert first["path"].endswith(rel)
    if where:
        assert (int(first["line"]), int(first["col"])) == where
    assert message in first["msg"]
    assert (ws / "build" / "ods" / "copy.sql").read_text() == before


def test_unknown_workspace_is_a_usage_error(cli, tmp_path):
    result = cli("build", str(tmp_path / "nope"))
    assert result.exit_code == 2
    assert "no such folder" in result.stderr


def test_bad_engine_is_a_configuration_error(make_workspace, cli):
    ws = make_workspace({**BASE, "flinkx.yaml": "engine: flinq\n"})
    result = cli("build", str(ws))
    assert result.exit_code == 2
    assert "FX100 engine must be one of flink, vvr, blink, mrs, not 'flinq' (did you mean 'flink'?)" in result.stderr


def test_a_cycle_of_tasks_fails_the_build(make_workspace, cli):
    ws = make_workspace({
        **BASE,
        "projects/ods/tasks/back.sql": "INSERT INTO orders SELECT order_id, amount FROM order_sink;\n",
    })
    result = cli("build", str(ws))
    assert result.exit_code == 1
    [line] = [l for l in result.stdout.splitlines() if "FX200" in l]
    assert "dependency cycle" in line and "task.ods.back" in line and "task.ods.copy" in line


@pytest.mark.parametrize(
    "task, message",
    [
        ("BEGIN STATEMENT SET;\nINSERT INTO order_sink SELECT order_id, amount FROM orders;\n", "1:1: FX120 BEGIN STATEMENT SET is not closed by END;"),
        ("INSERT INTO order_sink SELECT order_id, amount FROM orders;\nEND;\n", "2:1: FX120 END without BEGIN STATEMENT SET"),
        ("SET orders.tableType = 'KAFKA';\nINSERT INTO order_sink SELECT order_id, amount FROM orders;\n", "FX132 tableType 'KAFKA' does not match ods.orders, a DATAGEN table"),
    ],
)
def test_statement_set_and_table_type_mistakes(make_workspace, cli, task, message):
    ws = make_workspace({**BASE, "projects/ods/tasks/copy.sql": task})
    result = cli("build", str(ws))
    assert result.exit_code == 1
    assert message in result.stdout
