"""One workspace, one verdict: lint and `build --check` apply the workspace's `lint:` settings and
`-- noqa` alike (a code turned off in flinkx.yaml used to silence lint and still fail the build)."""
from __future__ import annotations

import pytest

TASK = """CREATE TEMPORARY TABLE pg (a INT) WITH (
  'connector' = 'jdbc', 'url' = 'jdbc:postgresql://db:5432/x', 'table-name' = 'pg',
  'password' = 'hunter2'{noqa}
);
INSERT INTO pg SELECT a FROM src;
"""
FILES = {
    "projects/ods/tables/src.yaml": "type: datagen\ncolumns:\n  - {name: a, type: INT}\nwith:\n  connector: datagen\n",
}


def _verdicts(cli, root):
    lint, build = cli("lint", str(root)), cli("build", "--check", str(root))
    return (lint.exit_code, [ln for ln in lint.stdout.splitlines()]), (build.exit_code, [ln for ln in build.stdout.splitlines()])


@pytest.mark.parametrize("config, noqa, exit_code, code", [
    ("", "", 1, "FX480"),  # the default: a literal credential is an error everywhere
    ("lint:\n  FX480: off\n", "", 0, None),
    ("lint:\n  FX480: warning\n", "", 0, "FX480"),
    ("", "  -- noqa: FX480", 0, None),
])
def test_lint_and_build_check_agree_on_the_workspaces_settings(make_workspace, cli, config, noqa, exit_code, code):
    root = make_workspace({**FILES, "flinkx.yaml": "engine: flink\n" + config,
                           "projects/ods/tasks/t.sql": TASK.format(noqa=noqa)})
    (lint_exit, lint_lines), (build_exit, build_lines) = _verdicts(cli, root)
    assert lint_exit == build_exit == exit_code, (lint_lines, build_lines)
    codes = {line.split(" ")[1] for line in lint_lines}
    assert codes == ({code} if code else set()), lint_lines
    assert {line.split(" ")[1] for line in build_lines} <= codes  # build prints warnings too, never another code
    if code == "FX480" and exit_code == 1:
        assert any(line.startswith(f"{root}/projects/ods/tasks/t.sql:3:16: FX480") for line in lint_lines + build_lines), lint_lines


@pytest.mark.parametrize("config, noqa", [("lint:\n  FX480: off\n", ""), ("", "  -- noqa: FX480")])
def test_a_finding_the_workspace_turned_off_does_not_stop_the_task_compiling(make_workspace, cli, config, noqa):
    """The summary's compiled SQL follows the same verdict: the task is written, not skipped."""
    root = make_workspace({**FILES, "flinkx.yaml": "engine: flink\n" + config,
                           "projects/ods/tasks/t.sql": TASK.format(noqa=noqa)})
    for _ in range(2):  # the second build reads the cached summary made under these settings
        assert cli("build", str(root)).exit_code == 0
        assert "INSERT INTO pg SELECT a FROM" in (root / "build" / "ods" / "t.sql").read_text()
