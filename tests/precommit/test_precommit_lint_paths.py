"""`flinkx lint FILE...` / `flinkx fix FILE...` called the way pre-commit calls them.

pre-commit runs the hook from the repository root and passes the paths of the
commit's files, relative to that root, in one call (require_serial): task SQL,
table/function/project YAML and flinkx.yaml, from a workspace anywhere in the
repository.
"""
from __future__ import annotations

import pytest
from pchelpers import MINI
from pchelpers import MINI_LOAD
from pchelpers import MINI_REFUNDS
from pchelpers import REFUNDS_SQL
from pchelpers import copy_workspace
from pchelpers import flinkx_exe
from pchelpers import has_line
from pchelpers import run


@pytest.fixture
def tree(tmp_path, tool_env):
    """A repository folder with the shop-mini workspace in `wh/` (no git needed by lint)."""
    copy_workspace(MINI, tmp_path / "wh")
    return tmp_path


def flinkx(tree, tool_env, *args: str):
    return run([flinkx_exe(), *args], tree, tool_env, label=f"flinkx {' '.join(args)}"[:70])


def test_workspace_yaml_files_alone(tree, tool_env):
    result = flinkx(tree, tool_env, "lint", "wh/flinkx.yaml", "wh/projects/ods/project.yaml", "wh/projects/ods/tables/order_events.yaml")
    assert result.returncode == 0, result.describe()
    assert result.lines == ["flinkx: clean"]


def test_mixed_files_from_a_subfolder_workspace(tree, tool_env):
    result = flinkx(tree, tool_env, "lint", f"wh/{MINI_LOAD}", "wh/flinkx.yaml", "wh/projects/dwd/tables/dwd_orders.yaml")
    assert result.returncode == 0, result.describe()


def test_only_the_given_files_are_reported(tree, tool_env):
    (tree / "wh" / MINI_REFUNDS).write_text(REFUNDS_SQL, encoding="utf-8")
    clean = flinkx(tree, tool_env, "lint", f"wh/{MINI_LOAD}")
    assert clean.returncode == 0, clean.describe()
    dirty = flinkx(tree, tool_env, "lint", f"wh/{MINI_LOAD}", f"wh/{MINI_REFUNDS}")
    assert dirty.returncode == 1
    assert has_line(dirty, f"wh/{MINI_REFUNDS}:4:6: FX130 unknown table 'order_refunds' in project 'ods'"), dirty.describe()


def test_the_rest_of_the_workspace_is_context(tree, tool_env):
    """A task is checked against tables whose YAML is not among the files."""
    (tree / "wh" / "projects" / "dwd" / "tables" / "dwd_orders.yaml").unlink()
    result = flinkx(tree, tool_env, "lint", f"wh/{MINI_LOAD}")
    assert result.returncode == 1
    assert has_line(result, f"wh/{MINI_LOAD}:4:13: FX130 unknown table 'dwd_orders' in project 'dwd'"), result.describe()


def test_files_of_two_workspaces_are_each_linted_in_their_own(tree, tool_env):
    copy_workspace(MINI, tree / "other")
    clean = flinkx(tree, tool_env, "lint", f"wh/{MINI_LOAD}", "other/flinkx.yaml")
    assert clean.returncode == 0, clean.describe()
    (tree / "other" / "projects" / "dwd" / "tables" / "dwd_orders.yaml").unlink()
    broken = flinkx(tree, tool_env, "lint", f"wh/{MINI_LOAD}", f"other/{MINI_LOAD}")
    assert broken.returncode == 1
    # the table is missing in `other` only: `wh`'s copy of the task stays clean
    assert has_line(broken, f"other/{MINI_LOAD}:4:13: FX130 unknown table 'dwd_orders' in project 'dwd'"), broken.describe()
    assert not any(line.startswith("wh/") for line in broken.lines), broken.describe()


def test_a_file_outside_any_workspace_is_a_usage_error(tree, tool_env):
    (tree / "misc" / "projects").mkdir(parents=True)
    (tree / "misc" / "projects" / "notes.yaml").write_text("a: 1\n", encoding="utf-8")
    result = flinkx(tree, tool_env, "lint", "misc/projects/notes.yaml")
    assert result.returncode == 2
    assert "no flinkx.yaml here or in any parent folder" in result.output, result.describe()


def test_fix_on_yaml_only_changes_nothing(tree, tool_env):
    before = (tree / "wh" / "flinkx.yaml").read_text(encoding="utf-8")
    result = flinkx(tree, tool_env, "fix", "wh/flinkx.yaml", "wh/projects/ods/tables/order_events.yaml")
    assert result.returncode == 0, result.describe()
    assert (tree / "wh" / "flinkx.yaml").read_text(encoding="utf-8") == before
    assert "fixed" not in result.output
