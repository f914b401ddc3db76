"""Which stand-in behaviour each real connector gets (pure Python, no JVM needed).

The stand-in connector (planner/java/src/flinkx/standin/FixtureConnector.java) plays every real connector.
What it must know about the real one is only its changelog behaviour, decided here from the connector name
and format and sent to the driver with its policy (planner/protocol.py), which swaps it in (Policy.swap).
"""
from __future__ import annotations

from typing import Mapping

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


# --- functions -----------------------------------------------------------------------------

# The Java stand-in for each UDF kind (java/src/flinkx/standin): any arguments, declared result.
UDF_CLASSES = {"scalar": "StandinScalarFunction", "table": "StandinTableFunction",
               "aggregate": "StandinAggregateFunction"}


def find_udf(udfs: tuple[UdfStub, ...], name: str) -> UdfStub | None:
    """The declaration of a created function; names compare case-insensitively, as in Flink."""
    lowered = name.lower()
    return next((u for u in udfs if u.name.split(".")[-1].lower() == lowered), None)
