"""The companion workspace stays clean: it lints, builds, and the real Flink planner accepts it."""
from __future__ import annotations

import pytest

from tests.helpers import flink_available


def test_the_companion_workspace_lints_and_builds_clean(cli, deploy_workspace):
    lint = cli("lint", str(deploy_workspace))
    assert lint.exit_code == 0, lint.lines
    build = cli("build", str(deploy_workspace), "--check")
    assert build.exit_code == 0, build.lines
    assert any("3 tasks compile cleanly" in line for line in build.lines), build.lines


@pytest.mark.flink
@pytest.mark.skipif(flink_available() is not None, reason="Flink unavailable")
def test_flink_accepts_the_companion_workspace(cli, deploy_workspace):
    result = cli("validate", str(deploy_workspace))
    assert result.exit_code == 0, result.lines
