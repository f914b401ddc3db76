"""Progress bars (issue 13, item 3): on a terminal for work over a second, never piped, never with -q."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import flinkx_process
from tests.cli.test_colour import on_a_terminal

REPO = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
BAR = re.compile(r"(parsing|compiling|linting|checking) .*\d+/50")


@pytest.fixture
def generated(tmp_path: Path) -> Path:
    sys.path.insert(0, str(REPO / "scripts"))
    from benchgen import generate

    return generate(tmp_path / "ws", 50)  # a cold lint or build of these takes seconds, even on a quiet machine


def test_a_bar_with_the_task_in_hand_on_a_terminal(generated: Path) -> None:
    text = ANSI.sub("", on_a_terminal("lint", ".", cwd=generated, env={}))
    assert BAR.search(text), text
    assert re.search(r"\d+/50 .*(dim|dwd|dws|ods)/\w+_c00\d", text), text  # names the task
    assert "flinkx: clean" in text


def test_no_bar_when_piped_or_quiet(generated: Path) -> None:
    piped = flinkx_process("build", ".", cwd=generated)
    assert piped.returncode == 0, piped.stderr
    assert not BAR.search(piped.stdout + piped.stderr) and "\x1b[" not in piped.stderr
    quiet = ANSI.sub("", on_a_terminal("-q", "lint", ".", cwd=generated, env={}))
    assert not BAR.search(quiet) and "flinkx:" not in quiet, quiet
