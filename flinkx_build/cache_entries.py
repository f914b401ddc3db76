"""One cache entry file: JSON data, checked before use, written atomically.

Every cache (parsed YAML, parsed statements, summaries, lint results, the
load and run memos, the graph's cycle check) lives in the workspace's cache
folder, where a pull request can plant files, and goes through here. So an
entry is JSON only (nothing in it names a type or runs code), and it is used
only when its format, version, key and its HMAC-SHA256 under this user's
secret key (`cache_secret.py`) all check out; anything else (a pickle, a
truncated file, another version, an entry with a correct checksum that
flinkx did not write) reads as a miss and is overwritten. Every key is
computable from the workspace's bytes, so only the MAC, whose key no
workspace can read, makes a planted entry useless. Without a usable secret
nothing is read or written. Reads and writes never follow a symlink planted
below the cache folder out of it.

The MAC covers the header's format, version and key, and the data's bytes as
written (the entry's last member), so a read checks it without serialising
the data again: at a thousand entries a run, re-serialising cost more than
parsing.
"""
from __future__ import annotations

import hmac
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from flinkx_build import json_codec
from flinkx_build.cache_prune import mark_used
from flinkx_build.cache_secret import cache_secret
from flinkx_build.cache_secret import entry_mac

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
    """The entry's data, or None for anything missing, foreign, stale, corrupt or not written by
    this user's flinkx. Only the small header is parsed before the MAC verifies."""
    if path is None:
        return None
    secret = cache_secret()
    if secret is None:
        return None
    try:
        raw = _read_regular(path).rstrip()
        at = raw.find(_DATA_MARK)  # the header before it holds no user text, so the first mark is the member's
        if at < 0 or not raw.endswith(b"}"):
            return None
        header = json_codec.loads(raw[:at] + b"}")
        if not isinstance(header, dict) or header.get("format") != fmt or header.get("version") != version:
            return None
        found, body = header.get("mac"), raw[at + len(_DATA_MARK):-1]
        if header.get("key") != key or not isinstance(found, str):
            return None
        if not hmac.compare_digest(found, entry_mac(secret, _signed_header(fmt, version, key), body)):
            return None
        return json_codec.loads(body)
    except (OSError, ValueError, RecursionError):
        return None


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


def _signed_header(fmt: str, version: int, key: str) -> bytes:
    return f"{fmt}\0{version}\0{key}\0".encode()


def write_entry(path: Path | None, fmt: str, version: int, key: str, data: Any) -> None:
    if path is None:
        return
    secret = cache_secret()
    if secret is None:
        return
    try:
        body = json_codec.dumps(data)
        mac = entry_mac(secret, _signed_header(fmt, version, key), body)
        header = json_codec.dumps({"format": fmt, "version": version, "key": key, "mac": mac})
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")  # 0600
        with os.fdopen(fd, "wb") as fh:
            fh.write(header[:-1] + _DATA_MARK + body + b"}")
        os.replace(tmp, path)
    except (OSError, TypeError, ValueError):
        pass  # a cache that cannot be written is only slower
