"""The planner's row of the benchmark (issue 42 item 5): a cold `flinkx lint .` with the planner (FX301) against the
same cold lint without it (`FLINKX_NO_PLANNER=1`), on the same workspace, run after run in turn.

Cold means no workspace cache (so no planner verdict is read back) and no planner service running: each run of the
planner's side starts the driver JVM, as a pull request's check on a fresh machine does. The runs use a user cache
folder of their own whose driver jar is compiled before the first run (untimed: a one-file lint), with the target's
jars from this machine's cache (`$FLINKX_FLINK_HOME`). Peak RSS of the planner's side is the largest of the lint's
own processes and the service's JVM (its VmHWM, read before it is stopped); a process, never a sum.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

PLANNER_LINT_RATIO = 1.5  # issue 42: at most 1.5 times the cold lint without the planner
PLANNER_RSS_MB = 1024.0  # issue 42: peak memory at most 1 GB
JOB = "cold lint, planner on (anchor: the same lint with FLINKX_NO_PLANNER=1)"


Runs = tuple[tuple[float, ...], float, tuple[float, ...], float]  # with: seconds, peak MB; without: seconds, peak MB


def _target(ws: Path):
    from flinkx_build.load.root import load_config
    from flinkx_build.targets import target

    return target(load_config(ws / "flinkx.yaml", ws, []).flink_version)


def planner_problem(ws: Path) -> str | None:
    """Why the planner cannot run on this workspace here, or None."""
    from flinkx_build.load.root import load_config
    from flinkx_build.planner.session import planner_problem as problem

    return problem(load_config(ws / "flinkx.yaml", ws, []).flink_version, fetch=False)


@contextmanager
def user_cache(home: Path) -> Iterator[None]:
    """This process's view of flinkx's user cache folder set to `home` for a while (the service's socket is there)."""
    before = os.environ.get("FLINKX_HOME")
    os.environ["FLINKX_HOME"] = str(home)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("FLINKX_HOME", None)
        else:
            os.environ["FLINKX_HOME"] = before


def stop_service(ws: Path, home: Path, lib: Path) -> float:
    """Stop the run's planner service (started by the lint in `home`); its JVM's peak RSS in MB (0: none ran)."""
    from flinkx_build.planner import service
    from flinkx_build.planner.jar import driver_jar

    found = _target(ws)
    with user_cache(home):
        jar = driver_jar(found, lib, None)
        sock = str(service.socket_path(found, jar)).encode()
        peak_kb = 0
        for pid in (p for p in os.listdir("/proc") if p.isdigit()):
            try:
                if sock in Path(f"/proc/{pid}/cmdline").read_bytes():
                    status = Path(f"/proc/{pid}/status").read_text()
                    peak_kb = max([peak_kb] + [int(line.split()[1]) for line in status.splitlines()
                                               if line.startswith("VmHWM")])
            except OSError:
                continue
        service.stop(found, jar)
    return peak_kb / 1024


def planner_lib(ws: Path) -> Path | None:
    """The lib/ of this machine's jars of the workspace's target, or None when the planner cannot run here."""
    from flinkx_build.planner import jars

    found = _target(ws)
    return jars.installed_lib(found) if found is not None and planner_problem(ws) is None else None


def planner_env(home: Path, lib: Path) -> dict[str, str]:
    """A flinkx run's environment with the planner on: user cache `home` (a fresh one is a cold start: the driver
    jar compiled, the JVM started) and the target's jars named by `$FLINKX_FLINK_HOME` (a fresh user cache has none)."""
    from flinkx_build.planner import jars

    env = {k: v for k, v in os.environ.items() if k != "FLINKX_NO_PLANNER"}
    env.update({"FLINKX_HOME": str(home), jars.FLINK_HOME_ENV: str(lib.parent)})
    return env


def planner_runs(ws: Path, runs: int, flinkx: list[str], measure: Callable[..., Any]) -> Runs | None:
    """Cold lint with the planner and without it, `runs` times each in turn: (with: each run's seconds, peak MB;
    without: the same); None when the planner cannot run here."""
    lib = planner_lib(ws)
    if lib is None:
        return None
    home = Path(tempfile.mkdtemp(prefix="flinkx-bench-planner-home-"))
    env_on = planner_env(home, lib)
    env_off = {**env_on, "FLINKX_NO_PLANNER": "1"}
    first_task = sorted((ws / "projects").glob("*/tasks/**/*.sql"))[0]
    measure([[*flinkx, "lint", str(first_task.relative_to(ws))]], ws, 1, ok=(0, 1), env=lambda: env_on)  # the jar
    stop_service(ws, home, lib)

    def cold() -> None:
        shutil.rmtree(ws / ".flinkx-cache", ignore_errors=True)
        shutil.rmtree(ws / "build", ignore_errors=True)

    on_times, off_times, on_peak, off_peak = [], [], 0.0, 0.0
    try:
        for _ in range(runs):  # in turn: a slow minute of a shared machine falls on both sides alike
            on = measure([[*flinkx, "lint", "."]], ws, 1, cold, ok=(0, 1), env=lambda: env_on)
            on_times.append(on.seconds)
            on_peak = max(on_peak, on.peak_mb, stop_service(ws, home, lib))
            off = measure([[*flinkx, "lint", "."]], ws, 1, cold, ok=(0, 1), env=lambda: env_off)
            off_times.append(off.seconds)
            off_peak = max(off_peak, off.peak_mb)
    finally:
        stop_service(ws, home, lib)
        shutil.rmtree(home, ignore_errors=True)
    return tuple(on_times), on_peak, tuple(off_times), off_peak
