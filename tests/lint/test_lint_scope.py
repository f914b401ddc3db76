"""`flinkx lint FILE` loads only the projects the file can name (`lint/scope.py`) and finds what a whole load finds."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from flinkx_build.commands.lint import lint_groups
from flinkx_build.lint.scope import lint_scope
from flinkx_build.load.workspace import load_workspace

REPO = Path(__file__).resolve().parents[2]
SHOWCASES = ["example-workspace", "example-workspace-2.3"]


def fresh_lint(file: Path, scoped: bool) -> list[tuple]:
    """Lint one file with no replay of an earlier identical run (the run memo does not know `scoped`)."""
    root = next(p for p in file.parents if (p / "flinkx.yaml").is_file())
    for runs in (root / ".flinkx-cache").glob("*/runs"):
        shutil.rmtree(runs)
    found, _ = lint_groups((file,), scoped=scoped)
    return sorted((d.path, d.line, d.col, d.code, d.message, d.hint) for d in found)


@pytest.mark.parametrize("showcase", SHOWCASES)
def test_every_task_of_the_showcases_lints_alike_scoped_and_whole(showcase, tmp_path, monkeypatch):
    root = shutil.copytree(REPO / showcase, tmp_path / showcase, ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
    monkeypatch.chdir(root)
    tasks = sorted((root / "projects").glob("*/tasks/**/*.sql"))
    assert len(tasks) >= 2
    for task in tasks:
        assert fresh_lint(task, scoped=True) == fresh_lint(task, scoped=False), task


WS = {
    "projects/a/project.yaml": "name: a\nvariables:\n  other: c\n",
    "projects/a/tables/src.yaml": "type: datagen\ncolumns:\n  - {name: id, type: INT}\nwith: {connector: datagen}\n",
    "projects/b/project.yaml": "name: b\n",
    "projects/b/tables/snk.yaml": "type: blackhole\ncolumns:\n  - {name: id, type: INT}\nwith: {connector: blackhole}\n",
    "projects/b/tables/lonely.yaml": "type: blackhole\ncolumns:\n  - {name: id, type: INT}\nwith: {connector: blackhole}\n",
    "projects/c/project.yaml": "name: c\n",
    "projects/c/tables/snk2.yaml": "type: blackhole\ncolumns:\n  - {name: id, type: INT}\nwith: {connector: blackhole}\n",
    "projects/d/project.yaml": "name: d\n",
    "projects/d/tables/broken.yaml": "type: [\n",
}


def test_the_scope_is_the_task_s_project_and_the_projects_it_names(make_workspace):
    root = make_workspace({**WS, "projects/a/tasks/t.sql": "INSERT INTO b.snk SELECT id FROM src;\nINSERT INTO ${other}.snk2 SELECT id FROM src;\n"})
    seen = []
    load_workspace(root, on_projects=lambda ws: seen.append(lint_scope(ws, [root / "projects/a/tasks/t.sql"])))
    assert seen[0] is not None
    assert (seen[0].whole, seen[0].tables) == ({"a"}, {"b", "c"})  # `${other}` renders to c; d is not named


def test_a_named_yaml_file_or_a_file_outside_tasks_loads_everything(make_workspace):
    root = make_workspace({**WS, "projects/a/tasks/t.sql": "INSERT INTO b.snk SELECT id FROM src;\n"})
    seen = []
    load_workspace(root, on_projects=lambda ws: seen.extend([lint_scope(ws, [root / "projects/b/tables/snk.yaml"]),
                                                             lint_scope(ws, [root / "flinkx.yaml"])]))
    assert seen == [None, None]


def test_an_unknown_table_gets_the_hint_of_a_whole_lint(make_workspace, monkeypatch):
    """FX130's hint searches every project: `lonely` is in b, which the task does not name."""
    root = make_workspace({**WS, "projects/a/tasks/t.sql": "INSERT INTO lonely SELECT id FROM src;\n"})
    monkeypatch.chdir(root)
    scoped = fresh_lint(root / "projects/a/tasks/t.sql", scoped=True)
    assert scoped == fresh_lint(root / "projects/a/tasks/t.sql", scoped=False)
    assert any(code == "FX130" and "b.lonely" in hint for _, _, _, code, _, hint in scoped), scoped


def test_a_function_asked_of_the_wrong_project_gets_the_hint_of_a_whole_lint(make_workspace, monkeypatch):
    """FX140's hint names the project that has the function: `twice` is in c, which the task does not name."""
    twice = "name: twice\nclass: com.x.Twice\nlanguage: java\nkind: scalar\nreturns: INT\nparams: [INT]\nresource: x.jar\n"
    root = make_workspace({**WS, "projects/c/functions/twice.yaml": twice,
                           "projects/a/tasks/t.sql": "INSERT INTO b.snk SELECT b:twice(id) FROM src;\n"})
    monkeypatch.chdir(root)
    scoped = fresh_lint(root / "projects/a/tasks/t.sql", scoped=True)
    assert scoped == fresh_lint(root / "projects/a/tasks/t.sql", scoped=False)
    assert any(code == "FX140" and "c:twice" in hint for _, _, _, code, _, hint in scoped), scoped


def test_an_unnamed_project_s_broken_yaml_does_not_reach_the_file_s_findings(make_workspace, monkeypatch):
    root = make_workspace({**WS, "projects/a/tasks/t.sql": "INSERT INTO b.snk SELECT id FROM src;\n"})
    monkeypatch.chdir(root)
    assert fresh_lint(root / "projects/a/tasks/t.sql", scoped=True) == fresh_lint(root / "projects/a/tasks/t.sql", scoped=False) == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_named_fifo_never_hangs_lint(make_workspace):
    """Opening a FIFO blocks until a writer comes: the early rule pass read it so, and `lint FILE` hung."""
    root = make_workspace({**WS, "projects/a/tasks/t.sql": "INSERT INTO b.snk SELECT id FROM src;\n"})
    os.mkfifo(root / "projects/a/tasks/pipe.sql")
    done = subprocess.run([sys.executable, "-m", "flinkx_build", "lint", "projects/a/tasks/pipe.sql"], cwd=root,
                          capture_output=True, text=True, timeout=120, env={**os.environ, "FLINKX_NO_PLANNER": "1"})
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
