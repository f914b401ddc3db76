"""One cache entry file: JSON data, checked before use, written atomically.

Both caches (parsed YAML, parsed statements) live in the workspace's cache
folder, where a pull request can plant files. So an entry is JSON only
(nothing in it names a type or runs code), and it is used only when its
format, version, key and the SHA-256 of its data all check out; anything
else (a pickle, a truncated file, another version) reads as a miss and is
overwritten. The hash catches corruption and stale formats, not forgery
(see docs/decisions.md). Reads and writes never follow a symlink planted
below the cache folder out of it.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

MAX_ENTRY_BYTES = 64 * 1024 * 1024


def digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def entry_path(folder: Path | None, boundary: Path | None, key: str) -> Path | None:
    """`folder/ab/abcd....json` for `key`, or None when caching is off or the path would leave `boundary`."""
    if folder is None or boundary is None or len(key) < 3 or not key.isalnum():
        return None
    sub = folder / key[:2]
    try:
        inside = sub.resolve().is_relative_to(boundary.resolve())
    except (OSError, RuntimeError):  # a symlink loop
        return None
    return sub / f"{key}.json" if inside else None


def read_entry(path: Path | None, fmt: str, version: int, key: str) -> Any:
    """The entry's data, or None for anything missing, foreign, stale or corrupt."""
    if path is None:
        return None
    try:
        if not path.is_file() or path.stat().st_size > MAX_ENTRY_BYTES:
            return None
        entry = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(entry, dict) or entry.get("format") != fmt or entry.get("version") != version:
        return None
    if entry.get("key") != key or entry.get("sha256") != digest(entry.get("data")):
        return None
    return entry["data"]


def write_entry(path: Path | None, fmt: str, version: int, key: str, data: Any) -> None:
    if path is None:
        return
    try:
        entry = {"format": fmt, "version": version, "key": key, "sha256": digest(data), "data": data}
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")  # 0600
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(entry, fh, separators=(",", ":"))
        os.replace(tmp, path)
    except (OSError, TypeError, ValueError):
        pass  # a cache that cannot be written is only slower
