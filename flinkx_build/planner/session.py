"""Open the planner of a workspace's target: which jars, which driver, a child process or the warm service.

`planner_problem` answers fast (no JVM, no download) what stands in the way; `open_planner` gives a
`Planner` (process.py) or raises PlannerUnavailable with a one-line message that starts with its FX code.
"""
from __future__ import annotations

from pathlib import Path
from typing import IO

from flinkx_build.child_process import java_tool
from flinkx_build.planner import jars
from flinkx_build.planner.jar import DriverUnavailable
from flinkx_build.planner.jar import JAVA_MISSING
from flinkx_build.planner.jar import driver_jar
from flinkx_build.planner.process import ChildPlanner
from flinkx_build.planner.process import Planner
from flinkx_build.planner.process import PlannerStopped
from flinkx_build.planner.service import warm_planner
from flinkx_build.targets import Target
from flinkx_build.targets import supported
from flinkx_build.targets import target as target_named


class PlannerUnavailable(Exception):
    """No planner for this target here; the message is one line starting with an FX code (or Java's absence)."""


def target_or_problem(flink_version: str) -> Target | str:
    found = target_named(flink_version)
    if found is None:
        return (f"FX302 no planner for Flink {flink_version}: flinkx plans on {supported()} "
                "(docs/targets.md); set flink_version in flinkx.yaml to one of them")
    return found


def planner_problem(flink_version: str, *, fetch: bool) -> str | None:
    """Why the target's planner cannot run here without more than `fetch` allows; None when it can."""
    target = target_or_problem(flink_version)
    if isinstance(target, str):
        return target
    if java_tool("java") is None:
        return JAVA_MISSING
    if not fetch and jars.installed_lib(target) is None:
        if target.from_extra:
            return f"FX303 the planner for Flink {target.version} needs the flink extra: {jars.EXTRA_HINT}"
        return f"FX303 the planner for Flink {target.version} is not installed: run `flinkx validate` once"
    return None


def open_planner(flink_version: str, *, fetch: bool = True, warm: bool = False,
                 progress: IO[str] | None = None, extra_jars: tuple[Path, ...] = ()) -> Planner:
    """The target's planner: its jars (fetched on first use when `fetch`), the driver jar, then a
    child process (`warm=False`) or the warm service. `extra_jars` (the operator's, for deploy --apply
    only) go on a child's class path; the warm service never loads them."""
    problem = planner_problem(flink_version, fetch=fetch)
    if problem is not None:
        raise PlannerUnavailable(problem)
    target = target_or_problem(flink_version)
    assert not isinstance(target, str)
    try:
        lib = jars.jars_lib(target, progress)
        jar = driver_jar(target, lib, java_tool("javac"))
        java = java_tool("java")
        if java is None:
            raise PlannerUnavailable(JAVA_MISSING)
        if warm and not extra_jars:
            try:
                return warm_planner(target, java, jar, lib)
            except PlannerStopped:
                pass  # no service here (a path too long, a start failure): a child of this run instead
        return ChildPlanner(java, jar, lib, extra_jars)
    except (jars.JarsUnavailable, DriverUnavailable) as exc:
        raise PlannerUnavailable(str(exc)) from None
    except PlannerStopped as exc:
        raise PlannerUnavailable(f"FX303 the planner for Flink {target.version} did not start: {exc}") from None
