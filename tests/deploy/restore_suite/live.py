"""One live cluster per Flink version for the restore suite, and the driver that submits to it."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from flinkx_build.child_process import java_tool
from flinkx_build.deploy import restore_facts
from flinkx_build.planner import jars
from flinkx_build.planner.session import open_planner
from flinkx_build.targets import TARGETS
from tests.deploy.flink_cluster import start_cluster
from tests.deploy.restore_suite.cases import Case
from tests.deploy.restore_suite.runner import CLUSTER_SETTINGS
from tests.deploy.restore_suite.runner import SLOTS
from tests.deploy.restore_suite.runner import Suite
from tests.deploy.restore_suite.runner import dimension_jar
from tests.deploy.restore_suite.runner import outcomes_data



def outcomes_path(version: str) -> Path:
    """Where the measured outcomes of `version` are kept (flinkx_build/deploy/restore_facts.py reads them)."""
    return Path(restore_facts.__file__).parents[1] / "data" / "flink" / version / restore_facts.FILE


def distribution(version: str, root: Path):  # type: ignore[no-untyped-def]
    """The Flink distribution a cluster of `version` is made of (from the package index's archives)."""
    from tests.deploy.flink_dist import distribution as from_the_index

    return from_the_index(root, version)


def run_version(version: str, root: Path, cases: list[Case], fresh_runs: bool = True) -> dict[str, Any]:
    """Start a cluster of `version` under `root`, run `cases` on it, stop it: the outcomes as stored data."""
    target = TARGETS[version]
    lib = jars.jars_lib(target)
    javac = java_tool("javac")
    assert javac is not None, "the restore suite needs javac"
    dim = dimension_jar(lib, javac, root / "jars")
    # up in 18-37 s measured; a guard against a hang, generous for a machine busy with other JVMs
    cluster = start_cluster(root / "cluster", timeout=300.0, source=distribution(version, root), slots=SLOTS,
                            settings=CLUSTER_SETTINGS)
    try:
        planner = open_planner(version, fetch=True, warm=False, extra_jars=(dim,))
        try:
            flink_version = planner.flink_version
            run = Suite(planner, cluster.url, [dim]).run(cases, fresh_runs)
        finally:
            planner.close()
    finally:
        cluster.stop()
    data = outcomes_data(run, flink_version)
    data["seconds"]["cluster start"] = round(cluster.started_in, 1)
    return data
