"""`flinkx impact` loads only the changed projects and their dependents once the dependency
index knows the workspace (`impact/scope.py`, `semantic/project_index.py`), and says the same.

The first run of a change loads both sides whole and writes the index; the
run again with the same change is scoped. Both reports must be identical.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from flinkx_build.commands import impact as impact_command
from flinkx_build.impact import scope as scope_module
from flinkx_build.load import workspace as load_workspace_module
from tests.graph.gitrepo import Repo
from tests.graph.gitrepo import git
from tests.impact.test_impact_scenarios import SCENARIOS

# A change of these touches no name and not flinkx.yaml: the index vouches for the run again.
SCOPED = {"rename a column", "add a column", "add a column to a table a task writes", "remove a column only a wildcard reads",
          "change only comments, whitespace and keyword case", "change a project variable used in a locked option",
          "move a meta table file whose name: stays", "change a function's return type", "change the key of a lookup table",
          "change an unlocked option"}
# flinkx.yaml changed, a project added, a table removed or its YAML broken (the name index changed: a table that
# did not load whole is in it): both sides whole every time.
WHOLE = {"change a variable's value", "add a project", "delete a table still in use",
         "key a lookup table on a column that is gone", "break a table's YAML"}


@pytest.fixture
def scoped_runs(monkeypatch) -> list[bool]:
    """For each impact run: whether it was answered from a scoped load."""
    runs: list[bool] = []
    real = impact_command._scoped

    def recorded(sides, work, stack):
        snaps = real(sides, work, stack)
        runs[-1] = snaps is not None
        return snaps

    real_start = impact_command._Sides.start

    def start(self, ws):
        if self.try_scope:
            runs.append(False)
        return real_start(self, ws)

    monkeypatch.setattr(impact_command, "_scoped", recorded)
    monkeypatch.setattr(impact_command._Sides, "start", start)
    return runs


def test_the_scenarios_cover_every_kind_of_change():
    assert SCOPED | WHOLE == {s.name for s in SCENARIOS} and not SCOPED & WHOLE


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_the_run_again_reports_what_the_whole_workspace_did(shop, impact, scoped_runs, scenario):
    scenario.change(shop)  # uncommitted: the head is the working tree
    first, whole = impact(shop, "--base", "HEAD", "--fail-on", "never")
    first_md, _ = impact(shop, "--base", "HEAD", "--fail-on", "never", fmt="markdown")
    again, scoped = impact(shop, "--base", "HEAD", "--fail-on", "never")
    again_md, _ = impact(shop, "--base", "HEAD", "--fail-on", "never", fmt="markdown")
    assert first.exit_code == again.exit_code == 0, again.stderr
    assert scoped == whole
    assert _without_time(again_md.stdout) == _without_time(first_md.stdout)
    assert scoped_runs[0] is False  # the first run wrote the index
    assert scoped_runs[2] is (scenario.name in SCOPED) and scoped_runs[3] is (scenario.name in SCOPED)


def test_two_commits_are_scoped_too(shop_root, impact, scoped_runs):
    scenario = next(s for s in SCENARIOS if s.name == "rename a column")
    scenario.change(shop_root)
    shop_root.commit(scenario.name)
    first, whole = impact(shop_root, "--base", "HEAD~1", "--head", "HEAD", "--fail-on", "never")
    again, scoped = impact(shop_root, "--base", "HEAD~1", "--head", "HEAD", "--fail-on", "never")
    assert scoped == whole and whole["impacts"]
    assert scoped_runs == [False, True]


def _without_time(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("gate --fail-on"))


# A workspace of many small projects: in cluster k, `src_k` holds the table `events_k`, `mid_k` a task
# copying it into `mid_k.copy_k`, and `out_k` a task aggregating that. A change of one `events_k`
# reaches its cluster only.
CLUSTERS = 12

TABLE = """\
name: {name}
type: kafka
columns:
  - {{name: id, type: BIGINT}}
  - {{name: amount, type: INT}}
with:
  connector: kafka
  topic: {name}
  properties.bootstrap.servers: "kafka.test:9092"
  properties.group.id: g_{name}
  scan.startup.mode: latest-offset
  format: json
"""
SINK = """\
name: {name}
type: print
columns:
  - {{name: id, type: BIGINT}}
  - {{name: amount, type: INT}}
with:
  connector: print
"""


def _many_projects(root: Path) -> Repo:
    root.mkdir()
    (root / "flinkx.yaml").write_text('engine: flink\nflink_version: "1.20"\nmode: stream\n', encoding="utf-8")
    for k in range(CLUSTERS):
        files = {
            f"projects/src_{k}/project.yaml": f"name: src_{k}\n",
            f"projects/src_{k}/tables/events_{k}.yaml": TABLE.format(name=f"events_{k}"),
            f"projects/mid_{k}/project.yaml": f"name: mid_{k}\n",
            f"projects/mid_{k}/tables/copy_{k}.yaml": TABLE.format(name=f"copy_{k}"),
            f"projects/mid_{k}/tasks/copy_{k}.sql": f"INSERT INTO copy_{k} SELECT id, amount FROM src_{k}.events_{k};\n",
            f"projects/out_{k}/project.yaml": f"name: out_{k}\n",
            f"projects/out_{k}/tables/shown_{k}.yaml": SINK.format(name=f"shown_{k}"),
            f"projects/out_{k}/tasks/show_{k}.sql": f"INSERT INTO shown_{k} SELECT id, amount FROM mid_{k}.copy_{k};\n",
        }
        for rel, text in files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(textwrap.dedent(text), encoding="utf-8")
    (root / ".gitignore").write_text(".flinkx-cache/\nbuild/\n", encoding="utf-8")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "many projects")
    return Repo(root, "")


def test_a_one_table_change_loads_its_dependents_not_the_workspace(tmp_path, impact, scoped_runs, monkeypatch):
    monkeypatch.setattr(impact_command, "can_take_forked", lambda: False)  # both sides in this process: counted
    repo = _many_projects(tmp_path / "repo")
    loaded: list[str] = []
    real = load_workspace_module.read_task_file

    def counted(path, shown, memo):
        loaded.append(path.name)
        return real(path, shown, memo)

    monkeypatch.setattr(load_workspace_module, "read_task_file", counted)
    repo.edit("projects/src_3/tables/events_3.yaml", "latest-offset", "earliest-offset")
    _, whole = impact(repo, "--base", "HEAD", "--fail-on", "never")
    assert len(loaded) == 2 * 2 * CLUSTERS  # both sides, every task
    loaded.clear()
    _, scoped = impact(repo, "--base", "HEAD", "--fail-on", "never")
    assert scoped_runs == [False, True]
    assert sorted(loaded) == ["copy_3.sql", "copy_3.sql", "show_3.sql", "show_3.sql"]  # the reader and its reader, both sides
    assert scoped == whole
    assert [i["node"] for i in whole["impacts"]] == ["task.mid_3.copy_3", "task.out_3.show_3"]


def test_what_git_cannot_vouch_for_loads_the_workspace_whole(tmp_path, impact, scoped_runs):
    repo = _many_projects(tmp_path / "repo")
    repo.edit("projects/src_3/tables/events_3.yaml", "latest-offset", "earliest-offset")
    impact(repo, "--base", "HEAD", "--fail-on", "never")
    (repo.ws / "projects/src_5/tables/linked.yaml").symlink_to(repo.ws / "projects/src_5/tables/events_5.yaml")
    _, data = impact(repo, "--base", "HEAD", "--fail-on", "never")
    assert scoped_runs == [False, False]
    assert scope_module.worktree_files(repo.root, "") is None
    assert data["changes"]


def test_two_commits_of_many_projects_read_the_other_headers_from_the_revision(tmp_path, impact, scoped_runs):
    repo = _many_projects(tmp_path / "repo")
    repo.edit("projects/src_3/tables/events_3.yaml", "latest-offset", "earliest-offset")
    repo.commit("one table")
    repo.edit("projects/src_5/project.yaml", "name: src_5", "name: src_5\ndescription: only in the working tree")
    first, whole = impact(repo, "--base", "HEAD~1", "--head", "HEAD", "--fail-on", "never", fmt="markdown")
    again, scoped = impact(repo, "--base", "HEAD~1", "--head", "HEAD", "--fail-on", "never", fmt="markdown")
    assert scoped_runs == [False, True]
    assert _without_time(again.stdout) == _without_time(first.stdout) and "show_3" in first.stdout
