"""A meta table's `type` and its `with.connector` must name the same connector family.

`type: kafka` with `connector: jdbc` builds a JDBC table that every reader
thinks is a Kafka topic. Types are freer than connectors (`mirror`, `rds`,
`hbase` with `hbase-2.2`), so only two known, different families are a
mistake; anything unknown on either side passes.
"""
from __future__ import annotations

# Flink and Dataphin connector identifiers; a connector belongs to the longest family it starts with
FAMILIES = (
    "kafka", "upsert-kafka", "jdbc", "mysql-cdc", "postgres-cdc", "oracle-cdc", "sqlserver-cdc", "mongodb-cdc",
    "hbase", "datagen", "print", "blackhole", "filesystem", "elasticsearch", "odps", "datahub", "hologres",
    "mongodb", "redis", "doris", "starrocks", "clickhouse", "hudi", "iceberg", "paimon", "pulsar", "kinesis",
)


def family(name: str) -> str | None:
    name = name.strip().lower()
    found = [f for f in FAMILIES if name == f or name.startswith(f + "-")]
    return max(found, key=len) if found else None


def connector_mismatch(table_type: str, connector: str) -> tuple[str, str] | None:
    """(message, hint) when type and connector name two different known families."""
    if not table_type or not connector or "${" in table_type + connector:
        return None
    kind, conn = family(table_type), family(connector)
    if kind is None or conn is None or kind == conn:
        return None
    return (f"connector '{connector}' does not match the table's type '{table_type}'",
            f"set connector: {table_type} or change type to {conn}")
