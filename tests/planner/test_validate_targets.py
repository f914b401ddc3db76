"""`flinkx validate` before any planning: a version flinkx does not know (FX121 at flinkx.yaml), and a target whose
jars cannot be fetched (FX303): one line each, nothing fetched or started. Real CLI processes."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURE = Path(__file__).parents[1] / "fixtures" / "targets"


def validate(tmp_path: Path, version: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURE, ws)
    (ws / "flinkx.yaml").write_text(f'engine: flink\nflink_version: "{version}"\n', encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "flinkx_build", "validate", "ws"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)


def test_a_version_flinkx_does_not_know_is_one_line_at_flinkx_yaml(tmp_path):
    # the loader refuses it first (FX121, a workspace finding: exit 1), so no planner is looked for
    done = validate(tmp_path, "1.17", dict(os.environ))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    errors = [line for line in done.stdout.splitlines() if " FX121 " in line]
    assert errors == ["ws/flinkx.yaml:2:16: FX121 flink_version '1.17' is not a Flink version flinkx has facts for "
                      "(supported: 1.15, 1.20, 2.3) (use one of them, or add the version's facts (docs/flink-versions.md))"]
    assert "FX302" not in done.stdout + done.stderr


def test_every_version_with_facts_has_a_planner_and_back():
    # one list of versions: FX302 (no planner for a known version) cannot happen to a valid flinkx.yaml
    from flinkx_build.flink_data import supported_versions
    from flinkx_build.targets import TARGETS
    assert set(supported_versions()) == set(TARGETS)


@pytest.mark.parametrize("version, release", [("1.15", "1.15.4"), ("1.20", "1.20.5"), ("2.3", "2.3.0")])
def test_jars_that_cannot_be_fetched_are_one_line_and_exit_2(tmp_path, version, release):
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if k not in ("FLINKX_FLINK_HOME", "PIP_FIND_LINKS")}
    env.update({"FLINKX_HOME": str(home), "PIP_CONFIG_FILE": "/dev/null", "PIP_INDEX_URL": (tmp_path / "no-index").as_uri(),
                "FLINKX_WHEEL_DIR": ""})
    done = validate(tmp_path, version, env)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines[0].startswith(f"flinkx: fetching the Flink {version} jars (apache-flink-libraries {release}")
    assert lines[-1].startswith(f"flinkx: error: flinkx validate could not start Flink {version}: FX303 could not download "
                                f"apache-flink-libraries {release} (the Flink {version} jars): ")
    assert not list((home / "targets").glob("*/lib")) and not list(home.rglob("*.whl")) and not list(home.rglob("*.tar.gz"))
