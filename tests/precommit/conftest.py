"""The pre-commit hooks and the PR workflow, driven through the real tools.

Everything here runs real programs in temporary git repositories: `pre-commit`
(try-repo and run), `git`, and the `flinkx` command of this environment.

The hook repository
-------------------
pre-commit installs hooks from a *commit* of the hook repository:
`pre-commit try-repo PATH` takes HEAD plus the staged and modified *tracked*
files of PATH, never untracked ones. While .pre-commit-hooks.yaml or parts of
the package are not committed yet, try-repo on the checkout itself would not
see them; and with any local change it commits into a new shadow repository
on every call. So the tests use a snapshot: the working tree of this checkout
(tracked and untracked, non-ignored files) committed into a temporary git
repository, once per session. `test_try_repo_on_the_checkout_itself` also
runs try-repo on the checkout once everything it needs is committed.

Environments
------------
`pre-commit run` caches the hook environment in PRE_COMMIT_HOME, keyed by
(repo, rev): a session-scoped temporary PRE_COMMIT_HOME makes every
config-based run after the first reuse it. `pre-commit try-repo` does not use
PRE_COMMIT_HOME (pre-commit 4.x builds it in a fresh temporary store on every
call), so each try-repo call pip-installs this project again (10-15 s here):
the try-repo tests are kept few.
"""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from pchelpers import MINI
from pchelpers import TIMINGS
from pchelpers import GitRepo
from pchelpers import HookRepo
from pchelpers import config_text
from pchelpers import copy_workspace
from pchelpers import git
from pchelpers import git_env
from pchelpers import run
from pchelpers import snapshot_checkout


def pytest_terminal_summary(terminalreporter) -> None:
    if not TIMINGS:
        return
    terminalreporter.section("pre-commit / workflow timings")
    width = max(len(what) for what, _ in TIMINGS)
    for what, seconds in TIMINGS:
        terminalreporter.write_line(f"{what.ljust(width)}  {seconds:6.2f} s")


@pytest.fixture(scope="session")
def tool_env(tmp_path_factory) -> dict[str, str]:
    """Environment for git and pre-commit: isolated git config, a session PRE_COMMIT_HOME."""
    base = tmp_path_factory.mktemp("precommit-session")
    env = git_env(base)
    env.update(
        PRE_COMMIT_HOME=str(base / "pre-commit-home"),
        PRE_COMMIT_COLOR="never",
        # the hooks' lint without its planner check (a JVM service), as in the rest of the suite (tests/conftest.py)
        FLINKX_NO_PLANNER="1",
    )
    return env


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory, tool_env) -> HookRepo:
    if shutil.which("pre-commit") is None:
        pytest.skip("pre-commit is not installed (pip install -e '.[test]')")
    started = time.perf_counter()
    repo = snapshot_checkout(tmp_path_factory.mktemp("hook-repo") / "flinkx", tool_env)
    TIMINGS.append(("snapshot of the checkout (hook repo)", time.perf_counter() - started))
    return repo


@pytest.fixture(scope="session")
def installed_hooks(tmp_path_factory, tool_env, hook_repo) -> HookRepo:
    """Build the hook environment once (in the session PRE_COMMIT_HOME); report its build time."""
    repo = tmp_path_factory.mktemp("install-hooks")
    git(repo, tool_env, "init", "-q")
    (repo / ".pre-commit-config.yaml").write_text(config_text(hook_repo), encoding="utf-8")
    result = run(["pre-commit", "install-hooks"], repo, tool_env, label="pre-commit install-hooks (hook env build, once)")
    assert result.returncode == 0, result.describe()
    return hook_repo


@pytest.fixture
def make_repo(tmp_path, tool_env):
    """A git repository (branch main) holding a copy of a workspace, committed.

    `subdir` puts the workspace in a folder of the repository; `config`
    writes (and commits) a .pre-commit-config.yaml; `gitignore` writes a
    .gitignore for flinkx's cache and build folders.
    """

    def make(workspace: Path | None = MINI, subdir: str = "", name: str = "repo", config: str | None = None, gitignore: bool = True) -> GitRepo:
        root = tmp_path / name
        root.mkdir()
        if workspace is not None:
            copy_workspace(workspace, root / subdir if subdir else root)
        if gitignore:
            (root / ".gitignore").write_text(".flinkx-cache/\nbuild/\n", encoding="utf-8")
        if config is not None:
            (root / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
        repo = GitRepo(root, tool_env)
        repo.git("init", "-q", "-b", "main")
        repo.commit_all("workspace")
        return repo

    return make
