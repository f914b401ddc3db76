"""Real Flink SQL nobody here wrote (tests/fixtures/corpus, Apache-2.0): no false alarms.

The 36 cookbook files become the tasks of one project. Plain Flink SQL is
valid Dataphin SQL (every table is task-local DDL), so lint and build must be
clean, and the compiled scripts must still be accepted by Flink.
"""
from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests.conftest import COOKBOOK
from tests.helpers import flink_available

# A task-local Python UDF: Flink would run Python to plan it, which no flinkx command does (FX195).
LOADS_CODE = "udfs__01_python_udfs.sql"


@pytest.fixture(scope="module")
def corpus_ws(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    tasks = root / "ws" / "projects" / "cookbook" / "tasks"
    tasks.mkdir(parents=True)
    # The cookbook's demos write their databases' passwords literally. FX480 reports that as a
    # policy of flinkx's (declare a secret), not as something Flink rejects, so this workspace turns
    # it off as a team would; test_literal_passwords_are_reported checks it still fires here.
    (root / "ws" / "flinkx.yaml").write_text("engine: flink\nlint:\n  FX480: off\n")
    for sql in sorted(COOKBOOK.glob("*.sql")):
        if sql.name != LOADS_CODE:
            shutil.copy(sql, tasks / sql.name)
    return root


def flinkx(root, *args):
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args], cwd=root, capture_output=True, text=True, timeout=600)


def test_lint_and_build_are_clean(corpus_ws):
    lint = flinkx(corpus_ws, "lint", "ws")
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert lint.stdout == ""
    build = flinkx(corpus_ws, "build", "ws")
    assert build.returncode == 0, build.stderr
    assert len(list((corpus_ws / "ws" / "build" / "cookbook").glob("*.sql"))) == len(list(COOKBOOK.glob("*.sql"))) - 1


def _lint_one(root, name):
    """`flinkx lint` of a workspace holding the one cookbook file, with flinkx's default settings."""
    tasks = root / "ws" / "projects" / "cookbook" / "tasks"
    tasks.mkdir(parents=True)
    (root / "ws" / "flinkx.yaml").write_text("engine: flink\n")
    shutil.copy(COOKBOOK / name, tasks / name)
    return flinkx(root, "lint", "ws")


def test_literal_passwords_are_reported(tmp_path):
    """FX480 sees a literal credential in a task-local CREATE TABLE of real SQL (issue 26, item 7)."""
    name = "aggregations-and-analytics__09_cdc_materialized_view.sql"
    lint = _lint_one(tmp_path, name)
    assert lint.returncode == 1
    assert [line.split(" ", 2)[:2] for line in lint.stdout.splitlines()] == [[f"ws/projects/cookbook/tasks/{name}:19:16:", "FX480"]]
    assert "'postgres'" not in lint.stdout


def test_the_python_udf_is_the_one_refusal(tmp_path):
    lint = _lint_one(tmp_path, LOADS_CODE)
    assert lint.returncode == 1
    assert lint.stdout.splitlines() == [
        f"ws/projects/cookbook/tasks/{LOADS_CODE}:3:1: FX195 'LANGUAGE PYTHON' makes Flink load code that is not Flink's own: "
        "no flinkx command runs it (declare the function in the project (its signature is what flinkx plans with) and name "
        "its jar with --jar on the deploy command line)"]


@pytest.mark.flink
@pytest.mark.skipif(flink_available() is not None, reason=f"Flink extra not usable: {flink_available()}")
def test_compiled_corpus_is_accepted_by_flink(corpus_ws):
    result = flinkx(corpus_ws, "validate", "ws")
    assert result.returncode == 0, result.stderr
