"""A content-hash cache of parsed statements.

Parsing is the expensive step (sqlfluff's pure-Python parser, ~15 ms per
statement), so the facts of each task are cached under a key made of the task
text, the variables it renders with, and the front-end version. A changed
file misses; everything else is read back as JSON.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import sqlfluff

from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.hashing import canonical_hash


class ParseCache:
    def __init__(self, directory: Path | None) -> None:
        self.directory = directory / "parse" if directory else None

    @staticmethod
    def key(text: str, context: dict[str, str], version: str) -> str:
        return canonical_hash([version, sqlfluff.__version__, text, context])

    def get(self, key: str) -> list[ParsedStatement] | None:
        if self.directory is None:
            return None
        path = self.directory / key[:2] / f"{key}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return [ParsedStatement.from_json(item) for item in data]
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, statements: list[ParsedStatement]) -> None:
        if self.directory is None:
            return
        folder = self.directory / key[:2]
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump([s.to_json() for s in statements], fh)
            os.replace(tmp, folder / f"{key}.json")
        except OSError:
            pass  # a cache that cannot be written is only slower
