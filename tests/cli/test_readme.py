"""README.md followed as written: the set-up commands are what CI runs, and the pre-commit
snippet works with its own commands (only the placeholder URL is replaced, by a snapshot of
this checkout), through `pre-commit autoupdate --freeze`, `install`, `try-repo` and `git commit`."""
from __future__ import annotations

import os
import re
import shlex
import shutil

import pytest
from ruamel.yaml import YAML

from tests.conftest import REPO
from tests.precommit.pchelpers import MINI
from tests.precommit.pchelpers import MINI_LOAD
from tests.precommit.pchelpers import GitRepo
from tests.precommit.pchelpers import copy_workspace
from tests.precommit.pchelpers import snapshot_checkout

README = REPO / "README.md"
FENCE = re.compile(r"^```(?P<lang>[\w-]*)\n(?P<body>.*?)^```", re.M | re.S)


def section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}")
    end = text.find("\n## ", start + 1)
    return text[start: end if end > 0 else len(text)]


def blocks(title: str, lang: str) -> list[str]:
    return [m.group("body") for m in FENCE.finditer(section(title)) if m.group("lang") == lang]


def test_setup_commands_are_what_ci_runs():
    commands = [line.strip() for block in blocks("Set up", "sh") for line in block.splitlines() if line.strip()]
    assert len(commands) == 2, commands
    install, tests = commands
    assert install.startswith("python3 -m venv .venv && . .venv/bin/activate && pip install -e \".[test]\"")
    assert tests == 'python3 -m pytest -q -m "not slow"'
    assert "python3 -m pytest -q -m slow" in (REPO / ".ci" / "run").read_text(encoding="utf-8")  # and CI runs the rest
    ci = [line.strip() for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert install in ci and tests in ci, "the README's set-up commands are not the ones .ci/run runs"
    assert ci.index(install) < ci.index(tests)
    text = section("Set up")
    assert "Java 17" in text and "`flinkx validate` and `flinkx test`" in text
    assert "flink]" not in (REPO / "pyproject.toml").read_text(encoding="utf-8")  # no Flink extra: no PyFlink


@pytest.fixture
def tool_env(tmp_path) -> dict[str, str]:
    gitconfig = tmp_path / "gitconfig"
    gitconfig.write_text("[user]\n\tname = flinkx tests\n\temail = tests@example.invalid\n[init]\n\tdefaultBranch = main\n"
                         "[commit]\n\tgpgsign = false\n[advice]\n\tdetachedHead = false\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PRE_COMMIT", "GIT_", "FLINKX_"))}
    env.update(PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"), PRE_COMMIT_COLOR="never", NO_COLOR="1",
               GIT_CONFIG_GLOBAL=str(gitconfig), GIT_CONFIG_NOSYSTEM="1",
               FLINKX_NO_PLANNER="1")  # lint without its planner check (a JVM service), as in the rest of the suite
    return env


@pytest.mark.slow
def test_precommit_snippet_and_commands_as_written(tmp_path, tool_env):
    if shutil.which("pre-commit") is None:
        pytest.skip("pre-commit is not installed")
    [snippet] = [b for b in blocks("pre-commit", "yaml") if "repos:" in b]
    [entry] = YAML(typ="safe").load(snippet)["repos"]
    url, hook_ids = entry["repo"], [h["id"] for h in entry["hooks"]]
    assert url.startswith("https://") and entry["rev"] == "main"  # a placeholder URL; a ref that exists
    hook_repo = snapshot_checkout(tmp_path / "flinkx", tool_env)

    repo = GitRepo(tmp_path / "repo", tool_env)
    copy_workspace(MINI, repo.root)
    repo.write(".gitignore", ".flinkx-cache/\nbuild/\n")  # "adds .flinkx-cache/ and build/ to .gitignore"
    repo.write(".pre-commit-config.yaml", snippet.replace(url, str(hook_repo.path)))  # nothing else changes
    repo.git("init", "-q", "-b", "main")
    repo.commit_all("workspace and the README's hooks")

    [commands] = [b for b in blocks("pre-commit", "sh") if "pre-commit install" in b]
    for command in commands.strip().split("&&"):
        words = shlex.split(command)
        if words[:2] == ["pip", "install"]:
            continue  # installed with the test extra
        result = repo.run(*words, label=f"README: {command.strip()}")
        assert result.returncode == 0, result.describe()
    config = YAML(typ="safe").load(repo.read(".pre-commit-config.yaml"))
    assert config["repos"][0]["rev"] == hook_repo.rev  # autoupdate --freeze pinned the commit

    result = repo.run("pre-commit", "try-repo", str(hook_repo.path), "flinkx-lint", "--ref", hook_repo.rev, "--all-files", label="try-repo README hook")
    assert result.returncode == 0 and "flinkx lint" in result.output and "Passed" in result.output, result.describe()

    # the hooks `pre-commit install` put in place run on `git commit`
    repo.replace(MINI_LOAD, "amount AS order_amount", "amount AS value")
    repo.git("add", "-A")
    committed = repo.run("git", "commit", "-q", "-m", "reserved word", label="git commit through the README's hooks")
    assert committed.returncode == 1 and ": FX01 Reserved word 'value'" in committed.output, committed.describe()
    assert {"flinkx-lint", "flinkx-build", "flinkx-fix"} == set(hook_ids)
    # and the manual hook, as the snippet's comment says
    fixed = repo.run("pre-commit", "run", "flinkx-fix", "--hook-stage", "manual", "--all-files", label="README: flinkx-fix manual stage")
    assert fixed.returncode == 1 and "fixed " in fixed.output, fixed.describe()  # it changed a file: review and add
    assert "AS `value`" in repo.read(MINI_LOAD)
