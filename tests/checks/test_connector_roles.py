"""FX432/FX433/FX443: what a connector's table can be (issue 44 case 7: an INSERT into a mysql-cdc table was silent,
the stand-in connector takes any direction). The connectors in Flink's jars are judged by their factories'
interfaces (the generated facts), held here to Flink 1.20's own planner with the real connectors."""
from __future__ import annotations

import subprocess

import pytest

from flinkx_build.connectors import catalog
from flinkx_build.connectors import roles_for
from flinkx_build.flink_data import facts_for
from flinkx_build.planner import jars
from flinkx_build.targets import TARGETS
from tests.facts.jars import java_args
from tests.planner.conftest import needs_planner
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


PROBE = """
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

public class RolesProbe {
    public static void main(String[] args) {
        for (String connector : args) {
            String with = connector.equals("filesystem") ? "'connector' = 'filesystem', 'path' = '/tmp', 'format' = 'csv'"
                    : "'connector' = '" + connector + "'";
            for (String role : new String[] {"source", "sink"}) {
                TableEnvironment tenv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
                tenv.executeSql("CREATE TEMPORARY TABLE t (a INT) WITH (" + with + ")");
                try {
                    tenv.explainSql(role.equals("source") ? "SELECT * FROM t" : "INSERT INTO t SELECT 1");
                    System.out.println(connector + " " + role + " yes");
                } catch (Exception e) {
                    StringBuilder chain = new StringBuilder();
                    for (Throwable t = e; t != null && t != t.getCause(); t = t.getCause()) {
                        chain.append(t.getMessage()).append(" -- ");
                    }
                    String message = chain.toString().replace('\\n', ' ');
                    System.out.println(connector + " " + role + (message.contains("can only be used as a") ? " no" : " ? " + message));
                }
            }
        }
    }
}
"""
OWN = ("datagen", "print", "blackhole", "filesystem")


@pytest.mark.flink
@pytest.mark.parametrize("version", [pytest.param(v, marks=needs_planner(v)) for v in TARGETS])
def test_the_roles_of_flinks_own_connectors_are_what_its_planner_does(tmp_path, version):
    # Flink's own planner and connectors (no stand-in): a small program on the target's jars
    lib = jars.jars_lib(TARGETS[version], None)
    (tmp_path / "RolesProbe.java").write_text(PROBE, encoding="utf-8")
    classpath = f"{lib.resolve()}/*"
    subprocess.run(["javac", "-cp", classpath, "-d", str(tmp_path), str(tmp_path / "RolesProbe.java")], check=True,
                   capture_output=True, timeout=600)
    done = subprocess.run(["java", *java_args(version), "-cp", f"{tmp_path}:{classpath}", "RolesProbe", *OWN], capture_output=True, text=True,
                          timeout=600)
    planned = {tuple(line.split()[:2]): line.split()[2] for line in done.stdout.splitlines() if line.split()[:1][0:1] and line.split()[0] in OWN}
    assert len(planned) == 2 * len(OWN) and "?" not in planned.values(), done.stdout + done.stderr[-2000:]
    factories = facts_for(version).factories
    for connector in OWN:
        roles = roles_for({"connector": connector}, "", factories)
        assert (roles.source, roles.sink) == (planned[(connector, "source")] == "yes", planned[(connector, "sink")] == "yes"), connector
