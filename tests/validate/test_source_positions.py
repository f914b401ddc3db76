"""Flink's positions point at the token in the Dataphin source (issue 28): after a `proj.` prefix the
compiler strips, and in a meta table's YAML for DDL the YAML produced. Real CLI, real Flink 1.20."""
from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from flinkx_build.validate.contract import CompiledStatement
from flinkx_build.validate.positions import to_task
from tests.helpers import flink_available

FIXTURE = Path(__file__).parents[1] / "fixtures" / "validate_errors"
SHIFTED = "INSERT INTO p.kafka_sink SELECT order_id, amount FROM p.orders o WHERE o.amountt > 0;\n"
BAD_TYPE = """\
type: kafka
columns:
  - {name: id, type: STRING}
  - {name: amount, type: "DECIMAL(10, 2)"}
  - {name: note, type: "VARCHAR2(20)"}
with: {connector: kafka, topic: bad, format: json}
"""


def test_a_column_after_a_stripped_prefix_maps_back_through_the_edits():
    source = "SELECT a FROM p.t WHERE p.t.x > 0"
    compiled = "SELECT a FROM t WHERE t.x > 0"
    # two edits: `p.t` -> `t` at 14 and at 24 in the source
    stmt = CompiledStatement(compiled, 10, 1, "select", (3, 5), source, ((14, 15, 14, 17), (22, 23, 24, 27)))
    assert to_task(stmt, 10, compiled.index("x") + 1) == (3, 4 + source.index("x") + 1)
    assert to_task(stmt, 10, compiled.index("a") + 1) == (3, 4 + source.index("a") + 1)
    # inside a rewritten name: the name's start in the source
    assert to_task(stmt, 10, compiled.index("t WHERE") + 1) == (3, 4 + source.index("p.t WHERE") + 1)


def test_a_second_line_keeps_its_own_columns():
    source = "SELECT a\nFROM p.t WHERE p.t.x > 0"
    compiled = "SELECT a\nFROM t WHERE t.x > 0"
    stmt = CompiledStatement(compiled, 10, 1, "select", (3, 5), source, ((14, 15, 14, 17), (22, 23, 24, 27)))
    assert to_task(stmt, 11, compiled.split("\n")[1].index("x") + 1) == (4, source.split("\n")[1].index("x") + 1)


@pytest.mark.flink
@pytest.mark.skipif(flink_available() is not None, reason=f"Flink extra not usable: {flink_available()}")
def test_validate_points_at_the_task_token_and_the_yaml_line(tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURE, ws)
    for task in (ws / "projects" / "p" / "tasks").glob("*.sql"):
        task.unlink()
    (ws / "projects" / "p" / "tasks" / "shifted.sql").write_text(SHIFTED, encoding="utf-8")
    (ws / "projects" / "p" / "tables" / "bad_type.yaml").write_text(BAD_TYPE, encoding="utf-8")
    (ws / "projects" / "p" / "tasks" / "ddl.sql").write_text("INSERT INTO kafka_sink SELECT id, amount FROM bad_type;\n",
                                                             encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "flinkx_build", "validate", "ws"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    column = SHIFTED.index("amountt") + 1
    assert any(line.startswith(f"ws/projects/p/tasks/shifted.sql:1:{column}: FX300 unknown column 'amountt' in o (") for line in lines)
    [ddl] = [line for line in lines if "bad_type.yaml" in line]
    # the `note` column's entry (line 5), and no compiled-file line numbers in the text
    assert ddl.startswith("ws/projects/p/tables/bad_type.yaml:5:"), ddl
    assert "line 7" not in ddl and "FX300 Flink's parser does not expect" in ddl, ddl


def test_the_created_name_skips_comments_and_never_backtracks_over_blanks_or_dashes():
    """A failed CREATE under the task's comments is still one (its later 'not found' is not repeated); the
    leading blanks and comments are matched without backtracking (exponential before: many blank lines or a
    banner of dashes above a statement that is not a CREATE)."""
    from flinkx_build.validate.findings import created_name

    assert created_name("-- a\n/* b\n c */\n  CREATE TEMPORARY VIEW `p`.paid AS SELECT 1") == "paid"
    assert created_name("SELECT 1 -- CREATE VIEW x") is None
    started = time.perf_counter()
    assert created_name(" " * 5_000 + "SELECT 1") is None
    assert created_name("-- " + "-" * 5_000 + "\nSELECT 1") is None
    assert time.perf_counter() - started < 10  # a hang guard: linear, milliseconds
