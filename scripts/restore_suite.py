"""The restore suite: ask live Flink clusters which edits of a stateful task restore from the base job's savepoint.

    python scripts/restore_suite.py [--versions 1.20,2.3] [--cases NAME,...] [--write]

For each Flink version: one standalone cluster (tests/deploy/flink_cluster.py, made from the package index's
archives by tests/deploy/flink_dist.py), flinkx's planner driver on that version as the client, every case of
tests/deploy/restore_suite/cases.py run as tests/deploy/restore_suite/runner.py says. Prints Flink's outcome per
edit; `--write` stores it as the suite's expected data (flinkx_build/data/flink/<v>/restores.json), which the
tests check the classifier against and the slow test checks against Flink again.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.deploy.restore_suite import live  # noqa: E402
from tests.deploy.restore_suite.cases import CASES  # noqa: E402
from tests.deploy.restore_suite.live import outcomes_path  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--versions", default="1.20,2.3")
    parser.add_argument("--cases", default="", help="only these cases (comma-separated names)")
    parser.add_argument("--write", action="store_true", help="store the outcomes in flinkx_build/data/flink/<v>/restores.json")
    args = parser.parse_args()
    cases = [c for c in CASES if not args.cases or c.name in args.cases.split(",")]
    for version in args.versions.split(","):
        began = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix=f"flinkx-restore-suite-{version}-") as tmp:
            data = live.run_version(version, Path(tmp), cases)
        data["seconds"]["total"] = round(time.perf_counter() - began, 1)
        print(f"\n## Flink {data['flink_version']} ({data['seconds']})\n")
        print(f"{'edit':28} {'as SQL':9} {'pinned':9} {'trial':9} Flink's message")
        for name, outcome in data["cases"].items():
            pinned = data["pinned"][name]
            print(f"{name:28} {outcome['outcome']:9} {pinned['outcome']:9} {data['trial'][name]['outcome']:9} "
                  f"{(outcome.get('message') or pinned.get('message') or '')[:150]}")
        path = outcomes_path(version)
        if args.cases and path.is_file():
            before = json.loads(path.read_text())
            for mode in ("cases", "pinned", "trial"):
                data[mode] = {**before.get(mode, {}), **data[mode]}
        if args.write:  # what Flink did; the timings are this run's, printed above
            stored = {k: v for k, v in data.items() if k != "seconds"}
            stored["generated_by"] = "scripts/restore_suite.py"
            path.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
            print(f"\nwritten: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
