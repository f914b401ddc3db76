"""Which stand-in behaviour each real connector gets (pure Python, no JVM needed).

The stand-in connector (java/src/flinkx/standin) plays every real connector. What it must know
about the real one is only its changelog behaviour, decided here from the connector name and
format, and passed to it as table options.
"""
from __future__ import annotations

from typing import Any
from typing import Mapping

from flinkx_build.engine_settings import SAFE_CATALOG_TYPES

from flinkx_build.validate.contract import UdfStub

STANDIN = "flinkx-standin"
ORIGINAL_KEY = "flinkx.original-connector"
SOURCE_CHANGELOG_KEY = "flinkx.source-changelog"
SINK_CHANGELOG_KEY = "flinkx.sink-changelog"

# Formats that carry a changelog (inserts, updates, deletes) inside an append-only transport.
CHANGELOG_FORMATS = frozenset({
    "debezium-json", "debezium-avro-confluent", "canal-json", "maxwell-json", "ogg-json",
    "changelog-csv",
})
# Sinks that can only append: an update stream into them fails in real Flink, and must fail
# here too. Unknown connectors are assumed to accept updates: a missed error costs less than
# a build blocked by a false one.
APPEND_ONLY_SINKS = frozenset({
    "kafka", "filesystem", "odps", "maxcompute", "datahub", "sls", "loghub", "pulsar",
    "kinesis", "firehose", "rocketmq", "metaq", "hive", "dis", "obs", "socket", "tt",
})
# Sinks that take any change (no key needed). Not blackhole: its sink drops UPDATE_BEFORE (an
# upsert sink, as its factory's getChangelogMode says), so Flink 2.3 takes an ON CONFLICT into
# one with a primary key (measured with the real connector on 2.3: tests/facts/test_example_2_3.py)
ALL_CHANGES_SINKS = frozenset({"print"})


def _formats(options: Mapping[str, str]) -> set[str]:
    return {options[k].lower() for k in ("format", "value.format") if k in options}


def original_connector(options: Mapping[str, str]) -> str:
    """The connector a table really uses, also when the options were already swapped (LIKE)."""
    connector = options.get("connector", "")
    if connector == STANDIN:
        return options.get(ORIGINAL_KEY, "unknown")
    # Legacy descriptors ('connector.type' / 'type') still name a connector.
    return (connector or options.get("connector.type") or options.get("type") or "unknown").lower()


def source_changelog(connector: str, options: Mapping[str, str]) -> str:
    """insert | upsert | all: what the real connector emits when read."""
    if connector == "upsert-kafka":
        return "upsert"
    if connector.endswith("-cdc") or _formats(options) & CHANGELOG_FORMATS:
        return "all"
    return "insert"


def sink_changelog(connector: str, options: Mapping[str, str]) -> str:
    """insert | upsert | all: what the real connector accepts (upsert falls back to all
    when the table has no primary key; the stand-in decides that)."""
    if connector in ALL_CHANGES_SINKS or _formats(options) & CHANGELOG_FORMATS:
        return "all"
    if connector in APPEND_ONLY_SINKS:
        return "insert"
    return "upsert"


def swap_connector(options: Mapping[str, str]) -> dict[str, str]:
    """Table options with the connector replaced by the stand-in; all other options are kept
    (the stand-in validates none) and the original is recorded for messages."""
    connector = original_connector(options)
    swapped = dict(options)
    # a legacy descriptor's 'connector.type' sends Flink to a legacy TableSourceFactory whatever
    # 'connector' says: the stand-in plays it only without that key (the original is recorded below)
    swapped.pop("connector.type", None)
    swapped["connector"] = STANDIN
    swapped[ORIGINAL_KEY] = connector
    swapped[SOURCE_CHANGELOG_KEY] = source_changelog(connector, options)
    swapped[SINK_CHANGELOG_KEY] = sink_changelog(connector, options)
    return swapped


def standin_create_table(jvm: Any, operation: Any, extra: Mapping[str, str] | None = None) -> Any:
    """Flink's parsed CREATE TABLE with its connector swapped for the stand-in (plus `extra`
    options): swapped on the operation, not the text, so LIKE clauses and positions stay exact.
    validate, `flinkx test` and deploy's planner all execute this instead of the statement."""
    table = operation.getCatalogTable()
    options = {**swap_connector(dict(table.getOptions())), **(extra or {})}
    ddl = jvm.org.apache.flink.table.operations.ddl
    return ddl.CreateTableOperation(operation.getTableIdentifier(), table.copy(options),
                                    operation.isIgnoreIfExists(), operation.isTemporary())


def safe_catalog(operation: Any) -> bool:
    """A parsed CREATE CATALOG of Flink's own in-memory type (`SAFE_CATALOG_TYPES`): the one catalog
    flinkx executes while planning; every other type's factory is a plugin's code (FX195)."""
    return (str(operation.getClass().getSimpleName()) == "CreateCatalogOperation"
            and dict(operation.getProperties()).get("type") in SAFE_CATALOG_TYPES)


# --- functions -----------------------------------------------------------------------------

# The Java stand-in for each UDF kind (java/src/flinkx/standin): any arguments, declared result.
UDF_CLASSES = {"scalar": "StandinScalarFunction", "table": "StandinTableFunction",
               "aggregate": "StandinAggregateFunction"}


def find_udf(udfs: tuple[UdfStub, ...], name: str) -> UdfStub | None:
    """The declaration of a created function; names compare case-insensitively, as in Flink."""
    lowered = name.lower()
    return next((u for u in udfs if u.name.split(".")[-1].lower() == lowered), None)


def udf_problem(udfs: tuple[UdfStub, ...], name: str,
                class_name: str) -> tuple[UdfStub | None, str]:
    """(declaration, "") when a stand-in can be registered for `name`, else (None, why not)."""
    udf = find_udf(udfs, name)
    if udf is None:
        return None, (f"function '{name}' is created from {class_name} but its return type "
                      "is not declared, so it cannot be validated")
    if udf.kind not in UDF_CLASSES:
        return None, (f"function '{name}' has unknown kind '{udf.kind}' "
                      f"(expected one of: {', '.join(UDF_CLASSES)})")
    return udf, ""
