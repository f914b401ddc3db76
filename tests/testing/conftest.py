"""Shared helpers for the `flinkx test` tests: the real CLI in a subprocess, workspace copies."""
from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from flinkx_build.validate.engine import flink_available
from tests.conftest import EXAMPLE

FLINK_MISSING = flink_available()
needs_flink = pytest.mark.skipif(FLINK_MISSING is not None, reason=f"Flink extra not usable: {FLINK_MISSING}")


def run_flinkx(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture
def example_copy(tmp_path):
    """A copy of the example workspace without its tests, plus `tests` files written into it."""

    def make(tests: dict[str, str], keep_example_tests: bool = False) -> Path:
        root = tmp_path / "ws"
        shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
        if not keep_example_tests:
            for folder in root.glob("projects/*/tests"):
                shutil.rmtree(folder)
        for rel, text in tests.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return root

    return make
