"""Task summaries by content: a build that changed one task resolves one task.

A task's summary (`summary.py`) is a function of: its text and path, the
variables it renders with, flinkx.yaml's settings, which tables and
functions exist (the name index: a new table can make a name ambiguous),
the meta tables and functions it can name, and flinkx's own code. The key
is a hash over all of them, so a stale entry can only be a miss:

* "can name": every table or function whose name occurs as a word in the
  task's rendered text. A reference, a SET key, a hint and a function call
  all spell the name out, so this is a superset of what the resolver reads;
  each such file enters the key by its load-memo key (`source_key`: its
  bytes, name, project and project variables, and the loader's code), not
  by its displayed path, which follows the cwd. A table loaded without the
  memo has none, and its readers are not cached.
* flinkx's code: not in the key but in the cache folder's path (every module
  and data file of the package: `cache_version.py`), so a changed check
  cannot serve findings of the old one.

Entries are JSON data in the cache folder, checked like every cache entry
(`flinkx_build.cache_entries`); one that does not decode is a miss.
"""
from __future__ import annotations

import hashlib
import os
import re
from dataclasses import asdict
from pathlib import Path

from flinkx_build import json_codec
from flinkx_build.incremental.facts import TASK_SUMMARY
from flinkx_build.incremental.store import FactStore
from flinkx_build.variables import render
from flinkx_build.hashing import canonical_hash
from flinkx_build.workspace_model import Project
from flinkx_build.workspace_model import Task
from flinkx_build.workspace_model import Workspace
from flinkx_build.paths import below
from flinkx_build.resolve.names import HINTS_FROM_EVERY_PROJECT
from flinkx_build.semantic.summary import TaskSummary
from flinkx_build.semantic.summary import from_json
from flinkx_build.semantic.summary import to_json

FACT = TASK_SUMMARY
_WORD = re.compile(r"[\w-]+")
# the same words for ASCII text, split in C: a byte that cannot be in a word becomes a space
_NOT_IN_WORD = bytes(b if chr(b).isascii() and (chr(b).isalnum() or chr(b) in "_-") else 32 for b in range(256))


def _words(text: str) -> set[str]:
    r"""The distinct `[\w-]+` words of `text` (twice as fast as the regex on ASCII text, most SQL)."""
    if text.isascii():
        return set(text.encode("ascii").translate(_NOT_IN_WORD).decode("ascii").split())
    return set(_WORD.findall(text))


def text_words(text: str, context: dict[str, str]) -> set[str]:
    """The words of a task's rendered text as a name may be spelled in it (lowercase, and each
    part of a hyphenated word too): a superset of the names the resolver can look up."""
    words = _words(render(text, context).lower())
    words.update(*(w.split("-") for w in words if "-" in w))
    return words


def project_words(ws: Workspace) -> dict[str, list[str]]:
    """A project's name as a word of a rendered text (`text_words`) -> the projects of that name."""
    found: dict[str, list[str]] = {}
    for project in ws.projects.values():
        found.setdefault(project.name.lower(), []).append(project.name)
    return found


def projects_named(own: str, words: set[str], by_word: dict[str, list[str]]) -> list[str]:
    """The projects a task of project `own` whose text has `words` can name: its own, and those whose
    name is one of the words (`p.t`, `p:f`, a `${var}` rendered): it binds no other project's name."""
    return sorted({own, *(p for w in words & by_word.keys() for p in by_word[w])})


def name_parts(ws: Workspace) -> list[list]:
    """Each project's part of the name index, by project name: its tables (name, kind), functions
    and tables that did not load. Which names exist decides what every name binds to."""
    parts = []
    for project in sorted(ws.projects.values(), key=lambda p: p.name):
        parts.append(project_names(project))
    return parts


def project_names(project: Project) -> list:
    tables = sorted([n, t.kind] for n, same in project.tables.items() for t in same)
    return [project.name, tables, sorted(project.functions), sorted(project.unloadable_tables), sorted(project.unloadable_functions)]


def names_hash(parts: list[list]) -> str:
    return canonical_hash(sorted(parts, key=lambda part: part[0]))


class SummaryCache:
    def __init__(self, cache_root: Path | None, ws: Workspace, mode: str, names: list[list] | None = None) -> None:
        """`names`: every project's part of the name index (`name_parts`) when `ws` holds only some
        projects' contents (impact's scoped load, `impact/scope.py`; an incremental build): keys stay
        those of the whole workspace, and a summary whose hint searched every project is not stored."""
        self.root = cache_root
        self.partial = names is not None
        self.store = FactStore(cache_root)
        self.directory = self.store.folder(FACT)
        self.ws = ws
        self.mode = mode
        self._root = str(ws.root)
        self.names_hash = names_hash(name_parts(ws) if names is None else names)
        self._names = self._name_index(self.names_hash) if cache_root is not None else ""
        # task key -> (the projects it can name, the (kind, key) of each table and function its key covers),
        # as `key` found them: impact's dependency index (`semantic/project_index.py`) records them
        self.reached: dict[str, tuple[list[str], list[tuple[str, str]]]] = {}
        # what every key shares, hashed once: a build keys each of its 1,000 tasks
        self._shared = hashlib.sha256(canonical_hash([FACT.format, FACT.version, self._names]).encode())
        # word -> project -> [kind, key, the load memo's key of its file, the file's place in the workspace]:
        # the memo's key covers bytes, project variables and loader; the place, where findings point.
        # By project, because a task reaches another project's table or function only by naming
        # that project (`p.t`, `p:f`, `${var}` rendered): a word's entries of every project would make
        # each key as long as the workspace when many projects share a table name (quadratic).
        self._by_word: dict[str, dict[str, list[list[str]]]] = {}
        # a project's name as a word of the rendered text -> the projects it may name
        self._project_words = project_words(ws) if cache_root is not None else {}
        for project in ws.projects.values() if cache_root is not None else ():
            for name, same in project.tables.items():
                for table in same:
                    self._entries(name, project.name).append(["table", table.key, table.source_key, self._place(table.loc.path)])
            for name, fn in project.functions.items():
                self._entries(name, project.name).append(["function", fn.key, fn.source_key, self._place(fn.loc.path)])

    def _entries(self, name: str, project: str) -> list[list[str]]:
        return self._by_word.setdefault(name.lower(), {}).setdefault(project, [])

    def _name_index(self, names: str) -> str:
        config = asdict(self.ws.config)
        config.pop("build_dir", None)
        config.pop("cache_dir", None)
        config.pop("docs", None)  # where the docs site links to changes no task's summary
        return canonical_hash([names, config, self.mode])

    def reach(self, task: Task, context: dict[str, str]) -> tuple[list[str], list[list[str]]]:
        """The projects the task can name (its own, and those whose name is a word of its rendered
        text), and the tables and functions of those it can name: [kind, key, memo key, place] each."""
        words = text_words(task.text, context)
        reachable = projects_named(task.project, words, self._project_words)
        deps = []
        for word in sorted(words & self._by_word.keys()):
            by_project = self._by_word[word]
            deps.extend(dep for project in reachable for dep in by_project.get(project, ()))
        return reachable, deps

    def key(self, task: Task, context: dict[str, str]) -> str | None:
        """The task's key, or None when a file it depends on cannot be read (then it is not cached)."""
        if self.directory is None:
            return None
        reachable, deps = self.reach(task, context)
        self.reached[task.key] = (reachable, [(dep[0], dep[1]) for dep in deps])
        if any(not dep[2] for dep in deps):  # loaded without the memo: nothing identifies its content cheaply
            return None
        # each part length-prefixed, so no two lists of parts hash alike (json.dumps of it all was half the time)
        digest = self._shared.copy()
        text = [task.rel_path.encode("utf-8", "surrogatepass"), task.content_hash.encode()]
        deps_text = [f.encode("utf-8", "surrogatepass") for dep in deps for f in dep]
        for data in [*text, json_codec.dumps(context, sort_keys=True), *deps_text]:
            digest.update(b"%d:" % len(data))
            digest.update(data)
        return digest.hexdigest()

    def _place(self, shown: str) -> str:
        rel = below(shown, self._root)
        return rel if rel is not None else os.path.relpath(os.path.abspath(shown), self._root)

    @staticmethod
    def without_sql(key: str | None) -> str | None:
        """The key of the same summary made without compiling the task (lint, graph and impact need no SQL)."""
        return None if key is None else canonical_hash([key, "without compiled SQL"])

    def get(self, key: str | None) -> TaskSummary | None:
        if key is None:
            return None
        data = self.store.get(FACT, key)
        if not isinstance(data, dict):
            return None
        try:
            return from_json(data, self.ws.root)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            return None

    def put(self, key: str | None, summary: TaskSummary) -> None:
        if self.partial and any(d.code in HINTS_FROM_EVERY_PROJECT for d in summary.diagnostics):
            return  # its "did you mean" searched only the projects loaded: a whole load may word it otherwise
        if key is not None:
            self.store.put(FACT, key, to_json(summary, self.ws.root))
