"""Which changes the stand-in lets a sink take is the real connector's (validate/standin.py): a
blackhole sink drops UPDATE_BEFORE, an upsert sink, so Flink 2.3 takes ON CONFLICT into one with a
primary key. The 2.3 companion workspace's `user_channel` is that task: with the real blackhole
connector Flink 2.3 plans it (tests/facts/test_example_2_3.py), and `flinkx validate` must agree."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.planner.conftest import jars_23  # noqa: F401 - the session fixture: Flink 2.3's jars
from tests.planner.conftest import needs_planner

COMPANION = Path(__file__).parents[2] / "example-workspace-2.3"
pytestmark = [pytest.mark.flink, pytest.mark.network, needs_planner("2.3")]


def test_validate_takes_on_conflict_into_a_keyed_blackhole_as_flink_does(tmp_path, jars_23):
    ws = tmp_path / "ws"
    shutil.copytree(COMPANION, ws, ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    done = subprocess.run([sys.executable, "-m", "flinkx_build", "validate", "."], cwd=ws, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ON CONFLICT" in (ws / "projects/dws/tasks/user_channel.sql").read_text()  # the task that proves it
