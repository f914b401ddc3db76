"""The CLI imports a command's module only when it runs: every command must still be listed and load."""
from __future__ import annotations

import importlib
import pkgutil
import shutil
import subprocess
import sys

import click
import pytest

from flinkx_build import commands
from flinkx_build.cli import COMMANDS
from flinkx_build.cli import main
from tests.conftest import EXAMPLE


def _modules_with_a_command() -> set[str]:
    found = set()
    for info in pkgutil.iter_modules(commands.__path__):
        module = importlib.import_module(f"flinkx_build.commands.{info.name}")
        if isinstance(getattr(module, "command", None), click.Command):
            found.add(info.name.replace("_", "-"))  # upgrade_check.py is `flinkx upgrade-check`
    return found


def test_the_command_list_names_every_command_module():
    assert set(COMMANDS) == _modules_with_a_command()


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_loads_and_shows_its_help(cli, name):
    """A module that fails to import (a moved function, say) fails here, not at a user's first run."""
    command = main.get_command(click.Context(main), name)
    assert command is not None and command.name == name
    result = cli(name, "--help")
    assert result.exit_code == 0 and "Usage:" in result.stdout, result.stdout + result.stderr


def test_a_replayed_build_imports_neither_sqlfluff_nor_networkx(tmp_path):
    """What keeps a build with nothing to do fast (0.3 s at 1,000 tasks): nothing heavy is imported."""
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    build = [sys.executable, "-X", "importtime", "-m", "flinkx_build", "build", str(ws)]
    first = subprocess.run(build, capture_output=True, text=True, cwd=tmp_path)
    assert first.returncode == 0 and _imported(first.stderr) >= {"sqlfluff", "networkx"}, first.stderr[-2000:]
    again = subprocess.run(build, capture_output=True, text=True, cwd=tmp_path)
    assert again.returncode == 0
    # nor rich (piped: nothing to colour) nor the process pools (nothing to fork)
    assert not _imported(again.stderr) & {"sqlfluff", "networkx", "rich", "concurrent"}
    # nor the loader (its memos, meta-table reader and pool): flinkx.yaml is read by `load/root.py` alone
    assert "flinkx_build.load.workspace" in _modules(first.stderr) and "flinkx_build.load.workspace" not in _modules(again.stderr)
    assert again.stdout == first.stdout and "flinkx: built " in again.stderr


def test_a_replayed_lint_imports_neither_sqlfluff_nor_rich(tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    lint = [sys.executable, "-X", "importtime", "-m", "flinkx_build", "lint", str(ws)]
    first = subprocess.run(lint, capture_output=True, text=True, cwd=tmp_path)
    assert first.returncode in (0, 1) and "sqlfluff" in _imported(first.stderr), first.stderr[-2000:]
    again = subprocess.run(lint, capture_output=True, text=True, cwd=tmp_path)
    assert again.returncode == first.returncode
    assert not _imported(again.stderr) & {"sqlfluff", "networkx", "rich", "concurrent"}
    assert again.stdout == first.stdout


def test_a_build_after_an_edit_that_keeps_the_graph_does_not_import_networkx(tmp_path):
    """The graph is searched for cycles only when its edges are new (graph/cycles.py)."""
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    build = [sys.executable, "-X", "importtime", "-m", "flinkx_build", "build", str(ws)]
    first = subprocess.run(build, capture_output=True, text=True, cwd=tmp_path)
    assert first.returncode == 0 and "networkx" in _imported(first.stderr)
    task = next((ws / "projects").glob("*/tasks/*.sql"))
    task.write_text(task.read_text(encoding="utf-8") + "-- an edit that changes no edge\n", encoding="utf-8")
    again = subprocess.run(build, capture_output=True, text=True, cwd=tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr[-2000:]
    assert "networkx" not in _imported(again.stderr)
    compiled = ws / "build" / task.parent.parent.name / task.with_suffix(".sql").name
    assert compiled.is_file()


def _modules(importtime: str) -> set[str]:
    """Module names in `python -X importtime` output."""
    return {line.rsplit("|", 1)[1].strip() for line in importtime.splitlines() if line.startswith("import time:")}


def _imported(importtime: str) -> set[str]:
    """Top-level package names in `python -X importtime` output."""
    return {name.split(".")[0] for name in _modules(importtime)}


def test_a_mistyped_command_says_what_was_meant(cli):
    result = cli("biuld")
    assert result.exit_code == 2
    assert "No such command 'biuld'. (did you mean 'build'?)" in result.stdout + result.stderr
