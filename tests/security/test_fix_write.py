"""`flinkx fix` rewrites only regular files inside the workspace, and atomically."""
from __future__ import annotations

import os
import stat

import pytest

from flinkx_build.lint.write import refusal
from flinkx_build.lint.write import replace_text

NEEDS_FIX = "INSERT INTO sink SELECT id, value FROM src;\n"  # FX01: `value` must be backtick-quoted
FIXED = "INSERT INTO sink SELECT id, `value` FROM src;\n"

WS = {
    "projects/p/tables/src.yaml": """
        type: kafka
        columns:
          - {name: id, type: STRING}
          - {name: value, type: STRING}
        with: {connector: kafka, topic: src, format: json, properties.bootstrap.servers: "k:9092"}
    """,
    "projects/p/tables/sink.yaml": """
        type: jdbc
        columns:
          - {name: id, type: STRING}
          - {name: value, type: STRING}
        primary_key: [id]
        with: {connector: jdbc, url: "jdbc:mysql://db/dw", table-name: sink}
    """,
}


@pytest.fixture
def ws(make_workspace):
    root = make_workspace(WS)
    (root / "projects/p/tasks").mkdir(parents=True)
    return root


def test_a_regular_task_is_fixed_in_place_keeping_its_mode(ws, cli):
    task = ws / "projects/p/tasks/t.sql"
    task.write_text(NEEDS_FIX)
    task.chmod(0o640)
    result = cli("fix", str(ws))
    assert task.read_text() == FIXED, result.lines
    assert stat.S_IMODE(task.stat().st_mode) == 0o640
    assert [p.name for p in task.parent.iterdir()] == ["t.sql"]  # no temporary file left


def test_a_task_symlinked_to_a_file_outside_is_never_rewritten(ws, cli, tmp_path):
    outside = tmp_path / "outside.sql"
    outside.write_text(NEEDS_FIX)
    (ws / "projects/p/tasks/t.sql").symlink_to(outside)
    result = cli("fix", str(ws))
    assert outside.read_text() == NEEDS_FIX, result.lines
    assert (ws / "projects/p/tasks/t.sql").is_symlink()
    assert "Traceback" not in result.stdout + result.stderr


def test_a_task_symlinked_inside_the_workspace_is_reported_not_rewritten(ws, cli):
    shared = ws / "projects/p/shared.sql"
    shared.write_text(NEEDS_FIX)
    (ws / "projects/p/tasks/t.sql").symlink_to(shared)
    result = cli("fix", str(ws))
    assert shared.read_text() == NEEDS_FIX
    lines = [line for line in result.lines if "FX194" in line]
    assert lines and "symlink" in lines[0], result.lines


def test_a_hard_link_to_a_file_outside_keeps_the_outside_text(ws, cli, tmp_path):
    """The fix renames a new file over the old name: the other name of a hard link keeps its text."""
    outside = tmp_path / "outside.sql"
    outside.write_text(NEEDS_FIX)
    task = ws / "projects/p/tasks/t.sql"
    os.link(outside, task)
    cli("fix", str(ws))
    assert task.read_text() == FIXED
    assert outside.read_text() == NEEDS_FIX


def test_refusals(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "file.sql").write_text("x")
    (root / "link.sql").symlink_to(root / "file.sql")
    os.mkfifo(root / "pipe.sql")
    (tmp_path / "out.sql").write_text("x")
    assert refusal(root / "file.sql", root) == ""
    assert "symlink" in refusal(root / "link.sql", root)
    assert "not a regular file" in refusal(root / "pipe.sql", root)
    assert "outside" in refusal(tmp_path / "out.sql", root)


def test_a_failed_write_leaves_the_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "t.sql"
    path.write_text("old\n")

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)  # the one failure a real disk cannot be made to give on demand
    with pytest.raises(OSError):
        replace_text(path, "new\n")
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["t.sql"]


def test_a_symlinked_meta_table_is_not_rewritten_by_the_yaml_fix(ws, cli):
    """The FX106 fix (quote a number) writes YAML files through the same guard."""
    (ws / "projects/p/tasks/t.sql").write_text(FIXED)
    shared = ws / "shared_tables" / "src.yaml"
    shared.parent.mkdir()
    table = (ws / "projects/p/tables/src.yaml").read_text().replace("format: json", "format: json, sink.parallelism: 2")
    shared.write_text(table)
    (ws / "projects/p/tables/src.yaml").unlink()
    (ws / "projects/p/tables/src.yaml").symlink_to(shared)
    result = cli("fix", str(ws))
    assert shared.read_text() == table, result.lines
    assert any("FX194" in line and "src.yaml" in line for line in result.lines), result.lines
