"""A `flinkx test` driver takes its MiniCluster's working directory with it when it ends.

The driver ends with System.exit once its stdin closes; a MiniCluster never closed left its folder
(`minicluster_*` in java.io.tmpdir) behind, one per run: over 900 in this machine's /tmp. The driver is real
(Flink 1.20's jars); java.io.tmpdir is pointed at the test's own folder through `$JVM_ARGS`.
"""
from __future__ import annotations

import shutil

import pytest

from flinkx_build.pipeline import Session
from flinkx_build.planner.session import open_planner
from flinkx_build.testing.driver_run import DriverTestRunner
from flinkx_build.testing.suite import load_suite
from tests.conftest import EXAMPLE
from tests.conftest import unpack_flink
from tests.planner.conftest import needs_planner

pytestmark = [pytest.mark.flink, pytest.mark.slow, needs_planner("1.20")]


def test_a_test_drivers_minicluster_folder_goes_when_the_driver_ends(tmp_path, monkeypatch):
    unpack_flink()
    scratch = tmp_path / "java-tmp"
    scratch.mkdir()
    monkeypatch.setenv("JVM_ARGS", f"-Djava.io.tmpdir={scratch}")
    root = tmp_path / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
    session = Session.open(root, "stream", True)
    suite = load_suite(session, ("dim/sync_dim_user",))
    script = session.compiled(session.workspace.projects["dim"].tasks["sync_dim_user"])
    opened = []

    def opener(version: str):
        opened.append(open_planner(version, fetch=False))
        return opened[-1]

    with DriverTestRunner("1.20", opener=opener) as runner:
        run = runner.run(suite.cases[0], script)
        assert run.error == "", run
        assert [p.name[:12] for p in scratch.glob("minicluster_*")] == ["minicluster_"]  # the running cluster's
    assert opened[0]._process.wait(timeout=120) == 0  # ended by its closed stdin, not stopped by a signal
    assert list(scratch.glob("minicluster_*")) == []
