"""The spare build folder (`emit/spare.py`): the build before last, brought up to date instead of remade."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from flinkx_build.emit.folder import MARKER
from flinkx_build.emit.writer import write_build

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a spare is kept after renameat2 swaps only")


def files_of(folder: Path) -> dict[str, str]:
    """Every file below `folder` but the marker, with its text; fails on anything else (a link)."""
    found = {}
    for path in sorted(folder.rglob("*")):
        assert not path.is_symlink(), path
        if path.is_file() and path.name != MARKER:
            found[path.relative_to(folder).as_posix()] = path.read_text(encoding="utf-8")
    return found


def build(tmp_path: Path, files: dict[str, str]) -> Path:
    out, spare = tmp_path / "build", tmp_path / "cache" / "spare"
    spare.parent.mkdir(exist_ok=True)
    write_build(out, files, {"tasks": sorted(files)}, spare=spare)
    assert files_of(out) == {**files, "manifest.json": json.dumps({"tasks": sorted(files)}, separators=(",", ":")) + "\n"}
    assert (out / MARKER).is_file()
    return out


def inode(path: Path) -> int:
    return path.stat().st_ino


def test_each_build_is_exactly_its_files_whatever_the_spare_held(tmp_path):
    build(tmp_path, {"p/a.sql": "A1", "p/b.sql": "B1", "q/c.sql": "C1"})
    build(tmp_path, {"p/a.sql": "A1", "p/b.sql": "B2", "q/c.sql": "C1"})
    assert (tmp_path / "cache" / "spare" / "p" / "b.sql").read_text() == "B1", "the swap kept the previous build as the spare"
    build(tmp_path, {"p/a.sql": "A1", "p/b.sql": "B3", "r/d.sql": "D1"})  # q dropped, r new
    out = build(tmp_path, {"p/a.sql": "A2"})
    assert not (out / "q").exists() and not (out / "r").exists()
    assert sorted(p.name for p in (tmp_path / "cache" / "spare").iterdir()) == sorted([MARKER, "manifest.json", "p", "r"])


def test_an_unchanged_file_keeps_its_inode_and_a_changed_one_gets_a_new_one(tmp_path):
    out = build(tmp_path, {"p/a.sql": "A", "p/b.sql": "B1"})
    a, b = inode(out / "p" / "a.sql"), inode(out / "p" / "b.sql")
    for version in ("B2", "B3", "B4"):  # each reuses the spare the build before left
        out = build(tmp_path, {"p/a.sql": "A", "p/b.sql": version})
        assert inode(out / "p" / "a.sql") == a
        assert inode(out / "p" / "b.sql") != b
        b = inode(out / "p" / "b.sql")


def test_a_spare_file_with_other_bytes_is_replaced_not_trusted(tmp_path):
    build(tmp_path, {"p/a.sql": "A"})
    build(tmp_path, {"p/a.sql": "A"})
    spare_file = tmp_path / "cache" / "spare" / "p" / "a.sql"
    spare_file.unlink()
    spare_file.write_text("tampered", encoding="utf-8")  # another inode, other bytes
    build(tmp_path, {"p/a.sql": "A"})


def test_a_spare_holding_a_link_is_dropped_and_nothing_outside_is_written(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    build(tmp_path, {"p/a.sql": "A"})
    spare = tmp_path / "cache" / "spare"  # as a committed cache folder could hold it
    spare.mkdir()
    (spare / MARKER).write_text(json.dumps({"tool": "flinkx"}), encoding="utf-8")
    (spare / "p").symlink_to(outside, target_is_directory=True)
    build(tmp_path, {"p/a.sql": "A2"})
    assert list(outside.iterdir()) == []
    assert not (spare / "p").is_symlink()


def test_a_spare_without_a_build_to_swap_with_is_left_alone(tmp_path):
    """The first build has no previous one: it stages afresh and keeps nothing yet."""
    out = build(tmp_path, {"p/a.sql": "A"})
    assert not (tmp_path / "cache" / "spare").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".build")] == []
    assert files_of(out)["p/a.sql"] == "A"


def test_a_task_that_became_a_folder_of_tasks_replaces_the_spare_s_file(tmp_path):
    build(tmp_path, {"p/x.sql": "X"})
    build(tmp_path, {"p/x.sql": "X2"})  # the spare now holds p/x.sql as a file
    build(tmp_path, {"p/x.sql/y.sql": "Y"})
