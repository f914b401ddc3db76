"""`flinkx lint --changed-since REV` (`lint/changed.py`): the tasks a change reaches, and what a whole lint says of them.

Each case edits the example workspace, committed to a real git repository, and
lints twice: `--changed-since HEAD`, and the whole workspace. The first must
report exactly the whole lint's findings on the reached tasks and the changed
files, and the change must have made a finding there, or the comparison would
prove nothing.
"""
from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from flinkx_build.commands.common import open_session
from flinkx_build.commands.lint import change_since
from flinkx_build.commands.lint import lint_groups
from flinkx_build.lint.changed import changed_reach
from tests.graph.gitrepo import Repo
from tests.graph.gitrepo import git

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def example(tmp_path, monkeypatch) -> Repo:
    root = shutil.copytree(REPO / "example-workspace", tmp_path / "repo", ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
    (root / ".gitignore").write_text(".flinkx-cache/\nbuild/\n", encoding="utf-8")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    monkeypatch.chdir(root)
    return Repo(root, "")


def _lines(found) -> list[tuple]:
    return sorted((d.path, d.line, d.col, d.code, d.message, d.hint, d.severity) for d in found)


def _reached(repo: Repo):
    change, _ = change_since(repo.ws, "HEAD")
    session = open_session(repo.ws)
    reach = changed_reach(session, change)
    if reach is not None:
        assert len(reach.tasks) < len(session.tasks()), "reaches every task: the case proves nothing"
    return reach


def _task_edit(repo: Repo) -> None:
    repo.edit("projects/dwd/tasks/orders/enrich_orders.sql", "u.city", "u.no_such_column")


def _table_edit(repo: Repo) -> None:
    repo.edit("projects/dim/tables/dim_user.yaml", "{name: city, type: STRING}", "{name: town, type: STRING}")


def _function_edit(repo: Repo) -> None:
    repo.edit("projects/dim/functions/mask_phone.yaml", "returns: STRING", "returns: INT")


def _variable_edit(repo: Repo) -> None:  # a project variable over the workspace's: ${dim_project} names no project
    repo.edit("projects/dwd/project.yaml", "variables:\n", "variables:\n  dim_project: dimm\n")


def _table_removed(repo: Repo) -> None:  # its readers still spell the old name: the offline dim_user is left (FX132)
    git(repo.root, "rm", "-q", "projects/dim/tables/dim_user.yaml")


def _shared_sink(repo: Repo) -> None:  # a task now writes a table another task (not reached) writes too: FX470 names it
    repo.edit("projects/dws/tasks/category_user_stats.sql", "INSERT INTO", "INSERT INTO dws.dws_order_stats_1m\n"
              "SELECT * FROM dws.dws_order_stats_1m;\nINSERT INTO", )


def _shared_group(repo: Repo) -> None:  # the same consumer group as a task the change does not reach (FX471)
    repo.edit("projects/dws/tasks/order_stats_1m.sql", "'dws_order_stats_1m_${env}'", "'dws_activity_1m_${env}'")


def _overlapping_ids(repo: Repo) -> None:  # a server-id range another reader of the server has in its YAML (FX460)
    repo.edit("projects/dwd/tasks/orders/sync_orders.sql", "'5431-5434'", "'5412-5420'")


CASES: dict[str, tuple[Callable[[Repo], None], str, set[str]]] = {
    # edit, a code the change makes, tasks it must reach (beside the changed one)
    "a task": (_task_edit, "FX401", {"projects/dws/tasks/order_stats_1m.sql"}),  # downstream, through dwd_orders
    "a meta table": (_table_edit, "FX401", {"projects/dwd/tasks/orders/enrich_orders.sql"}),
    "a function": (_function_edit, "FX411", {"projects/dwd/tasks/refunds/enrich_refunds.sql"}),
    "a project variable": (_variable_edit, "FX130", {"projects/dwd/tasks/orders/enrich_orders.sql"}),
    "a removed meta table": (_table_removed, "FX132", {"projects/dwd/tasks/orders/enrich_orders.sql"}),
    "a sink another task writes": (_shared_sink, "FX470", set()),
    "a consumer group another task has": (_shared_group, "FX471", set()),
    "a server-id range another reader has": (_overlapping_ids, "FX460", set()),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_the_change_s_reach_gets_the_findings_a_whole_lint_gives_it(example, case):
    edit, code, must_reach = CASES[case]
    edit(example)
    reach = _reached(example)
    assert reach is not None
    reached = {t.display_path for t in reach.tasks}
    assert must_reach <= reached, reached
    changed, _ = lint_groups((example.ws,), changed_since="HEAD")
    whole, _ = lint_groups((example.ws,))
    expected = [d for d in whole if d.path in reach.paths]
    assert code in {d.code for d in expected}, _lines(whole)  # the change made a finding where it reaches
    assert _lines(changed) == _lines(expected)


def test_a_shared_sink_names_the_writer_the_change_does_not_reach(example):
    _shared_sink(example)
    reach = _reached(example)
    assert reach is not None
    assert "projects/dws/tasks/order_stats_1m.sql" not in {t.display_path for t in reach.tasks}
    assert "projects/dws/tasks/order_stats_1m.sql" in {t.display_path for t in reach.partners}
    changed, _ = lint_groups((example.ws,), changed_since="HEAD")
    shared = [d for d in changed if d.code == "FX470"]
    assert shared and all(d.path == "projects/dws/tasks/category_user_stats.sql" for d in shared)
    assert any("order_stats_1m.sql" in d.message for d in shared)


def test_the_partners_are_searched_once(example, monkeypatch):
    """The partner search scans every task and meta table: at 10,000 tasks it ran once per task (minutes)."""
    from flinkx_build.lint import changed

    calls = []
    real = changed._Links.partners
    monkeypatch.setattr(changed._Links, "partners", lambda self, chosen: calls.append(1) or real(self, chosen))
    _task_edit(example)
    assert _reached(example) is not None and len(calls) == 1


def test_an_unchanged_workspace_reaches_nothing_and_is_clean(example):
    reach = _reached(example)
    assert reach is not None and reach.tasks == [] and reach.paths == frozenset()
    changed, _ = lint_groups((example.ws,), changed_since="HEAD")
    assert changed == []


def test_a_change_of_flinkx_yaml_lints_everything(example):
    example.edit("flinkx.yaml", "dim_project: dim", "dim_project: dimm")
    assert _reached(example) is None  # every task reads flinkx.yaml
    changed, _ = lint_groups((example.ws,), changed_since="HEAD")
    whole, _ = lint_groups((example.ws,))
    assert _lines(changed) == _lines(whole) and any(d.code == "FX130" for d in whole)


def test_only_the_pull_request_s_own_changes_count(example):
    """The base is where HEAD left REV (`git merge-base`): what main did since is not the branch's change."""
    git(example.root, "checkout", "-q", "-b", "feature")
    _task_edit(example)
    example.commit("the branch's change")
    git(example.root, "checkout", "-q", "main")
    _table_edit(example)
    example.commit("main moves on")
    git(example.root, "checkout", "-q", "feature")
    reach_paths = {t.display_path for t in _reached_since(example, "main").tasks}
    assert "projects/dwd/tasks/orders/enrich_orders.sql" in reach_paths
    assert "projects/dim/tasks/sync_dim_user.sql" not in reach_paths  # a reader of main's table change only


def _reached_since(repo: Repo, spec: str):
    change, _ = change_since(repo.ws, spec)
    reach = changed_reach(open_session(repo.ws), change)
    assert reach is not None
    return reach


def test_changed_since_with_files_is_a_usage_error(example, cli):
    result = cli("lint", "--changed-since", "HEAD", "projects/dim/tasks/sync_dim_user.sql", cwd=example.ws)
    assert result.exit_code == 2 and "--changed-since" in result.stderr


def test_an_unknown_revision_is_a_usage_error(example, cli):
    result = cli("lint", "--changed-since", "no-such-rev", ".", cwd=example.ws)
    assert result.exit_code == 2 and "unknown revision 'no-such-rev'" in result.stderr
