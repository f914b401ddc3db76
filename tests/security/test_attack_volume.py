"""Issue 41, item 6: volume under every per-file limit. Workspace-wide budgets stop it with one finding.

The attack: 250 pairs of 3,900-column tables (each file about 112 KB and under 20,000 YAML values, 56 MB in all)
and one `SELECT *` task per pair; lint took 149 s and 2.9 GB, `build --check` 234 s and 2.2 GB.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from flinkx_build.limits import MAX_WORKSPACE_COLUMNS

COLUMNS = 3_900
PAIRS = 250


def volume_workspace(root: Path, pairs: int = PAIRS, columns: int = COLUMNS) -> Path:
    tables, tasks = root / "projects" / "p" / "tables", root / "projects" / "p" / "tasks"
    tables.mkdir(parents=True)
    tasks.mkdir(parents=True)
    (root / "flinkx.yaml").write_text("engine: flink\n", encoding="utf-8")
    (root / "projects" / "p" / "project.yaml").write_text("name: p\n", encoding="utf-8")
    listed = "".join(f"  - {{name: c{i}, type: INT}}\n" for i in range(columns))
    for k in range(pairs):
        for side, connector in (("a", "datagen"), ("b", "blackhole")):
            (tables / f"{side}{k:03d}.yaml").write_text(
                f"name: {side}{k:03d}\ntype: {connector}\ncolumns:\n{listed}with: {{connector: {connector}}}\n", encoding="utf-8")
        (tasks / f"t{k:03d}.sql").write_text(f"INSERT INTO b{k:03d} SELECT * FROM a{k:03d};\n", encoding="utf-8")
    return root


def flinkx(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=1800)  # a guard: ten times the few minutes a loaded two-core machine needs here


def _crossing() -> str:
    """The table at which the running total of columns, in file order (a000 ... a249, b000 ...), passes the budget."""
    index = MAX_WORKSPACE_COLUMNS // COLUMNS  # tables before the crossing one
    return f"projects/p/tables/a{index:03d}.yaml"


@pytest.mark.slow
def test_a_workspace_over_the_column_budget_is_one_finding_at_the_crossing_table(tmp_path):
    ws = volume_workspace(tmp_path / "ws")
    assert sum(f.stat().st_size for f in ws.rglob("*") if f.is_file()) > 50 * 1024 * 1024
    total = (MAX_WORKSPACE_COLUMNS // COLUMNS + 1) * COLUMNS
    expected = (f"{_crossing()}:1:1: FX179 the workspace's meta-table columns pass flinkx's budget of "
                f"{MAX_WORKSPACE_COLUMNS:,} here ({total:,} so far): flinkx reads no more of it (split the workspace "
                "into several (one per team or domain), or drop the tables no task uses)")
    for command in (["lint", "--no-planner", "."], ["build", "--check", "--no-planner", "."]):
        done = flinkx(*command, cwd=ws)
        assert done.returncode == 1, (command, done.stderr[-2000:])
        assert done.stdout.splitlines() == [expected], command


def test_the_budgets_are_counted_in_file_order_and_leave_a_real_workspace_alone(tmp_path, monkeypatch):
    """The same rule on a small scale (the budget lowered): the crossing table is the one in file order whatever
    the workers finish first, and a workspace under it loads as before."""
    from flinkx_build import limits
    from flinkx_build.errors import WorkspaceErrors
    from flinkx_build.load import workspace as loader

    ws = volume_workspace(tmp_path / "ws", pairs=40, columns=50)  # 80 tables: enough for the workers (64)
    monkeypatch.setattr(loader, "MAX_WORKSPACE_COLUMNS", 1_000)
    monkeypatch.setattr(limits, "MAX_WORKSPACE_COLUMNS", 1_000)
    for _ in range(2):  # cold (workers), then from the load memo
        with pytest.raises(WorkspaceErrors) as stopped:
            loader.load_workspace(ws)
        (finding,) = stopped.value.diagnostics
        assert (finding.code, Path(finding.path).as_posix().endswith("projects/p/tables/a020.yaml")) == ("FX179", True)
    monkeypatch.setattr(loader, "MAX_WORKSPACE_COLUMNS", 4_000)
    loaded, _ = loader.load_workspace(ws)
    assert sum(len(t) for t in loaded.projects["p"].tables.values()) == 80
    example = Path(__file__).resolve().parents[2] / "example-workspace"
    done = flinkx("build", "--check", "--no-planner", str(example), cwd=tmp_path)
    assert done.returncode == 0 and "FX179" not in done.stdout + done.stderr
    assert os.environ.get("FLINKX_HOME")  # the suite's own user cache, not the home folder
