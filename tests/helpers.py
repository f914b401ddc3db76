"""Test helpers that drive the real pipeline (no mocks)."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from flinkx_build.pipeline import Session
from flinkx_build.planner.process import Planner
from flinkx_build.planner.session import open_planner
from flinkx_build.planner.session import planner_problem
from flinkx_build.targets import DEFAULT_VERSION
from flinkx_build.validate.contract import CompiledStatement
from flinkx_build.validate.contract import ScriptToValidate


def session_for(root: Path, mode: str | None = None) -> Session:
    return Session.open(root, mode, use_cache=False)


def compile_task(root: Path, key: str, mode: str | None = None) -> str:
    """Compiled SQL of task `project/name`; fails the test on any error."""
    session = session_for(root, mode)
    errors = [d.format() for d in session.load_diagnostics if d.is_error]
    assert not errors, errors
    project, name = key.split("/", 1)
    task = session.workspace.projects[project].tasks[name]
    resolved = session.analysed(task)
    errors = [d.format() for d in resolved.diagnostics if d.is_error]
    assert not errors, errors
    return session.compiled(task).text


def task_errors(root: Path, key: str) -> list[str]:
    session = session_for(root)
    project, name = key.split("/", 1)
    task = session.workspace.projects[project].tasks[name]
    return [d.format() for d in session.analysed(task).diagnostics if d.is_error]


def squash(sql: str) -> str:
    """Whitespace-insensitive form for substring checks."""
    return " ".join(sql.split())


def flink_available(version: str = DEFAULT_VERSION) -> str | None:
    """None when the target's Flink can run here (Java; its jars are unpacked once a machine, tests/conftest.py),
    else why not. Fast: starts nothing."""
    return planner_problem(version, fetch=True)


class Flink:
    """The target's real parser and planner, through flinkx's planner driver (a child of the test session)."""

    def __init__(self, planner: Planner) -> None:
        self.planner = planner

    def validate(self, script: ScriptToValidate):
        return self.planner.validate(script)

    def parse_only(self, sql: str) -> tuple[int, int, str] | None:
        """Flink's parser alone: (line, col, message) of the first syntax error, relative to `sql`, else None."""
        statement = CompiledStatement(sql, 1, 1, "other")
        found = [f for f in self.planner.validate(ScriptToValidate("parse", "parse.sql", (statement,))) if f.phase == "syntax"]
        return (found[0].line, found[0].col, found[0].message) if found else None

    def close(self) -> None:
        self.planner.close()


@contextmanager
def open_flink(version: str = DEFAULT_VERSION) -> Iterator[Flink]:
    flink = Flink(open_planner(version, fetch=True))
    try:
        yield flink
    finally:
        flink.close()


@contextmanager
def flink_session(tmp_path_factory=None, version: str = DEFAULT_VERSION) -> Iterator[Flink]:
    """The target's real parser and planner for a fixture, or the test skipped with why."""
    reason = flink_available(version)
    if reason is not None:
        pytest.skip(f"Flink unavailable: {reason}")
    from tests.conftest import unpack_flink

    unpack_flink()
    with open_flink(version) as flink:
        yield flink


EXAMPLE = Path(__file__).resolve().parents[1] / "example-workspace"


def edited_example(root: Path, edits: list[tuple[str, str, str]]) -> Path:
    """A copy of the example workspace with each (file, old text, new text) edit made once; old "" appends.
    The mistakes of issue 44 are such edits."""
    import shutil

    ws = root / "example"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns("build", ".flinkx-cache", "engines"))
    for rel, old, new in edits:
        path = ws / rel
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        assert old in text, (rel, old)
        path.write_text(text.replace(old, new, 1) if old else text + new, encoding="utf-8")
    return ws


def one_verdict(cli, ws: Path) -> list[str]:
    """The findings lint and `build --check` both print (they must print the same lines, and exit alike)."""
    lint = cli("lint", ".", cwd=ws)
    build = cli("build", "--check", ".", cwd=ws)
    lint_lines = [line for line in lint.stdout.splitlines() if line.strip()]
    build_lines = [line for line in build.stdout.splitlines() if line.strip()]
    assert lint_lines == build_lines, (lint_lines, build_lines)
    assert lint.exit_code == build.exit_code, (lint.exit_code, build.exit_code)
    return lint_lines


def one_verdict_planned(ws: Path) -> list[str]:
    """As `one_verdict`, with the target's planner on (FX301), as a user runs lint and `build --check`:
    real processes (the suite turns the planner off elsewhere, tests/conftest.py)."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "FLINKX_NO_PLANNER"}
    runs = [subprocess.run([sys.executable, "-m", "flinkx_build", *args, "."], cwd=ws, env=env, capture_output=True,
                           text=True, timeout=600) for args in (["lint"], ["build", "--check"])]
    lint_lines, build_lines = ([line for line in r.stdout.splitlines() if line.strip()] for r in runs)
    assert "Traceback" not in runs[0].stderr + runs[1].stderr, runs[0].stderr + runs[1].stderr
    assert lint_lines == build_lines, (lint_lines, build_lines)
    assert runs[0].returncode == runs[1].returncode, (runs[0].returncode, runs[1].returncode)
    return lint_lines
