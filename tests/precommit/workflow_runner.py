"""docs/pr-workflow.yml, played offline: the runner the workflow tests share (tests/precommit/test_pr_workflow.py,
tests/security/test_attack_workflow_cache.py).

The workflow file is parsed with ruamel.yaml and its job is played the way
the runner would: in order, each step's `if:` evaluated (a small evaluator
for the expressions the file uses), `${{ ... }}` in `env:` filled from a fake
event context, and every `run:` script executed as GitHub executes it
(`bash --noprofile --norc -eo pipefail`), with GITHUB_OUTPUT and
GITHUB_STEP_SUMMARY files. `uses:` steps are replaced by the test's own setup:
checkout is a `git clone` of an "origin" repository with a base branch and a
feature branch (so `origin/main` exists), Python with flinkx is this
environment (the install step, pip, is not run; its spec is checked), Java is
this machine's, and actions/cache/restore and actions/cache/save copy the
step's `path:` list from and to a folder standing for GitHub's cache. Each job
runs in a fresh home folder, as on a fresh runner. `gh` is a stub on PATH that
keeps the pull request's comments in a JSON file.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Callable

from pchelpers import MINI
from pchelpers import MINI_LOAD
from pchelpers import REPO
from pchelpers import TIMINGS
from pchelpers import GitRepo
from pchelpers import copy_workspace
from pchelpers import flinkx_exe
from pchelpers import git
from ruamel.yaml import YAML

WORKFLOW = REPO / "docs" / "pr-workflow.yml"
MARKER = "<!-- flinkx-impact -->"


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


def cache_paths(step: dict, ctx, env, home: Path, repo: Path) -> tuple[list[Path], list[Path]]:
    """An actions/cache step's `path:` list: (the paths, the paths excluded with `!`), `~` as the home folder."""
    kept: list[Path] = []
    excluded: list[Path] = []
    for line in str(step["with"]["path"]).splitlines():
        line = substitute(line.strip(), ctx, env, {})
        if not line:
            continue
        into = excluded if line.startswith("!") else kept
        line = line.lstrip("!")
        into.append(home / line[2:] if line.startswith("~/") else repo / line)
    return kept, excluded


def restore_cache(step: dict, ctx, env, home: Path, repo: Path, store: Path | None) -> dict[str, str]:
    """actions/cache/restore: the saved paths back where the list says (nothing when nothing was saved)."""
    if store is None or not (store / "key").is_file():
        return {"cache-hit": "false"}
    kept, _ = cache_paths(step, ctx, env, home, repo)
    for index, path in enumerate(kept):
        saved = store / str(index)
        if saved.exists():
            shutil.copytree(saved, path, symlinks=True, dirs_exist_ok=True)
    return {"cache-hit": "false", "cache-matched-key": (store / "key").read_text()}


def save_cache(step: dict, ctx, env, home: Path, repo: Path, store: Path | None) -> dict[str, str]:
    """actions/cache/save: every path of the list, minus the excluded ones, into the store."""
    assert store is not None, "a job that saves the cache needs a store"
    kept, excluded = cache_paths(step, ctx, env, home, repo)
    shutil.rmtree(store, ignore_errors=True)
    store.mkdir(parents=True)
    for index, path in enumerate(kept):
        if path.exists():
            shutil.copytree(path, store / str(index), symlinks=True,
                            ignore=lambda folder, names: [n for n in names if Path(folder, n) in excluded])
    (store / "key").write_text(substitute(step["with"]["key"], ctx, env, {}))
    return {}


def stop_planners(home: Path) -> None:
    """End the warm planner services a job started in its home folder (a runner ends with its job)."""
    from flinkx_build.planner import jar as driver_jar
    from flinkx_build.planner import jars as flink_jars
    from flinkx_build.planner import service
    from flinkx_build.targets import TARGETS

    if not (home / ".cache" / "flinkx" / "planner").is_dir():
        return
    saved = {k: os.environ.get(k) for k in ("HOME", "FLINKX_HOME", "XDG_CACHE_HOME")}
    os.environ["HOME"] = str(home)
    os.environ.pop("FLINKX_HOME", None)
    os.environ.pop("XDG_CACHE_HOME", None)
    try:
        for target in TARGETS.values():
            lib = flink_jars.installed_lib(target)
            jar_folder = home / ".cache" / "flinkx" / "planner-jar"
            if lib is not None and jar_folder.is_dir() and any(jar_folder.glob(f"{target.version}-*")):
                service.stop(target, driver_jar.driver_jar(target, lib, None))
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def play_job(workflow: dict, repo: Path, ctx: dict[str, str], tmp: Path, env_overrides: dict[str, str] | None = None, label: str = "",
             cache_store: Path | None = None, planner: bool = False) -> JobResult:
    """The job on `repo` in a fresh home folder under `tmp`; `cache_store` stands for GitHub's cache;
    `planner`: with Java and the suite's Flink jars ($FLINKX_FLINK_HOME), as on a runner with setup-java."""
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
    home = tmp / "home"  # a fresh runner: flinkx's user cache is ~/.cache/flinkx, empty until restored
    runner_temp = tmp / "runner-temp"
    home.mkdir(parents=True, exist_ok=True)
    runner_temp.mkdir(parents=True, exist_ok=True)
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "FLINKX_", "GH_", "XDG_", "RUNNER_"))}
    base_env.update(
        PATH=f"{bin_dir}{os.pathsep}{Path(flinkx_exe()).parent}{os.pathsep}{os.environ['PATH']}",
        CI="true", GITHUB_ACTIONS="true", GITHUB_REPOSITORY=ctx["github.repository"], GITHUB_WORKSPACE=str(repo),
        GITHUB_STEP_SUMMARY=str(summary), GH_STUB_STATE=str(tmp / "gh-state.json"), HOME=str(home), RUNNER_TEMP=str(runner_temp),
    )
    if planner:  # the suite's jars stand for the download (tests/conftest.py); an orphaned service ends soon
        base_env.update(FLINKX_FLINK_HOME=os.environ["FLINKX_FLINK_HOME"], FLINKX_PLANNER_IDLE_SECONDS="120")
    else:
        base_env["FLINKX_NO_PLANNER"] = "1"  # lint without its planner check (a JVM service), as in the rest of the suite
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
        action = str(step.get("uses", "")).split("@")[0]
        if action in ("actions/cache/restore", "actions/cache/save"):
            play = restore_cache if action.endswith("restore") else save_cache
            outputs[name] = play(step, ctx, env, home, repo, cache_store)
            results.append(StepResult(name, True, outputs=outputs[name]))
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
    stop_planners(home)
    ran = [r.name for r in results if r.ran]
    TIMINGS.append((f"workflow job ({label}): {len(ran)} run: steps", job_seconds))
    state = json.loads((tmp / "gh-state.json").read_text()) if (tmp / "gh-state.json").exists() else {"comments": [], "calls": []}
    return JobResult(results, summary.read_text(encoding="utf-8"), state["comments"], state["calls"])




# --------------------------------------------------------------------------- the repositories and events


def make_origin(tmp_path: Path, env: dict[str, str], change: Callable[[GitRepo, str], None], subdir: str = "") -> GitRepo:
    """`tmp_path/origin`: branch main with the shop-mini workspace, branch feature with `change` on top."""
    origin = GitRepo(tmp_path / "origin", env)
    origin.root.mkdir()
    copy_workspace(MINI, origin.root / subdir if subdir else origin.root)
    origin.write(".gitignore", ".flinkx-cache/\nbuild/\n")
    origin.git("init", "-q", "-b", "main")
    origin.commit_all("workspace")
    origin.git("checkout", "-q", "-b", "feature")
    change(origin, f"{subdir}/" if subdir else "")
    origin.commit_all("the pull request's change")
    origin.git("checkout", "-q", "main")
    return origin


def checkout(tmp_path: Path, env: dict[str, str], branch: str, name: str) -> GitRepo:
    """A fresh clone of `tmp_path/origin` (`make_origin`), as actions/checkout makes on a fresh runner."""
    git(tmp_path, env, "clone", "-q", "--branch", branch, str(tmp_path / "origin"), name)
    return GitRepo(tmp_path / name, env)


def context(number: str = "42", fork: bool = False) -> dict[str, str]:
    return {
        "github.event_name": "pull_request",
        "github.base_ref": "main",
        "github.ref": f"refs/pull/{number}/merge",
        "github.token": "ghs_fake_token",
        "github.repository": "acme/warehouse",
        "github.event.pull_request.number": number,
        "github.event.pull_request.head.repo.full_name": "someone/warehouse" if fork else "acme/warehouse",
        "github.event.pull_request.base.sha": "1" * 40,
        "github.sha": "0" * 40,
        "runner.os": "Linux",
    }


def push_context() -> dict[str, str]:
    """A push to the base branch: the trusted run, the only one that saves the caches."""
    return context() | {"github.event_name": "push", "github.base_ref": "", "github.ref": "refs/heads/main",
                        "github.event.pull_request.number": "", "github.event.pull_request.head.repo.full_name": "",
                        "github.event.pull_request.base.sha": "", "github.sha": "1" * 40}



# --------------------------------------------------------------------------- with the planner

# a task only the planner rejects: Flink 1.20's parser refuses the trailing comma, the fast checks do not
TRAILING_COMMA_HINT = "FROM ods.order_events /*+ OPTIONS('scan.startup.mode'='earliest-offset',) */\n"
PLANNER_COUNTS = re.compile(r"planner: (\d+) task\(s\) planned, (\d+) verdict\(s\) from the cache")


def trailing_comma(repo: GitRepo, ws: str) -> None:
    repo.replace(f"{ws}{MINI_LOAD}", "FROM ods.order_events\n", TRAILING_COMMA_HINT)


def planner_counts(job: JobResult) -> tuple[int, int]:
    """(tasks planned, verdicts read from the cache), as lint -v counts them in the job's log."""
    (found,) = PLANNER_COUNTS.findall(job.step("lint").output)
    return int(found[0]), int(found[1])


def annotations(job: JobResult) -> list[str]:
    return [line for line in job.step("lint").output.splitlines() if line.startswith("::")]


def planner_here() -> str:
    """Empty when Flink 1.20's planner can run here (Java, and the suite's jars unpacked by then), else why not."""
    from flinkx_build.planner.session import planner_problem

    return planner_problem("1.20", fetch=False) or ""
