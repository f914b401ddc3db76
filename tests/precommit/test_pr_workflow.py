"""docs/pr-workflow.yml, run offline.

The workflow file is parsed with ruamel.yaml and its job is played the way
the runner would: in order, each step's `if:` evaluated (a small evaluator
for the expressions the file uses), `${{ ... }}` in `env:` filled from a fake
pull request context, and every `run:` script executed as GitHub executes it
(`bash --noprofile --norc -eo pipefail`), with GITHUB_OUTPUT and
GITHUB_STEP_SUMMARY files. `uses:` steps are replaced by the test's own setup:
checkout is a `git clone` of an "origin" repository with a base branch and a
feature branch (so `origin/main` exists), and Python with flinkx is this
environment; the install step (pip) is not run. `gh` is a stub on PATH that
keeps the pull request's comments in a JSON file.
"""
from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

import pytest
from pchelpers import MINI
from pchelpers import MINI_LOAD
from pchelpers import REPO
from pchelpers import TIMINGS
from pchelpers import GitRepo
from pchelpers import copy_workspace
from pchelpers import flinkx_exe
from pchelpers import git
from pchelpers import position
from ruamel.yaml import YAML

WORKFLOW = REPO / "docs" / "pr-workflow.yml"
MARKER = "<!-- flinkx-impact -->"


def impact_available() -> str:
    """Empty when `flinkx impact` works, else why not."""
    proc = subprocess.run([flinkx_exe(), "impact", "--help"], capture_output=True, text=True)
    if proc.returncode != 0:
        return f"`flinkx impact --help` exits {proc.returncode}: {(proc.stderr or proc.stdout).strip()[:200]}"
    return ""


needs_impact = pytest.mark.skipif(bool(impact_available()), reason=f"flinkx impact is not available yet ({impact_available()})")


def load_workflow() -> dict:
    return YAML(typ="safe").load(WORKFLOW.read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- the fake runner

GH_STUB = textwrap.dedent(
    '''\
    #!{python}
    """Stub of the GitHub CLI: the calls the flinkx workflow makes, on a JSON file."""
    import json, os, sys
    state_file = os.environ["GH_STUB_STATE"]
    state = json.load(open(state_file)) if os.path.exists(state_file) else {{"comments": [], "calls": []}}
    args = sys.argv[1:]
    state["calls"].append(args)
    def save():
        json.dump(state, open(state_file, "w"), indent=1)
    if not os.environ.get("GH_TOKEN"):
        print("gh: To use GitHub CLI in a GitHub Actions workflow, set the GH_TOKEN environment variable.", file=sys.stderr)
        save(); sys.exit(4)
    def value(flag):
        return args[args.index(flag) + 1]
    if args[:2] == ["pr", "comment"]:
        body = open(value("--body-file")).read()
        state["comments"].append({{"id": 1000 + len(state["comments"]), "pr": args[2], "body": body}})
        print("https://github.com/acme/warehouse/pull/%s#issuecomment-%d" % (args[2], state["comments"][-1]["id"]))
    elif args[0] == "api" and "--method" not in args:
        jq = value("--jq")
        assert "startswith" in jq and "flinkx-impact" in jq, jq
        for c in state["comments"]:
            if c["body"].startswith("{marker}"):
                print(c["id"])
    elif args[0] == "api" and value("--method") == "PATCH":
        cid = int(args[args.index("PATCH") + 1].rsplit("/", 1)[1])
        field = value("-F")
        assert field.startswith("body=@"), field
        body = open(field[len("body=@"):]).read()
        for c in state["comments"]:
            if c["id"] == cid:
                c["body"] = body
                c["edited"] = c.get("edited", 0) + 1
    else:
        print("gh stub: unexpected call %r" % args, file=sys.stderr)
        save(); sys.exit(1)
    save()
    '''
)


@dataclass
class StepResult:
    name: str
    ran: bool
    returncode: int = 0
    output: str = ""
    outputs: dict[str, str] = field(default_factory=dict)


@dataclass
class JobResult:
    steps: list[StepResult]
    summary: str
    comments: list[dict]
    gh_calls: list[list[str]]

    def step(self, step_id_or_name: str) -> StepResult:
        for s in self.steps:
            if s.name == step_id_or_name:
                return s
        raise KeyError(step_id_or_name)

    @property
    def succeeded(self) -> bool:
        return all(s.returncode == 0 for s in self.steps if s.ran)

    def describe(self) -> str:
        return "\n".join(f"--- {s.name}: {'ran, exit ' + str(s.returncode) if s.ran else 'skipped'}\n{s.output}" for s in self.steps)


def lookup(name: str, ctx: dict[str, str], env: dict[str, str], outputs: dict[str, dict[str, str]]) -> str:
    if name.startswith("env."):
        return env.get(name[4:], "")
    if name.startswith("steps."):
        _, step_id, kind, key = name.split(".", 3)
        assert kind == "outputs", name
        return outputs.get(step_id, {}).get(key, "")
    assert name in ctx, f"the test's fake context has no {name!r}: add it"
    return ctx[name]


CONTEXT_NAME = re.compile(r"\b(?:github|env|steps|runner)\.[\w.-]+[\w]")


def evaluate(expression: str, ctx, env, outputs, failed: bool) -> object:
    """The GitHub expressions this workflow uses, translated to Python."""
    text = expression.strip()
    if text.startswith("${{") and text.endswith("}}"):
        text = text[3:-2].strip()
    strings: list[str] = []

    def keep(m: re.Match) -> str:
        strings.append(m.group(1).replace("''", "'"))
        return f"__s{len(strings) - 1}"

    text = re.sub(r"'((?:[^']|'')*)'", keep, text)
    names: list[str] = []

    def name(m: re.Match) -> str:
        names.append(lookup(m.group(0), ctx, env, outputs))
        return f"__n{len(names) - 1}"

    text = CONTEXT_NAME.sub(name, text)
    text = text.replace("&&", " and ").replace("||", " or ")
    text = re.sub(r"!(?!=)", " not ", text)
    text = text.replace("cancelled()", "False").replace("always()", "True")
    text = text.replace("success()", str(not failed)).replace("failure()", str(failed))
    assert re.fullmatch(r"[\w\s()=!<>.]*", text), f"unsupported expression: {expression!r} -> {text!r}"
    scope = {f"__s{i}": s for i, s in enumerate(strings)} | {f"__n{i}": v for i, v in enumerate(names)}
    return eval(text, {"__builtins__": {}}, scope)  # noqa: S307 - the expression comes from our own file


def substitute(value: str, ctx, env, outputs) -> str:
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: str(evaluate(m.group(1), ctx, env, outputs, False)), str(value))


def play_job(workflow: dict, repo: Path, ctx: dict[str, str], tmp: Path, env_overrides: dict[str, str] | None = None, label: str = "") -> JobResult:
    (job,) = workflow["jobs"].values()
    shell = workflow.get("defaults", {}).get("run", {}).get("shell", "bash")
    assert shell == "bash"
    bin_dir = tmp / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    gh = bin_dir / "gh"
    gh.write_text(GH_STUB.format(python=sys.executable, marker=MARKER), encoding="utf-8")
    gh.chmod(gh.stat().st_mode | stat.S_IEXEC)
    summary = tmp / "step-summary.md"
    summary.touch()
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "FLINKX_", "GH_"))}
    base_env.update(
        PATH=f"{bin_dir}{os.pathsep}{Path(flinkx_exe()).parent}{os.pathsep}{os.environ['PATH']}",
        CI="true", GITHUB_ACTIONS="true", GITHUB_REPOSITORY=ctx["github.repository"], GITHUB_WORKSPACE=str(repo),
        GITHUB_STEP_SUMMARY=str(summary), GH_STUB_STATE=str(tmp / "gh-state.json"),
        FLINKX_NO_PLANNER="1",  # lint without its planner check (a JVM service), as in the rest of the suite
    )
    wf_env = {k: str(v) for k, v in (workflow.get("env") or {}).items()} | {k: str(v) for k, v in (job.get("env") or {}).items()}
    wf_env.update(env_overrides or {})
    outputs: dict[str, dict[str, str]] = {}
    results: list[StepResult] = []
    failed = False
    job_seconds = 0.0
    for index, step in enumerate(job["steps"]):
        name = step.get("id") or step.get("name") or f"step{index}"
        env = dict(wf_env)
        condition = step.get("if", "success()")
        if not evaluate(str(condition), ctx, env, outputs, failed):
            results.append(StepResult(name, False))
            continue
        if "uses" in step or step.get("id") == "install":
            results.append(StepResult(name, False, output="(done by the test setup)"))
            continue
        for key, value in (step.get("env") or {}).items():
            env[key] = substitute(value, ctx, env, outputs)
        out_file = tmp / f"output-{index}"
        out_file.write_text("", encoding="utf-8")
        script = tmp / f"step-{index}.sh"
        script.write_text(step["run"], encoding="utf-8")
        started = time.perf_counter()
        proc = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=repo, env=base_env | env | {"GITHUB_OUTPUT": str(out_file)},
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600,
        )
        job_seconds += time.perf_counter() - started
        step_outputs = dict(line.split("=", 1) for line in out_file.read_text(encoding="utf-8").splitlines() if "=" in line)
        outputs[name] = step_outputs
        results.append(StepResult(name, True, proc.returncode, proc.stdout, step_outputs))
        failed = failed or proc.returncode != 0
    ran = [r.name for r in results if r.ran]
    TIMINGS.append((f"workflow job ({label}): {len(ran)} run: steps", job_seconds))
    state = json.loads((tmp / "gh-state.json").read_text()) if (tmp / "gh-state.json").exists() else {"comments": [], "calls": []}
    return JobResult(results, summary.read_text(encoding="utf-8"), state["comments"], state["calls"])


# --------------------------------------------------------------------------- the repositories


@pytest.fixture
def pull_request(tmp_path, tool_env):
    """origin (branch main with the workspace) and a clone on branch `feature`, like actions/checkout."""

    def make(change, subdir: str = "") -> GitRepo:
        origin = GitRepo(tmp_path / "origin", tool_env)
        origin.root.mkdir()
        copy_workspace(MINI, origin.root / subdir if subdir else origin.root)
        origin.write(".gitignore", ".flinkx-cache/\nbuild/\n")
        origin.git("init", "-q", "-b", "main")
        origin.commit_all("workspace")
        origin.git("checkout", "-q", "-b", "feature")
        change(origin, f"{subdir}/" if subdir else "")
        origin.commit_all("the pull request's change")
        origin.git("checkout", "-q", "main")
        git(tmp_path, tool_env, "clone", "-q", "--branch", "feature", str(origin.root), "work")
        return GitRepo(tmp_path / "work", tool_env)

    return make


def context(number: str = "42", fork: bool = False) -> dict[str, str]:
    return {
        "github.base_ref": "main",
        "github.token": "ghs_fake_token",
        "github.repository": "acme/warehouse",
        "github.event.pull_request.number": number,
        "github.event.pull_request.head.repo.full_name": "someone/warehouse" if fork else "acme/warehouse",
        "github.sha": "0" * 40,
    }


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
    assert "flinkx lint" in runs["lint"] and "--format github" in runs["lint"]
    assert "flinkx build" in runs["build"] and "--check" in runs["build"]
    assert re.search(r'flinkx impact .*--base "origin/\$BASE_REF" --format markdown --fail-on "\$FLINKX_FAIL_ON"', runs["impact"])
    assert wf["env"]["FLINKX_FAIL_ON"] in ("breaking", "cross-project", "any", "never")


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
    commands = [c.split()[1] for c in flinkx_commands()]
    assert sorted(set(commands)) == ["build", "impact", "lint"], commands


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
