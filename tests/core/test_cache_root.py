"""Where flinkx caches: the workspace's cache folder only inside the workspace, the jar in the user's."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from flinkx_build.cache_root import private_folder
from flinkx_build.cache_root import user_cache_dir
from flinkx_build.cache_root import workspace_cache_root


def test_the_cache_folder_is_used_only_inside_the_workspace(tmp_path):
    ws, elsewhere = tmp_path / "ws", tmp_path / "elsewhere"
    ws.mkdir()
    elsewhere.mkdir()
    assert workspace_cache_root(ws, ".flinkx-cache") == ws / ".flinkx-cache"  # not made yet: fine
    (ws / "inside").mkdir()
    (ws / ".linked-in").symlink_to(ws / "inside")
    assert workspace_cache_root(ws, ".linked-in") == ws / ".linked-in"
    (ws / ".flinkx-cache").symlink_to(elsewhere)
    assert workspace_cache_root(ws, ".flinkx-cache") is None
    (ws / ".loop").symlink_to(ws / ".loop")
    assert workspace_cache_root(ws, ".loop") is None
    for target in ("projects/p", ".git/x", "."):  # inside, but not a folder of flinkx's own
        (ws / target).mkdir(parents=True, exist_ok=True)
        (ws / ".flinkx-cache").unlink()
        (ws / ".flinkx-cache").symlink_to(ws / target)
        assert workspace_cache_root(ws, ".flinkx-cache") is None, target


@pytest.mark.parametrize("config", ["engine: flink\n", ""], ids=["settings", "empty flinkx.yaml"])
def test_a_default_cache_folder_linked_into_the_sources_is_refused(make_workspace, tmp_path, config):
    ws = make_workspace({"flinkx.yaml": config, "projects/p/project.yaml": "name: p\n"})
    (ws / ".flinkx-cache").symlink_to(ws / "projects" / "p", target_is_directory=True)
    done = subprocess.run([sys.executable, "-m", "flinkx_build", "lint", "ws"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "ws/flinkx.yaml:1:1: FX100 cache_dir '.flinkx-cache' (the default) holds the workspace's sources, through a symbolic link" in done.stdout + done.stderr
    assert sorted(p.name for p in (ws / "projects" / "p").iterdir()) == ["project.yaml"]


def test_the_user_cache_folder_follows_flinkx_home_then_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("FLINKX_HOME", str(tmp_path / "home"))
    assert user_cache_dir() == tmp_path / "home"
    monkeypatch.delenv("FLINKX_HOME")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert user_cache_dir() == tmp_path / "xdg" / "flinkx"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")  # the XDG spec: a relative value is ignored
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    assert user_cache_dir() == tmp_path / "user" / ".cache" / "flinkx"


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_the_jar_folder_must_be_a_real_folder_only_its_user_can_write(tmp_path):
    made = private_folder(tmp_path / "a" / "b")
    assert made.is_dir() and made.stat().st_mode & 0o777 == 0o700
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    with pytest.raises(OSError, match="others can write"):
        private_folder(shared)
    (tmp_path / "link").symlink_to(made)
    with pytest.raises(OSError, match="not a folder"):
        private_folder(tmp_path / "link")


@pytest.mark.parametrize("command", [["build"], ["lint"], ["build", "--check"]])
def test_a_cache_folder_linked_out_of_the_workspace_is_refused_and_never_written(make_workspace, tmp_path, command):
    ws = make_workspace({
        "projects/p/project.yaml": "name: p\n",
        "projects/p/tables/src.yaml": "name: src\ntype: datagen\ncolumns:\n  - {name: id, type: BIGINT}\nwith: {connector: datagen}\n",
        "projects/p/tables/dst.yaml": "name: dst\ntype: blackhole\ncolumns:\n  - {name: id, type: BIGINT}\nwith: {connector: blackhole}\n",
        "projects/p/tasks/t.sql": "INSERT INTO dst SELECT id FROM src;\n",
    })
    clean = subprocess.run([sys.executable, "-m", "flinkx_build", *command, "ws"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert clean.returncode == 0, clean.stdout + clean.stderr  # the workspace itself is clean
    shutil.rmtree(ws / ".flinkx-cache")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (ws / ".flinkx-cache").symlink_to(elsewhere, target_is_directory=True)
    for _ in range(2):  # the second run would replay or read what the first cached
        done = subprocess.run([sys.executable, "-m", "flinkx_build", *command, "ws"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2, done.stdout + done.stderr
        assert ("ws/flinkx.yaml:1:1: FX100 cache_dir '.flinkx-cache' (the default) is outside the workspace, "
                "through a symbolic link") in done.stdout + done.stderr
        assert "Traceback" not in done.stderr
        assert list(elsewhere.rglob("*")) == []
