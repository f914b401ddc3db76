"""What flinkx's JVMs listen on (issue 41 items 7 and 8), read from /proc while they run.

- `flinkx validate` opens no TCP listener at all: the planner driver talks over its stdin and stdout (the warm
  service over a unix socket in the user cache). 1.20's validate ran on PyFlink's py4j gateway before, a TCP
  port without an auth token that another local process called into.
- `flinkx test`'s MiniCluster (in the driver's JVM) binds everything it opens to 127.0.0.1: its blob server
  listened on every interface.
"""
from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from flinkx_build.pipeline import Session
from flinkx_build.testing.driver_run import DriverTestRunner
from flinkx_build.testing.suite import load_suite
from tests.conftest import EXAMPLE
from tests.helpers import flink_available
from tests.security.sockets import listening
from tests.security.sockets import tree
from tests.security.sockets import watch

pytestmark = [pytest.mark.flink, pytest.mark.skipif(sys.platform != "linux", reason="reads /proc (Linux)"),
              pytest.mark.skipif(flink_available() is not None, reason=f"no Flink here: {flink_available()}")]
VERSIONS = ["1.20", "2.3"]


def _example(tmp_path, version: str):
    root = tmp_path / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
    config = root / "flinkx.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace('"1.20"', f'"{version}"'), encoding="utf-8")
    return root


@pytest.mark.parametrize("version", VERSIONS)
def test_validate_opens_no_tcp_listener(tmp_path, version):
    root = _example(tmp_path, version)
    process = subprocess.Popen([sys.executable, "-m", "flinkx_build", "validate", "ws"], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = watch(process, timeout=600)
    out, err = process.communicate(timeout=60)
    assert process.returncode in (0, 1), err  # validated (whatever Flink says of the example on this version)
    assert "Flink" in err and root.is_dir()
    assert seen == set(), f"validate's processes listened on {sorted(seen)}"


@pytest.mark.parametrize("version", VERSIONS)
def test_the_test_minicluster_listens_on_loopback_only(tmp_path, version):
    root = _example(tmp_path, version)
    session = Session.open(root, "stream", True)
    suite = load_suite(session, ("dim/sync_dim_user",))
    assert not [d for d in suite.diagnostics if d.is_error] and suite.cases
    case = suite.cases[0]
    script = session.compiled(session.workspace.projects["dim"].tasks["sync_dim_user"])
    with DriverTestRunner(version, timeout=120) as runner:
        result = runner.run(case, script)  # starts the driver's MiniCluster, which lives as long as the driver
        assert result.error == "", result.error
        sockets = listening(tree(runner._driver()._process.pid))
    assert sockets, "the MiniCluster listened on nothing: nothing was checked"
    assert {address for address, _ in sockets} == {"127.0.0.1"}, sorted(sockets)
