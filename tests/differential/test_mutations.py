"""The mutation generator of the differential harness: deterministic, one edit, no line added or removed."""
from __future__ import annotations

import pytest

from flinkx_build.pipeline import Session
from tests.differential import harness
from tests.differential.catalogue import GENERATORS
from tests.differential.catalogue import mutations_of
from tests.differential.mutations import TaskSites
from tests.differential.mutations import held_out


@pytest.fixture(scope="module")
def example_mutants(tmp_path_factory):
    root = tmp_path_factory.mktemp("mutants")
    example = harness.prepare_workspaces(root)[0]
    session = Session.open(example, use_cache=False)
    out = []
    for task in session.workspace.all_tasks():
        resolved = session.analysed(task)
        sites = TaskSites(task.key, task.text, [s.parsed for s in resolved.statements], session.analysed(task))
        out.extend((task.text, m) for m in mutations_of(sites))
    return out


def test_every_mutant_is_one_edit_on_its_line(example_mutants):
    assert len(example_mutants) > 100
    for text, mutation in example_mutants:
        mutated = mutation.apply(text)
        assert mutated != text, mutation
        assert mutated.count("\n") == text.count("\n"), mutation
        start = mutation.edits[0][0]
        assert text.count("\n", 0, start) + 1 == mutation.line


def test_the_example_workspace_has_sites_for_most_kinds(example_mutants):
    kinds = {m.kind for _, m in example_mutants}
    assert {"group_by_missing", "aggregate_in_where", "cast_bad_type", "lookup_key_type", "system_time_missing",
            "insert_column_unknown", "union_short", "row_field_misspelled", "benign_layout", "benign_filter"} <= kinds
    assert len(GENERATORS) >= 20


def test_the_split_is_deterministic_and_depends_on_the_seed(example_mutants):
    mutations = [m for _, m in example_mutants]
    assert [held_out(m, 28) for m in mutations] == [held_out(m, 28) for m in mutations]
    assert [held_out(m, 28) for m in mutations] != [held_out(m, 29) for m in mutations]
    halves = sum(held_out(m, 28) for m in mutations)
    assert 0.3 < halves / len(mutations) < 0.7
    items = [(None, m) for m in mutations]
    assert harness.select(items, 5, per_kind=1) == harness.select(items, 5, per_kind=1)
