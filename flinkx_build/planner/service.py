"""The warm planner: one driver JVM per target kept as a background service, like dmypy.

lint, pre-commit and the language server plan every task they check; a cold JVM costs seconds
(the first statement on Flink 2.3 about 8 s), so the driver is started once with `--socket` and
serves later runs until it has been idle for `IDLE_SECONDS`. Its socket, lock and log live in
`<user cache>/planner/` (0700), never in a workspace; its class path holds only flinkx's driver jar
and the target's jars. The socket's name carries the driver's source hash, so a new flinkx never
talks to an old driver.
"""
from __future__ import annotations

import fcntl
import os
import socket
import subprocess
import time
from pathlib import Path

from flinkx_build import child_process
from flinkx_build.cache_root import private_folder
from flinkx_build.cache_root import user_cache_dir
from flinkx_build.planner.process import PlannerStopped
from flinkx_build.planner.process import SocketPlanner
from flinkx_build.planner.process import START_TIMEOUT
from flinkx_build.planner.process import command
from flinkx_build.targets import Target

IDLE_ENV = "FLINKX_PLANNER_IDLE_SECONDS"
IDLE_SECONDS = 15 * 60
_MAX_SOCKET_PATH = 100  # sun_path holds 108 bytes on Linux


def folder() -> Path:
    return private_folder(private_folder(user_cache_dir()) / "planner").resolve()


def socket_path(target: Target, jar: Path) -> Path:
    return folder() / f"{target.version}-{jar.parent.name.rsplit('-', 1)[-1][:8]}.sock"


def idle_seconds() -> int:
    try:
        return max(int(os.environ.get(IDLE_ENV, "")), 1)
    except ValueError:
        return IDLE_SECONDS


def connect(path: Path) -> socket.socket | None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(str(path))
        return sock
    except OSError:
        sock.close()
        return None


def warm_planner(target: Target, java: str, jar: Path, lib: Path) -> SocketPlanner:
    """A conversation with the target's warm service, started first if none answers."""
    started = time.perf_counter()
    path = socket_path(target, jar)
    if len(str(path)) > _MAX_SOCKET_PATH:
        raise PlannerStopped(f"the socket path {path} is too long for a unix socket")
    sock = connect(path)
    if sock is None:
        sock = _start(target, java, jar, lib, path)
    return SocketPlanner(sock, started)


def _start(target: Target, java: str, jar: Path, lib: Path, path: Path) -> socket.socket:
    # one starter at a time: a second driver binding the same path would orphan the first
    with open(folder() / f"{target.version}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        sock = connect(path)
        if sock is not None:
            return sock
        log = open(folder() / f"{target.version}.log", "ab")
        try:
            process = child_process.popen(
                command(java, jar, lib, "--socket", str(path), "--idle-seconds", str(idle_seconds()),
                        jvm_args=target.jvm_args),
                stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True, close_fds=True)
        finally:
            log.close()
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise PlannerStopped(f"the planner service for Flink {target.version} exited "
                                     f"({process.returncode}); see {folder() / (target.version + '.log')}")
            sock = connect(path)
            if sock is not None:
                return sock
            time.sleep(0.05)
        raise PlannerStopped(f"the planner service for Flink {target.version} did not start in time")


def stop(target: Target, jar: Path) -> bool:
    """Ask the target's service to end (tests, `flinkx planner stop`); False when none answered."""
    return stop_at(socket_path(target, jar))


def stop_at(path: Path) -> bool:
    """Ask the service listening at `path` to end; False when none answered."""
    sock = connect(path)
    if sock is None:
        return False
    with sock:
        sock.sendall(b'{"stop": true}\n')
        sock.settimeout(10)
        try:
            sock.recv(256)
        except OSError:
            pass
    return True
