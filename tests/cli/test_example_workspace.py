"""CI builds and lints the showcase (validate: tests/validate/test_validate_cli.py)."""
from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests.conftest import EXAMPLE

WORKSPACES = ["."] + sorted(f"engines/{p.name}" for p in (EXAMPLE / "engines").iterdir() if (p / "flinkx.yaml").is_file())


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    root = tmp_path_factory.mktemp("example") / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    return root


def flinkx(cwd, *args):
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args], cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("ws", WORKSPACES)
def test_builds_and_lints_clean(copy, ws):
    build = flinkx(copy / ws, "build", ".")
    assert build.returncode == 0, build.stderr
    assert build.stdout == ""  # not even a warning (findings go to stdout)
    assert build.stderr.startswith("flinkx: built ") and len(build.stderr.splitlines()) == 1
    lint = flinkx(copy / ws, "lint", ".")
    assert lint.returncode == 0, lint.stdout


def test_batch_mode_builds_too(copy):
    result = flinkx(copy, "build", ".", "--mode", "batch", "--check")
    assert result.returncode == 0, result.stderr


def test_every_task_is_compiled(copy):
    flinkx(copy, "build", ".")
    tasks = {p.relative_to(copy / "projects").as_posix().replace("/tasks/", "/") for p in (copy / "projects").rglob("*.sql")}
    built = {p.relative_to(copy / "build").as_posix() for p in (copy / "build").rglob("*.sql")}
    assert tasks == built
