"""A workspace from a pull request may hold files that are not files: no command waits on one."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize("command", ["build", "lint", "graph"])
def test_a_fifo_among_the_tasks_does_not_hang_the_command(make_workspace, command):
    ws = make_workspace({
        "projects/p/project.yaml": "name: p\n",
        "projects/p/tables/src.yaml": "name: src\ntype: datagen\ncolumns:\n  - {name: id, type: BIGINT}\n",
        "projects/p/tables/snk.yaml": "name: snk\ntype: blackhole\ncolumns:\n  - {name: id, type: BIGINT}\n",
        "projects/p/tasks/t.sql": "INSERT INTO p.snk SELECT id FROM p.src;\n",
    })
    os.mkfifo(ws / "projects/p/tasks/pipe.sql")
    os.mkfifo(ws / "projects/p/tables/pipe.yaml")
    # a separate process, so that a hang fails this test instead of stalling the run
    done = subprocess.run([sys.executable, "-m", "flinkx_build", command, str(ws)], capture_output=True, text=True,
                          timeout=60, cwd=ws)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
