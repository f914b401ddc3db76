"""Which Flink a deploy plans with, and whether the cluster runs the same (issue 29 item 5, the refusal).

deploy plans and submits with the client of the workspace's target: flinkx's planner driver on the
target's own jars (deploy/client.py). A plan made by one Flink version is not one another version runs (compiled plans,
state layouts, options that were removed). So the workspace's flink_version, the client and the cluster
must be the same minor release, or deploy stops before anything is planned or changed.
"""
from __future__ import annotations

from flinkx_build.targets import supported
from flinkx_build.targets import target as target_named

CODE = "FX305"


def minor(version: str) -> str:
    """"1.20.5" -> "1.20"."""
    return ".".join(version.strip().split(".")[:2])


def version_refusal(url: str, flink_version: str, cluster_version: str) -> str:
    """One line (with its code) when the workspace's target, the client and the cluster at `url` are
    not the same Flink; "" when they are (a cluster that does not say its version is not refused)."""
    if cluster_version and minor(cluster_version) != flink_version:
        return (f"{CODE} the cluster at {url} runs Flink {cluster_version}, but the workspace's flink_version is "
                f"{flink_version}: deploy to a {flink_version} cluster, or change flink_version (flinkx.yaml) "
                "and validate on that version first")
    if target_named(flink_version) is None:
        return (f"{CODE} flinkx deploy has no Flink client for flink_version {flink_version}: it deploys "
                f"{supported('deploy')} (docs/targets.md)")
    return ""

