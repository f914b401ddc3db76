"""Test files live beside the tables and tasks but are never loaded as either (pure Python)."""
from __future__ import annotations

from flinkx_build.pipeline import Session
from flinkx_build.testing.fixtures import read_cases

TABLE = """
name: src
type: kafka
columns:
  - {name: id, type: BIGINT}
with: {connector: kafka, topic: t, format: json}
"""


def test_tests_folder_is_not_tables_or_tasks(make_workspace):
    root = make_workspace({
        "projects/p/tables/src.yaml": TABLE,
        "projects/p/tasks/copy.sql": "INSERT INTO src SELECT id FROM src;\n",
        # looks like a table and a task, but is in tests/
        "projects/p/tests/src.yaml": "- name: copies\n  task: p/copy\n  expect:\n    p.src: []\n",
        "projects/p/tests/tables/other.yaml": TABLE.replace("name: src", "name: other"),
        "projects/p/tests/helper.sql": "INSERT INTO src SELECT 1;\n",
    })
    session = Session.open(root)
    project = session.workspace.projects["p"]
    assert list(project.tables) == ["src"]
    assert list(project.tasks) == ["copy"]
    cases, diags = read_cases(session.workspace, use_cache=False)
    assert [c.name for c in cases] == ["copies"]
    # tests/tables/other.yaml is read as a test file, and is not one
    assert diags and {(d.code, d.path.endswith("other.yaml")) for d in diags} == {("FX500", True)}
    assert any(d.message == "test case without task, expect" for d in diags)
