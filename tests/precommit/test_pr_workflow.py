"""docs/pr-workflow.yml, run offline (the runner: workflow_runner.py): its shape, the impact comment and
gate, annotations, and with the planner a pull request cold, a push to main, then the pull request warm."""
from __future__ import annotations

import json
import re
import subprocess
import tomllib

import pytest
from pchelpers import MINI_LOAD
from pchelpers import REPO
from pchelpers import GitRepo
from pchelpers import flinkx_exe
from pchelpers import position
from workflow_runner import MARKER
from workflow_runner import WORKFLOW
from workflow_runner import annotations
from workflow_runner import checkout
from workflow_runner import context
from workflow_runner import load_workflow
from workflow_runner import make_origin
from workflow_runner import planner_counts
from workflow_runner import planner_here
from workflow_runner import play_job
from workflow_runner import push_context
from workflow_runner import trailing_comma


def impact_available() -> str:
    """Empty when `flinkx impact` works, else why not."""
    proc = subprocess.run([flinkx_exe(), "impact", "--help"], capture_output=True, text=True)
    if proc.returncode != 0:
        return f"`flinkx impact --help` exits {proc.returncode}: {(proc.stderr or proc.stdout).strip()[:200]}"
    return ""


needs_impact = pytest.mark.skipif(bool(impact_available()), reason=f"flinkx impact is not available yet ({impact_available()})")


@pytest.fixture
def pull_request(tmp_path, tool_env):
    """origin (branch main with the workspace) and a clone on branch `feature`, like actions/checkout."""

    def make(change, subdir: str = "") -> GitRepo:
        make_origin(tmp_path, tool_env, change, subdir)
        return checkout(tmp_path, tool_env, "feature", "work")

    return make


def add_column(repo: GitRepo, ws: str) -> None:
    repo.replace(f"{ws}projects/ods/tables/order_events.yaml", "  - {name: channel, type: STRING}\n",
                 "  - {name: channel, type: STRING}\n  - {name: coupon_code, type: STRING}\n")


def drop_column(repo: GitRepo, ws: str) -> None:
    repo.replace(f"{ws}projects/ods/tables/order_events.yaml", "  - {name: channel, type: STRING}\n", "")


def reserved_alias(repo: GitRepo, ws: str) -> None:
    repo.replace(f"{ws}{MINI_LOAD}", "amount AS order_amount", "amount AS value")


# --------------------------------------------------------------------------- tests


def test_workflow_file_shape():
    wf = load_workflow()
    assert "pull_request" in wf["on"]
    assert wf["permissions"]["pull-requests"] == "write"
    (job,) = wf["jobs"].values()
    steps = job["steps"]
    checkout = next(s for s in steps if str(s.get("uses", "")).startswith("actions/checkout@"))
    assert checkout["with"]["fetch-depth"] == 0, "impact needs the base branch's history"
    runs = {s.get("id"): s["run"] for s in steps if "run" in s}
    for step_id, script in runs.items():
        assert "${{" not in script, f"step {step_id}: pass expressions through env:, not into the script"
    assert "pip install" in runs["install"]
    assert "flinkx -v lint" in runs["lint"] and "--format github" in runs["lint"]
    assert "flinkx build" in runs["build"] and "--check" in runs["build"]
    assert re.search(r'flinkx impact .*--base "origin/\$BASE_REF" --format markdown --fail-on "\$FLINKX_FAIL_ON"', runs["impact"])
    assert wf["env"]["FLINKX_FAIL_ON"] in ("breaking", "cross-project", "any", "never")


def test_workflow_sets_up_java_installs_a_real_release_and_caches_only_from_the_base_branch():
    wf = load_workflow()
    assert wf["on"]["push"]["branches"] == ["main"] and "pull_request" in wf["on"]
    (job,) = wf["jobs"].values()
    steps = job["steps"]
    uses = {str(s.get("uses", "")).split("@")[0]: s for s in steps if "uses" in s}
    java = uses["actions/setup-java"]
    assert java["with"] == {"distribution": "temurin", "java-version": "17"}
    # the spec names this package at this version: no placeholder, and a release bump updates it
    spec = wf["env"]["FLINKX_PIP_SPEC"]
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert spec == f"{project['name']}=={project['version']}", spec
    assert "your-org" not in WORKFLOW.read_text(encoding="utf-8")
    restore, save = uses["actions/cache/restore"], uses["actions/cache/save"]
    assert "actions/cache" not in uses, "restore and save are separate steps: only the base branch saves"
    assert restore["with"]["path"] == save["with"]["path"], "a cache is found by its key and its paths"
    paths = str(save["with"]["path"]).strip().splitlines()
    assert paths == ["~/.cache/flinkx", "!~/.cache/flinkx/planner", "${{ env.FLINKX_WORKSPACE }}/.flinkx-cache"], paths
    assert "github.event_name == 'push'" in save["if"] and "pull_request" not in save["if"]
    order = [s.get("id") or s.get("uses", "").split("@")[0] for s in steps]
    assert order.index("committed-cache") < order.index("restore") < order.index("jars") < order.index("lint")
    assert order.index("actions/setup-java") < order.index("jars")
    assert order[-1] == "actions/cache/save", "saved after every check ran"


def flinkx_commands() -> list[str]:
    """The flinkx command lines of the workflow's run: steps."""
    wf = load_workflow()
    (job,) = wf["jobs"].values()
    out = []
    for step in job["steps"]:
        for line in str(step.get("run", "")).splitlines():
            line = line.strip()
            if line.startswith("flinkx "):
                out.append(line)
    return out


def test_every_flinkx_command_is_tested():
    commands = [next(word for word in c.split()[1:] if not word.startswith("-")) for c in flinkx_commands()]
    assert sorted(set(commands)) == ["build", "impact", "lint", "validate"], commands


@needs_impact
def test_clean_pull_request(pull_request, tmp_path):
    work = pull_request(add_column)
    job = play_job(load_workflow(), work.root, context(), tmp_path / "run1", label="clean PR")

    assert job.succeeded, job.describe()
    assert job.step("lint").ran and job.step("lint").returncode == 0
    assert "tasks compile cleanly" in job.step("build").output
    assert job.step("impact").outputs["exit_code"] == "0", job.describe()
    assert not job.step("Impact gate (--fail-on)").ran
    assert not job.step("sarif").ran
    (comment,) = job.comments
    assert comment["pr"] == "42"
    assert comment["body"].startswith(MARKER + "\n## flinkx impact")
    assert "base `origin/main" in comment["body"] or "origin/main" in comment["body"]
    assert "## flinkx impact" in job.summary


@needs_impact
def test_second_push_edits_the_comment(pull_request, tmp_path):
    work = pull_request(add_column)
    run_dir = tmp_path / "run"
    play_job(load_workflow(), work.root, context(), run_dir, label="PR, 1st push")
    job = play_job(load_workflow(), work.root, context(), run_dir, label="PR, 2nd push")
    (comment,) = job.comments
    assert comment.get("edited") == 1
    assert [c[:2] for c in job.gh_calls] == [["api", "repos/acme/warehouse/issues/42/comments"], ["pr", "comment"],
                                             ["api", "repos/acme/warehouse/issues/42/comments"], ["api", "--method"]]


@needs_impact
def test_breaking_pull_request_is_gated_after_the_comment(pull_request, tmp_path):
    work = pull_request(drop_column)
    job = play_job(load_workflow(), work.root, context(), tmp_path / "run", label="breaking PR")

    assert not job.succeeded
    assert job.step("impact").outputs["exit_code"] == "1", job.describe()
    assert job.step("impact").returncode == 0, "the impact step itself passes so the comment is posted"
    (comment,) = job.comments
    assert "breaking" in comment["body"] and "dwd/load_orders" in comment["body"]
    gate = job.step("Impact gate (--fail-on)")
    assert gate.ran and gate.returncode == 1
    assert "::error title=flinkx impact::this pull request trips --fail-on breaking" in gate.output


@needs_impact
def test_fail_on_never_reports_only(pull_request, tmp_path):
    work = pull_request(drop_column)
    job = play_job(load_workflow(), work.root, context(), tmp_path / "run", {"FLINKX_FAIL_ON": "never"}, label="breaking PR, never")
    assert job.step("impact").outputs["exit_code"] == "0"
    assert not job.step("Impact gate (--fail-on)").ran
    (comment,) = job.comments
    assert "breaking" in comment["body"]


@needs_impact
def test_lint_findings_become_annotations(pull_request, tmp_path):
    work = pull_request(reserved_alias)
    job = play_job(load_workflow(), work.root, context(), tmp_path / "run", {"FLINKX_SARIF": "true"}, label="FX01 PR")

    lint = job.step("lint")
    assert lint.returncode == 1
    line, col = position(work.read(MINI_LOAD), "value")
    assert f"::error file={MINI_LOAD},line={line},col={col},title=FX01::Reserved word 'value'" in lint.output, lint.output  # the code once
    # the other checks still run and report
    assert job.step("build").ran and job.step("impact").ran and len(job.comments) == 1
    sarif = job.step("sarif")
    assert sarif.ran and sarif.returncode == 0, sarif.output
    report = json.loads((work.root / "flinkx-lint.sarif").read_text())
    (result,) = report["runs"][0]["results"]
    assert result["ruleId"] == "FX01"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == MINI_LOAD


@needs_impact
def test_workspace_in_a_folder_and_fork(pull_request, tmp_path):
    work = pull_request(add_column, subdir="warehouse")
    job = play_job(load_workflow(), work.root, context(fork=True), tmp_path / "run", {"FLINKX_WORKSPACE": "warehouse"}, label="folder, fork PR")
    assert job.succeeded, job.describe()
    assert job.step("impact").outputs["exit_code"] == "0"
    assert not job.step("Comment the impact report on the pull request").ran
    assert job.comments == []
    assert "## flinkx impact" in job.summary


def test_usage_error_fails_the_impact_step(pull_request, tmp_path):
    if impact_available():
        pytest.skip(f"flinkx impact is not available yet ({impact_available()})")
    work = pull_request(add_column)
    job = play_job(load_workflow(), work.root, context() | {"github.base_ref": "no-such-branch"}, tmp_path / "run", label="unknown base")
    impact = job.step("impact")
    assert impact.returncode == 2 and impact.outputs["exit_code"] == "2", job.describe()
    assert "no-such-branch" in impact.output
    assert not job.step("Comment the impact report on the pull request").ran, "no comment without a report"
    assert not job.step("Impact gate (--fail-on)").ran
    assert job.comments == []


@pytest.mark.parametrize(("config", "said"), [
    ('engine: mrs\nflink_version: "1.20"\n', "the workspace's engine is not Apache Flink: no Flink planner to fetch"),
    ('engine: flink\nflink_version: "9.9"\n', "flinkx.yaml has a finding: see the lint step"),
])
def test_the_jars_step_leaves_to_lint_what_is_not_the_planners(pull_request, tmp_path, config, said):
    """No Flink planner to fetch (another engine), or a flinkx.yaml lint reports at its place: the step passes."""
    work = pull_request(lambda repo, ws: repo.write(f"{ws}flinkx.yaml", config))
    job = play_job(load_workflow(), work.root, context(), tmp_path / "run", planner=True, label="jars step, " + config.split()[1])
    jars = job.step("jars")
    assert jars.ran and jars.returncode == 0 and said in jars.output, job.describe()
    if "9.9" in config:
        assert any("file=flinkx.yaml" in a and "title=FX121" in a for a in annotations(job)), job.step("lint").output


# --------------------------------------------------------------------------- with the planner, cold then warm


@pytest.mark.slow
@pytest.mark.flink
def test_cold_then_warm_the_planner_verdict_with_less_work(pull_request, tmp_path, tool_env):
    if planner_here():
        pytest.skip(f"no planner: {planner_here()}")
    pull_request(trailing_comma)
    store = tmp_path / "github-cache"  # stands for GitHub's cache of the base repository
    workflow = load_workflow()

    cold = play_job(workflow, checkout(tmp_path, tool_env, "feature", "pr-cold").root, context(), tmp_path / "job-cold",
                    cache_store=store, planner=True, label="PR, cold, planner")
    assert not (store / "key").exists(), "a pull request's run saves nothing"
    trusted = play_job(workflow, checkout(tmp_path, tool_env, "main", "main-push").root, push_context(), tmp_path / "job-main",
                       cache_store=store, planner=True, label="push to main, planner")
    assert trusted.succeeded, trusted.describe()
    assert not trusted.step("impact").ran and trusted.comments == []
    assert (store / "key").read_text() == "flinkx-Linux-" + "1" * 40
    warm_repo = checkout(tmp_path, tool_env, "feature", "pr-warm")
    warm = play_job(workflow, warm_repo.root, context(), tmp_path / "job-warm", cache_store=store, planner=True,
                    label="PR, warm, planner")

    # the planner's finding, as an annotation at the comma's closing parenthesis, cold and warm alike
    line, col = position(warm_repo.read(MINI_LOAD), ",) */")
    expected = f"::error file={MINI_LOAD},line={line},col={col + 1},title=FX301::"
    for job in (cold, warm):
        assert job.step("jars").returncode == 0 and "Flink accepts all 0 tasks" in job.step("jars").output, job.describe()
        assert job.step("lint").returncode == 1
        assert any(a.startswith(expected) for a in annotations(job)), job.step("lint").output
        (comment,) = job.comments
        assert comment["body"].startswith(MARKER + "\n## flinkx impact") and "dwd/load_orders" in comment["body"]
    assert annotations(warm) == annotations(cold), "a warm cache gives the cold verdict"
    assert warm.step("restore").outputs["cache-matched-key"] == "flinkx-Linux-" + "1" * 40

    # less work, counted: cold plans both tasks; warm plans only the task the pull request changed
    assert planner_counts(cold) == (2, 0), cold.step("lint").output
    assert planner_counts(trusted) == (2, 0), trusted.step("lint").output
    assert planner_counts(warm) == (1, 1), warm.step("lint").output
    # a later push to main that changes no task: restored from the first push, the planner is not asked at all
    again = play_job(workflow, checkout(tmp_path, tool_env, "main", "main-push-2").root, push_context() | {"github.sha": "2" * 40},
                     tmp_path / "job-main-2", cache_store=store, planner=True, label="push to main again, planner")
    assert again.succeeded and planner_counts(again) == (0, 2), again.step("lint").output
