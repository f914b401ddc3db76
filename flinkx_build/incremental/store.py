"""The one store of facts: an entry per fact and key, signed, below one cache folder.

Every fact of `facts.FACTS` is kept here and nowhere else: `<root>/<fact.folder>/ab/abcd....json`,
written atomically and read only when its format, version, key and MAC check out
(`cache_entries.py`: a planted or stale entry is a miss). `root` is a code version's folder of a
workspace's cache folder (`cache_version.versioned_cache_root`), or the user's own folder for the
facts no workspace may plant (the code version itself).

The store tallies, per fact, what was found, missed and stored in this process (`TALLY`): the
tests read it to prove that a fact is made again exactly when one of its inputs changed
(`tests/incremental/test_facts.py`), and it costs a dictionary increment.
"""
from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Any

from flinkx_build.cache_entries import entry_path
from flinkx_build.cache_entries import read_entry
from flinkx_build.cache_entries import write_entry
from flinkx_build.incremental.facts import Fact

FOUND, MISSED, STORED = "found", "missed", "stored"
TALLY: Counter[tuple[str, str]] = Counter()  # (fact name, FOUND | MISSED | STORED) -> how often, this process


def tally(fact: Fact, event: str, times: int = 1) -> None:
    TALLY[fact.name, event] += times


class FactStore:
    """The entries of facts below `root` (None: nothing is kept, every read a miss).

    `boundary`: no read or write leaves it, even through a link planted as a subfolder (default `root`)."""

    def __init__(self, root: Path | None, boundary: Path | None = None) -> None:
        self.root = root
        self.boundary = boundary if boundary is not None else root

    @property
    def enabled(self) -> bool:
        return self.root is not None

    def folder(self, fact: Fact) -> Path | None:
        return None if self.root is None else self.root / fact.folder if fact.folder else self.root

    def path(self, fact: Fact, key: str | None) -> Path | None:
        return None if key is None else entry_path(self.folder(fact), self.boundary, key)

    def get(self, fact: Fact, key: str | None, counted: bool = True) -> Any:
        """The stored data, or None. `counted=False`: the caller tallies what it finds itself (the load
        memo is one entry holding many facts)."""
        if key is None or self.root is None:
            return None
        data = read_entry(self.path(fact, key), fact.format, fact.version, key)
        if counted:
            tally(fact, MISSED if data is None else FOUND)
        return data

    def has(self, fact: Fact, key: str | None) -> bool:
        """An entry exists (not checked: `get` may still find it unusable)."""
        path = self.path(fact, key)
        return path is not None and os.path.isfile(path)

    def put(self, fact: Fact, key: str | None, data: Any, counted: bool = True) -> None:
        if key is None or self.root is None:
            return
        write_entry(self.path(fact, key), fact.format, fact.version, key, data)
        if counted:
            tally(fact, STORED)

    def put_at(self, fact: Fact, path: Path | None, key: str, data: Any) -> None:
        """Store at a path the caller chose below the store (the load memo's one file)."""
        write_entry(path, fact.format, fact.version, key, data)

    def get_at(self, fact: Fact, path: Path | None, key: str) -> Any:
        return read_entry(path, fact.format, fact.version, key)
