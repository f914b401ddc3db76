"""Shared fixtures: real workspaces on disk, the real CLI."""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from flinkx_build.cli import main

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "example-workspace"
# the seed texts sit beside the repository in the team's checkout only: tests that read them skip without
SEEDS = REPO.parent / "shared" / "seeds"
# real Flink SQL from outside the team, kept in the repository (tests/fixtures/corpus/README.md)
CORPUS = REPO / "tests" / "fixtures" / "corpus"
COOKBOOK = CORPUS / "flink-sql-cookbook"

# flinkx's user cache (`cache_root.py`: the stand-in jar) for this test session alone, inherited by
# every flinkx process the tests start: javac runs once a session, and nothing lands in the home folder
_USER_CACHE = tempfile.mkdtemp(prefix="flinkx-home-")
os.environ["FLINKX_HOME"] = _USER_CACHE
atexit.register(shutil.rmtree, _USER_CACHE, True)
# lint's planner check (FX301) starts a JVM: the suite runs lint without it, except the tests of it
# (tests/lint/test_planner_pass.py), which clear this for the flinkx processes they start
os.environ["FLINKX_NO_PLANNER"] = "1"


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return root


@pytest.fixture
def make_workspace(tmp_path):
    """Write a workspace from {relative path: text}; flinkx.yaml defaults to engine: flink."""

    def make(files: dict[str, str], name: str = "ws") -> Path:
        root = tmp_path / name
        files = {"flinkx.yaml": "engine: flink\n", **files}
        return write_tree(root, files)

    return make


class Result:
    def __init__(self, exit_code: int, stdout: str, stderr: str) -> None:
        self.exit_code, self.stdout, self.stderr = exit_code, stdout, stderr

    @property
    def lines(self) -> list[str]:
        return [line for line in (self.stdout + self.stderr).splitlines() if line.strip()]


@pytest.fixture
def cli(monkeypatch):
    """Run `flinkx ARGS` in-process (click's runner), from `cwd` if given."""

    def run(*args: str, cwd: Path | None = None) -> Result:
        if cwd is not None:
            monkeypatch.chdir(cwd)
        runner = CliRunner()
        result = runner.invoke(main, list(args), catch_exceptions=False)
        return Result(result.exit_code, result.stdout, result.stderr)

    return run
