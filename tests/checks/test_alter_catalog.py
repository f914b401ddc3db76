"""ALTER CATALOG is real Flink SQL (issue 28's false alarms): one that names no 'type' keeps the
catalog's factory, and the only catalogs a task can create are Flink's own in-memory ones, so it
loads no code and is no FX195. One that sets 'type' could switch the factory: still FX195."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import flink_available

TASK = """CREATE CATALOG mem WITH ('type' = 'generic_in_memory');
{alter};
CREATE TEMPORARY TABLE src (id BIGINT) WITH ('connector' = 'datagen');
CREATE TEMPORARY TABLE snk (id BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO snk SELECT id FROM src;
"""


def _workspace(tmp_path: Path, alter: str) -> Path:
    ws = tmp_path / "ws"
    tasks = ws / "projects" / "p" / "tasks"
    tasks.mkdir(parents=True)
    (ws / "flinkx.yaml").write_text("engine: flink\n", encoding="utf-8")
    (ws / "projects" / "p" / "project.yaml").write_text("name: p\n", encoding="utf-8")
    (tasks / "alter_catalog.sql").write_text(TASK.format(alter=alter), encoding="utf-8")
    return ws


def _flinkx(ws: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "FLINKX_NO_PLANNER": "1"}
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args, str(ws)], capture_output=True, text=True,
                          timeout=600, env=env)


@pytest.mark.parametrize("alter", ["ALTER CATALOG mem SET ('default-database' = 'default')",
                                   "ALTER CATALOG mem RESET ('default-database')",
                                   "ALTER CATALOG mem COMMENT 'the task''s own catalog'"])
def test_an_alter_catalog_that_keeps_the_factory_is_clean(tmp_path, alter):
    ws = _workspace(tmp_path, alter)
    for command in ("lint", "build"):
        done = _flinkx(ws, command, *(["--check"] if command == "build" else []))
        assert done.returncode == 0 and "FX195" not in done.stdout, done.stdout + done.stderr


def test_an_alter_catalog_that_sets_the_type_is_refused(tmp_path):
    ws = _workspace(tmp_path, "ALTER CATALOG mem SET ('type' = 'hive')")
    done = _flinkx(ws, "lint")
    assert done.returncode == 1
    assert any("alter_catalog.sql:2:1: FX195 'ALTER CATALOG'" in line for line in done.stdout.splitlines()), done.stdout


@pytest.mark.flink
@pytest.mark.skipif(flink_available() is not None, reason="needs the [flink] extra and Java")
def test_flink_executes_the_alter(tmp_path):
    # Flink really runs it: the same statement on a catalog that does not exist is rejected
    assert _flinkx(_workspace(tmp_path / "a", "ALTER CATALOG mem SET ('default-database' = 'default')"), "validate").returncode == 0
    missing = _flinkx(_workspace(tmp_path / "b", "ALTER CATALOG nosuch SET ('default-database' = 'default')"), "validate")
    assert missing.returncode == 1 and "FX300 unknown catalog 'nosuch'" in missing.stdout, missing.stdout
