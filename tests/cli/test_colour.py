"""Colour on a terminal only: never when piped, never with NO_COLOR (through rich)."""
from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

from tests.cli.conftest import flinkx_process

COLOUR = re.compile(r"\x1b\[[0-9;]*m")
COLOUR_CODE = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-7]|9[0-7]|38;[0-9;]+)m")  # a foreground colour


def on_a_terminal(*args: str, cwd: Path, env: dict[str, str]) -> str:
    """Run flinkx with stdout and stderr on a pseudo-terminal; everything it printed."""
    main, child = pty.openpty()
    full = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    full.update(env, TERM="xterm-256color", COLUMNS="200")
    proc = subprocess.Popen([sys.executable, "-m", "flinkx_build", *args], cwd=cwd, env=full, stdout=child, stderr=child, stdin=subprocess.DEVNULL)
    os.close(child)
    out = b""
    while True:
        ready, _, _ = select.select([main], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=60)
    os.close(main)
    return out.decode("utf-8", "replace")


def test_colour_on_a_terminal(lint_ws):
    root = lint_ws()
    text = on_a_terminal("lint", str(root), cwd=root.parent, env={})
    assert COLOUR_CODE.search(text), text
    plain = COLOUR.sub("", text).replace("\r\n", "\n")
    assert "ws/projects/p/tasks/t.sql:2:42: FX01 Reserved word 'value'" in plain  # same characters as without colour
    assert "flinkx: 4 error(s), 1 warning(s)" in plain


def test_no_colour_with_no_color_even_on_a_terminal(lint_ws):
    root = lint_ws()
    text = on_a_terminal("lint", str(root), cwd=root.parent, env={"NO_COLOR": "1"})
    assert "FX01" in text and not COLOUR_CODE.search(text), text


def test_no_colour_when_piped(lint_ws):
    root = lint_ws()
    result = flinkx_process("lint", str(root), cwd=root.parent)
    assert result.returncode == 1
    assert "FX01" in result.stdout and not COLOUR.search(result.stdout + result.stderr)


def test_force_color_colours_a_pipe_with_the_same_characters(lint_ws):
    """FORCE_COLOR (and TTY_COMPATIBLE=1) make rich colour a pipe; flinkx then goes through rich too."""
    root = lint_ws()
    plain = flinkx_process("lint", str(root), cwd=root.parent)
    for env in ({"FORCE_COLOR": "1"}, {"TTY_COMPATIBLE": "1"}):
        forced = flinkx_process("lint", str(root), cwd=root.parent, env=env)
        assert forced.returncode == plain.returncode == 1
        assert COLOUR_CODE.search(forced.stdout) and COLOUR_CODE.search(forced.stderr), env
        assert COLOUR.sub("", forced.stdout) == plain.stdout
    off = flinkx_process("lint", str(root), cwd=root.parent, env={"FORCE_COLOR": "1", "TTY_COMPATIBLE": "0"})
    assert not COLOUR.search(off.stdout + off.stderr)
