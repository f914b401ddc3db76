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

from flinkx_build.cache_root import HOME_ENV
from flinkx_build.cli import main
from flinkx_build.planner import jars
from flinkx_build.targets import TARGETS

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

# Flink's jars of every target (560 MB) are unpacked once a machine, not once a session: into this folder, by
# flinkx's own fetch (from $FLINKX_WHEEL_DIR when the pinned archive is there, else from the package index), before
# the first test marked `flink` runs. Every flinkx the tests run finds them through $FLINKX_FLINK_HOME, the
# product's own way to name a local Flink distribution; tests/planner/test_jars.py tests the fetch itself.
TEST_FLINK = Path(os.environ.get("FLINKX_TEST_FLINK_DIR") or Path.home() / ".cache" / "flinkx-test-flink")
os.environ.setdefault("FLINKX_FLINK_HOME", os.pathsep.join(str(TEST_FLINK / "targets" / t.release) for t in TARGETS.values()))
_unpacked: list[Path] = []


def unpack_flink() -> None:
    """Every target's jars into TEST_FLINK, fetched with flinkx's own code if this machine has none yet."""
    if not _unpacked:
        saved = os.environ[HOME_ENV]
        os.environ[HOME_ENV] = str(TEST_FLINK)
        try:
            _unpacked.extend(jars.jars_lib(target) for target in TARGETS.values())
        finally:
            os.environ[HOME_ENV] = saved


def pytest_runtest_setup(item):
    if item.get_closest_marker("flink") is not None:
        unpack_flink()


def _archives_here() -> bool:
    folder = os.environ.get(jars.WHEEL_DIR_ENV)
    return bool(folder) and all((Path(folder) / t.archive_name).is_file() for t in TARGETS.values())


# with every archive at hand (CI fills $FLINKX_WHEEL_DIR first) the unpacking is a few seconds: done before
# collection, so that a test that asks at collection whether the jars are here is never skipped for want of them
if _archives_here() and any(jars.installed_lib(t) is None for t in TARGETS.values()):
    unpack_flink()


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
