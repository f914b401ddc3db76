"""Which Flink client deploy and `impact --state-compat` use: the workspace's target decides.

The flink extra's target (1.20) keeps the embedded PyFlink gateway (flink.py); every other target
(2.3) uses flinkx's planner driver on that version's own jars (driver_client.py). Both give
`flink_version`, `compile_plan`, `submit` and `close`.
"""
from __future__ import annotations

from pathlib import Path

from flinkx_build.deploy.driver_client import DriverFlink
from flinkx_build.deploy.flink import DeployFlink
from flinkx_build.deploy.flink import FlinkUnavailable
from flinkx_build.targets import target as target_named

FlinkClient = DeployFlink | DriverFlink


def open_client(flink_version: str, log_dir: Path, jars: list[Path]) -> FlinkClient:
    """The client for `flink_version`; FlinkUnavailable (one line) when it cannot start here."""
    target = target_named(flink_version)
    if target is None:
        raise FlinkUnavailable(f"flinkx has no Flink client for flink_version {flink_version}")
    if target.from_extra:
        return DeployFlink(log_dir, jars)
    return DriverFlink(flink_version, jars)
