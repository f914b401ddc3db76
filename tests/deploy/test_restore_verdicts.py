"""The predicted verdicts (deploy/compat.py) against what Flink did with every edit of the restore suite.

Both sides of each edit are compiled by the planner driver of each version, with their operators' ids, and
classified; Flink's outcome is the suite's record (flinkx_build/data/flink/<v>/restores.json, measured on live
clusters by scripts/restore_suite.py). No cluster here: one driver JVM per version.
"""
from __future__ import annotations

import pytest

from flinkx_build.deploy import compat
from flinkx_build.deploy import restore_facts
from tests.deploy.restore_suite.cases import BASES
from tests.deploy.restore_suite.cases import CASES
from tests.deploy.restore_suite.cases import statements
from tests.planner.conftest import needs_planner

pytestmark = [pytest.mark.flink]
VERSIONS = [pytest.param("1.20", marks=needs_planner("1.20")),
            pytest.param("2.3", marks=[needs_planner("2.3"), pytest.mark.network])]
# Flink restores these, the prediction refuses them, and says why
CAUTIOUS = {
    # the two aggregates' ids trade places: Flink hands each the other's state, which neither reads (both start
    # empty); "restored" by Flink, lost in fact
    "inserts_reordered": "another operator in its place",
}


@pytest.fixture(scope="module", params=VERSIONS)
def predicted(request, tmp_path_factory):
    """case name -> (predicted level, summary) on one version, and Flink's recorded outcomes."""
    from flinkx_build.deploy.driver_client import DriverFlink

    version = request.param
    with DriverFlink(version, []) as client:
        jobs: dict[str, compat.CompiledJob] = {}

        def job(sql: str) -> compat.CompiledJob:
            if sql not in jobs:
                jobs[sql] = client.compile_job(statements(sql))
            return jobs[sql]

        out = {}
        for case in CASES:
            old, new = job(BASES[case.base]), job(case.edited)
            if compat.same_job(old.plan, new.plan):
                out[case.name] = ("same job", "")
            else:
                verdict = compat.classify(old, new, client.flink_version)
                out[case.name] = (verdict.level, verdict.summary)
    return version, out, restore_facts.measured(version)["cases"]


def test_the_prediction_never_says_restores_where_flink_refused(predicted):
    version, verdicts, flink = predicted
    unsafe = {name: verdicts[name] for name, outcome in flink.items()
              if outcome["outcome"] == "refused" and verdicts[name][0] in ("same job", compat.RESTORES, compat.OTHER_MEANING)}
    assert not unsafe, unsafe


def test_the_prediction_says_restores_where_flink_restored_but_for_the_cases_it_explains(predicted):
    version, verdicts, flink = predicted
    refused = {name for name, outcome in flink.items() if outcome["outcome"] == "restored"
               and verdicts[name][0] in (compat.WILL_NOT_RESTORE, compat.UNKNOWN)}
    assert refused == set(CAUTIOUS), {name: verdicts[name] for name in refused}
    for name, why in CAUTIOUS.items():
        assert why in verdicts[name][1]


def test_the_prediction_tells_a_changed_meaning_from_the_same_meaning(predicted):
    version, verdicts, flink = predicted
    wrong = {}
    for case in CASES:
        level = verdicts[case.name][0]
        if flink[case.name]["outcome"] != "restored" or level not in ("same job", compat.RESTORES, compat.OTHER_MEANING):
            continue
        if (level == compat.OTHER_MEANING) != (case.meaning == "other"):
            wrong[case.name] = (case.meaning, verdicts[case.name])
    assert not wrong, wrong


def test_comments_layout_and_keyword_case_compile_to_the_same_job(predicted):
    version, verdicts, flink = predicted
    assert verdicts["group_comment"][0] == verdicts["group_formatting"][0] == "same job"
