"""FX126 (a built-in called with the wrong number of arguments) stays quiet where the generated
range comes from Calcite's operator table alone: the planner takes overloads that range does not
list. The differential harness found DATE_FORMAT(ts, 'from', 'to'), which Flink 1.20.5 plans."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import flink_available

EXAMPLE = Path(__file__).resolve().parents[2] / "example-workspace"
TASK = Path("projects") / "dim" / "tasks" / "sync_dim_user.sql"
WRITTEN = "DATE_FORMAT(register_time, 'yyyy-MM-dd')"


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


def test_an_overload_the_operator_range_does_not_list_is_no_finding(tmp_path):
    ws = _workspace(tmp_path, "DATE_FORMAT(register_time, 'yyyy-MM-dd', 'x')")
    done = _flinkx(ws, "lint")
    assert done.returncode == 0 and "FX126" not in done.stdout, done.stdout


def test_too_few_arguments_are_still_reported(tmp_path):
    ws = _workspace(tmp_path, "DATE_FORMAT(register_time)")
    done = _flinkx(ws, "lint")
    assert done.returncode == 1 and any(" FX126 DATE_FORMAT takes 2 argument(s)" in line for line in done.stdout.splitlines()), done.stdout


@pytest.mark.flink
@pytest.mark.skipif(flink_available() is not None, reason="needs the [flink] extra and Java")
def test_flink_plans_the_three_argument_form(tmp_path):
    ws = _workspace(tmp_path, "DATE_FORMAT(register_time, 'yyyy-MM-dd', 'x')")
    done = _flinkx(ws, "validate")
    assert done.returncode == 0, done.stdout + done.stderr
