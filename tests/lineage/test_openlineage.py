"""`flinkx graph --format openlineage`: one OpenLineage run event per task, built and
checked with the openlineage-python client's own classes.

Expected names were read against the example tables' YAML and the OpenLineage naming
spec (kafka://<first broker host:port> + topic, mysql://host:port + db.table).
"""
from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from tests.conftest import EXAMPLE

ol = pytest.importorskip("openlineage.client.event_v2", reason="the lineage extra (openlineage-python) is not installed")
from openlineage.client.generated import column_lineage_dataset as cl  # noqa: E402
from openlineage.client.generated import job_type_job  # noqa: E402
from openlineage.client.generated import schema_dataset  # noqa: E402
from openlineage.client.serde import Serde  # noqa: E402

from flinkx_build.lineage.openlineage import dataset_names  # noqa: E402

TIME = "2026-12-01T12:00:00+00:00"
DW_KAFKA = "kafka://kafka-dw-1.shop.internal:9092"
DW_MYSQL = "mysql://mysql-dw.shop.internal:3306"


@pytest.fixture
def example(tmp_path) -> Path:
    root = tmp_path / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    return root


@pytest.fixture(scope="module")
def example_lines(tmp_path_factory) -> list[str]:
    """The unchanged example's events, computed once for the tests that only read them."""
    from click.testing import CliRunner

    from flinkx_build.cli import main

    root = tmp_path_factory.mktemp("ol") / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    result = CliRunner().invoke(main, ["graph", str(root), "--format", "openlineage", "--event-time", TIME], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return [line for line in result.stdout.splitlines() if line]


def run_events(cli, root: Path, *args: str):
    result = cli("graph", str(root), "--format", "openlineage", "--event-time", TIME, *args)
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    return result, [line for line in result.stdout.splitlines() if line]


# -- structuring a serialised event back into the client's classes -------------------------

def _facet_kwargs(data: dict) -> dict:
    return {"producer": data["_producer"]}


def _schema(data: dict) -> schema_dataset.SchemaDatasetFacet:
    fields = [schema_dataset.SchemaDatasetFacetFields(f["name"], f.get("type"), f.get("description"), f.get("ordinal_position"))
              for f in data["fields"]]
    return schema_dataset.SchemaDatasetFacet(fields=fields, **_facet_kwargs(data))


def _input_field(data: dict) -> cl.InputField:
    return cl.InputField(data["namespace"], data["name"], data["field"],
                         [cl.Transformation(t["type"], t.get("subtype"), t.get("description"), t.get("masking")) for t in data["transformations"]])


def _column_lineage(data: dict) -> cl.ColumnLineageDatasetFacet:
    fields = {name: cl.Fields([_input_field(i) for i in f["inputFields"]], f.get("transformationDescription"), f.get("transformationType"))
              for name, f in data["fields"].items()}
    return cl.ColumnLineageDatasetFacet(fields=fields, dataset=[_input_field(i) for i in data.get("dataset", [])], **_facet_kwargs(data))


_DATASET_FACETS = {"schema": _schema, "columnLineage": _column_lineage}


def structure(data: dict) -> ol.RunEvent:
    """A RunEvent rebuilt from its JSON with the client's classes (their validators run)."""
    def facets(d: dict) -> dict:
        assert set(d.get("facets", {})) <= set(_DATASET_FACETS), d["facets"].keys()
        return {k: _DATASET_FACETS[k](v) for k, v in d.get("facets", {}).items()}

    job_type = data["job"]["facets"]["jobType"]
    job = ol.Job(data["job"]["namespace"], data["job"]["name"], facets={"jobType": job_type_job.JobTypeJobFacet(
        job_type["processingType"], job_type["integration"], job_type.get("jobType"), **_facet_kwargs(job_type))})
    return ol.RunEvent(
        eventType=ol.RunState(data["eventType"]), eventTime=data["eventTime"], run=ol.Run(runId=data["run"]["runId"]),
        job=job, producer=data["producer"],
        inputs=[ol.InputDataset(d["namespace"], d["name"], facets=facets(d)) for d in data["inputs"]],
        outputs=[ol.OutputDataset(d["namespace"], d["name"], facets=facets(d)) for d in data["outputs"]],
    )


# -- the example workspace -----------------------------------------------------------------

def test_example_events_round_trip_through_the_client(cli, example):
    result, lines = run_events(cli, example)
    assert result.exit_code == 0, result.stderr
    events = {json.loads(line)["job"]["name"]: line for line in lines}
    assert len(lines) == len(events) == len(list((example / "projects").glob("*/tasks/**/*.sql")))
    for name, line in events.items():
        event = structure(json.loads(line))
        assert Serde.to_json(event) == line, name  # byte for byte: nothing the classes do not hold
        assert event.eventType is ol.RunState.COMPLETE and event.eventTime == TIME
        assert event.job.namespace == "shop-realtime" and event.schemaURL.startswith("https://openlineage.io/spec/")
        assert event.producer.startswith("https://") and event.outputs, name


def test_events_are_deterministic_and_run_ids_follow_the_content(cli, example):
    _, first = run_events(cli, example)
    _, again = run_events(cli, example)
    assert first == again
    task = example / "projects/dws/tasks/order_stats_1m.sql"
    task.write_text(task.read_text().replace("COUNT(DISTINCT user_id)", "COUNT(user_id)"))
    _, changed = run_events(cli, example)
    ids = [{json.loads(line)["job"]["name"]: json.loads(line)["run"]["runId"] for line in lines} for lines in (first, changed)]
    assert ids[0]["dws/order_stats_1m"] != ids[1]["dws/order_stats_1m"]
    assert {k: v for k, v in ids[0].items() if k != "dws/order_stats_1m"} == {k: v for k, v in ids[1].items() if k != "dws/order_stats_1m"}


def _event(lines: list[str], task: str) -> dict:
    return next(json.loads(line) for line in lines if json.loads(line)["job"]["name"] == task)


def _names(datasets: list[dict]) -> list[tuple[str, str]]:
    return [(d["namespace"], d["name"]) for d in datasets]


def test_dataset_names_per_connector(example_lines):
    lines = example_lines
    enrich = _event(lines, "dwd/orders/enrich_orders")  # kafka source, two jdbc lookups, kafka sink
    assert _names(enrich["inputs"]) == [
        ("kafka://kafka-ingest-1.shop.internal:9092", "ods_order_events"),
        (DW_MYSQL, "shop_dim.dim_product"), (DW_MYSQL, "shop_dim.dim_user")]
    assert _names(enrich["outputs"]) == [(DW_KAFKA, "dwd_shop_order_lines_prod")]
    assert _names(_event(lines, "dim/sync_dim_user")["inputs"]) == [("mysql://mysql-oltp.shop.internal:3306", "shop.users")]  # mysql-cdc
    assert _names(_event(lines, "dwd/orders/sync_orders")["outputs"]) == [(DW_KAFKA, "dwd_shop_orders_prod")]  # upsert-kafka
    product = _event(lines, "dim/build_dim_product")
    assert ("hbase://zk-1.shop.internal:2181,zk-2.shop.internal:2181,zk-3.shop.internal:2181", "shop:product") in _names(product["inputs"])
    # the print sink is task-local: the flinkx namespace and its task-local id
    assert _names(_event(lines, "ods/debug/peek_order_events")["outputs"]) == [("flinkx://shop-realtime", "ods/debug/peek_order_events#peek_sink")]


def test_schema_facet_has_the_columns_and_types(example_lines):
    lines = example_lines
    sink = _event(lines, "dws/order_stats_1m")["outputs"][0]
    columns = [(f["name"], f["type"]) for f in sink["facets"]["schema"]["fields"]]
    assert columns[:3] == [("window_start", "TIMESTAMP(3)"), ("window_end", "TIMESTAMP(3)"), ("channel", "STRING")]
    assert ("buyer_cnt", "BIGINT") in columns


def test_column_lineage_of_order_stats(example_lines):
    lines = example_lines
    event = _event(lines, "dws/order_stats_1m")
    (sink,) = event["outputs"]
    assert (sink["namespace"], sink["name"]) == (DW_MYSQL, "shop_dws.dws_order_stats_1m")
    facet = sink["facets"]["columnLineage"]
    assert facet["_schemaURL"].startswith("https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json")
    dwd_orders = {"namespace": DW_KAFKA, "name": "dwd_shop_order_lines_prod"}
    assert facet["fields"]["buyer_cnt"]["inputFields"] == [
        {**dwd_orders, "field": "user_id", "transformations": [{"type": "DIRECT", "subtype": "AGGREGATION"}]}]
    assert facet["fields"]["channel"]["inputFields"][0]["transformations"] == [{"type": "DIRECT", "subtype": "IDENTITY"}]
    assert facet["fields"]["window_start"]["inputFields"][0]["field"] == "order_time"
    # GROUP BY channel and the window's time column shape every row: dataset-level INDIRECT
    assert {(f["field"], f["transformations"][0]["type"]) for f in facet["dataset"]} == {("channel", "INDIRECT"), ("order_time", "INDIRECT")}
    # every input field names a dataset the event lists as an input
    inputs = set(_names(event["inputs"]))
    assert all((f["namespace"], f["name"]) in inputs for col in facet["fields"].values() for f in col["inputFields"])


def test_select_limits_the_events(cli, example):
    result, lines = run_events(cli, example, "--project", "dws")
    assert result.exit_code == 0
    assert {json.loads(line)["job"]["name"] for line in lines} == {
        "dws/activity_1m", "dws/category_user_stats", "dws/first_orders", "dws/order_stats_1m", "dws/quick_refunds",
        "dws/realtime_metrics",
        "dws/shop_refund_1d", "dws/user_profile_hbase"}


# -- secrets -------------------------------------------------------------------------------

def test_secrets_never_in_names_or_namespaces(cli, example):
    config = example / "flinkx.yaml"
    config.write_text(config.read_text().replace("  - odps_access_key\n", "  - odps_access_key\n  - ingest_servers\n"))
    orders = example / "projects/ods/tables/kafka_orders.yaml"
    orders.write_text(orders.read_text().replace('"${kafka_servers}"', '"${ingest_servers}"'))
    stats = example / "projects/dws/tables/dws_order_stats_1m.yaml"
    stats.write_text(stats.read_text().replace(
        'url: "jdbc:mysql://${dw_mysql_host}:3306/${dws_database}"',
        'url: "jdbc:mysql://flink_dw:Hunter2Pw@mysql-dw.shop.internal:3306/shop_dws?password=Hunter2Pw"',
    ).replace('password: "${dw_mysql_password}"', "password: Hunter2Pw"))
    result, lines = run_events(cli, example)
    assert lines, result.stderr
    for line in lines:
        event = json.loads(line)
        datasets = event["inputs"] + event["outputs"]
        fields = [f for d in event["outputs"] for c in d["facets"]["columnLineage"]["fields"].values() for f in c["inputFields"]]
        for namespace, name in _names(datasets) + [(f["namespace"], f["name"]) for f in fields]:
            assert "Hunter2Pw" not in namespace + name and "${" not in namespace + name and "flink_dw" not in namespace
    assert "Hunter2Pw" not in result.stdout
    # the table whose brokers are a secret falls back to the flinkx namespace and its meta key
    enrich = _event(lines, "dwd/orders/enrich_orders")
    assert ("flinkx://shop-realtime", "ods.kafka_orders") in _names(enrich["inputs"])
    # the url's user info and query parameters are not part of the name
    assert _names(_event(lines, "dws/order_stats_1m")["outputs"]) == [(DW_MYSQL, "shop_dws.dws_order_stats_1m")]


@pytest.mark.parametrize("options", [
    {"connector": "kafka", "topic": "t", "properties.bootstrap.servers": "${secret_brokers}"},
    {"connector": "kafka", "topic": "${topic_secret}", "properties.bootstrap.servers": "b:9092"},
    {"connector": "jdbc", "url": "jdbc:mysql://${dw_mysql_password}:3306/db", "table-name": "t"},
    {"connector": "hbase-2.2", "table-name": "t", "zookeeper.quorum": "zk-S3cr3tValue:2181", "password": "S3cr3tValue"},
    {"connector": "mysql-cdc", "hostname": "h", "database-name": "db"},  # no table-name: nothing to guess
])
def test_unusable_naming_options_give_the_flinkx_placeholder(options):
    assert _pairs(dataset_names(options, "ods.t", "shop")) == [("flinkx://shop", "ods.t")]


@pytest.mark.parametrize("options, expected", [
    ({"connector": "upsert-kafka", "topic": "a;b", "properties.bootstrap.servers": "k1:9093,k2:9093"},
     [("kafka://k1:9093", "a"), ("kafka://k1:9093", "b")]),
    ({"connector": "jdbc", "url": "jdbc:postgresql://pg:5433/dw?ssl=true", "table-name": "mart.sales"}, [("postgres://pg:5433", "dw.mart.sales")]),
    ({"connector": "mysql-cdc", "hostname": "oltp", "database-name": "shop", "table-name": "users"}, [("mysql://oltp:3306", "shop.users")]),
    ({"connector": "filesystem", "path": "file:///data/out"}, [("file", "/data/out")]),
    ({"connector": "filesystem", "path": "s3://bucket/events/"}, [("s3://bucket", "events/")]),
    ({"connector": "filesystem", "path": "hdfs://nn:8020/warehouse/t"}, [("hdfs://nn:8020", "/warehouse/t")]),
    ({"connector": "datagen"}, [("flinkx://shop", "ods.t")]),
    ({"connector": "blackhole"}, [("flinkx://shop", "ods.t")]),
])
def test_connector_naming(options, expected):
    assert _pairs(dataset_names(options, "ods.t", "shop")) == expected


def _pairs(names) -> list[tuple[str, str]]:
    return [(n.namespace, n.name) for n in names]


# -- the optional package and bad options --------------------------------------------------

def test_missing_client_prints_one_line_hint_and_exits_2(cli, example, monkeypatch):
    for name in [m for m in sys.modules if m == "openlineage" or m.startswith(("openlineage.", "flinkx_build.lineage.openlineage"))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "openlineage", None)  # `import openlineage...` now raises ImportError
    result = cli("graph", str(example), "--format", "openlineage")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and "pip install 'flinkx-build[lineage]'" in result.stderr


@pytest.mark.parametrize("bad", ["yesterday", "2026-12-01"])
def test_bad_event_time_is_a_usage_error(cli, example, bad):
    result = cli("graph", str(example), "--format", "openlineage", "--event-time", bad)
    assert result.exit_code == 2 and re.search(r"--event-time", result.stderr), result.stderr


def test_the_secret_workspace_shows_no_literal_anywhere(cli, make_workspace):
    """The shared workspace with a literal credential in every place one can be written."""
    from tests.security.secret_ws import LITERALS
    from tests.security.secret_ws import WORKSPACE

    root = make_workspace(WORKSPACE)
    result, lines = run_events(cli, root)
    assert any("copy_orders" in line for line in lines), result.stderr
    out = result.stdout + result.stderr
    assert [lit for lit in LITERALS if lit in out] == []
    for event in map(json.loads, lines):
        assert all("${" not in d["namespace"] + d["name"] for d in event["inputs"] + event["outputs"])
