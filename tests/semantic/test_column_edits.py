"""Issue 10's agreement test: over generated column edits of the example workspace, the
tasks flinkx's checks reject are exactly the tasks the real Flink planner rejects."""
from __future__ import annotations

import shutil

import pytest

from tests.conftest import EXAMPLE
from tests.helpers import session_for
from tests.semantic.column_edits import generate
from tests.semantic.conftest import flink_rejects


def _verdicts(root, flink, pristine: dict[str, str]):
    """(tasks flinkx rejects, {task: Flink's message} for the tasks Flink rejects).

    A task counts as rejected by flinkx when it has an error or a meta table it uses has one
    (its YAML); Flink plans only tasks whose compiled SQL differs from the pristine
    workspace's (the pristine workspace is accepted whole, the first test asserts it)."""
    session = session_for(root)
    broken_yaml = {d.path for d in session.load_diagnostics if d.is_error}
    ours, theirs = set(), {}
    for task in session.tasks():
        rt = session.resolved(task)
        used = [rt.tables[k].table.loc.path for k in rt.tables]
        if any(d.is_error for d in rt.diagnostics) or broken_yaml & set(used):
            ours.add(task.key)
        if pristine.get(task.key) == session.compiled(task).text:
            continue
        messages = flink_rejects(flink, session, task)
        if messages:
            theirs[task.key] = messages[0]
    return ours, theirs


@pytest.fixture(scope="module")
def judged(tmp_path_factory, flink):
    pristine = tmp_path_factory.mktemp("edits") / "pristine"
    shutil.copytree(EXAMPLE, pristine, ignore=shutil.ignore_patterns("build", ".flinkx-cache", "engines"))
    untouched = _verdicts(pristine, flink, {})
    assert untouched == (set(), {}), untouched
    session = session_for(pristine)
    compiled = {task.key: session.compiled(task).text for task in session.tasks()}
    results = {}
    for edit in generate(pristine):
        root = pristine.parent / "ws"
        if root.exists():
            shutil.rmtree(root)
        shutil.copytree(pristine, root)
        edit.apply(root)
        results[edit.label] = _verdicts(root, flink, compiled)
    return results


def test_at_least_thirty_edits(judged):
    assert len(judged) >= 30
    kinds = {label.split()[0] for label in judged}
    assert kinds == {"rename", "retype", "drop", "add"}


@pytest.mark.flink
def test_lint_rejects_exactly_what_flink_rejects(judged):
    disagreements = {
        label: (sorted(ours), sorted(theirs.items()))
        for label, (ours, theirs) in judged.items() if ours != set(theirs)
    }
    assert not disagreements, "\n".join(f"{k}: flinkx {v[0]} / Flink {v[1]}" for k, v in disagreements.items())
