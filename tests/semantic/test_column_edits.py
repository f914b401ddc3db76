"""Over generated column edits of the example workspace (committed in git):

* issue 10: the tasks flinkx's checks reject are exactly the tasks the real Flink planner rejects;
* issue 11: the tasks `flinkx impact` calls breaking are exactly those too, and every task that
  reads the changed column is in the report.

Flink is asked once per edit and task, and only about tasks whose compiled SQL changed."""
from __future__ import annotations

import contextlib
import json
import shutil

import pytest
from click.testing import CliRunner

from flinkx_build.cli import main
from tests.conftest import EXAMPLE
from tests.graph.gitrepo import git
from tests.helpers import session_for
from tests.semantic.column_edits import generate
from tests.semantic.conftest import flink_rejects

pytestmark = pytest.mark.slow  # end to end, tens of seconds: .ci/run runs it after the README command


def _verdicts(root, flink, pristine: dict[str, str]):
    """(tasks flinkx rejects, {task: Flink's message} for the tasks Flink rejects).

    A task counts as rejected by flinkx when it has an error or a meta table it uses has one
    (its YAML: such a table is `unloaded` for the task, which then says nothing of its own); Flink plans only tasks whose compiled SQL differs from the pristine
    workspace's (the pristine workspace is accepted whole, the first test asserts it)."""
    session = session_for(root)
    broken_yaml = {d.path for d in session.load_diagnostics if d.is_error}
    ours, theirs = set(), {}
    for task in session.tasks():
        rt = session.analysed(task)
        used = [rt.tables[k].table.loc.path for k in rt.tables]
        # a table whose YAML did not load whole is not bound (`unloaded`): its YAML's error is the task's one finding
        if any(d.is_error for d in rt.diagnostics) or broken_yaml & set(used) or rt.unloaded:
            ours.add(task.key)
        if pristine.get(task.key) == session.compiled(task).text:
            continue
        messages = flink_rejects(flink, session, task)
        if messages:
            theirs[task.key] = messages[0]
    return ours, theirs


def _impact(root) -> dict:
    with contextlib.chdir(root):
        result = CliRunner().invoke(main, ["impact", ".", "--base", "HEAD", "--format", "json", "--fail-on", "never"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _readers(root, edit) -> set[str]:
    """Tasks that read the edited column in the base revision (columns_read of the resolver)."""
    session = session_for(root)
    key = f"{edit.table.split('/')[0]}.{edit.table.rsplit('/', 1)[-1].removesuffix('.yaml')}"
    return {t.key for t in session.tasks() if edit.column in session.analysed(t).columns_read.get(key, set())}


@pytest.fixture(scope="module")
def judged(tmp_path_factory, flink):
    root = tmp_path_factory.mktemp("edits") / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("build", ".flinkx-cache", "engines"))
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "example workspace")
    untouched = _verdicts(root, flink, {})
    assert untouched == (set(), {}), untouched
    session = session_for(root)
    compiled = {task.key: session.compiled(task).text for task in session.tasks()}
    results = {}
    for edit in generate(root):
        readers = _readers(root, edit) if edit.kind != "add" else set()
        edit.apply(root)
        results[edit.label] = (*_verdicts(root, flink, compiled), _impact(root), readers)
        git(root, "checkout", "-q", "--", "projects")
    return results


def test_at_least_thirty_edits(judged):
    assert len(judged) >= 30
    kinds = {label.split()[0] for label in judged}
    assert kinds == {"rename", "retype", "drop", "add"}


@pytest.mark.flink
def test_lint_rejects_exactly_what_flink_rejects(judged):
    disagreements = {
        label: (sorted(ours), sorted(theirs.items()))
        for label, (ours, theirs, _, _) in judged.items() if ours != set(theirs)
    }
    assert not disagreements, "\n".join(f"{k}: flinkx {v[0]} / Flink {v[1]}" for k, v in disagreements.items())


def _task_key(node: str) -> str:
    return node.removeprefix("task.").replace(".", "/", 1)


@pytest.mark.flink
def test_impact_breaking_is_exactly_what_flink_rejects(judged):
    wrong = {}
    for label, (_, theirs, report, _) in judged.items():
        breaking = {_task_key(i["node"]) for i in report["impacts"] if i["classification"] == "breaking"}
        if breaking != set(theirs):
            wrong[label] = (sorted(breaking), sorted(theirs))
    assert not wrong, "\n".join(f"{k}: impact {v[0]} / Flink {v[1]}" for k, v in wrong.items())


def test_impact_lists_every_task_that_reads_the_changed_column(judged):
    missing = {}
    for label, (_, _, report, readers) in judged.items():
        listed = {_task_key(i["node"]) for i in report["impacts"]}
        if readers - listed:
            missing[label] = sorted(readers - listed)
    assert not missing, missing


def test_impact_counts_are_numbers(judged):
    _, _, report, _ = next(iter(judged.values()))
    counts = report["projects"]
    assert counts and all(isinstance(v, int) for row in counts.values() for k, v in row.items() if k != "impacted_from")
