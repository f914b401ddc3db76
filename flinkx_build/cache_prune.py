"""Keep the cache folder from growing without end: entries unused for MAX_AGE_DAYS are removed.

Every edit leaves entries keyed on the old content behind (a summary, a
parse, lint results per task), and a busy day of edits at 1,000 tasks left
20,000 of them; every new flinkx leaves a whole folder of the old code
version's (`cache_version.py`: `<cache folder>/<version>/<kind>/<ab>/<key>.json`).
An entry's mtime says when it was last used: a read of an
entry older than REFRESH_SECONDS sets it to now (`cache_entries.read_entry`,
one `utime` per entry per day, nothing on the runs in between), so the age of
an entry is the time since any run last needed it. At most once a day
(`.pruned`'s mtime) a build or lint walks the entry folders and removes what
is older than MAX_AGE_DAYS, and temporary files a killed write left; a
version folder of another flinkx that holds nothing more is removed too.

Only what a cache wrote is removed: regular files named like an entry
(`<key>.json`, or `mkstemp`'s `*.tmp`) in two-character folders named after
their keys, the load memo's files (`load/headers.json` and `load/tasks.json`, read on every load
and so marked used like an entry; its file per project folder is an entry), never through a symlink. Folders of the layout
before versions (`<cache folder>/<kind>/<ab>/`) age out the same way. Flink's
logs and anything else in the folder are left alone.
"""
from __future__ import annotations

import os
import re
import stat
import time
from pathlib import Path

MAX_AGE_DAYS = 14
REFRESH_SECONDS = 24 * 3600  # an entry read is marked used at most this often
PRUNE_EVERY_SECONDS = 24 * 3600
STAMP = ".pruned"
_ENTRY = re.compile(r"[0-9A-Za-z]{3,}\.json")
_TEMPORARY = re.compile(r"tmp[0-9A-Za-z_]+\.tmp")
_VERSION_FOLDER = re.compile(r"[0-9a-f]{16}")  # `cache_version.version_folder_name`


def prune_if_due(cache_root: Path | None, now: float | None = None, current: str = "") -> int:
    """Remove stale entries when the last prune is a day old; the number removed (`current`: see `prune`).

    Never raises: a cache that cannot be pruned is only bigger."""
    if cache_root is None:
        return 0
    now = time.time() if now is None else now
    stamp = cache_root / STAMP
    try:
        info = os.lstat(stamp)
        if stat.S_ISREG(info.st_mode) and now - info.st_mtime < PRUNE_EVERY_SECONDS:
            return 0
    except FileNotFoundError:
        if not cache_root.is_dir():  # nothing cached yet: nothing to prune
            return 0
    except OSError:
        return 0
    try:
        _touch(stamp, now)  # first: two runs at once do not both walk the folder
        return prune(cache_root, now - MAX_AGE_DAYS * 86400, now - REFRESH_SECONDS, current)
    except OSError:
        return 0


def prune(cache_root: Path, entries_before: float, temporaries_before: float, current: str = "") -> int:
    """Remove entries last used before `entries_before` and temporaries made before `temporaries_before`;
    `current`: this code version's folder name, never removed even when empty."""
    removed = 0
    for top in _real_folders(str(cache_root)):
        if not _VERSION_FOLDER.fullmatch(os.path.basename(top)):
            removed += _prune_kind(top, entries_before, temporaries_before)  # the layout before versions
            continue
        for kind in _real_folders(top):
            removed += _prune_kind(kind, entries_before, temporaries_before)
        for name in ("headers.json", "tasks.json"):
            removed += _prune_file(os.path.join(top, "load", name), entries_before)
        if os.path.basename(top) != current:
            _remove_if_empty(top)
    return removed


def _prune_kind(kind: str, entries_before: float, temporaries_before: float) -> int:
    removed = 0
    for shard in _real_folders(kind):
        if len(os.path.basename(shard)) == 2:
            removed += _prune_shard(shard, entries_before, temporaries_before)
    return removed


def _prune_file(path: str, before: float) -> int:
    try:
        info = os.lstat(path)
        if stat.S_ISREG(info.st_mode) and info.st_mtime < before:
            os.unlink(path)
            return 1
    except OSError:
        pass
    return 0


def _remove_if_empty(folder: str) -> None:
    """Remove `folder` when it holds only (real) folders that hold nothing, bottom up."""
    for sub in _real_folders(folder):
        _remove_if_empty(sub)
    try:
        os.rmdir(folder)  # refuses a folder that still holds anything
    except OSError:
        pass


def _prune_shard(shard: str, entries_before: float, temporaries_before: float) -> int:
    removed = 0
    prefix = os.path.basename(shard)
    try:
        with os.scandir(shard) as scan:
            files = [e for e in scan if e.is_file(follow_symlinks=False)]
    except OSError:
        return 0
    for entry in files:
        name = entry.name
        if _ENTRY.fullmatch(name) and name.startswith(prefix):
            before = entries_before
        elif _TEMPORARY.fullmatch(name):
            before = temporaries_before
        else:
            continue
        try:
            if entry.stat(follow_symlinks=False).st_mtime < before:
                os.unlink(entry.path)
                removed += 1
        except OSError:
            continue
    return removed


def _real_folders(folder: str) -> list[str]:
    try:
        with os.scandir(folder) as scan:
            return sorted(e.path for e in scan if e.is_dir(follow_symlinks=False))
    except OSError:
        return []


def _touch(path: Path, now: float) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0), 0o600)
    try:
        if os.utime in os.supports_fd:
            os.utime(fd, (now, now))
        else:
            os.utime(path, (now, now))
    finally:
        os.close(fd)


def mark_used(fd: int, mtime: float, now: float | None = None) -> None:
    """Set an entry's mtime to now when it is older than REFRESH_SECONDS (it was just read)."""
    now = time.time() if now is None else now
    if now - mtime < REFRESH_SECONDS or os.utime not in os.supports_fd:
        return
    try:
        os.utime(fd)
    except OSError:  # a read-only cache: it is pruned by age of writing instead
        pass
