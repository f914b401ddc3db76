"""A cache committed in a pull request cannot change what any command prints or builds.

Every cache key is computable from the pull request's own bytes, so the attacker here forges
entries the way they would: with flinkx's own key functions and writers, on their own machine
(their own user cache folder), and commits them in `.flinkx-cache/` (`git add -f`). Each entry is
well-formed and carries a correct checksum; before entries were authenticated with a key from the
user's cache folder (`cache_secret.py`), they made a broken task pass `lint` and `build --check`,
and turned a `print` sink into a `filesystem` sink writing where the attacker chose.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from ruamel.yaml import YAML

from flinkx_build.emit.build_cache import BuildMemo
from flinkx_build.lint.result_cache import LintMemo
from flinkx_build.load.yaml_cache import YamlCache

REPO = Path(__file__).resolve().parents[2]
BOUND_SECONDS = 300  # a cold build or lint of this workspace takes seconds; this only catches a hang

SOURCE = "name: src\ntype: datagen\ncolumns:\n  - {name: id, type: BIGINT}\nwith: {connector: datagen}\n"
PRINT_SINK = "name: snk\ntype: print\ncolumns:\n  - {name: id, type: BIGINT}\nwith: {connector: print}\n"


def _forged_sink(target: Path) -> str:
    return ("name: snk\ntype: filesystem\ncolumns:\n  - {name: id, type: BIGINT}\n"
            f"with: {{connector: filesystem, path: '{target}', format: csv}}\n")


def _workspace(root: Path, task: str) -> Path:
    files = {"flinkx.yaml": "engine: flink\n", "projects/p/project.yaml": "name: p\n",
             "projects/p/tables/src.yaml": SOURCE, "projects/p/tables/snk.yaml": PRINT_SINK, "projects/p/tasks/t.sql": task}
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def _as_attacker(ws: Path, attacker_home: Path, monkeypatch, forge) -> None:
    """Run `forge` in the workspace as the attacker would on their machine: their own user cache."""
    with monkeypatch.context() as patch:
        patch.setenv("FLINKX_HOME", str(attacker_home))
        patch.chdir(ws)
        forge()
    assert (ws / ".flinkx-cache").is_dir()


def _flinkx(ws: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "FLINKX_HOME": str(home), "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "rules")])}
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "flinkx_build", *args], cwd=ws, env=env, capture_output=True,
                          text=True, timeout=BOUND_SECONDS)
    assert time.monotonic() - started < BOUND_SECONDS
    return done


def _shown(done: subprocess.CompletedProcess[str]) -> tuple[int, str, str]:
    """Exit code and output, the run's duration left out (`built ... (0.3 s)`)."""
    return done.returncode, re.sub(r"\(\d+\.\d s\)", "(s)", done.stdout), re.sub(r"\(\d+\.\d s\)", "(s)", done.stderr)


def _without_cache(ws: Path) -> None:
    shutil.rmtree(ws / ".flinkx-cache", ignore_errors=True)
    shutil.rmtree(ws / "build", ignore_errors=True)


BROKEN_TASK = "INSERT INTO no_such_table SELECT nope FROM src WHERE;\n"


def test_a_forged_run_memo_does_not_make_lint_pass_a_broken_task(tmp_path, monkeypatch):
    ws = _workspace(tmp_path / "ws", BROKEN_TASK)
    _as_attacker(ws, tmp_path / "attacker", monkeypatch,
                 lambda: LintMemo.open(Path("."), [], (), ()).remember([]))  # "no findings", under the real key
    victim = tmp_path / "victim"
    planted = _flinkx(ws, victim, "lint", ".")
    _without_cache(ws)
    clean = _flinkx(ws, victim, "lint", ".")
    assert clean.returncode == 1 and "projects/p/tasks/t.sql:1:" in clean.stdout + clean.stderr
    assert _shown(planted) == _shown(clean)


def test_a_forged_run_memo_does_not_make_build_check_pass_a_broken_task(tmp_path, monkeypatch):
    ws = _workspace(tmp_path / "ws", BROKEN_TASK)
    _as_attacker(ws, tmp_path / "attacker", monkeypatch,
                 lambda: BuildMemo.open(Path("."), None, (), None, True).remember([], {}, 1, 1, True))
    victim = tmp_path / "victim"
    planted = _flinkx(ws, victim, "build", "--check", ".")
    _without_cache(ws)
    clean = _flinkx(ws, victim, "build", "--check", ".")
    assert clean.returncode == 1 and "projects/p/tasks/t.sql:1:" in clean.stdout + clean.stderr
    assert _shown(planted) == _shown(clean)


def _built(ws: Path) -> dict[str, bytes]:
    out = ws / "build"
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_a_forged_yaml_entry_does_not_change_a_built_sink(tmp_path, monkeypatch):
    ws = _workspace(tmp_path / "ws", "INSERT INTO snk SELECT id FROM src;\n")
    target = tmp_path / "exfiltrated"

    def forge() -> None:  # the parse of the forged text, stored under the key of the harmless file's bytes
        cache = ws / ".flinkx-cache"
        forged = YAML(typ="rt").load(_forged_sink(target))
        YamlCache.under(cache).put((ws / "projects/p/tables/snk.yaml").read_bytes(), forged)

    _as_attacker(ws, tmp_path / "attacker", monkeypatch, forge)
    victim = tmp_path / "victim"
    assert _flinkx(ws, victim, "lint", ".").returncode == 0
    planted = _flinkx(ws, victim, "build", ".")
    planted_files = _built(ws)
    _without_cache(ws)
    clean = _flinkx(ws, victim, "build", ".")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert _shown(planted) == _shown(clean)
    assert planted_files == _built(ws)
    assert not any(b"filesystem" in text or str(target).encode() in text for text in planted_files.values())
