"""Issue 41, the low items: a committed spare build folder, a user cache inside the checkout, flinkx test's overall
time limit, and impact's temporary paths."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from flinkx_build.emit.writer import write_build
from tests.conftest import write_tree

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a spare is kept after renameat2 swaps only")


@linux_only
@pytest.mark.parametrize("planted", ["open folder", "folder with a link"])
def test_a_spare_the_workspace_committed_never_makes_the_build_folder_readable_by_others(tmp_path, planted):
    """The spare build folder lives in the cache folder, which a pull request can commit: as it is checked out
    (0755), or holding a link (then it is dropped and the staging folder made anew). Either way the build folder
    it becomes must be the owner's alone, as a fresh one is (compiled SQL may hold literal credentials)."""
    out, spare = tmp_path / "build", tmp_path / "cache" / "spare"
    write_build(out, {"p/t.sql": "SELECT 0;\n"}, {"tasks": ["p/t"]})  # the build before: a spare is taken only then
    (spare / "p").mkdir(parents=True)
    (spare / "p" / "t.sql").write_text("-- planted\n", encoding="utf-8")
    if planted == "folder with a link":
        (spare / "p" / "elsewhere").symlink_to(tmp_path)
    os.chmod(spare, 0o755)
    write_build(out, {"p/t.sql": "SELECT 1;\n"}, {"tasks": ["p/t"]}, spare=spare)
    assert (out / "p" / "t.sql").read_text(encoding="utf-8") == "SELECT 1;\n"
    assert out.stat().st_mode & 0o077 == 0, oct(out.stat().st_mode)


def _flinkx(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env={**os.environ, **env})


WS = {"flinkx.yaml": "engine: flink\n", "projects/p/project.yaml": "name: p\n",
      "projects/p/tables/t.yaml": "name: t\ntype: datagen\ncolumns:\n  - {name: id, type: BIGINT}\nwith: {connector: datagen}\n",
      "projects/p/tasks/q.sql": "SELECT id FROM t;\n"}


@pytest.mark.parametrize("home", [".flinkx-home", "{ws}/.flinkx-home", "{ws}/../.flinkx-home"])
def test_a_user_cache_that_is_relative_or_inside_a_checkout_is_refused(tmp_path, home):
    """`FLINKX_HOME` set to a folder the checkout could commit (a planner jar, the key that signs caches, both
    trusted there): every command stops with one line and exit 2, and nothing is read or written there."""
    repo = tmp_path / "repo"
    ws = write_tree(repo / "ws", WS)
    (repo / ".git").mkdir()  # the checkout the workspace is in
    value = home.format(ws=ws)
    for command in (["lint", "--no-planner", "."], ["build", "--check", "."], ["validate", "."]):
        done = _flinkx(*command, cwd=ws, env={"FLINKX_HOME": value})
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        assert done.stderr.count("\n") == 1 and "FLINKX_HOME" in done.stderr, (command, done.stderr)
        assert "Traceback" not in done.stderr
    for planted in (ws / ".flinkx-home", repo / ".flinkx-home"):
        assert not planted.exists(), f"{planted} was made"


def _blocks(text: str, language: str) -> list[str]:
    return [block.split("\n", 1)[1] for block in text.split("```")[1::2] if block.startswith(language + "\n")]


def test_the_editor_setup_never_takes_the_executable_from_the_repository():
    """docs/editors.md is what users copy: the VS Code client reads `flinkx.command` from user settings only and
    does not start in an untrusted workspace; no editor example runs a path relative to the project."""
    import json

    text = (Path(__file__).resolve().parents[2] / "docs" / "editors.md").read_text(encoding="utf-8")
    package = json.loads(_blocks(text, "json")[0])
    assert package["contributes"]["configuration"]["properties"]["flinkx.command"]["scope"] in ("machine", "application")
    assert package["capabilities"]["untrustedWorkspaces"]["supported"] is False
    (extension,) = _blocks(text, "js")
    assert '.inspect("command").globalValue' in extension and '.get("command")' not in extension
    for lua in _blocks(text, "lua"):
        assert '".venv/' not in lua and "'.venv/" not in lua, lua
    assert '"flinkx.command": "/' in text  # the example value is absolute


def test_impact_never_prints_the_temporary_folder_it_checked_a_revision_out_to(tmp_path):
    """A finding about the base revision is shown at the working tree's path, and so is every path its message or
    hint quotes (a link's target, a file outside): the temporary folder's name is nobody's business."""
    from flinkx_build.errors import Diagnostic
    from flinkx_build.impact.snapshot import _relocator

    checked_out = tmp_path / "flinkx-rev-abc123"
    (checked_out / "projects" / "p" / "tables").mkdir(parents=True)
    relocate = _relocator(checked_out, tmp_path / "checkout" / "ws")
    found = relocate(Diagnostic(str(checked_out / "projects/p/tables/t.yaml"), 3, 1, "FX187",
                                f"'t.yaml' links to {checked_out}/../secrets, outside the workspace",
                                f"see {checked_out.resolve()}/projects/p"))
    shown = found.path + found.message + found.hint
    assert "flinkx-rev-abc123" not in shown, shown
    assert found.path.endswith("checkout/ws/projects/p/tables/t.yaml") and "checkout/ws/../secrets" in found.message


@pytest.mark.skipif(__import__("flinkx_build.planner.session", fromlist=["x"]).planner_problem("1.20", fetch=False)
                    is not None, reason="flinkx test needs Java and 1.20's jars")
def test_flinkx_test_has_an_overall_time_limit(tmp_path):
    """`--timeout` bounds one case; a pull request can add thousands. Past `--max-time` no case starts: one FX315
    line at the first case left, counting the rest, and exit 1."""
    example = Path(__file__).resolve().parents[2] / "example-workspace"
    done = subprocess.run([sys.executable, "-m", "flinkx_build", "test", str(example), "--max-time", "0.001",
                           "--select", "dws"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = [line for line in done.stdout.splitlines() if " FX315 " in line]
    assert len(lines) == 1 and "more did not run (raise --max-time, or --select fewer tests)" in lines[0], done.stdout
    assert "PASS" not in done.stdout
