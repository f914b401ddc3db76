"""Which Flink client deploy and `impact --state-compat` use: flinkx's planner driver on the workspace's Flink.

Every target plans, proves and submits through the planner driver on that version's own jars
(driver_client.py, planner/java/.../DeployClient.java): the predicted verdicts need the ids the driver computes
for each operator, the restore trial runs in the driver's MiniCluster, and a submission pins moved operators to
their old ids there (docs/deploy.md).
"""
from __future__ import annotations

from pathlib import Path

from flinkx_build.deploy.driver_client import DriverFlink
from flinkx_build.planner import FlinkUnavailable
from flinkx_build.planner.session import target_or_problem

FlinkClient = DriverFlink


def open_client(flink_version: str, jars: list[Path]) -> FlinkClient:
    """The client of `flink_version`'s Flink; FlinkUnavailable (one line) when it cannot start here."""
    target = target_or_problem(flink_version, "deploy")
    if isinstance(target, str):
        raise FlinkUnavailable(target)
    return DriverFlink(target.version, jars)
