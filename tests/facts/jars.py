"""Where a Flink version's jars are on this machine, for the tests that run them (skipped otherwise).

A version flinkx has a target for: its jars as flinkx fetches them (unpacked once a machine, tests/conftest.py).
Another version: a lib folder named by FLINKX_TEST_FLINK_LIB_<major>_<minor> (e.g. FLINKX_TEST_FLINK_LIB_1_19=
/tmp/fl119/apache_flink_libraries-1.19.3/deps/lib).
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from flinkx_build.planner import jars
from flinkx_build.targets import TARGETS


def _variable(version: str) -> str:
    return "FLINKX_TEST_FLINK_LIB_" + version.replace(".", "_")


def flink_lib(version: str) -> Path | None:
    if os.environ.get(_variable(version)):
        path = Path(os.environ[_variable(version)])
        return path if any(path.glob("flink-dist-*.jar")) else None
    if version in TARGETS:
        from tests.conftest import unpack_flink

        unpack_flink()
        return jars.installed_lib(TARGETS[version])
    return None


def skip_reason(version: str) -> str | None:
    if not shutil.which("javac") or not shutil.which("java"):
        return "no JDK (javac, java) on PATH"
    if version not in TARGETS and flink_lib(version) is None:
        return f"Flink {version}'s jars are not here (set {_variable(version)} to its lib folder)"
    return None


def java_args(version: str) -> list[str]:
    """The JVM options Flink `version` needs on this Java (the target's, targets.py): before `-cp`."""
    target = TARGETS.get(version)
    return list(target.jvm_args) if target is not None else []
