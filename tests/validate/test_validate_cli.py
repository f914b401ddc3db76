"""`flinkx validate` with the real Flink planner: Flink's messages at task-file positions."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from flinkx_build.planner.session import planner_problem
from tests.conftest import EXAMPLE

pytestmark = pytest.mark.flink
needs_flink = pytest.mark.skipif(planner_problem("1.20", fetch=True) is not None,
                                 reason=f"no Flink 1.20 here: {planner_problem('1.20', fetch=True)}")
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "validate_errors"


def run_flinkx(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def rejected(tmp_path_factory):
    root = tmp_path_factory.mktemp("validate")
    shutil.copytree(FIXTURE, root / "ws")
    result = run_flinkx("validate", "ws", cwd=root)
    lines = {}
    for line in result.stdout.splitlines():  # findings on stdout, the summary on stderr
        m = re.match(r"^ws/projects/p/tasks/(\w+)\.sql:(\d+):(\d+): FX300 (.+)$", line)
        if m:
            lines[m[1]] = (int(m[2]), int(m[3]), m[4])
    return result, lines


@needs_flink
def test_exit_code_and_clean_task(rejected):
    result, lines = rejected
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "good" not in lines
    assert set(lines) == {"wrong_column", "column_count", "type_mismatch", "update_into_append", "unknown_function"}


@needs_flink
@pytest.mark.parametrize(
    "task, line, col, message",
    [
        # Flink's messages in the task's words, with the fix (compile/flink_messages.py)
        ("wrong_column", 2, 8, "unknown column 'order_idd'"),
        ("column_count", 2, 1, "INSERT INTO p.kafka_sink writes 1 column, the sink has 2"),
        ("type_mismatch", 1, 1, "column 2 of the query does not fit the sink column 'amount' of p.kafka_sink"),
        ("update_into_append", 1, 1, "p.kafka_sink can only append, and the query updates its rows (GroupAggregate)"),
        ("unknown_function", 2, 60, "no function no_such_fn takes (<CHARACTER>)"),
    ],
)
def test_flink_messages_map_to_the_task_file(rejected, task, line, col, message):
    _, lines = rejected
    assert lines[task][:2] == (line, col)
    assert message in lines[task][2]


@needs_flink
def test_example_workspace_validates(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "ws", ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    result = run_flinkx("validate", "ws", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert re.search(r"Flink accepts all \d+ tasks", result.stderr)  # the summary is on stderr


@pytest.mark.parametrize("broken", ["offline", "java"])
def test_without_flink_it_says_what_is_missing_and_exits_2(tmp_path, broken):
    shutil.copytree(FIXTURE, tmp_path / "ws")
    env = {k: v for k, v in os.environ.items() if k not in ("FLINKX_FLINK_HOME", "FLINKX_WHEEL_DIR", "PIP_FIND_LINKS")}
    if broken == "offline":  # a fresh machine whose package index has no Flink
        (tmp_path / "empty-index").mkdir()
        env.update(FLINKX_HOME=str(tmp_path / "home"), PIP_CONFIG_FILE=os.devnull,
                   PIP_INDEX_URL=(tmp_path / "empty-index").as_uri())
    else:
        env.pop("JAVA_HOME", None)
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        os.symlink(sys.executable, bin_dir / "python3")
        env["PATH"] = str(bin_dir)  # no java on the PATH
    result = run_flinkx("validate", "ws", cwd=tmp_path, env=env)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    line = result.stderr.strip().splitlines()[-1]
    if broken == "java":
        assert result.stderr.strip() == line
        assert line.startswith("flinkx: error: flinkx validate needs Java 17: Java was not found")
        assert "pip install" not in line and "Java 17 JDK" in line
    else:  # after the progress line and pip's own words: one line that says what to do
        assert line.startswith("flinkx: error: flinkx validate could not start Flink 1.20: FX303 could not download "
                               "apache-flink-libraries 1.20.5")
        assert "$FLINKX_WHEEL_DIR" in line and "$FLINKX_FLINK_HOME" in line
