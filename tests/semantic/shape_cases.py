"""What the real-SQL shape tests share (test_real_sql_corpus_causes*.py): one project of tasks, each
Flink-accepted shape alone lints and builds clean, and the wrong statement appended next to it still
gives its findings."""
from __future__ import annotations

from pathlib import Path


def shape_workspace(make_workspace, tasks: dict[str, str]) -> Path:
    files = {"projects/p/project.yaml": "name: p\n"}
    files.update({f"projects/p/tasks/{name}.sql": sql for name, sql in tasks.items()})
    return make_workspace(files)


def findings(result) -> list[str]:
    return [line for line in result.lines if " FX" in line]


def assert_alone_it_lints_and_builds_clean(workspace: Path, cli, tasks: dict[str, str], name: str) -> None:
    for other in tasks:
        if other != name:
            (workspace / f"projects/p/tasks/{other}.sql").unlink()
    linted = cli("lint", cwd=workspace)
    assert (linted.exit_code, findings(linted)) == (0, [])
    built = cli("build", "--check", cwd=workspace)
    assert (built.exit_code, findings(built)) == (0, [])


def assert_the_wrong_one_still_fires(workspace: Path, cli, name: str, wrong: str, expected: list[str]) -> None:
    path = workspace / f"projects/p/tasks/{name}.sql"
    path.write_text(path.read_text() + wrong)
    linted = cli("lint", cwd=workspace)
    assert linted.exit_code == 1
    for finding in expected:
        assert [line for line in findings(linted) if f"projects/p/tasks/{finding}" in line], (finding, linted.lines)
