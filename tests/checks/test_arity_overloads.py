"""FX126 (a built-in called with the wrong number of arguments) stays quiet where the generated
range comes from Calcite's operator table alone (the planner may take overloads that range does not
list), and the planner gives the verdict there. The differential harness once found DATE_FORMAT(ts, 'from', 'to')
planned on 1.20.5, but that call was project dim's own DATE_FORMAT (a stand-in that took any arguments before
functions declared their params): Flink's built-in refuses it, one line at the call (its CREATE VIEW's failure
is not repeated where the view is read)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import flink_available

EXAMPLE = Path(__file__).resolve().parents[2] / "example-workspace"
# Flink's built-in DATE_FORMAT: project dws defines none (dim's sync_dim_user calls dim's own, whose YAML declares
# its parameters: a third argument there is FX143)
TASK = Path("projects") / "dws" / "tasks" / "realtime_metrics.sql"
WRITTEN = "DATE_FORMAT(paid_at, 'yyyy-MM-dd')"


def _workspace(tmp_path: Path, call: str) -> Path:
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
    task = ws / TASK
    text = task.read_text(encoding="utf-8")
    assert WRITTEN in text
    task.write_text(text.replace(WRITTEN, call), encoding="utf-8")
    return ws


def _flinkx(ws: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args, str(ws)], capture_output=True, text=True, timeout=600)


def test_too_few_arguments_are_still_reported(tmp_path):
    ws = _workspace(tmp_path, "DATE_FORMAT(paid_at)")
    done = _flinkx(ws, "lint")
    assert done.returncode == 1 and any(" FX126 DATE_FORMAT takes 2 argument(s)" in line for line in done.stdout.splitlines()), done.stdout


THREE = "DATE_FORMAT(paid_at, 'yyyy-MM-dd', 'x')"


@pytest.mark.flink
@pytest.mark.skipif(flink_available() is not None, reason="needs Java and Flink 1.20's jars")
def test_flink_refuses_the_three_argument_form_in_one_line_at_the_call(tmp_path):
    ws = _workspace(tmp_path, THREE)
    validated = _flinkx(ws, "validate")
    assert validated.returncode == 1, validated.stdout + validated.stderr
    lines = [line for line in validated.stdout.splitlines() if " FX300 " in line]
    assert lines == [f"{ws / TASK}:14:3: FX300 DATE_FORMAT takes 2 arguments (call it with 2 arguments)"], validated.stdout
    env = {k: v for k, v in os.environ.items() if k != "FLINKX_NO_PLANNER"}
    env["FLINKX_PLANNER_IDLE_SECONDS"] = "20"  # the warm planner this lint starts ends soon after
    linted = subprocess.run([sys.executable, "-m", "flinkx_build", "lint", "ws"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=600)
    assert linted.returncode == 1, linted.stdout + linted.stderr
    assert linted.stdout.splitlines() == [f"ws/{TASK.as_posix()}:14:3: FX301 DATE_FORMAT takes 2 arguments (call it with "
                                          "2 arguments)"], linted.stdout + linted.stderr
