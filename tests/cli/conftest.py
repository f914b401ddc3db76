"""Fixtures of the CLI-convention tests: a small workspace with one finding of each kind."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TABLES = {
    "projects/p/tables/src.yaml": """
        type: datagen   # the source
        columns:
          - {name: id, type: STRING}
          - {name: ts, type: "TIMESTAMP(3)"}
        with: {connector: datagen, rows-per-second: 10}
    """,
}
# FX03 (watermark quoting), FX01 twice (reserved word), FX02 (double-quoted WITH value): all fixable
FIXABLE_TASK = (
    "SET src.`watermark` = WATERMARK FOR ts AS withOffset(ts, 1000);\n"
    "CREATE TEMPORARY TABLE out_t (id STRING, value STRING) WITH ('connector' = \"print\");\n"
    "INSERT INTO out_t SELECT id, id AS value FROM src;\n"
)
CLEAN_TASK = "CREATE TEMPORARY TABLE out_t (id STRING) WITH ('connector' = 'print');\nINSERT INTO out_t SELECT id FROM src;\n"


@pytest.fixture
def lint_ws(make_workspace):
    def make(task: str = FIXABLE_TASK, extra: dict | None = None, name: str = "ws") -> Path:
        return make_workspace({"flinkx.yaml": "name: demo-ws\nengine: flink\n", **TABLES, "projects/p/tasks/t.sql": task, **(extra or {})}, name=name)

    return make


def flinkx_process(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """The real `flinkx` process (streams and terminals are what these tests are about)."""
    full = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "FLINKX_DOCS_URL")}
    full.update(env or {})
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args], cwd=cwd, env=full, capture_output=True, text=True, timeout=300)
