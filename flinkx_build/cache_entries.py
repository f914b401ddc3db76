"""One cache entry file: JSON data, checked before use, written atomically.

Both caches (parsed YAML, parsed statements) live in the workspace's cache
folder, where a pull request can plant files. So an entry is JSON only
(nothing in it names a type or runs code), and it is used only when its
format, version, key and the SHA-256 of its data all check out; anything
else (a pickle, a truncated file, another version) reads as a miss and is
overwritten. The hash catches corruption and stale formats, not forgery
(see docs/decisions.md). Reads and writes never follow a symlink planted
below the cache folder out of it.

The hash covers the data's bytes as written (the entry's last member), so a
read checks it without serialising the data again: at a thousand entries a
run, re-serialising cost more than parsing.
"""
from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from flinkx_build import json_codec
from flinkx_build.cache_prune import mark_used

MAX_ENTRY_BYTES = 64 * 1024 * 1024
# never through a symlink, and never waiting on a FIFO planted as an entry (POSIX; elsewhere the subfolder checks hold)
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


_DATA_MARK = b',"data":'
_inside_memo: dict[tuple[Path, Path], bool] = {}
_plain_subfolders: set[str] = set()


def _resolves_inside(path: Path, boundary: Path) -> bool:
    try:
        return path.resolve().is_relative_to(boundary.resolve())
    except (OSError, RuntimeError):  # a symlink loop
        return False


def entry_path(folder: Path | None, boundary: Path | None, key: str) -> Path | None:
    """`folder/ab/abcd....json` for `key`, or None when caching is off or the path would leave `boundary`."""
    if folder is None or boundary is None or len(key) < 3 or not key.isalnum():
        return None
    # the folder is resolved once a run; a subfolder only when it is a link (a real folder stays inside)
    if (folder, boundary) not in _inside_memo:
        _inside_memo[(folder, boundary)] = _resolves_inside(folder, boundary)
    if not _inside_memo[(folder, boundary)]:
        return None
    sub = os.path.join(folder, key[:2])
    if sub not in _plain_subfolders:  # a link planted as a subfolder is resolved every time
        if os.path.islink(sub) and not _resolves_inside(Path(sub), boundary):
            return None
        if os.path.isdir(sub) and not os.path.islink(sub):
            _plain_subfolders.add(sub)  # a real folder stays one for the run (flinkx never replaces it)
    return Path(sub, f"{key}.json")


def read_entry(path: Path | None, fmt: str, version: int, key: str) -> Any:
    """The entry's data, or None for anything missing, foreign, stale or corrupt."""
    if path is None:
        return None
    try:
        raw = _read_regular(path).rstrip()
        entry = json_codec.loads(raw)
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(entry, dict) or entry.get("format") != fmt or entry.get("version") != version:
        return None
    at = raw.find(_DATA_MARK)  # the header before it holds no user text, so the first mark is the member's
    if entry.get("key") != key or at < 0 or not raw.endswith(b"}") or "data" not in entry:
        return None
    if entry.get("sha256") != hashlib.sha256(raw[at + len(_DATA_MARK):-1]).hexdigest():
        return None
    return entry["data"]


def _read_regular(path: Path) -> bytes:
    """The bytes of a regular file of at most MAX_ENTRY_BYTES, never through a symlink or from a FIFO (OSError otherwise).

    One open, fstat and read: `Path.is_file`, `stat` and `read_bytes` were a third of reading a
    thousand summaries."""
    fd = os.open(path, _OPEN_FLAGS)
    with open(fd, "rb", buffering=0) as fh:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
            raise OSError(f"{path}: not a cache entry")
        data = fh.read()
        mark_used(fd, info.st_mtime)  # its age is the time since a run last needed it (`cache_prune.py`)
        return data


def write_entry(path: Path | None, fmt: str, version: int, key: str, data: Any) -> None:
    if path is None:
        return
    try:
        body = json_codec.dumps(data)
        header = json_codec.dumps({"format": fmt, "version": version, "key": key, "sha256": hashlib.sha256(body).hexdigest()})
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")  # 0600
        with os.fdopen(fd, "wb") as fh:
            fh.write(header[:-1] + _DATA_MARK + body + b"}")
        os.replace(tmp, path)
    except (OSError, TypeError, ValueError):
        pass  # a cache that cannot be written is only slower
