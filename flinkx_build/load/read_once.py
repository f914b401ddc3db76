"""Each workspace file is read once a run.

A build hashes every input first (the run memo, `run_memo.py`: may the last
run be replayed?) and, when it may not, loads the workspace, which reads the
same files again: 2,800 files at 1,000 tasks. Both read through here, so the
second read is a stat. The file's size, mtime, inode and device must still
be what they were, so an edit between the two (or between two requests of a
long-running language server) is read afresh.
"""
from __future__ import annotations

import os
from pathlib import Path

MAX_KEPT_BYTES = 64 * 1024 * 1024  # past this, start over: a language server runs for days

_kept: dict[str, tuple[tuple[int, int, int, int], bytes]] = {}
_kept_bytes = 0


def read_bytes(path: Path | str, max_bytes: int | None = None) -> bytes | None:
    """The file's bytes, or None when it holds more than `max_bytes`; raises OSError as `open` does."""
    global _kept_bytes
    name = os.fspath(path)
    info = os.stat(name)
    if max_bytes is not None and info.st_size > max_bytes:
        return None
    signature = (info.st_size, info.st_mtime_ns, info.st_ino, info.st_dev)
    kept = _kept.get(name)
    if kept is not None and kept[0] == signature:
        return kept[1]
    with open(name, "rb") as handle:
        data = handle.read()
    if _kept_bytes + len(data) > MAX_KEPT_BYTES:
        _kept.clear()
        _kept_bytes = 0
    if len(data) <= MAX_KEPT_BYTES:
        _kept[name] = (signature, data)
        _kept_bytes += len(data)
    return data
