"""`flinkx build` replaces only folders it made, never the workspace or its sources, and cleans up after kills."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from flinkx_build.emit.folder import MARKER
from flinkx_build.emit.writer import write_build
from flinkx_build.errors import UsageError
from tests.emit.test_build_cli import WS


@pytest.fixture
def ws(make_workspace):
    return make_workspace(WS)


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file's bytes (the cache folder aside: flinkx may write there)."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*")) if p.is_file() and ".flinkx-cache" not in p.relative_to(root).parts
    }


def refused(result, code: str) -> None:
    assert result.exit_code == 2, result.lines
    lines = [line for line in result.lines if code in line]
    assert len(lines) == 1 and ("nothing" in lines[0] or "refusing" in lines[0]), result.lines


def test_every_build_folder_holds_the_marker(ws, cli):
    assert cli("build", str(ws)).exit_code == 0
    marker = json.loads((ws / "build" / MARKER).read_text())
    assert marker["tool"] == "flinkx" and marker["version"]
    assert cli("build", str(ws)).exit_code == 0  # its own folder: replaced
    assert (ws / "build" / MARKER).is_file()


def test_a_folder_the_user_owns_is_refused_and_kept(ws, cli, tmp_path):
    mine = tmp_path / "mine"
    (mine / "notes").mkdir(parents=True)
    (mine / "notes" / "todo.txt").write_text("keep me\n")
    before = snapshot(mine)
    result = cli("build", str(ws), "--out", str(mine))
    refused(result, "FX190")
    assert snapshot(mine) == before


def test_an_empty_folder_may_become_the_build(ws, cli, tmp_path):
    (tmp_path / "empty").mkdir()
    assert cli("build", str(ws), "--out", str(tmp_path / "empty")).exit_code == 0
    assert (tmp_path / "empty" / MARKER).is_file()


def test_a_build_without_marker_from_an_older_flinkx_is_replaced(ws, cli):
    assert cli("build", str(ws)).exit_code == 0
    (ws / "build" / MARKER).unlink()  # as an older flinkx left it: manifest.json and the scripts it lists
    assert cli("build", str(ws)).exit_code == 0
    (ws / "build" / MARKER).unlink()
    (ws / "build" / "mine.txt").write_text("not in the manifest\n")  # then it is not only a build
    refused(cli("build", str(ws)), "FX190")
    assert (ws / "build" / "mine.txt").is_file()


@pytest.mark.parametrize("build_dir", [".", "..", "projects", "projects/dwd", "flinkx.yaml"])
def test_the_workspace_its_parent_and_its_sources_are_refused_even_with_a_marker(ws, cli, build_dir):
    target = (ws / build_dir).resolve()
    if target.is_dir():
        (target / MARKER).write_text(json.dumps({"tool": "flinkx", "version": "0"}))
    (ws / "flinkx.yaml").write_text((ws / "flinkx.yaml").read_text() + f"build_dir: {build_dir!r}\n")
    before = snapshot(ws)
    result = cli("build", str(ws))
    assert result.exit_code == 2, result.lines
    assert any(code in line for line in result.lines for code in ("FX100", "FX190", "FX191", "FX192")), result.lines
    assert snapshot(ws) == before


def test_the_writer_itself_refuses_the_workspace_without_the_loader(ws, tmp_path):
    """Defence in depth: write_build checks on its own, whatever the loader let through."""
    (ws / MARKER).write_text(json.dumps({"tool": "flinkx"}))
    for out in (ws, ws / "projects", ws.parent):
        with pytest.raises(UsageError, match="FX19"):
            write_build(out, {"a/b.sql": "x"}, {}, workspace_root=ws)
    assert (ws / "flinkx.yaml").is_file() and (ws / "projects/dwd/tasks/sync/events.sql").is_file()


def test_a_build_file_that_would_leave_the_folder_is_refused(tmp_path):
    out = tmp_path / "build"
    with pytest.raises(UsageError, match="FX193"):
        write_build(out, {"../escaped.sql": "x"}, {})
    assert not (tmp_path / "escaped.sql").exists() and not out.exists()
    assert not [p for p in tmp_path.iterdir() if ".staging-" in p.name]


def test_a_symlinked_build_folder_is_refused(ws, cli, tmp_path):
    target = tmp_path / "elsewhere"
    assert cli("build", str(ws), "--out", str(target)).exit_code == 0
    before = snapshot(target)
    (ws / "link").symlink_to(target)
    refused(cli("build", str(ws), "--out", str(ws / "link")), "FX192")
    assert snapshot(target) == before


def test_leftover_staging_folders_are_removed_on_start_and_others_kept(ws, cli):
    assert cli("build", str(ws)).exit_code == 0
    # what a killed build leaves: an empty staging folder, one killed while writing its marker,
    # a half-written one, a previous build set aside
    (ws / ".build.staging-k1ll3d").mkdir()
    (ws / ".build.staging-m4rk3r").mkdir()
    (ws / ".build.staging-m4rk3r" / MARKER).write_text("")
    half = ws / ".build.staging-h4lf00"
    (half / "dwd").mkdir(parents=True)
    (half / MARKER).write_text(json.dumps({"tool": "flinkx", "version": "0"}))
    (half / "dwd" / "x.sql").write_text("-- half\n")
    os.rename(ws / "build", ws / ".build.old-s3tas1")  # killed between the two renames of a non-Linux swap
    # folders that only share the name, and hold someone's files: kept
    look_alike = ws / ".build.staging-n0tm1n"
    look_alike.mkdir()
    (look_alike / "keep.txt").write_text("mine\n")
    result = cli("build", str(ws), "--check")  # --check writes nothing, not even a cleanup
    assert result.exit_code == 0 and (ws / ".build.staging-k1ll3d").is_dir()
    assert cli("build", str(ws)).exit_code == 0
    left = sorted(p.name for p in ws.iterdir() if p.name.startswith(".build."))
    assert left == [".build.staging-n0tm1n"], left
    assert (look_alike / "keep.txt").read_text() == "mine\n"
    assert (ws / "build" / "dwd" / "sync" / "events.sql").is_file()


def test_the_previous_build_set_aside_by_a_kill_is_put_back(ws, cli):
    assert cli("build", str(ws)).exit_code == 0
    before = snapshot(ws / "build")
    os.rename(ws / "build", ws / ".build.old-s3tas1")
    (ws / "projects/dwd/tasks/sync/events.sql").write_text("INSERT INTO events SELECT id FROM nowhere;\n")
    assert cli("build", str(ws)).exit_code == 1  # this build fails: the previous one must be back
    assert snapshot(ws / "build") == before
    assert not [p for p in ws.iterdir() if p.name.startswith(".build.")]
