"""The restore suite (tests/deploy/restore_suite/): what Flink does with each edit, recorded and re-checked.

The recorded outcomes (flinkx_build/data/flink/<v>/restores.json) were written by scripts/restore_suite.py from
real runs. The fast tests check the record is whole; the slow ones run every edit again on a live cluster of each
version and fail when Flink no longer does what was recorded (then rerun the script with --write and review).
"""
from __future__ import annotations

import pytest

from flinkx_build.deploy import restore_facts
from tests.deploy.restore_suite import live
from tests.deploy.restore_suite.cases import CASES
from tests.planner.conftest import needs_planner

VERSIONS = ("1.20", "2.3")
MODES = ("cases", "pinned", "trial")  # Flink's restore as SQL and pinned; deploy's restore trial of the pinned job


def test_the_suite_covers_at_least_thirty_edit_kinds_of_every_stateful_family():
    assert len({c.name for c in CASES}) == len(CASES) >= 30
    families = {c.family for c in CASES}
    assert {"group aggregate", "window aggregate", "regular join", "interval join", "lookup join", "Top-N",
            "deduplication", "statements"} <= families
    edits = " ".join(c.edit for c in CASES)
    assert "SET" in edits and "comment" in edits and "INSERT" in edits


@pytest.mark.parametrize("version", VERSIONS)
def test_every_edit_has_flinks_outcome_recorded_and_none_is_broken_sql(version):
    recorded = restore_facts.measured(version)
    assert recorded.get("generated_by") == "scripts/restore_suite.py"
    assert recorded["flink_version"].startswith(version + ".")
    for mode in MODES:  # submitted as SQL, as flinkx deploy submits an upgrade, and deploy's restore trial
        cases = recorded[mode]
        assert set(cases) == {c.name for c in CASES}, "run scripts/restore_suite.py --write"
        assert all(c["outcome"] in ("restored", "refused") for c in cases.values()), cases
        # a refusal carries Flink's own words
        assert all(c.get("message") and c.get("failure") for c in cases.values() if c["outcome"] == "refused")


@pytest.mark.parametrize("version", VERSIONS)
def test_the_trial_says_what_flink_did_with_every_edit(version):
    """The proven path: deploy's restore trial (the driver's MiniCluster, stand-in connectors) of the base job's
    savepoint into the pinned edited job, against the live cluster's restore of the same savepoint."""
    recorded = restore_facts.measured(version)
    differ = {name: (trial, recorded["pinned"][name]) for name, trial in recorded["trial"].items()
              if (trial["outcome"], trial.get("failure")) != (recorded["pinned"][name]["outcome"],
                                                              recorded["pinned"][name].get("failure"))}
    assert not differ, differ


@pytest.mark.slow
@pytest.mark.flink
@pytest.mark.network
@pytest.mark.parametrize("version", [pytest.param(v, marks=needs_planner(v)) for v in VERSIONS])
def test_flink_still_does_what_the_suite_recorded(version, tmp_path):
    recorded = restore_facts.measured(version)
    ran = live.run_version(version, tmp_path, CASES, fresh_runs=False)
    print(f"restore suite on Flink {ran['flink_version']}: {ran['seconds']}")
    differ = {(mode, name): (recorded[mode][name], got) for mode in MODES for name, got in ran[mode].items()
              if (got["outcome"], got.get("failure")) != (recorded[mode][name]["outcome"], recorded[mode][name].get("failure"))}
    assert not differ, differ
