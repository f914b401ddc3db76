"""Where a Flink version's jars are on this machine, for the tests that run them (skipped otherwise).

1.20: the [flink] extra's `pyflink/lib`. Another version: a `pyflink/lib` folder of its
`apache-flink-libraries` wheel named by FLINKX_TEST_FLINK_LIB_<major>_<minor>
(e.g. FLINKX_TEST_FLINK_LIB_2_3=/tmp/fl23/pyflink/lib).
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path


def flink_lib(version: str) -> Path | None:
    variable = "FLINKX_TEST_FLINK_LIB_" + version.replace(".", "_")
    if os.environ.get(variable):
        path = Path(os.environ[variable])
        return path if any(path.glob("flink-dist-*.jar")) else None
    if version == "1.20":
        try:
            import pyflink
        except ImportError:
            return None
        path = Path(pyflink.__file__).parent / "lib"
        return path if any(path.glob("flink-dist-1.20*.jar")) else None
    return None


def skip_reason(version: str) -> str | None:
    if not shutil.which("javac") or not shutil.which("java"):
        return "no JDK (javac, java) on PATH"
    if flink_lib(version) is None:
        return (f"Flink {version}'s jars are not here (set FLINKX_TEST_FLINK_LIB_{version.replace('.', '_')} "
                f"to the pyflink/lib folder of apache-flink-libraries {version})")
    return None
