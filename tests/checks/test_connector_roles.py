"""FX432/FX433/FX443: what a connector's table can be (issue 44 case 7: an INSERT into a mysql-cdc table was silent,
the stand-in connector takes any direction). The connectors in Flink's jars are judged by their factories'
interfaces (the generated facts), held here to Flink 1.20's own planner with the real connectors."""
from __future__ import annotations

import pytest

from flinkx_build.connectors import catalog
from flinkx_build.connectors import roles_for
from flinkx_build.flink_data import facts_for
from flinkx_build.validate.engine import FlinkSession
from flinkx_build.validate.engine import flink_available
from flinkx_build.validate.findings import java_messages
from flinkx_build.validate.findings import summarize
from tests.helpers import edited_example
from tests.helpers import one_verdict

SYNC = "projects/dim/tasks/sync_dim_user.sql"


def test_an_insert_into_a_mysql_cdc_table_is_one_error(cli, tmp_path):
    ws = edited_example(tmp_path, [(SYNC, "", "\nINSERT INTO ods.orders\nSELECT CAST(user_id AS STRING), user_id, 'x', "
                                              "CAST(0 AS DECIMAL(12, 2)), CAST(0 AS DECIMAL(12, 2)), 'x', updated_at, updated_at, "
                                              "updated_at\nFROM ods.users;\n")])
    assert one_verdict(cli, ws) == [
        f"{SYNC}:30:13: FX432 ods.orders is a 'mysql-cdc' table, which can only be read: Flink refuses to write it "
        "(\"Connector 'mysql-cdc' can only be used as a source\") (write to a table whose connector is a sink (kafka, "
        "upsert-kafka, jdbc, ...))"]


def test_a_lookup_of_a_kafka_table_is_one_error_at_the_table(cli, tmp_path):
    enrich = "projects/dwd/tasks/orders/enrich_orders.sql"
    ws = edited_example(tmp_path, [(enrich, "LEFT JOIN dim.dim_product FOR SYSTEM_TIME AS OF o.proc_time AS p\n  ON o.product_id = p.product_id",
                                    "LEFT JOIN ods.kafka_refunds FOR SYSTEM_TIME AS OF o.proc_time AS p\n  ON o.order_id = p.order_id")])
    lines = one_verdict(cli, ws)  # (the dimension's columns are then unknown too: FX401s elsewhere)
    assert [line.split(": ")[1].split()[0] for line in lines if ":56:" in line] == ["FX443"], lines
    assert not [line for line in lines if " FX441 " in line]  # no "matches no key" beside it


def test_the_documented_roles_say_where_they_come_from():
    documented = {name: spec.roles for name, spec in catalog().connectors.items() if spec.roles is not None}
    assert {"kafka", "upsert-kafka", "jdbc", "mysql-cdc", "hbase-2.2"} <= set(documented)
    assert all(r.source_of_fact for r in documented.values())
    assert documented["mysql-cdc"].sink is False and documented["jdbc"].lookup is True and documented["kafka"].lookup is False


@pytest.mark.flink
@pytest.mark.skipif(flink_available() is not None, reason=f"needs Flink 1.20: {flink_available()}")
@pytest.mark.parametrize("connector", ["datagen", "print", "blackhole", "filesystem"])
def test_the_roles_of_flinks_own_connectors_are_what_its_planner_does(tmp_path, connector):
    options = {"connector": connector, **({"path": str(tmp_path), "format": "csv"} if connector == "filesystem" else {})}
    roles = roles_for(options, "", facts_for("1.20").factories)
    with_ = ", ".join(f"'{k}' = '{v}'" for k, v in options.items())
    with FlinkSession(tmp_path / "logs") as flink:
        outcomes = {}
        for role, sql in (("source", "SELECT * FROM t"), ("sink", "INSERT INTO t SELECT 1")):
            tenv = flink._new_tenv("stream")  # Flink's own connectors: no stand-in
            tenv.executeSql(f"CREATE TEMPORARY TABLE t (a INT) WITH ({with_})")
            try:
                tenv.explainSql(sql, flink._text_format, flink._no_details)
                outcomes[role] = True
            except Exception as exc:  # noqa: BLE001
                message = summarize(java_messages(exc))[0]
                assert "can only be used as a" in message, message
                outcomes[role] = False
    assert (roles.source, roles.sink) == (outcomes["source"], outcomes["sink"])
