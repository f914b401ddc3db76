"""Open the Flink of a workspace's target: which jars, which driver, a child process or the warm service.

Every command that needs Flink (lint's planner check, validate, test, deploy, impact --validate and
--state-compat, upgrade-check) opens it here; this is the one interface they call. `planner_problem`
answers fast (no download, no JVM) what stands in the way; `open_planner`
gives a `Planner` (process.py) or raises FlinkUnavailable with a one-line message that starts with its FX code.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import IO

from flinkx_build.child_process import java_tool
from flinkx_build.planner import JAVA_MISSING
from flinkx_build.planner import FlinkUnavailable
from flinkx_build.planner import jars
from flinkx_build.planner.jar import driver_jar
from flinkx_build.planner.process import ChildPlanner
from flinkx_build.planner.process import Planner
from flinkx_build.planner.process import PlannerStopped
from flinkx_build.planner.service import warm_planner
from flinkx_build.targets import Target
from flinkx_build.targets import supported
from flinkx_build.targets import target as target_named

_JAVA_VERSION = re.compile(r'^JAVA_VERSION="(\d+)(?:\.(\d+))?', re.MULTILINE)


def target_or_problem(flink_version: str, command: str = "") -> Target | str:
    """The target `flink_version` names, or why there is none (FX302); `command`: what must run on it."""
    found = target_named(flink_version)
    if found is None:
        return (f"FX302 no planner for Flink {flink_version}: flinkx plans on {supported()} "
                "(docs/targets.md); set flink_version in flinkx.yaml to one of them")
    if command and command not in found.runs:
        return f"FX302 flinkx {command} does not run on Flink {found.version} (docs/targets.md)"
    return found


@lru_cache(maxsize=8)
def java_release(java: str) -> int | None:
    """The feature release of the JDK `java` belongs to (17 for "17.0.15", 8 for "1.8.0"), read from the JDK's
    `release` file (no JVM started: lint asks on every run); None when it does not say."""
    try:
        home = Path(java).resolve().parent.parent
        text = (home / "release").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    match = _JAVA_VERSION.search(text)
    if match is None:
        return None
    major = int(match.group(1))
    return int(match.group(2) or 0) if major == 1 else major


def java_problem(target: Target) -> str | None:
    """JAVA_MISSING, or why this Java cannot run the target's Flink; None when it can."""
    java = java_tool("java")
    if java is None:
        return JAVA_MISSING
    release = java_release(java)
    low, high = target.java
    if release is not None and not low <= release <= high:
        return (f"FX303 Flink {target.version} runs here on Java {low} to {high}, but {java} is Java {release}: "
                f"install a Java {low} JDK and put it first on PATH or set JAVA_HOME")
    return None


def planner_problem(flink_version: str, *, fetch: bool) -> str | None:
    """Why the target's planner cannot run here without more than `fetch` allows; None when it can."""
    target = target_or_problem(flink_version)
    if isinstance(target, str):
        return target
    problem = java_problem(target)
    if problem is not None:
        return problem
    if not fetch and jars.installed_lib(target) is None:
        return (f"FX303 the jars of Flink {target.version} are not here yet: run `flinkx validate` once to fetch "
                f"them (about {target.archive_mb} MB), or set ${jars.FLINK_HOME_ENV}")
    return None


def open_planner(flink_version: str, *, fetch: bool = True, warm: bool = False,
                 progress: IO[str] | None = None, extra_jars: tuple[Path, ...] = ()) -> Planner:
    """The target's planner: its jars (fetched on first use when `fetch`), the driver jar, then a
    child process (`warm=False`) or the warm service. `extra_jars` (the operator's, for deploy --apply
    only) go on a child's class path; the warm service never loads them."""
    problem = planner_problem(flink_version, fetch=fetch)
    if problem is not None:
        raise FlinkUnavailable(problem)
    target = target_or_problem(flink_version)
    assert not isinstance(target, str)
    lib = jars.jars_lib(target, progress)
    jar = driver_jar(target, lib, java_tool("javac"))
    java = java_tool("java")
    if java is None:
        raise FlinkUnavailable(JAVA_MISSING)
    try:
        if warm and not extra_jars:
            try:
                return warm_planner(target, java, jar, lib)
            except PlannerStopped:
                pass  # no service here (a path too long, a start failure): a child of this run instead
        return ChildPlanner(java, jar, lib, extra_jars, target.jvm_args)
    except PlannerStopped as exc:
        raise FlinkUnavailable(f"FX303 the planner for Flink {target.version} did not start: {exc}") from None
