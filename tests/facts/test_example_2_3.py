"""example-workspace-2.3/: the Flink 2.3 companion of the example workspace builds and lints clean
on 2.3, uses what 2.x added (read as 1.20 it is refused), and the real 2.3 planner accepts every
compiled task (when its jars are here)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.facts.jars import flink_lib
from tests.facts.jars import skip_reason

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "example-workspace-2.3"
VERDICT = REPO / "tests" / "fixtures" / "flink_targets" / "Verdict.java"


def flinkx(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args], capture_output=True, text=True, cwd=root, timeout=600)


def copy(tmp_path: Path, version: str | None = None) -> Path:
    root = tmp_path / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    if version:
        config = root / "flinkx.yaml"
        config.write_text(config.read_text().replace('flink_version: "2.3"', f'flink_version: "{version}"'))
    return root


def test_it_lints_and_builds_clean_on_23(tmp_path):
    root = copy(tmp_path)
    lint = flinkx(root, "lint")
    assert lint.returncode == 0, lint.stdout + lint.stderr
    build = flinkx(root, "build")
    assert build.returncode == 0, build.stdout + build.stderr
    assert "ON CONFLICT DO DEDUPLICATE" in (root / "build" / "dws" / "user_channel.sql").read_text()


def test_it_uses_what_2x_added(tmp_path):
    lint = flinkx(copy(tmp_path, "1.20"), "lint", "--format", "json")
    assert lint.returncode == 1
    import json

    assert {f["code"] for f in json.loads(lint.stdout)} == {"FX124", "FX125", "FX127"}


@pytest.mark.flink
def test_the_23_planner_accepts_every_compiled_task(tmp_path):
    reason = skip_reason("2.3")
    if reason:
        pytest.skip(reason)
    root = copy(tmp_path)
    assert flinkx(root, "build").returncode == 0
    lib = flink_lib("2.3")
    classes = tmp_path / "classes"
    subprocess.run(["javac", "-nowarn", "-d", str(classes), "-cp", f"{lib}/*", str(VERDICT)], check=True, capture_output=True)
    scripts = sorted((root / "build").rglob("*.sql"))
    done = subprocess.run(["java", "-cp", f"{classes}:{lib}/*", "Verdict", *map(str, scripts)], capture_output=True, text=True, timeout=600)
    verdicts = dict(line.split("\t", 1) for line in done.stdout.splitlines() if line.split("\t", 1)[0].endswith(".sql"))
    assert len(verdicts) == 2 and set(verdicts.values()) == {"OK"}, verdicts
