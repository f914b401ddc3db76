"""The run memo's key knows a file by its stat; a recent file's bytes are checked before a replay (`run_memo.py`)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from flinkx_build import run_memo

TASK = "INSERT INTO dws.t SELECT 1;\n"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "flinkx.yaml").write_text("engine: flink\n", encoding="utf-8")
    tasks = tmp_path / "projects" / "p" / "tasks"
    tasks.mkdir(parents=True)
    (tasks / "a.sql").write_text(TASK, encoding="utf-8")
    return tmp_path


def key(root: Path) -> str:
    return run_memo.fingerprint(root, {"command": "build"}).key


def task(root: Path) -> Path:
    return root / "projects" / "p" / "tasks" / "a.sql"


def test_a_settled_file_is_known_by_its_stat(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run_memo, "RACY_NS", -10**18)  # every file counts as settled
    before = key(workspace)
    assert key(workspace) == before
    task(workspace).write_text(TASK, encoding="utf-8")  # the same bytes written again: a new ctime
    assert key(workspace) != before, "a settled file is keyed by its stat, so a rewrite is a miss"


def test_a_file_keeps_its_key_when_it_settles(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a checkout, a build that takes longer than RACY_NS, then the same build: it must be replayed
    monkeypatch.setattr(run_memo, "RACY_NS", 10**18)  # every file counts as just modified
    recent = run_memo.fingerprint(workspace, {"command": "build"})
    assert recent.racy, "a recent file's bytes are hashed, to be checked on replay"
    monkeypatch.setattr(run_memo, "RACY_NS", -10**18)  # and now as settled
    settled = run_memo.fingerprint(workspace, {"command": "build"})
    assert settled.key == recent.key and not settled.racy


def test_a_recent_file_whose_bytes_changed_is_not_replayed(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # what a file system whose clock step hides an edit would give: the stat as keyed, other bytes
    monkeypatch.setattr(run_memo, "RACY_NS", 10**18)
    run = run_memo.fingerprint(workspace, {"command": "build"})
    run_memo.store(workspace, None, run, {"findings": []})
    assert run_memo.load(workspace, None, run) is not None
    task(workspace).write_text(TASK.replace("1", "2"), encoding="utf-8")
    assert run_memo.load(workspace, None, run) is None


def test_a_replay_drops_the_files_that_have_settled_from_the_check(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a build right after a checkout stores every file's hash; once they settle, replays read none of them
    monkeypatch.setattr(run_memo, "RACY_NS", 10**18)
    recent = run_memo.fingerprint(workspace, {"command": "build"})
    run_memo.store(workspace, None, recent, {"findings": []})
    monkeypatch.setattr(run_memo, "RACY_NS", -10**18)
    settled = run_memo.fingerprint(workspace, {"command": "build"})
    assert run_memo.load(workspace, None, settled) is not None
    read: list[str] = []
    monkeypatch.setattr(run_memo, "_content_hash", lambda path: read.append(path) or "")
    assert run_memo.load(workspace, None, settled) is not None and read == []


@pytest.mark.parametrize("racy_ns", [-10**18, 10**18], ids=["settled", "recent"])
def test_an_edit_that_keeps_size_and_mtime_changes_the_key(workspace: Path, monkeypatch: pytest.MonkeyPatch,
                                                          racy_ns: int) -> None:
    monkeypatch.setattr(run_memo, "RACY_NS", racy_ns)
    path = task(workspace)
    info = path.stat()
    before = key(workspace)
    path.write_text(TASK.replace("1", "2"), encoding="utf-8")
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))  # as a tool that keeps mtimes would
    assert path.stat().st_size == info.st_size and path.stat().st_mtime_ns == info.st_mtime_ns
    assert key(workspace) != before


def test_the_build_folder_signature_lists_regular_files_and_refuses_links(tmp_path: Path) -> None:
    out = tmp_path / "build"
    (out / "p").mkdir(parents=True)
    (out / "p" / "a.sql").write_text("A", encoding="utf-8")
    (out / "manifest.json").write_text("{}", encoding="utf-8")
    signature = run_memo.folder_signature(out)
    assert signature is not None and sorted(signature) == ["manifest.json", "p/a.sql"]
    assert signature["p/a.sql"][0] == 1 and signature["p/a.sql"][2] == (out / "p" / "a.sql").stat().st_ino
    assert run_memo.folder_holds(out, signature)
    (out / "q").symlink_to(tmp_path, target_is_directory=True)  # a link is never followed: not a build it wrote
    assert run_memo.folder_signature(out) is None
    (out / "q").unlink()
    (out / "p" / "b.sql").symlink_to(out / "p" / "a.sql")
    assert run_memo.folder_signature(out) is None
