"""Links a pull request commits never make flinkx write outside, or read git's own files.

- Flink's log file has a predictable name (`flink-<user>-python-<host>.log`) and the JVM opens it
  following links; it used to be written in `.flinkx-cache/flink-logs/`, so a link committed at
  that name was truncated and written by `flinkx validate` and `flinkx test`.
- A task or table file that is a link into `.git/` was read, and a task's syntax error quoted its
  first 80 characters (FX120): `.git/config` can hold a token for the remote.
"""
from __future__ import annotations

import getpass
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import flink_available

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "validate_errors"
GIT_SECRET = "[remote \"origin\"]\n\turl = https://x-access-token:ghs_SecretToken4711@github.com/o/r.git\n"


def _flinkx(ws: Path, *args: str, bound: float) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "rules")])}
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "flinkx_build", *args], cwd=ws, env=env, capture_output=True,
                          text=True, timeout=bound)
    assert time.monotonic() - started < bound
    return done


def _shown(done: subprocess.CompletedProcess[str]) -> tuple[int, str, str]:
    """Exit code and output, durations left out."""
    return done.returncode, re.sub(r"\d+\.\d+ ?m?s", "T", done.stdout), re.sub(r"\d+\.\d+ ?m?s", "T", done.stderr)


@pytest.mark.flink
@pytest.mark.skipif(flink_available() is not None, reason=f"Flink extra not usable: {flink_available()}")
def test_a_link_planted_at_the_flink_log_file_is_never_written(tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURE, ws)
    victim = tmp_path / "victim.txt"
    victim.write_text("the victim's own text\n", encoding="utf-8")
    logs = ws / ".flinkx-cache" / "flink-logs"
    logs.mkdir(parents=True)
    planted = logs / f"flink-{getpass.getuser()}-python-{socket.gethostname()}.log"
    planted.symlink_to(victim)

    hostile = _flinkx(ws, "validate", ".", bound=600)  # a JVM start and six tasks planned: well under a minute

    assert victim.read_text(encoding="utf-8") == "the victim's own text\n"
    assert planted.is_symlink() and list(logs.iterdir()) == [planted]
    assert "Traceback" not in hostile.stderr
    shutil.rmtree(ws / ".flinkx-cache")
    clean = _flinkx(ws, "validate", ".", bound=600)
    assert clean.returncode == 1 and clean.stdout.count(": FX300 ") == 5, clean.stdout + clean.stderr
    assert _shown(hostile) == _shown(clean)


def _git_workspace(root: Path) -> Path:
    files = {"flinkx.yaml": "engine: flink\n", "projects/p/project.yaml": "name: p\n",
             "projects/p/tables/src.yaml": "name: src\ntype: datagen\ncolumns:\n  - {name: id, type: BIGINT}\nwith: {connector: datagen}\n",
             "projects/p/tasks/good.sql": "SELECT id FROM src;\n"}
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(root)], check=True, timeout=60)
    with open(root / ".git" / "config", "a", encoding="utf-8") as fh:
        fh.write(GIT_SECRET)
    return root


@pytest.mark.parametrize("link, target", [
    ("projects/p/tasks/t.sql", "../../../.git/config"),
    ("projects/p/tables/cfg.yaml", "../../../.git/config"),
    ("projects/p/tasks/hooks", "../../../.git/hooks"),  # a folder of tasks leading into .git
])
@pytest.mark.parametrize("command", [["lint", "."], ["build", "--check", "."]])
def test_a_file_linked_into_git_is_refused_and_never_quoted(tmp_path, link, target, command):
    ws = _git_workspace(tmp_path / "ws")
    (ws / ".git" / "hooks" / "x.sql").write_text(GIT_SECRET, encoding="utf-8")
    (ws / link).symlink_to(target)

    done = _flinkx(ws, *command, bound=300)  # seconds at most; this only catches a hang

    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert f"{link}:1:1: FX187 " in out and "leads into .git" in out, out
    assert "ghs_SecretToken4711" not in out and "remote" not in out, out
    assert "Traceback" not in out
