#!/usr/bin/env python3
"""Regenerate the Flink-derived entries of flinkx_build/data/connector_options.json.

    python scripts/gen_connector_options.py [--data PATH] [--cache-dir DIR]

The connectors and formats that ship inside PyFlink (datagen, print, blackhole, filesystem;
json, csv, raw and the CDC JSON formats) are read from Flink itself over py4j: every
table `Factory` on the classpath is found with Java's ServiceLoader, and its
`requiredOptions()`, `optionalOptions()` (with each option's fallback keys) and
`forwardOptions()` are written into the file. The other entries (kafka, upsert-kafka, jdbc,
mysql-cdc, hbase-2.2 and the seeds' Blink-era types) come from the connectors' documentation
and are kept exactly as they are; each says where it came from in its `source`.

Needs the [flink] extra and a JDK; takes a few seconds.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from flinkx_build.validate import jvm as jvmlib  # noqa: E402
from flinkx_build.validate.engine import FlinkSession  # noqa: E402
from flinkx_build.validate.engine import flink_available  # noqa: E402
from flinkx_build.validate.findings import java_messages  # noqa: E402

DATA = REPO / "flinkx_build" / "data" / "connector_options.json"
CONNECTORS = ("datagen", "print", "blackhole", "filesystem")
FORMATS = ("json", "csv", "raw", "debezium-json", "canal-json", "maxwell-json", "ogg-json")
TABLE_FACTORY = ("DynamicTableSourceFactory", "DynamicTableSinkFactory")
FORMAT_FACTORY = ("DeserializationFormatFactory", "SerializationFormatFactory", "BulkReaderFormatFactory",
                  "BulkWriterFormatFactory")
# The connector's own validation, not visible in requiredOptions(): which option selects the format, and
# whether the factory validates the keys under the format's prefix (FileSystemTableFactory calls
# helper.validateExcept("<format>."): a misspelt `json.x` on a filesystem table is ignored, not refused).
FORMAT_KEYS = {"filesystem": {"format": ""}}
FORMAT_KEYS_CHECKED = {"filesystem": False}
# How each built-in connector is planned when probing it: a source is read, a sink written.
PROBE = {
    "datagen": ("SELECT * FROM t", ""),
    "filesystem": ("SELECT * FROM t", ", 'path' = '/nonexistent', 'format' = 'json'"),
    "print": ("INSERT INTO t SELECT 1", ""),
    "blackhole": ("INSERT INTO t SELECT 1", ""),
}
# A valid value for each option FactoryUtil's table-factory helper may accept on top of a factory's own
HELPER_VALUES = {"property-version": "1", "scan.watermark.emit.strategy": "on-event",
                 "scan.watermark.alignment.group": "g", "scan.watermark.alignment.max-drift": "1 s",
                 "scan.watermark.alignment.update-interval": "1 s", "scan.watermark.idle-timeout": "1 s"}


def option_keys(options: Any) -> list[str]:
    """The keys of a Set<ConfigOption>, fallback (and deprecated) keys included."""
    keys = set()
    for option in options:
        keys.add(str(option.key()))
        keys.update(str(fallback.getKey()) for fallback in option.fallbackKeys())
    return sorted(keys)


def factories(session: FlinkSession) -> list[Any]:
    jvm = session._gw.jvm
    loader = jvm.java.lang.Class.forName("org.apache.flink.table.factories.FactoryUtil").getClassLoader()
    factory_class = jvm.java.lang.Class.forName("org.apache.flink.table.factories.Factory", True, loader)
    found = []
    iterator = jvm.java.util.ServiceLoader.load(factory_class, loader).iterator()
    while iterator.hasNext():
        found.append(iterator.next())
    return found


def forward_options(factory: Any) -> list[str]:
    """forwardOptions(), or [] where the factory keeps the interface's default (an empty set):
    py4j's reflection does not find a default interface method the class does not override."""
    try:
        return option_keys(factory.forwardOptions())
    except Exception as exc:  # noqa: BLE001 - py4j's "Method forwardOptions([]) does not exist"
        if "does not exist" not in str(exc):
            raise
        return []


def interfaces(factory: Any) -> set[str]:
    return {str(c.getSimpleName()) for c in factory.getClass().getInterfaces()}


def helper_options(session: FlinkSession) -> list[str]:
    """FactoryUtil's options that its TableFactoryHelper accepts for any connector that validates
    through it (property-version, scan.watermark.*): the keys of FactoryUtil's ConfigOption fields,
    kept where HELPER_VALUES knows a value."""
    jvm = session._gw.jvm
    util = jvm.java.lang.Class.forName("org.apache.flink.table.factories.FactoryUtil")
    keys = set()
    for field in util.getFields():
        value = field.get(None)
        if hasattr(value, "getClass") and "ConfigOption" in str(value.getClass().getName()):
            keys.add(str(value.key()))
    return sorted(keys & set(HELPER_VALUES))


def accepts(session: FlinkSession, connector: str, key: str) -> bool:
    """Does Flink plan a table of `connector` that also sets `key`?"""
    query, extra = PROBE[connector]
    tenv = session._new_tenv("stream")
    tenv.executeSql(f"CREATE TABLE t (id INT) WITH ('connector' = '{connector}'{extra}, "
                    f"'{key}' = '{HELPER_VALUES[key]}')")
    try:
        tenv.explainSql(query, session._text_format, session._no_details)
        return True
    except Exception as exc:  # noqa: BLE001 - Flink's rejection is the answer
        # the key is accepted unless Flink names it unsupported; another error is about its value
        # ("'scan.watermark.alignment.group' and '...max-drift' must be set" together)
        return not any("Unsupported options" in m for m in java_messages(exc))


def generated_entries(session: FlinkSession, version: str) -> tuple[dict[str, dict], dict[str, dict]]:
    connectors: dict[str, dict] = {}
    formats: dict[str, dict] = {}
    for factory in factories(session):
        ident, kinds = str(factory.factoryIdentifier()), interfaces(factory)
        required, optional = option_keys(factory.requiredOptions()), option_keys(factory.optionalOptions())
        where = f"PyFlink {version}: {factory.getClass().getName()} requiredOptions()/optionalOptions()/forwardOptions()"
        if ident in CONNECTORS and kinds & set(TABLE_FACTORY):
            forwarded = forward_options(factory)
            entry = connectors.setdefault(ident, {"source": where, "strict": True, "required": [], "optional": [],
                                                  "forwarded": [], "prefixes": []})
            entry["required"] = sorted({*map(tuple, entry["required"]), *((k,) for k in required)})
            entry["optional"] = sorted(set(entry["optional"]) | set(optional))
            entry["forwarded"] = sorted(set(entry["forwarded"]) | set(forwarded))
            if ident in FORMAT_KEYS:
                entry["format_keys"] = FORMAT_KEYS[ident]
                entry["format_keys_checked"] = FORMAT_KEYS_CHECKED[ident]
        elif ident in FORMATS and kinds & set(FORMAT_FACTORY):
            # csv has a row format and a bulk (file) format factory: the union is what Flink accepts
            entry = formats.setdefault(ident, {"source": where, "strict": True, "options": []})
            entry["options"] = sorted(set(entry["options"]) | set(required) | set(optional))
            if where not in entry["source"]:
                entry["source"] += "; " + where.split(": ", 1)[1]
    helper = helper_options(session)
    for name, entry in connectors.items():
        entry["required"] = [list(group) for group in entry["required"]]
        # datagen validates its options itself; the others go through FactoryUtil's helper
        entry["helper"] = all(accepts(session, name, key) for key in helper)
    missing = [n for n in CONNECTORS if n not in connectors] + [n for n in FORMATS if n not in formats]
    if missing:
        raise SystemExit(f"gen_connector_options: no factory found for {', '.join(missing)}")
    return connectors, formats


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--cache-dir", type=Path, default=REPO / ".flinkx-cache")
    args = ap.parse_args()
    reason = flink_available()
    if reason:
        print(f"gen_connector_options: {reason}", file=sys.stderr)
        return 2
    toolchain = jvmlib.find_toolchain()
    assert not isinstance(toolchain, str)
    data = json.loads(args.data.read_text(encoding="utf-8"))
    with FlinkSession(Path(args.cache_dir) / "flink-logs") as session:
        connectors, formats = generated_entries(session, toolchain.flink_version)
        data["helper_options"] = helper_options(session)
    data["flink_version"] = toolchain.flink_version
    data["connectors"].update(connectors)
    data["formats"].update(formats)
    data["connectors"] = dict(sorted(data["connectors"].items()))
    data["formats"] = dict(sorted(data["formats"].items()))
    args.data.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"connector options: {len(connectors)} connectors and {len(formats)} formats from Flink "
          f"{toolchain.flink_version} written to {args.data}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
