"""Each workspace file is read once a run.

A build hashes every input first (the run memo, `run_memo.py`: may the last
run be replayed?) and, when it may not, loads the workspace, which reads the
same files again: 2,800 files at 1,000 tasks. Both read through here, so the
second read is a stat. The file's size, mtime, ctime, inode and device must
still be what they were, so an edit between the two (or between two requests
of a long-running language server) is read afresh, even one that put the old
size and mtime back (only the ctime then says so).
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

MAX_KEPT_BYTES = 64 * 1024 * 1024  # past this, start over: a language server runs for days

_kept: dict[str, tuple[tuple[int, int, int, int, int], bytes]] = {}
_kept_bytes = 0


def read_bytes(path: Path | str, max_bytes: int | None = None) -> bytes | None:
    """The file's bytes, or None when it holds more than `max_bytes`; raises OSError as `open` does."""
    global _kept_bytes
    name = os.fspath(path)
    kept = _kept.get(name)
    if kept is not None:
        info = os.stat(name)
        if kept[0] == _identity(info):
            return kept[1]
    # open, then fstat: a second lookup of the path per file was a fifth of hashing 2,800 files.
    # Never blocking: a FIFO planted in a workspace would hang `open` until someone writes to it.
    with open(os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", name)
        if max_bytes is not None and info.st_size > max_bytes:
            return None
        data = handle.read()
    if _kept_bytes + len(data) > MAX_KEPT_BYTES:
        _kept.clear()
        _kept_bytes = 0
    if len(data) <= MAX_KEPT_BYTES:
        _kept[name] = (_identity(info), data)
        _kept_bytes += len(data)
    return data


def _identity(info: os.stat_result) -> tuple[int, int, int, int, int]:
    return info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev
