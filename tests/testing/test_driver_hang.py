"""The hang guard of `flinkx test` on the driver (testing/driver_run.py): a driver that stops answering is stopped
and its case fails with FX314, and the next case gets a new driver.

The driver is real (Flink 2.3's jars); it is made to hang by stopping its process (SIGSTOP), the one way to
freeze a JVM on demand.
"""
from __future__ import annotations

import os
import shutil
import signal

import pytest

from flinkx_build.pipeline import Session
from flinkx_build.planner.session import open_planner
from flinkx_build.testing.driver_run import DriverTestRunner
from flinkx_build.testing.suite import load_suite
from tests.conftest import EXAMPLE
from tests.planner.conftest import jars_23  # noqa: F401 - the session fixture: Flink 2.3's jars
from tests.planner.conftest import needs_planner

pytestmark = [pytest.mark.flink, pytest.mark.network, pytest.mark.slow, needs_planner("2.3")]


def test_a_driver_that_stops_answering_fails_its_case_with_fx314_and_the_next_gets_a_new_one(tmp_path, jars_23):
    root = tmp_path / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
    config = root / "flinkx.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace('"1.20"', '"2.3"'), encoding="utf-8")
    session = Session.open(root, "stream", True)
    suite = load_suite(session, ("dim/sync_dim_user",))
    assert not suite.diagnostics and len(suite.cases) == 2
    case = suite.cases[0]
    script = session.compiled(session.workspace.projects["dim"].tasks["sync_dim_user"])
    opened = []

    def opener(version: str):
        planner = open_planner(version, fetch=False)
        if not opened:  # the first driver freezes before its first case
            os.kill(planner._process.pid, signal.SIGSTOP)
        opened.append(planner)
        return planner

    with DriverTestRunner("2.3", timeout=5, opener=opener, answer_grace=1) as runner:
        hung = runner.run(case, script)
        assert hung.error == "FX314 the Flink 2.3 driver did not answer within 6 s and was stopped (the next test starts a new one)"
        assert opened[0]._process.poll() is not None  # stopped, not left behind
        runner.answer_grace = 300  # the new driver's first case starts its MiniCluster
        after = runner.run(case, script)
    assert len(opened) == 2
    assert after.error == "" and after.written["dim.dim_user"], after
