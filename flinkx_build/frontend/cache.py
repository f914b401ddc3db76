"""A content-hash cache of parsed statements.

Parsing is the expensive step (sqlfluff's pure-Python parser, ~15 ms per
statement), so the facts of each task are cached under a key made of the task
text, the variables it renders with, and the front-end version. A changed
file misses; everything else is read back as JSON. The code version (the
grammar, the extraction, sqlfluff's version) is the cache folder's
(`cache_version.py`), not part of the key.

Entries are checked before use (`flinkx_build.cache_entries`): the cache
folder is inside the workspace, where a pull request can plant files.
"""
from __future__ import annotations

from pathlib import Path

from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.hashing import canonical_hash
from flinkx_build.incremental.facts import TASK_PARSE
from flinkx_build.incremental.store import FactStore

FACT = TASK_PARSE  # format version 1 was a bare list of statements


class ParseCache:
    def __init__(self, directory: Path | None) -> None:
        self.root = directory
        self.store = FactStore(directory)

    @staticmethod
    def key(text: str, context: dict[str, str]) -> str:
        return canonical_hash([FACT.format, FACT.version, text, context])

    def has(self, key: str) -> bool:
        """An entry exists (not checked: `get` may still find it unusable, and then the task is parsed)."""
        return self.store.has(FACT, key)

    def get(self, key: str) -> list[ParsedStatement] | None:
        data = self.store.get(FACT, key)
        if not isinstance(data, list):
            return None
        try:
            return [ParsedStatement.from_json(item) for item in data]
        except Exception:  # well-formed JSON of the wrong shape: parse again
            return None

    def put(self, key: str, statements: list[ParsedStatement], encoded: list[dict] | None = None) -> None:
        """`encoded`: the statements' `to_json()`, when the caller made it already (lint stores it twice)."""
        data = encoded if encoded is not None else [s.to_json() for s in statements]
        self.store.put(FACT, key, data)
