"""cache_prune: entries no run has used for MAX_AGE_DAYS go; nothing else in or behind the cache does."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from flinkx_build.cache_entries import read_entry
from flinkx_build.cache_entries import write_entry
from flinkx_build.cache_prune import MAX_AGE_DAYS
from flinkx_build.cache_prune import STAMP
from flinkx_build.cache_prune import prune_if_due
from tests.conftest import EXAMPLE

DAY = 86400
NOW = time.time()
KEY_OLD, KEY_NEW = "ab" + "1" * 62, "ab" + "2" * 62


def _age(path: Path, days: float) -> None:
    os.utime(path, (NOW - days * DAY, NOW - days * DAY), follow_symlinks=False)


def test_only_stale_entries_and_temporaries_are_removed(tmp_path):
    cache, outside = tmp_path / "cache", tmp_path / "outside"
    old, new = cache / "summaries" / "ab" / f"{KEY_OLD}.json", cache / "summaries" / "ab" / f"{KEY_NEW}.json"
    write_entry(old, "f", 1, KEY_OLD, {"x": 1})
    write_entry(new, "f", 1, KEY_NEW, {"x": 2})
    leftover = cache / "summaries" / "ab" / "tmpk2j_x9.tmp"  # a killed write's temporary file
    leftover.write_text("{")
    # old files that are not entries of a cache: kept
    keep = [cache / "load" / "memo.json", cache / "flink-logs" / "flink.log", cache / "summaries" / "ab" / "notes.txt",
            cache / "summaries" / "cd" / f"{KEY_OLD}.json",  # named after another folder: not one flinkx wrote
            cache / "summaries" / "abc" / f"{KEY_OLD}.json"]
    # and what a link in the cache leads to is never touched, nor the link
    behind = outside / "ab" / f"{KEY_OLD}.json"
    for path in [*keep, behind]:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}")
    (cache / "lint").mkdir()
    (cache / "lint" / "ab").symlink_to(outside / "ab", target_is_directory=True)
    (cache / "parse").symlink_to(outside, target_is_directory=True)
    linked_entry = cache / "summaries" / "ab" / f"ab{'3' * 62}.json"
    linked_entry.symlink_to(behind)
    for path in [old, leftover, *keep, behind, linked_entry]:
        _age(path, MAX_AGE_DAYS + 1)
    _age(new, MAX_AGE_DAYS - 1)

    assert prune_if_due(cache, NOW) == 2

    assert not old.exists() and not leftover.exists()
    assert new.exists() and all(p.exists() for p in keep) and behind.exists() and linked_entry.is_symlink()
    assert (cache / STAMP).is_file()


def test_a_prune_runs_at_most_once_a_day(tmp_path):
    cache = tmp_path / "cache"
    entry = cache / "yaml" / "ab" / f"{KEY_OLD}.json"
    write_entry(entry, "f", 1, KEY_OLD, {})
    _age(entry, MAX_AGE_DAYS + 1)
    (cache / STAMP).touch()
    _age(cache / STAMP, 0.5)
    assert prune_if_due(cache, NOW) == 0 and entry.exists()
    _age(cache / STAMP, 1.5)
    assert prune_if_due(cache, NOW) == 1 and not entry.exists()
    assert prune_if_due(None) == 0 and prune_if_due(tmp_path / "never-made") == 0
    assert not (tmp_path / "never-made").exists()


def test_reading_an_entry_marks_it_used(tmp_path):
    entry = tmp_path / "ab" / f"{KEY_OLD}.json"
    write_entry(entry, "f", 1, KEY_OLD, {"x": 1})
    _age(entry, 3)
    assert read_entry(entry, "f", 1, KEY_OLD) == {"x": 1}
    assert NOW - entry.stat().st_mtime < 60
    _age(entry, 0.5)  # read within the day: left as it is (no write per read)
    read_entry(entry, "f", 1, KEY_OLD)
    assert abs(entry.stat().st_mtime - (NOW - 0.5 * DAY)) < 1


def test_a_build_keeps_what_it_used_and_sheds_the_rest(tmp_path):
    """A real workspace: after an edit, the entries of the old text are the ones that go."""
    import shutil

    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns(".flinkx-cache", "build"))

    def build() -> None:
        done = subprocess.run([sys.executable, "-m", "flinkx_build", "build", "ws"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr

    build()
    task = next(ws.glob("projects/*/tasks/*.sql"))
    task.write_text(task.read_text(encoding="utf-8") + "-- edited\n", encoding="utf-8")
    cache = ws / ".flinkx-cache"
    entries = [p for p in cache.glob("*/*/??/*.json")]
    for path in entries:
        _age(path, MAX_AGE_DAYS + 1)
    (cache / STAMP).unlink(missing_ok=True)

    build()  # reads the unchanged tasks' entries, writes the edited one's, then prunes

    kept = [p for p in cache.glob("*/*/??/*.json")]
    removed = set(entries) - set(kept)
    assert removed, "nothing was pruned"
    assert all(time.time() - p.stat().st_mtime < MAX_AGE_DAYS * DAY for p in kept)  # every survivor was used
    built = {p.relative_to(ws / "build"): p.read_bytes() for p in (ws / "build").rglob("*.sql")}
    shutil.rmtree(ws / "build")
    done = subprocess.run([sys.executable, "-m", "flinkx_build", "build", "--no-cache", "ws"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert {p.relative_to(ws / "build"): p.read_bytes() for p in (ws / "build").rglob("*.sql")} == built
