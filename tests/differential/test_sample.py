"""The differential harness's CI sample (issue 28, item 5): about thirty single-edit mutants of
the example, seed 000 and cookbook workspaces, labelled by the real planner in one JVM.

It fails on any false alarm: lint flagging a mutant Flink accepts (a benign edit included).
The full run is `python scripts/differential.py`; its table is in docs/checks.md.
"""
from __future__ import annotations

import pytest

from tests.differential import harness
from tests.helpers import flink_available
from tests.helpers import open_flink

SEED = 28


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    if flink_available() is not None:
        pytest.skip(f"needs the Flink planner: {flink_available()}")
    root = tmp_path_factory.mktemp("differential")
    workspaces = harness.prepare_workspaces(root)
    with open_flink() as flink:
        planner = harness.Planner(flink.planner)
        every = harness.generate(workspaces, planner)
        mutants = harness.select(every, SEED, per_kind=1)
        benign = [m for m in harness.select(every, SEED + 1, per_kind=2) if m[1].benign]
        chosen = list(dict.fromkeys(mutants + benign))
        return [harness.judge(ws, m, planner, SEED) for ws, m in chosen]


@pytest.mark.flink
def test_the_sample_covers_the_kinds(verdicts):
    kinds = {v.mutation.kind for v in verdicts}
    assert len(verdicts) >= 25, len(verdicts)
    assert {"group_by_missing", "aggregate_in_where", "cast_bad_type", "insert_column_unknown", "benign_layout"} <= kinds


@pytest.mark.flink
def test_no_false_alarm(verdicts):
    alarms = [f"{v.mutation.kind} {v.mutation.task}:{v.mutation.line}: {v.lint[0].format()}" for v in verdicts
              if v.planner == "accepted" and v.flagged]
    assert alarms == []


@pytest.mark.flink
def test_benign_edits_stay_accepted_and_quiet(verdicts):
    benign = [v for v in verdicts if v.mutation.benign]
    assert benign
    assert [v.mutation.site() for v in benign if v.flagged and v.planner == "accepted"] == []

