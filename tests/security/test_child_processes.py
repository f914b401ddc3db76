"""Programs flinkx starts never run what a workspace commits (issue 41 item 1).

flinkx is run from the workspace folder (CI checks out the pull request and runs `flinkx lint` there).
A child started plainly would take three things from there: `python -m pip` imports a `pip/` package
of the working folder before the installed pip; an empty or relative PATH entry (`PATH=/usr/bin:`)
finds a committed `git` or `java`; and the child works in the workspace. Each test plants the program
in a workspace, runs flinkx from that folder and shows the planted file never ran
(`flinkx_build/child_process.py` starts every child).
"""
from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from flinkx_build.planner import FlinkUnavailable
from flinkx_build.planner import jars
from flinkx_build.planner.session import open_planner
from flinkx_build.planner.session import planner_problem
from flinkx_build.targets import DEFAULT_VERSION
from flinkx_build.targets import TARGETS
from tests.security.hostile_ws import commit
from tests.security.hostile_ws import workspace


def _plant_program(folder: Path, name: str, marker: Path) -> None:
    path = folder / name
    path.write_text(f"#!/bin/sh\necho planted > '{marker}'\nexit 3\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def _relative_path_entry_first(monkeypatch) -> None:
    """PATH as some shells leave it: an empty entry, which means the working folder."""
    monkeypatch.setenv("PATH", os.pathsep + os.environ["PATH"])


def test_a_committed_pip_package_never_runs_when_the_jars_are_fetched(tmp_path, monkeypatch):
    ws = workspace(tmp_path / "ws")
    marker = tmp_path / "pip-ran"
    (ws / "pip").mkdir()
    (ws / "pip" / "__init__.py").write_text("", encoding="utf-8")
    (ws / "pip" / "__main__.py").write_text(f"open({str(marker)!r}, 'w').write('planted')\n", encoding="utf-8")
    monkeypatch.chdir(ws)
    monkeypatch.setenv("FLINKX_HOME", str(tmp_path / "home"))  # nothing fetched yet
    monkeypatch.delenv(jars.WHEEL_DIR_ENV, raising=False)
    monkeypatch.delenv(jars.FLINK_HOME_ENV, raising=False)
    # the real pip must find nothing quickly: an empty index, no configuration files, no find-links
    for key in [k for k in os.environ if k.startswith("PIP_")]:
        monkeypatch.delenv(key)
    (tmp_path / "empty-index").mkdir()
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_INDEX_URL", (tmp_path / "empty-index").as_uri())
    target = next(t for t in TARGETS.values() if jars.installed_lib(t) is None)
    with pytest.raises(FlinkUnavailable) as refused:
        jars.jars_lib(target, io.StringIO())
    assert not marker.exists(), "the workspace's pip/__main__.py ran"
    assert str(refused.value).startswith("FX303 could not download apache-flink-libraries")


def test_a_committed_git_never_runs_for_impact(tmp_path, monkeypatch, cli):
    ws = workspace(tmp_path / "ws")
    commit(ws, "base")
    marker = tmp_path / "git-ran"
    _plant_program(ws, "git", marker)
    _relative_path_entry_first(monkeypatch)
    result = cli("impact", "--base", "HEAD", "--format", "json", cwd=ws)
    assert not marker.exists(), "the workspace's git ran"
    assert result.exit_code == 0, result.stderr


@pytest.mark.flink
@pytest.mark.skipif(planner_problem(DEFAULT_VERSION, fetch=True) is not None,
                    reason=f"no planner here: {planner_problem(DEFAULT_VERSION, fetch=True)}")
def test_a_committed_java_never_runs_for_the_planner(tmp_path, monkeypatch):
    with open_planner(DEFAULT_VERSION, fetch=False):
        pass  # the driver jar is built: the next start needs only java
    ws = workspace(tmp_path / "ws")
    marker = tmp_path / "java-ran"
    for name in ("java", "javac"):
        _plant_program(ws, name, marker)
    monkeypatch.chdir(ws)
    monkeypatch.delenv("JAVA_HOME", raising=False)
    _relative_path_entry_first(monkeypatch)
    try:
        with open_planner(DEFAULT_VERSION, fetch=False) as planner:
            assert planner.flink_version.startswith(DEFAULT_VERSION)
    except FlinkUnavailable as exc:
        pytest.fail(f"the planner did not start: {exc}")
    assert not marker.exists(), "the workspace's java ran"


def test_the_pr_workflow_installs_flinkx_from_outside_the_checkout(tmp_path, monkeypatch):
    """docs/pr-workflow.yml's install step, run as the runner runs it, in a checkout that commits `pip/`."""
    workflow = YAML(typ="safe").load((Path(__file__).parents[2] / "docs" / "pr-workflow.yml").read_text(encoding="utf-8"))
    (job,) = workflow["jobs"].values()
    script = next(step["run"] for step in job["steps"] if step.get("id") == "install")
    checkout = tmp_path / "checkout"
    (checkout / "pip").mkdir(parents=True)
    marker = tmp_path / "pip-ran"
    (checkout / "pip" / "__init__.py").write_text("", encoding="utf-8")
    (checkout / "pip" / "__main__.py").write_text(f"open({str(marker)!r}, 'w').write('planted')\n", encoding="utf-8")
    (tmp_path / "runner-temp").mkdir()
    (tmp_path / "empty-index").mkdir()
    env = {key: value for key, value in os.environ.items() if not key.startswith("PIP_")}
    env.update(PATH=f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}", RUNNER_TEMP=str(tmp_path / "runner-temp"),
               PIP_CONFIG_FILE=os.devnull, PIP_INDEX_URL=(tmp_path / "empty-index").as_uri(),
               FLINKX_PIP_SPEC="flinkx-build-not-on-this-index==0")  # the real pip then fails at once
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=checkout, env=env,
                          capture_output=True, text=True, timeout=300)
    assert not marker.exists(), "the checkout's pip/__main__.py ran"
    assert done.returncode != 0 and "flinkx-build-not-on-this-index" in done.stderr, done.stderr[-500:]
