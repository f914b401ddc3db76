"""A cache entry a pull request commits cannot change the PR workflow's verdict (docs/pr-workflow.yml,
docs/decisions.md "The pull-request workflow's cache").

The workflow restores the base branch's caches into every pull request's run: the user cache with the key
that signs entries, and the workspace's `.flinkx-cache`. Played here with the workflow's own steps
(tests/precommit/workflow_runner.py): a push to main saves the caches, then a pull request that only the
planner rejects (FX301) commits a forged "lint found nothing" (the lint run memo of its exact checkout,
`lint/result_cache.py`), the way the existing forged-cache attacks forge (tests/security/test_attack_forged_cache.py):

- signed with the attacker's own key (a foreign entry): the MAC fails, a miss;
- signed with the base branch's key, which a pull request's run can read once restored (it runs the pull
  request's copy of the workflow), in a folder the pull request names as `cache_dir`: the key verifies, so
  the workflow removes every committed cache entry before flinkx runs.

Either way the job reports FX301, as a clean checkout does.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "precommit"))  # the workflow runner and its helpers

from pchelpers import MINI_LOAD  # noqa: E402
from pchelpers import GitRepo  # noqa: E402
from pchelpers import flinkx_exe  # noqa: E402
from pchelpers import git_env  # noqa: E402
from workflow_runner import annotations  # noqa: E402
from workflow_runner import checkout  # noqa: E402
from workflow_runner import context  # noqa: E402
from workflow_runner import load_workflow  # noqa: E402
from workflow_runner import make_origin  # noqa: E402
from workflow_runner import planner_here  # noqa: E402
from workflow_runner import play_job  # noqa: E402
from workflow_runner import push_context  # noqa: E402
from workflow_runner import trailing_comma  # noqa: E402

from flinkx_build.commands.planner_switch import planner_state  # noqa: E402
from flinkx_build.lint.result_cache import LintMemo  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.flink]
ENTRY_NAME = re.compile(r"(^|/)([0-9a-f]{2})/\2[0-9a-f]*\.json$")  # cache_entries.entry_path's names


def planner_env() -> dict[str, str]:
    """The planner on, as in the workflow's lint step (the suite turns it off elsewhere)."""
    return {k: v for k, v in os.environ.items() if k != "FLINKX_NO_PLANNER"}


def forge_clean_lint(repo: GitRepo, user_cache: Path, monkeypatch) -> None:
    """As the attacker: "no findings" for a whole lint of this checkout, signed with the key in `user_cache`,
    committed (`git add -f`) as the pull request would."""
    with monkeypatch.context() as patch:
        patch.setenv("FLINKX_HOME", str(user_cache))
        patch.delenv("FLINKX_NO_PLANNER", raising=False)
        patch.chdir(repo.root)
        state = planner_state(Path("."), True)
        assert state == "on 1.20", state
        LintMemo.open(Path("."), [], (), (), state).remember([])
    repo.git("add", "-f", "-A")
    repo.git("commit", "-q", "--no-verify", "-m", "the forged cache")


def lint_with_key(repo: GitRepo, user_cache: Path) -> subprocess.CompletedProcess[str]:
    """`flinkx lint .` in the checkout by a run that holds the key in `user_cache` (no workflow around it)."""
    return subprocess.run([flinkx_exe(), "lint", "."], cwd=repo.root, env=planner_env() | {"FLINKX_HOME": str(user_cache)},
                          capture_output=True, text=True, timeout=600)


def test_a_committed_cache_entry_is_a_miss_in_the_workflow_foreign_or_signed_with_the_restored_key(tmp_path, monkeypatch):
    if planner_here():
        pytest.skip(f"no planner: {planner_here()}")
    env = git_env(tmp_path)
    make_origin(tmp_path, env, trailing_comma)
    workflow = load_workflow()
    store = tmp_path / "github-cache"
    trusted = play_job(workflow, checkout(tmp_path, env, "main", "main-push").root, push_context(), tmp_path / "job-main",
                       cache_store=store, planner=True, label="push to main, planner")
    assert trusted.succeeded, trusted.describe()
    restored_user_cache = store / "0"  # the saved ~/.cache/flinkx: what every pull request's run restores
    assert (restored_user_cache / "cache-key").is_file()
    fx301 = f"::error file={MINI_LOAD},line="

    # 1. foreign: signed with the attacker's own key, in the default cache folder
    foreign = checkout(tmp_path, env, "feature", "pr-foreign")
    forge_clean_lint(foreign, tmp_path / "attacker-home", monkeypatch)
    job = play_job(workflow, foreign.root, context(), tmp_path / "job-foreign", cache_store=store, planner=True,
                   label="PR, foreign cache entry")
    assert job.step("lint").returncode == 1 and any(a.startswith(fx301) and "title=FX301::" in a for a in annotations(job)), job.describe()

    # 2. signed with the key the pull request's run restores, in a cache folder of the pull request's choosing
    leaked = checkout(tmp_path, env, "feature", "pr-leaked-key")
    leaked.replace("flinkx.yaml", "build_dir: build\n", "build_dir: build\ncache_dir: vendor-cache\n")
    leaked.git("commit", "-q", "--no-verify", "-am", "cache_dir")
    attacker_copy = tmp_path / "leaked-key-home"
    shutil.copytree(restored_user_cache, attacker_copy)
    forge_clean_lint(leaked, attacker_copy, monkeypatch)
    forged = lint_with_key(leaked, attacker_copy)
    assert forged.returncode == 0 and "FX301" not in forged.stdout, "the forgery would be trusted by a run holding the key: " + forged.stdout
    leaked.git("clean", "-q", "-fdx")  # as the pull request's commit left it
    committed = [p for p in leaked.git("ls-files", "vendor-cache").splitlines() if ENTRY_NAME.search(p)]
    assert any("/runs/" in p for p in committed), "the forged run memo is committed"
    job = play_job(workflow, leaked.root, context(), tmp_path / "job-leaked", cache_store=store, planner=True,
                   label="PR, cache entry signed with the restored key")
    guard = job.step("committed-cache")
    assert guard.outputs["removed"] == str(len(committed)), job.describe()
    assert f"::warning title=flinkx cache::the checkout commits {len(committed)} flinkx cache entries" in guard.output
    assert job.step("lint").returncode == 1 and any(a.startswith(fx301) and "title=FX301::" in a for a in annotations(job)), job.describe()
