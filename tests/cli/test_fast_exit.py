"""`cli.run` leaves by os._exit after the in-process commands: exit codes and output must survive it."""
from __future__ import annotations

import subprocess
import sys

from flinkx_build.cli import FAST_EXIT
from flinkx_build.process_tricks import NO_CYCLE_COLLECTOR

BAD_TASK = "INSERT INTO nowhere SELECT 1;\n"


def _flinkx(cwd, *args):
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_findings_and_exit_code_1_survive_the_fast_exit(make_workspace):
    ws = make_workspace({"projects/p/project.yaml": "name: p\n", "projects/p/tasks/t.sql": BAD_TASK})
    for command in (["lint", "."], ["lint", "projects/p/tasks/t.sql"], ["build", "."]):
        done = _flinkx(ws, *command)
        assert done.returncode == 1, (command, done.stdout, done.stderr)
        assert "projects/p/tasks/t.sql:1:13: FX130" in done.stdout, (command, done.stdout)
        assert done.stderr.rstrip().endswith("warning(s)") or "error" in done.stderr


def test_usage_errors_still_exit_2(tmp_path):
    done = _flinkx(tmp_path, "build", "no-such-folder")
    assert done.returncode == 2 and "no such folder" in done.stderr


def test_the_commands_that_hold_resources_exit_normally():
    assert not FAST_EXIT & {"validate", "test", "deploy", "lsp"}
    assert NO_CYCLE_COLLECTOR <= FAST_EXIT
