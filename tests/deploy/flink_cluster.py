"""A real standalone Flink cluster (one JobManager, one TaskManager) from the package index's archives.

The scripts and configuration come from the version's `apache-flink` platform wheel and the jars from
`apache-flink-libraries` (flink_dist.py), for 1.20 as for 2.3. It is made into a private FLINK_HOME in a
temporary folder (bin and conf copied, so the scripts resolve FLINK_HOME to the copy; lib, opt and
plugins linked), with its own config.yaml: free ports for REST and RPC, pid and log files inside
the folder (the scripts default to /tmp, where another cluster on the machine would collide),
modest memory, and enough slots for every test job. `stop()` ends exactly the two processes it
started, through the distribution's own scripts and their pid file.
"""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml import YAML

SLOTS = 8


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class FlinkCluster:
    home: Path
    rest_port: int
    savepoints: Path
    started_in: float = 0.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.rest_port}"

    def env(self) -> dict[str, str]:
        # the scripts read FLINK_HOME, FLINK_LIB_DIR, ...: none of the caller's may point them at other jars
        env = {key: value for key, value in os.environ.items() if not key.startswith("FLINK_")}
        env.update(FLINK_HOME=str(self.home), FLINK_CONF_DIR=str(self.home / "conf"),
                   FLINK_LOG_DIR=str(self.home / "log"), FLINK_PID_DIR=str(self.home / "pids"))
        return env

    def script(self, name: str, action: str) -> None:
        subprocess.run([str(self.home / "bin" / name), action], env=self.env(), check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.url + path, timeout=5) as response:
            return json.load(response)

    def stop(self) -> None:
        for name in ("taskmanager.sh", "jobmanager.sh"):
            try:
                self.script(name, "stop")
            except (subprocess.SubprocessError, OSError):
                pass

    def logs(self) -> str:
        """The tail of each log file, for a failing test's message."""
        parts = []
        for path in sorted((self.home / "log").glob("*.log")):
            lines = path.read_text(errors="replace").splitlines()[-30:]
            parts.append(f"== {path.name}\n" + "\n".join(lines))
        return "\n".join(parts)


@dataclass(frozen=True)
class Distribution:
    """Where a Flink distribution's parts are: scripts and configuration (`bin`, `conf`) and jars."""

    scripts: Path  # holds bin/ and conf/
    lib: Path
    opt: Path | None = None
    plugins: Path | None = None


def make_home(root: Path, source: Distribution, slots: int = SLOTS, settings: dict[str, str] | None = None) -> FlinkCluster:
    """`settings`: flattened config.yaml keys over the defaults here (the restore suite's bigger TaskManager)."""
    home = root / "flink-home"
    home.mkdir(parents=True)
    for name in ("bin", "conf"):
        shutil.copytree(source.scripts / name, home / name)
    # The scripts list lib/ with `find`, which does not enter a linked folder: link each jar.
    for name, folder in (("lib", source.lib), ("opt", source.opt)):
        (home / name).mkdir()
        for jar in (folder.iterdir() if folder else ()):
            (home / name / jar.name).symlink_to(jar)
    if source.plugins is not None:
        (home / "plugins").symlink_to(source.plugins, target_is_directory=True)
    else:
        (home / "plugins").mkdir()
    for name in ("log", "pids", "savepoints", "tmp"):
        (home / name).mkdir()
    rest_port = free_port()
    yaml = YAML()
    config_path = home / "conf" / "config.yaml"
    config = yaml.load(config_path.read_text())
    config["jobmanager"]["rpc"]["port"] = free_port()
    config["jobmanager"]["memory"]["process"]["size"] = "1000m"
    config["taskmanager"]["numberOfTaskSlots"] = slots
    config["taskmanager"]["memory"]["process"]["size"] = "1400m"
    config["taskmanager"]["memory"]["managed"] = {"size": "64m"}
    config["rest"]["port"] = rest_port
    config["rest"]["bind-address"] = "127.0.0.1"
    config["state.savepoints.dir"] = (home / "savepoints").as_uri()
    config["io.tmp.dirs"] = str(home / "tmp")
    for key, value in (settings or {}).items():
        parent, _, leaf = key.rpartition(".")
        node = config
        for part in parent.split(".") if parent else ():
            node = node.setdefault(part, {})
        node[leaf] = value
    with config_path.open("w") as out:
        yaml.dump(config, out)
    return FlinkCluster(home, rest_port, home / "savepoints")


def start_cluster(root: Path, source: Distribution, timeout: float = 90.0, slots: int = SLOTS,
                  settings: dict[str, str] | None = None) -> FlinkCluster:
    began = time.monotonic()
    cluster = make_home(root, source, slots, settings)
    cluster.script("jobmanager.sh", "start")
    cluster.script("taskmanager.sh", "start")
    deadline = began + timeout
    while time.monotonic() < deadline:
        try:
            overview = cluster.get("/overview")
            if overview.get("slots-total", 0) >= slots:
                cluster.started_in = time.monotonic() - began
                return cluster
        except (urllib.error.URLError, OSError, ValueError):
            pass
        time.sleep(0.5)
    logs = cluster.logs()
    cluster.stop()
    raise RuntimeError(f"the Flink cluster did not come up in {timeout:.0f} s\n{logs}")


# the deploy workspace's jobs on a cluster, read over its REST API (both versions' cluster tests)
def rest(cluster, path: str) -> dict:
    with urllib.request.urlopen(cluster.url + path, timeout=5) as response:
        return json.load(response)


def jobs_by_task(cluster) -> dict[str, list[dict]]:
    """The workspace's jobs per task, newest first."""
    out: dict[str, list[dict]] = {}
    for job in rest(cluster, "/jobs/overview")["jobs"]:
        if job["name"].startswith("flinkx:deploy-demo/"):
            out.setdefault(job["name"].split("/", 1)[1], []).append(job)
    for jobs in out.values():
        jobs.sort(key=lambda j: j["start-time"], reverse=True)
    return out


def running(cluster) -> dict[str, str]:
    """task -> job id of its RUNNING job."""
    return {task: jobs[0]["jid"] for task, jobs in jobs_by_task(cluster).items() if jobs[0]["state"] == "RUNNING"}
