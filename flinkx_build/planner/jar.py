"""The planner driver's jar: compiled with javac against a target's jars, once per target and source hash.

Kept in the user's cache folder: it runs as code in the JVM, and nothing a workspace holds may be on that
class path. Built in a temporary folder and renamed into place,
so a concurrent run or a crash never leaves a half-written jar behind the final name.
"""
from __future__ import annotations

from pathlib import Path

from flinkx_build.cache_root import HOME_ENV
from flinkx_build.cache_root import private_folder
from flinkx_build.cache_root import user_cache_dir
from flinkx_build.cache_version import code_versioned
from flinkx_build.java_jar import JavacFailed
from flinkx_build.java_jar import build_jar
from flinkx_build.planner import JAVA_MISSING
from flinkx_build.planner import FlinkUnavailable
from flinkx_build.targets import Target

JAVA_DIR = Path(__file__).with_name("java")
JAR_NAME = "flinkx-planner.jar"


def sources(target: Target) -> list[Path]:
    """The driver's Java sources and resources for `target`: the shared ones (`src/`: flinkx's one stand-in
    connector and functions among them), the few classes written against the target's Flink API
    (`api/<driver_api>/`), and the resources."""
    folders = (JAVA_DIR / "src", JAVA_DIR / "api" / target.driver_api, JAVA_DIR / "resources")
    return sorted(p for folder in folders for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def sources_hash(target: Target) -> str:
    """Changes when the driver's sources (the code version: every file of the package) or the Flink
    release they compile against change."""
    return code_versioned(target.release)


def driver_jar(target: Target, lib: Path, javac: str | None) -> Path:
    """The driver jar for `target` (compiled against the jars in `lib` on first use)."""
    try:
        root = private_folder(private_folder(user_cache_dir()) / "planner-jar")
    except OSError as exc:
        raise FlinkUnavailable(f"FX303 flinkx's own cache folder cannot hold the planner driver ({exc}); "
                                f"set {HOME_ENV} to a folder of yours") from None
    final_dir = root / f"{target.version}-{sources_hash(target)}"
    jar = final_dir / JAR_NAME
    if jar.is_file():
        return jar
    if javac is None:
        raise FlinkUnavailable(f"javac was not found, needed once to build the planner driver: {JAVA_MISSING}")
    # --release 17: the driver serves a unix socket (Java 16+); Flink 2.x needs 17 anyway
    try:
        return build_jar(javac, "17", str(lib.resolve() / "*"), sources(target), JAVA_DIR / "resources", final_dir, JAR_NAME)
    except JavacFailed as exc:
        raise FlinkUnavailable(f"FX303 javac failed on the planner driver for Flink {target.version}: {exc}") from None
