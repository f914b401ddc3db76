"""The hooks plan (issue 42 item 3): `pre-commit try-repo` of this repository, whose hook environment pre-commit
pip-installs (no extra), gives the target planner's verdict (FX301) with Java on the machine and the target's jars
in reach, and says once on stderr that the planner did not run without Java.

The task only the planner rejects: a trailing comma in an OPTIONS hint (Flink 1.20's parser: `Encountered ")"`).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from pchelpers import MINI_LOAD

from flinkx_build.planner import jars
from flinkx_build.planner.service import IDLE_ENV
from flinkx_build.planner.session import planner_problem

pytestmark = [pytest.mark.slow, pytest.mark.flink]

HINT = "FROM ods.order_events /*+ OPTIONS('scan.startup.mode'='earliest-offset',) */"
NOT_RUN = "the planner check (FX301) did not run"


def _stage_trailing_comma(repo) -> None:
    repo.replace(MINI_LOAD, "FROM ods.order_events", HINT)
    repo.git("add", "-A")


def _planner_env(tool_env: dict[str, str], home: Path) -> dict[str, str]:
    """The session's tool environment with the planner on: a user cache of its own (the driver is compiled into
    it) and the target's jars where the suite keeps them (tests/conftest.py), as a user's cache would hold them."""
    env = {k: v for k, v in tool_env.items() if k != "FLINKX_NO_PLANNER"}
    env.update({"FLINKX_HOME": str(home), jars.FLINK_HOME_ENV: os.environ[jars.FLINK_HOME_ENV],
                IDLE_ENV: "20"})  # the warm planner the hook leaves behind ends soon after the test
    return env


@pytest.mark.skipif(planner_problem("1.20", fetch=True) is not None, reason="no planner for Flink 1.20 here")
def test_the_lint_hook_reports_what_only_the_planner_rejects(make_repo, hook_repo, tool_env, tmp_path):
    repo = make_repo()
    repo.env = _planner_env(tool_env, tmp_path / "user-cache")
    _stage_trailing_comma(repo)

    result = repo.run("pre-commit", "try-repo", str(hook_repo.path), "flinkx-lint",
                      label="try-repo flinkx-lint with the planner (driver compiled in a fresh user cache)")

    assert result.returncode == 1, result.describe()
    [line] = [line for line in result.lines if " FX301 " in line]
    assert line.startswith(f"{MINI_LOAD}:11:73: FX301 "), result.describe()  # at the comma's ')'; words: flink_messages
    assert NOT_RUN not in result.output

    # `flinkx lint` of this environment on the same files says the same line: one verdict, hook or not
    direct = repo.run(sys.executable, "-m", "flinkx_build", "lint", MINI_LOAD, label="flinkx lint, same file")
    assert [x for x in direct.lines if " FX301 " in x] == [line], direct.describe()


def test_without_java_the_hook_says_once_that_the_planner_did_not_run(make_repo, hook_repo, tool_env, tmp_path):
    bin_dir = tmp_path / "bin"  # every program on PATH (git's scripts need coreutils), but java and javac
    bin_dir.mkdir()
    for folder in [Path(sys.executable).parent, *map(Path, os.environ["PATH"].split(os.pathsep))]:
        for program in (folder.iterdir() if folder.is_dir() else ()):
            if program.name not in ("java", "javac") and not (bin_dir / program.name).exists():
                os.symlink(program, bin_dir / program.name)
    repo = make_repo()
    repo.env = {**_planner_env(tool_env, tmp_path / "user-cache"), "PATH": str(bin_dir)}
    repo.env.pop("JAVA_HOME", None)
    repo.replace(MINI_LOAD, "WHERE amount > 0", "WHERE amount > 1")
    repo.git("add", "-A")

    result = repo.run("pre-commit", "try-repo", str(hook_repo.path), "flinkx-lint",
                      label="try-repo flinkx-lint without Java")

    assert result.returncode == 0, result.describe()  # the fast checks' verdict: clean
    notes = [line for line in result.lines if NOT_RUN in line]
    assert notes == [f"flinkx: {NOT_RUN}: Java was not found: install a Java 17 JDK (java and javac) and put it on "
                     "PATH or set JAVA_HOME"], result.describe()
