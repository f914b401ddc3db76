#!/usr/bin/env python3
"""Regenerate the Flink-derived entries of flinkx_build/data/connector_options.json.

    python scripts/gen_connector_options.py [--data PATH] [--cache-dir DIR]

The connectors and formats that ship in Flink's own jars (datagen, print, blackhole, filesystem;
json, csv, raw and the CDC JSON formats) are read from Flink itself: scripts/flink_facts/
ConnectorOptions.java, compiled and run on the default target's jars (fetched by flinkx as every
command fetches them), finds every table `Factory` with Java's ServiceLoader, and its
`requiredOptions()`, `optionalOptions()` (with each option's fallback keys) and
`forwardOptions()` are written into the file. The other entries (kafka, upsert-kafka, jdbc,
mysql-cdc, hbase-2.2 and the seeds' Blink-era types) come from the connectors' documentation
and are kept exactly as they are; each says where it came from in its `source`.

Needs a JDK; takes a few seconds once the jars are here.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from flinkx_build.planner import jars  # noqa: E402
from flinkx_build.targets import TARGETS  # noqa: E402

JAVA_SOURCE = REPO / "scripts" / "flink_facts" / "ConnectorOptions.java"
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


def flink_says(lib: Path) -> dict[str, Any]:
    """ConnectorOptions.java's answer on the jars in `lib`: the factories, FactoryUtil's helper keys, the probes."""
    with tempfile.TemporaryDirectory(prefix="flinkx-connector-options-") as tmp:
        work = Path(tmp)
        subprocess.run(["javac", "-nowarn", "-d", str(work), "-cp", f"{lib}/*", str(JAVA_SOURCE)], check=True)
        probes = work / "probes.tsv"
        probes.write_text("".join(f"{name}\t{key}\t{value}\t{PROBE[name][0]}\t{PROBE[name][1]}\n"
                                  for name in CONNECTORS for key, value in HELPER_VALUES.items()), encoding="utf-8")
        done = subprocess.run(["java", "-cp", f"{work}:{lib}/*", "ConnectorOptions", str(probes)], check=True,
                              capture_output=True, text=True, timeout=900)
    return json.loads(done.stdout)


def helper_options(said: dict[str, Any]) -> list[str]:
    """FactoryUtil's options that its TableFactoryHelper accepts for any connector that validates
    through it (property-version, scan.watermark.*): the keys of FactoryUtil's ConfigOption fields,
    kept where HELPER_VALUES knows a value."""
    return sorted(set(said["helper"]) & set(HELPER_VALUES))


def generated_entries(said: dict[str, Any], version: str) -> tuple[dict[str, dict], dict[str, dict]]:
    connectors: dict[str, dict] = {}
    formats: dict[str, dict] = {}
    for factory in said["factories"]:
        ident, kinds = factory["identifier"], set(factory["interfaces"])
        required, optional = factory["required"], factory["optional"]
        where = f"Flink {version}'s jars: {factory['class']} requiredOptions()/optionalOptions()/forwardOptions()"
        if ident in CONNECTORS and kinds & set(TABLE_FACTORY):
            forwarded = factory["forwarded"]
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
    helper = helper_options(said)
    accepted = {(name, key): ok for name, key, ok in said["accepts"]}
    for name, entry in connectors.items():
        entry["required"] = [list(group) for group in entry["required"]]
        # datagen validates its options itself; the others go through FactoryUtil's helper
        entry["helper"] = all(accepted[name, key] for key in helper)
    missing = [n for n in CONNECTORS if n not in connectors] + [n for n in FORMATS if n not in formats]
    if missing:
        raise SystemExit(f"gen_connector_options: no factory found for {', '.join(missing)}")
    return connectors, formats


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA)
    args = ap.parse_args()
    target = TARGETS["1.20"]
    said = flink_says(jars.jars_lib(target))
    data = json.loads(args.data.read_text(encoding="utf-8"))
    connectors, formats = generated_entries(said, target.release)
    data["helper_options"] = helper_options(said)
    data["flink_version"] = target.release
    data["connectors"].update(connectors)
    data["formats"].update(formats)
    data["connectors"] = dict(sorted(data["connectors"].items()))
    data["formats"] = dict(sorted(data["formats"].items()))
    args.data.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"connector options: {len(connectors)} connectors and {len(formats)} formats from Flink "
          f"{target.release} written to {args.data}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
