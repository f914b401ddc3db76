"""The restore suite as a table: each edit, what Flink did on 1.20 and 2.3, and what flinkx predicts.

    python scripts/restore_table.py [--versions 1.20,2.3]

Flink's outcomes are the suite's record (flinkx_build/data/flink/<v>/restores.json, written by
scripts/restore_suite.py --write from live clusters): as SQL (Flink's ids from the job's shape) and pinned (as
flinkx deploy submits an upgrade), and what deploy's restore trial said of the pinned job. The prediction is compiled now by the planner driver of each version, as
`flinkx deploy --plan` predicts an upgrade. Prints Markdown (docs/deploy.md keeps a copy).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flinkx_build.deploy import compat  # noqa: E402
from flinkx_build.deploy import restore_facts  # noqa: E402
from flinkx_build.deploy import stable_ids  # noqa: E402
from flinkx_build.deploy.driver_client import DriverFlink  # noqa: E402
from tests.deploy.restore_suite.cases import CASES  # noqa: E402
from tests.deploy.restore_suite.predict import compiled_cases  # noqa: E402

SHORT = {"restored": "restores", "refused": "refused"}
LEVEL = {compat.RESTORES: "restores", compat.OTHER_MEANING: "restores, other meaning",
         compat.WILL_NOT_RESTORE: "will not restore", compat.UNKNOWN: "unknown", "same job": "unchanged"}


def predictions(version: str) -> dict[str, str]:
    out = {}
    with DriverFlink(version, []) as client:
        for case, old, new in compiled_cases(client):
            if compat.same_job(old.plan, new.plan):
                out[case.name] = "same job"
            else:
                out[case.name] = compat.classify(old, stable_ids.effective(new, stable_ids.pins(old, new)),
                                                 client.flink_version).level
    return out


def flink(version: str, mode: str, name: str) -> str:
    outcome = restore_facts.measured(version)[mode][name]
    text = SHORT[outcome["outcome"]]
    return f"{text} ({outcome['failure']})" if outcome.get("failure") else text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--versions", default="1.20,2.3")
    versions = parser.parse_args().versions.split(",")
    predicted = {v: predictions(v) for v in versions}
    head = ["edit"] + [f"Flink {v} as SQL | Flink {v} pinned | trial on {v}" for v in versions] \
        + [f"predicted on {v}" for v in versions]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * (1 + 4 * len(versions)))
    for case in CASES:
        cells = [f"`{case.name}`: {case.edit}"]
        cells += [f"{flink(v, 'cases', case.name)} | {flink(v, 'pinned', case.name)} | {flink(v, 'trial', case.name)}"
                  for v in versions]
        cells += [LEVEL[predicted[v][case.name]] for v in versions]
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
