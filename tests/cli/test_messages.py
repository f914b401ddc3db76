"""Messages that say how to fix: a type/connector mismatch and a malformed type, at their lines."""
from __future__ import annotations

import pytest

from flinkx_build.load.connectors import connector_mismatch

TASK = "CREATE TEMPORARY TABLE o (id STRING) WITH ('connector' = 'print');\nINSERT INTO o SELECT id FROM t;\n"


def table_ws(make_workspace, table: str):
    return make_workspace({"projects/p/tables/t.yaml": table, "projects/p/tasks/x.sql": TASK})


def test_kafka_table_with_a_jdbc_connector(make_workspace, cli):
    root = table_ws(make_workspace, "type: kafka\ncolumns: [{name: id, type: STRING}]\nwith:\n  topic: t\n  connector: jdbc\n")
    result = cli("lint", str(root), "--select", "FX104")
    assert result.exit_code == 1
    [line] = result.stdout.splitlines()
    assert line.endswith("projects/p/tables/t.yaml:5:14: FX104 connector 'jdbc' does not match the table's type 'kafka' "
                         "(set connector: kafka or change type to jdbc)")


@pytest.mark.parametrize("table_type, connector", [("kafka", "kafka"), ("hbase", "hbase-2.2"), ("mirror", "kafka"), ("rds", "jdbc"),
                                                   ("kafka", "${conn}"), ("jdbc", "my-own-connector")])
def test_matching_or_unknown_pairs_pass(table_type, connector):
    assert connector_mismatch(table_type, connector) is None


def test_upsert_kafka_is_not_kafka():
    assert connector_mismatch("upsert-kafka", "kafka") is not None


def test_decimal_without_a_comma(make_workspace, cli):
    root = table_ws(make_workspace, "type: datagen\ncolumns:\n  - {name: id, type: STRING}\n  - {name: amount, type: DECIMAL(16 2)}\nwith: {connector: datagen}\n")
    result = cli("build", str(root), "--check")
    assert result.exit_code == 1
    [line] = [line for line in result.stdout.splitlines() if "FX107" in line]
    assert line.endswith("projects/p/tables/t.yaml:4:26: FX107 'DECIMAL(16 2)' is not a Flink data type "
                         "(write the parameters as numbers separated by commas, e.g. DECIMAL(16, 2))")


@pytest.mark.parametrize("good", ["DECIMAL(16, 2)", "DECIMAL(16,2)", "TIMESTAMP(3) WITH LOCAL TIME ZONE", "VARCHAR(20)", "ROW<a DECIMAL(10, 2)>"])
def test_well_formed_parameters_pass(make_workspace, cli, good):
    root = table_ws(make_workspace, f"type: datagen\ncolumns:\n  - {{name: id, type: STRING}}\n  - {{name: v, type: \"{good}\"}}\nwith: {{connector: datagen}}\n")
    result = cli("lint", str(root), "--select", "FX107")
    assert result.exit_code == 0 and result.stdout == "", result.stdout
