"""The predicted verdicts (deploy/compat.py) against what Flink did with every edit of the restore suite.

Both sides of each edit are compiled by the planner driver of each version, with their operators' ids, and
classified twice: as flinkx deploy submits an upgrade (operators pinned to their old ids, stable_ids.py; against
the suite's "pinned" record) and as plain SQL (ids from the job's shape; against its "cases" record). Flink's
outcomes were measured on live clusters by scripts/restore_suite.py (flinkx_build/data/flink/<v>/restores.json).
No cluster here: one driver JVM per version.
"""
from __future__ import annotations

import pytest

from flinkx_build.deploy import compat
from flinkx_build.deploy import prove
from flinkx_build.deploy import restore_facts
from flinkx_build.deploy import stable_ids
from tests.deploy.restore_suite.cases import CASES
from tests.deploy.restore_suite.predict import compiled_cases
from tests.planner.conftest import needs_planner

pytestmark = [pytest.mark.flink]
VERSIONS = [pytest.param("1.20", marks=needs_planner("1.20")),
            pytest.param("2.3", marks=[needs_planner("2.3"), pytest.mark.network])]
# Flink restores these, the prediction refuses them, and says why (per submission: as SQL, pinned)
CAUTIOUS = {
    # as SQL, the two aggregates' ids trade places: Flink hands each the other's state, which neither reads (both
    # start empty); "restored" by Flink, lost in fact. Pinned, each keeps its own.
    "cases": {"inserts_reordered": "another operator in its place"},
    # pinned, mini-batch's global aggregate takes the GROUP BY's place: Flink restores it; whether the global
    # aggregate reads the old accumulators was not measured (unknown)
    "pinned": {"group_mini_batch": "another operator in its place"},
}
MODES = ("pinned", "cases")


@pytest.fixture(scope="module", params=VERSIONS)
def predicted(request, tmp_path_factory):
    """case name -> (predicted level, summary) on one version, and Flink's recorded outcomes."""
    from flinkx_build.deploy.driver_client import DriverFlink

    version = request.param
    with DriverFlink(version, []) as client:
        out: dict[str, dict[str, tuple[str, str]]] = {mode: {} for mode in MODES}
        out["proven"] = {}
        for case, old, new in compiled_cases(client):
            for mode in MODES:
                if compat.same_job(old.plan, new.plan):
                    out[mode][case.name] = ("same job", "")
                    continue
                submitted = stable_ids.effective(new, stable_ids.pins(old, new)) if mode == "pinned" else new
                verdict = compat.classify(old, submitted, client.flink_version)
                out[mode][case.name] = (verdict.level, verdict.summary)
                if mode == "pinned":  # what deploy makes of its trial's answer (prove.py), as Flink answered it
                    trial = restore_facts.measured(version)["trial"][case.name]
                    proven = prove.proven(verdict, trial["outcome"] == "restored", trial.get("message", ""))
                    out["proven"][case.name] = (proven.level, proven.summary)
    return version, out, restore_facts.measured(version)


@pytest.mark.parametrize("mode", MODES)
def test_the_prediction_never_says_restores_where_flink_refused(predicted, mode):
    version, verdicts, flink = predicted[0], predicted[1][mode], predicted[2][mode]
    unsafe = {name: verdicts[name] for name, outcome in flink.items()
              if outcome["outcome"] == "refused" and verdicts[name][0] in ("same job", compat.RESTORES, compat.OTHER_MEANING)}
    assert not unsafe, unsafe


@pytest.mark.parametrize("mode", MODES)
def test_the_prediction_says_restores_where_flink_restored_but_for_the_cases_it_explains(predicted, mode):
    version, verdicts, flink = predicted[0], predicted[1][mode], predicted[2][mode]
    refused = {name for name, outcome in flink.items() if outcome["outcome"] == "restored"
               and verdicts[name][0] in (compat.WILL_NOT_RESTORE, compat.UNKNOWN)}
    assert refused == set(CAUTIOUS[mode]), {name: verdicts[name] for name in refused}
    for name, why in CAUTIOUS[mode].items():
        assert why in verdicts[name][1]


@pytest.mark.parametrize("mode", MODES)
def test_the_prediction_tells_a_changed_meaning_from_the_same_meaning(predicted, mode):
    version, verdicts, flink = predicted[0], predicted[1][mode], predicted[2][mode]
    wrong = {}
    for case in CASES:
        level = verdicts[case.name][0]
        if flink[case.name]["outcome"] != "restored" or level not in ("same job", compat.RESTORES, compat.OTHER_MEANING):
            continue
        if (level == compat.OTHER_MEANING) != (case.meaning == "other"):
            wrong[case.name] = (case.meaning, verdicts[case.name])
    assert not wrong, wrong


def test_comments_layout_and_keyword_case_compile_to_the_same_job(predicted):
    verdicts = predicted[1]["pinned"]
    assert verdicts["group_comment"][0] == verdicts["group_formatting"][0] == "same job"


def test_pinned_operators_keep_the_state_of_the_statements_that_did_not_change(predicted):
    """Step 3 of issue 43: what SQL submission loses and flinkx's pinned submission keeps (Flink's own record)."""
    flink = predicted[2]
    kept = {name for name, outcome in flink["pinned"].items()
            if outcome["outcome"] == "restored" and flink["cases"][name]["outcome"] == "refused"}
    assert {"insert_added_after", "insert_added_before", "stateful_insert_added", "window_filter_before"} <= kept
    assert all(flink["cases"][name]["failure"] == "cannot-map" for name in kept)


def test_the_proven_verdict_agrees_with_flink_on_every_edit(predicted):
    """The proven path (deploy --prove, and --apply before it stops anything): the trial's answer turned into
    deploy's verdict says restores exactly where Flink restored the pinned job from the savepoint. A case that
    compiles to the same job is never tried: deploy leaves it unchanged."""
    verdicts, flink = predicted[1], predicted[2]["pinned"]
    restores = (compat.RESTORES, compat.OTHER_MEANING)
    wrong = {name: (verdicts["proven"].get(name), outcome["outcome"]) for name, outcome in flink.items()
             if name in verdicts["proven"] and (verdicts["proven"][name][0] in restores) != (outcome["outcome"] == "restored")}
    assert not wrong, wrong
    assert all(level in restores + (compat.WILL_NOT_RESTORE,) for level, _ in verdicts["proven"].values())
    assert len(verdicts["proven"]) + sum(1 for v in verdicts["pinned"].values() if v[0] == "same job") == len(CASES)
