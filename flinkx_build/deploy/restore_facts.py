"""What Flink did with each edit of the restore suite, per version: data/flink/<v>/restores.json.

`scripts/restore_suite.py --write` measures it on a live cluster of each version (a base job, its savepoint, the
edited job restored from it with non-restored state not allowed) and writes the file; nothing here states a
restore by hand. The predicted verdicts (compat.py) read the few facts that differ between versions from it, by
the name of the suite case that shows them.
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

FILE = "restores.json"


@lru_cache(maxsize=None)
def measured(version: str) -> dict[str, Any]:
    """The stored run of `version` ("1.20"): {"flink_version", "cases": {name: {"outcome", ...}}, ...}; {} if none."""
    folder = resources.files("flinkx_build.data").joinpath("flink").joinpath(version)
    try:
        return json.loads(folder.joinpath(FILE).read_text(encoding="utf-8"))
    except (FileNotFoundError, NotADirectoryError, ValueError):
        return {}


def restores(version: str, case: str) -> bool | None:
    """Whether Flink `version` restored the suite's `case`; None when it was not measured."""
    outcome = measured(version).get("cases", {}).get(case, {}).get("outcome")
    return None if outcome is None else outcome == "restored"
