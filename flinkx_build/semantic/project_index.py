"""The dependency index: per project, what its tasks read, write, call and can name.

`flinkx impact` on a workspace of hundreds of projects needs, of an unchanged
project, only its links: which tables and functions its tasks use (the
graph's edges), which names their summary keys cover, and its load findings.
Those are stored here, one cache entry per project under a key over the
project's files as git names them (each file's path and blob id, and
flinkx.yaml's), so one entry serves every revision that holds the project
unchanged (`impact/scope.py` reads them; a whole-workspace snapshot writes
them). An entry is checked like every cache entry (`cache_entries`); one
that does not decode is a miss, and a miss makes impact load the workspace
whole.

What an entry says also depends on which names exist in the whole workspace
(a new table can rebind a name): each entry records the hash of the name
index it was made under (`SummaryCache.names_hash`) and its own part of it,
and the reader uses it only when that hash is the workspace's now.
"""
from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Callable
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flinkx_build.incremental.facts import DEPENDENCY_INDEX
from flinkx_build.incremental.store import FactStore

FACT = DEPENDENCY_INDEX


@dataclass(frozen=True)
class TaskLinks:
    """One task of the project: the node ids it links to."""

    node: str
    reads: tuple[str, ...]
    writes: tuple[str, ...]
    functions: tuple[str, ...]
    named: tuple[str, ...]  # table and function nodes its summary key covers (named in its text)


@dataclass(frozen=True)
class ProjectIndex:
    project: str  # the project's name (its folder may be named otherwise)
    names_hash: str  # the workspace's name index when this was made
    names: list[Any]  # this project's part of it (`summary_cache.project_names`)
    reach: tuple[str, ...]  # the projects its tasks can name, its own included
    nodes: tuple[str, ...]  # its tables' and functions' node ids
    tasks: tuple[TaskLinks, ...]
    load_errors: tuple[tuple[str, str], ...]  # (code, message) of the errors loading it found

    def to_json(self) -> dict[str, Any]:
        return {"project": self.project, "names_hash": self.names_hash, "names": self.names, "reach": list(self.reach),
                "nodes": list(self.nodes), "load_errors": [list(e) for e in self.load_errors],
                "tasks": [[t.node, list(t.reads), list(t.writes), list(t.functions), list(t.named)] for t in self.tasks]}


def from_json(data: Any) -> ProjectIndex:
    """Raises on any shape but the one `to_json` writes."""
    tasks = tuple(TaskLinks(_text(node), _texts(reads), _texts(writes), _texts(functions), _texts(named))
                  for node, reads, writes, functions, named in data["tasks"])
    errors = tuple((_text(code), _text(message)) for code, message in data["load_errors"])
    names = data["names"]
    if type(names) is not list or not names or names[0] != data["project"]:
        raise ValueError("the project's names")
    return ProjectIndex(_text(data["project"]), _text(data["names_hash"]), names, _texts(data["reach"]),
                        _texts(data["nodes"]), tasks, errors)


def _text(value: Any) -> str:
    if type(value) is not str:
        raise ValueError("text expected")
    return value


def _texts(values: Any) -> tuple[str, ...]:
    if type(values) is not list:
        raise ValueError("a list expected")
    return tuple(_text(v) for v in values)


def project_key(folder: str, config_blob: str, files: list[tuple[str, str]]) -> str:
    """The key of a project folder's entry: its name, flinkx.yaml's blob id, and each file's path
    below the folder with its blob id, sorted."""
    digest = hashlib.sha256(f"{FACT.format}\0{FACT.version}\0{folder}\0{config_blob}\0".encode("utf-8", "surrogateescape"))
    for rel, blob in sorted(files):
        digest.update(f"{len(rel)}:{rel}\0{blob}\0".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


class ProjectIndexStore:
    """The entries below `<cache root>/summaries/` (`None`: caching is off, every read a miss)."""

    def __init__(self, cache_root: Path | None) -> None:
        self.root = cache_root
        self.store = FactStore(cache_root)

    def get(self, key: str) -> ProjectIndex | None:
        data = self.store.get(FACT, key)
        if not isinstance(data, dict):
            return None
        try:
            return from_json(data)
        except (KeyError, TypeError, ValueError, IndexError):
            return None

    def has(self, key: str) -> bool:
        return self.store.has(FACT, key)

    def put(self, key: str, index: ProjectIndex) -> None:
        self.store.put(FACT, key, index.to_json())


def reached(seeds: Iterable[str], users: Callable[[str], Iterable[str]], readers: Callable[[str], Iterable[str]],
            writes: Callable[[str], Iterable[str]]) -> set[str]:
    """Every node a change of the `seeds` can reach: the one rule of what a change reaches, for
    `flinkx impact` (`impact/scope.py`) and `flinkx lint --changed-since` (`lint/changed.py`).

    A changed table or function reaches its `users` (the tasks that read, write, call or name it);
    a task reaches the tables it `writes`; those reach their `readers` (a read or a call, the
    graph's edges), and so on downstream. Seeds come first: a node is expanded once."""
    seen: set[str] = set()
    queue = deque((node, True) for node in seeds)
    while queue:
        node, is_seed = queue.popleft()
        if node in seen:
            continue
        seen.add(node)
        if node.startswith("task."):
            queue.extend((table, False) for table in sorted(writes(node)))
        else:
            queue.extend((task, False) for task in sorted((users if is_seed else readers)(node)))
    return seen
