#!/usr/bin/env python3
"""Regenerate the Kafka client settings of flinkx_build/data/connector_options.json (`client_options.kafka`).

    python scripts/gen_kafka_client_keys.py KAFKA_SITE_CHECKOUT [--data PATH]

The kafka and upsert-kafka connectors hand every `properties.<key>` option to the Kafka client, which
logs an unknown key and goes on without it: `properties.group.idd` leaves the group id unset without a
word. The keys a Kafka client reads are the consumer, producer and admin client configurations Apache
Kafka generates into its documentation (`<version>/generated/{consumer,producer,admin_client}_config.html`
in a checkout of apache/kafka-site). Read for each client version the Flink Kafka connectors use:
flink-connector-kafka v3.4.0 (Flink 1.20) builds on kafka-clients 3.4.0, v4.0.0 (Flink 2.x) on 3.9.0.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "flinkx_build" / "data" / "connector_options.json"
# kafka-clients version -> the documentation folder of apache/kafka-site
VERSIONS = {"3.4.0": "34", "3.9.0": "39"}
PAGES = ("consumer_config", "producer_config", "admin_client_config")
_KEY = re.compile(r'<h4><a id="([^"]+)"></a>')


def _page(checkout: Path, rel: str) -> str:
    """A file of the checkout: from the work tree, else from git's HEAD (a bare mirror)."""
    path = checkout / rel
    if path.exists():
        return path.read_text(encoding="utf-8")
    return subprocess.run(["git", "-C", str(checkout), "show", f"HEAD:{rel}"], check=True, capture_output=True,
                          text=True).stdout


def client_keys(checkout: Path) -> list[str]:
    keys: set[str] = set()
    for folder in VERSIONS.values():
        for page in PAGES:
            found = _KEY.findall(_page(checkout, f"{folder}/generated/{page}.html"))
            if not found:
                raise SystemExit(f"no configuration keys in {folder}/generated/{page}.html")
            keys.update(found)
    return sorted(keys)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path, help="a checkout (or git mirror) of apache/kafka-site")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    data = json.loads(args.data.read_text(encoding="utf-8"))
    versions = ", ".join(VERSIONS)
    data.setdefault("client_options", {})["kafka"] = {
        "source": (f"Apache Kafka's generated client configuration pages (apache/kafka-site "
                   f"{{{','.join(VERSIONS.values())}}}/generated/{{{','.join(PAGES)}}}.html) for kafka-clients "
                   f"{versions}, the clients of flink-connector-kafka v3.4.0 and v4.0.0; scripts/gen_kafka_client_keys.py"),
        "options": client_keys(args.checkout),
    }
    args.data.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(data['client_options']['kafka']['options'])} Kafka client keys -> {args.data}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
