"""A real standalone Flink 1.20.5 cluster for the deploy tests, started once per session (tests/deploy/flink_dist.py)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import flink_available

WORKSPACE = Path(__file__).with_name("workspace")


@pytest.fixture(scope="session")
def flink_cluster(tmp_path_factory):
    reason = flink_available()
    if reason is not None:
        pytest.skip(f"no Flink distribution here: {reason}")
    from tests.deploy.flink_cluster import start_cluster
    from tests.deploy.flink_dist import NoDistribution
    from tests.deploy.flink_dist import distribution

    root = tmp_path_factory.mktemp("flink-cluster")
    try:
        source = distribution(root, "1.20")
    except NoDistribution as exc:
        pytest.fail(f"no Flink 1.20 distribution: {exc}")
    cluster = start_cluster(root, source)
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="module")
def deploy_workspace(tmp_path_factory) -> Path:
    """A copy of the companion workspace the tests may edit."""
    root = tmp_path_factory.mktemp("deploy-ws") / "deploy-demo"
    shutil.copytree(WORKSPACE, root, ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
    return root
