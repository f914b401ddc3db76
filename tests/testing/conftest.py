"""Shared helpers for the `flinkx test` tests: the real CLI in a subprocess, workspace copies."""
from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import EXAMPLE
from tests.helpers import flink_available

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


def fragment_at(lines: list[str], fragment: str, nth: int = 1) -> tuple[int, int]:
    """(line, col) of the nth occurrence of `fragment` in a test file's lines."""
    seen = 0
    for number, line in enumerate(lines, 1):
        if fragment in line:
            seen += 1
            if seen == nth:
                return number, line.index(fragment) + 1
    raise AssertionError(fragment)


def run_broken_tests(root: Path, text: str) -> tuple[subprocess.CompletedProcess, float, list[str]]:
    """`flinkx test` on a copy of the example workspace whose only test file is projects/dws/tests/broken.yaml."""
    import time

    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".flinkx-cache", "build", "tests"))
    (root / "projects/dws/tests").mkdir()
    (root / "projects/dws/tests/broken.yaml").write_text(text.lstrip("\n"), encoding="utf-8")
    began = time.perf_counter()
    result = run_flinkx("test", root.name, cwd=root.parent)
    return result, time.perf_counter() - began, (result.stdout + result.stderr).splitlines()


def expect_broken_line(lines: list[str], position: tuple[int, int], text: str) -> None:
    line, col = position
    wanted = f"{BROKEN_FILE}:{line}:{col}: {text}"
    assert wanted in lines, (wanted, lines)


BROKEN_FILE = "ws/projects/dws/tests/broken.yaml"
