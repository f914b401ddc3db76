"""A small workspace of typed tables for the semantic model's tests, and the real Flink planner."""
from __future__ import annotations

import pytest

from flinkx_build.validate.contract import ScriptToValidate
from tests.helpers import Flink
from tests.helpers import flink_session

TABLES = {
    "flinkx.yaml": "engine: flink\nsecrets: [mysql_password]\n",
    "projects/ods/tables/events_kafka.yaml": """
        type: kafka
        columns:
          - {name: id, type: BIGINT}
          - {name: channel, type: STRING}
          - {name: cnt, type: BIGINT}
          - {name: ts, type: "TIMESTAMP(3)"}
        with: {connector: kafka, topic: events, properties.bootstrap.servers: "k:9092", format: json}
    """,
    "projects/ods/tables/cdc_users.yaml": """
        type: mysql-cdc
        columns:
          - {name: id, type: BIGINT}
          - {name: name, type: STRING}
        primary_key: [id]
        with: {connector: mysql-cdc, hostname: db, port: "3306", username: flink, password: "${mysql_password}", database-name: shop, table-name: users}
    """,
    "projects/ods/tables/raw_events.yaml": """
        type: datagen
        columns:
          - {name: id, type: BIGINT}
          - {name: ts_str, type: STRING}
          - {name: ts6, type: "TIMESTAMP(6)"}
        with: {connector: datagen}
    """,
    "projects/dwd/tables/upsert_stats.yaml": """
        type: upsert-kafka
        columns:
          - {name: channel, type: STRING}
          - {name: cnt, type: BIGINT}
        primary_key: [channel]
        with: {connector: upsert-kafka, topic: stats, properties.bootstrap.servers: "k:9092", key.format: json, value.format: json}
    """,
    "projects/dwd/tables/upsert_nokey.yaml": """
        type: upsert-kafka
        columns:
          - {name: channel, type: STRING}
          - {name: cnt, type: BIGINT}
        with: {connector: upsert-kafka, topic: stats, properties.bootstrap.servers: "k:9092", key.format: json, value.format: json}
    """,
    "projects/dim/tables/dim_product.yaml": """
        type: jdbc
        columns:
          - {name: id, type: BIGINT}
          - {name: brand, type: STRING}
          - {name: category, type: STRING}
        primary_key: [id]
        with: {connector: jdbc, url: "jdbc:mysql://db:3306/shop", table-name: products}
    """,
    "projects/ods/tables/orders.yaml": """
        type: datagen
        columns:
          - {name: id, type: BIGINT}
          - {name: user_id, type: BIGINT}
          - {name: product_id, type: BIGINT}
          - {name: qty, type: INT}
          - {name: price, type: "DECIMAL(10, 2)"}
          - {name: channel, type: STRING}
          - {name: ts, type: "TIMESTAMP(3)"}
          - {name: info, type: "ROW<city STRING, zip INT>"}
        with: {connector: datagen}
    """,
    "projects/ods/tables/products.yaml": """
        type: datagen
        columns:
          - {name: id, type: BIGINT}
          - {name: brand, type: STRING}
          - {name: weight, type: DOUBLE}
        primary_key: [id]
        with: {connector: datagen}
    """,
    "projects/dwd/tables/order_sink.yaml": """
        type: blackhole
        columns:
          - {name: id, type: BIGINT}
          - {name: qty, type: INT}
          - {name: amount, type: "DECIMAL(12, 2)"}
          - {name: brand, type: STRING}
        with: {connector: blackhole}
    """,
    "projects/dwd/tables/wide_sink.yaml": """
        type: blackhole
        columns:
          - {name: id, type: BIGINT}
          - {name: qty, type: BIGINT}
          - {name: amount, type: DOUBLE}
          - {name: brand, type: STRING}
        with: {connector: blackhole}
    """,
    "projects/dwd/tables/window_sink.yaml": """
        type: blackhole
        columns:
          - {name: window_start, type: "TIMESTAMP(3)"}
          - {name: channel, type: STRING}
          - {name: cnt, type: BIGINT}
        with: {connector: blackhole}
    """,
}


def workspace_with_tasks(make_workspace, tasks: dict[str, str]):
    """The typed tables plus one task per entry, in project dwd."""
    files = dict(TABLES)
    for name, sql in tasks.items():
        files[f"projects/dwd/tasks/{name}.sql"] = sql
    return make_workspace(files)


@pytest.fixture(scope="session")
def flink(tmp_path_factory):
    with flink_session(tmp_path_factory) as session:
        yield session


def flink_rejects(flink: Flink, session, task) -> list[str]:
    """Flink's messages for the compiled task (empty when Flink accepts it)."""
    script = session.compiled(task)
    to_check = ScriptToValidate(script.key, f"{script.key}.sql", tuple(script.statements), tuple(script.udfs), session.mode)
    return [f.message for f in flink.validate(to_check)]
