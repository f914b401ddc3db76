"""A content-hash cache of parsed statements.

Parsing is the expensive step (sqlfluff's pure-Python parser, ~15 ms per
statement), so the facts of each task are cached under a key made of the task
text, the variables it renders with, and the front-end version. A changed
file misses; everything else is read back as JSON.

The cache folder is inside the workspace, where a pull request can plant
files, so an entry is JSON data only and is used only when its format,
version, key and content hash check out; anything else (a pickle, a
truncated file, another version) is ignored and overwritten. The hash
catches corruption, not forgery (see docs/decisions.md).
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import sqlfluff

from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.hashing import canonical_hash

FORMAT = "flinkx-parse-cache"
VERSION = 2  # 1 was a bare list of statements
MAX_ENTRY_BYTES = 64 * 1024 * 1024


def _digest(statements: object) -> str:
    return hashlib.sha256(json.dumps(statements, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class ParseCache:
    def __init__(self, directory: Path | None) -> None:
        self.root = directory
        self.directory = directory / "parse" if directory else None

    @staticmethod
    def key(text: str, context: dict[str, str], version: str) -> str:
        return canonical_hash([version, sqlfluff.__version__, text, context])

    def _path(self, key: str) -> Path | None:
        if self.directory is None or self.root is None or len(key) < 3 or not key.isalnum():
            return None
        folder = self.directory / key[:2]
        try:  # a planted symlink below the cache folder must not lead reads or writes elsewhere
            inside = folder.resolve().is_relative_to(self.root.resolve())
        except (OSError, RuntimeError):
            return None
        return folder / f"{key}.json" if inside else None

    def get(self, key: str) -> list[ParsedStatement] | None:
        path = self._path(key)
        if path is None:
            return None
        try:
            if not path.is_file() or path.stat().st_size > MAX_ENTRY_BYTES:
                return None
            entry = json.loads(path.read_bytes())
            if not isinstance(entry, dict) or entry.get("format") != FORMAT or entry.get("version") != VERSION:
                return None
            statements = entry.get("statements")
            if entry.get("key") != key or entry.get("sha256") != _digest(statements) or not isinstance(statements, list):
                return None
            return [ParsedStatement.from_json(item) for item in statements]
        except Exception:  # unreadable, foreign or malformed: parse again
            return None

    def put(self, key: str, statements: list[ParsedStatement]) -> None:
        path = self._path(key)
        if path is None:
            return
        try:
            data = [s.to_json() for s in statements]
            entry = {"format": FORMAT, "version": VERSION, "key": key, "sha256": _digest(data), "statements": data}
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(entry, fh, separators=(",", ":"))
            os.replace(tmp, path)
        except (OSError, TypeError, ValueError):
            pass  # a cache that cannot be written is only slower
