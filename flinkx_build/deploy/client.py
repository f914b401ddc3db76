"""Which Flink client deploy and `impact --state-compat` use: flinkx's planner driver on the workspace's Flink.

Every target, 1.20 included, plans, proves and submits through the planner driver on that version's own jars
(driver_client.py, planner/java/.../DeployClient.java): the predicted verdicts need the ids the driver computes
for each operator, the restore trial runs in the driver's MiniCluster, and a submission pins moved operators to
their old ids there (docs/deploy.md). The embedded PyFlink gateway (flink.py) is no longer deploy's client.
"""
from __future__ import annotations

from pathlib import Path

from flinkx_build.deploy.driver_client import DriverFlink
from flinkx_build.deploy.flink import FlinkUnavailable
from flinkx_build.targets import target as target_named

FlinkClient = DriverFlink


def open_client(flink_version: str, log_dir: Path, jars: list[Path]) -> FlinkClient:
    """The client for `flink_version`; FlinkUnavailable (one line) when it cannot start here. `log_dir` is kept
    for callers; the driver logs to stderr."""
    if target_named(flink_version) is None:
        raise FlinkUnavailable(f"flinkx has no Flink client for flink_version {flink_version}")
    return DriverFlink(flink_version, jars)
