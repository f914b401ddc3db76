"""The load memo: each meta table and function file's loaded result, reused while its inputs are unchanged.

Parsing is already cached (`yaml_cache`), but rebuilding the YAML nodes and
reading them into a `MetaTable` still costs about 0.4 ms a file, most of a
warm load at 1,000 tasks. So the memo keeps what `load_table` /
`load_function` returned (the object, or None, and the findings they
made) under a key over everything the result depends on: the file's
bytes, its stem (the name when `name:` is absent), the project's name, its
rendered variables and the secrets list (table options are rendered with
them), the memo's format and the YAML reader in use. flinkx's code (the
loader, the model) and ruamel.yaml's version are the cache folder's code
version (`cache_version.py`), not part of the key. The path shown in messages is NOT in the key: it
depends on the current folder, so positions are stored as line/col and the
current path is put back (`memo_codec`); a result naming another path is
not stored.

The memo is a few files below `<cache_dir>/<code version>/load/` (`LoadMemos`): the project
headers (`headers.json`), the task files' limit checks (`tasks.json`), and each project folder's
meta tables and functions, a file per folder (`load/ab/abcd....json`, named by a hash of the
folder's name): a load reads the headers and the folders it loads, so a `lint FILE` or a scoped
impact of 3 projects among 3,000 reads 3 files, not the 25 MB of all of them. Each is read once
per load and rewritten only when something was added. Entries not used by a load are kept for a few
writes, at most three times the files the writing load used, so `flinkx
impact` (a base revision, then the working tree) hits for both. It is a
cache entry like every other (`flinkx_build.cache_entries`): JSON data
only, format, version, key and MAC checked, never read or written
through a symlink out of the cache folder; any problem is a miss, and the
file is then loaded as if there were no memo.
"""
from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any
from typing import NamedTuple

from flinkx_build.errors import Diagnostic
from flinkx_build.incremental.facts import LOADED_FILES
from flinkx_build.incremental.facts import TASK_LIMITS
from flinkx_build.incremental.facts import Fact
from flinkx_build.incremental.store import FOUND
from flinkx_build.incremental.store import MISSED
from flinkx_build.incremental.store import STORED
from flinkx_build.incremental.store import FactStore
from flinkx_build.incremental.store import tally
from flinkx_build.limits import MAX_FILE_BYTES
from flinkx_build.limits import check_sql_text
from flinkx_build.load import memo_codec
from flinkx_build.load.libyaml import READER
from flinkx_build.load.names import plain_name_problem
from flinkx_build.load.read_once import read_bytes
from flinkx_build.load.tables import load_function
from flinkx_build.load.tables import load_table
from flinkx_build.load.yaml_io import YamlCache
from flinkx_build.workspace_model import Function
from flinkx_build.workspace_model import MetaTable
from flinkx_build.workspace_model import Project
from flinkx_build.workspace_model import Workspace

FACT = LOADED_FILES
FORMAT, VERSION = FACT.format, FACT.version
KEEP_WRITES = 4  # an entry unused for this many writes is dropped
KEEP_FACTOR = 3  # and at most this many times the files a load used are kept
KEEP_MIN = 256
TASKS_FILE = "tasks.json"  # the task files' limit checks: a memo of their own, small enough to write on every edit
HEADERS_FILE = "headers.json"  # every project's header: read by every load


@cache
def salt() -> str:
    """The memo's format and the YAML reader (libyaml or pure Python): part of every key."""
    return hashlib.sha256(f"{FORMAT}\0{VERSION}\0{READER}\0".encode()).hexdigest()


class LoadMemo:
    """The memo of one workspace load (`None` folder: off, every lookup a miss, nothing written).

    `fact`: which facts it holds: the project headers (`headers.json`), a project folder's meta tables
    and functions (`LoadMemos.of`), or the task files' limit checks (`tasks.json`, `for_tasks`)."""

    def __init__(self, cache_root: Path | None, fact: Fact = FACT, file: str = HEADERS_FILE,
                 path_and_key: tuple[Path | None, str] | None = None, partial: bool = False) -> None:
        """`partial`: the load reads only some of the entries this memo holds (the task files of a few
        projects): what it did not look at is kept as it is, neither aged nor dropped."""
        self.partial = partial
        if path_and_key is not None:  # a project folder's memo: an entry of its own name (`LoadMemos.of`)
            self.path, self.key = path_and_key
        else:
            self.path, self.key = (_memo_path(cache_root, fact, file) if cache_root is not None else None), salt()
        self.fact = fact
        self.gen = 0
        self.entries: dict[str, list[Any]] = {}  # key -> [gen of the last write that used it, payload]
        self.used: set[str] = set()
        self.changed = False
        self._read = False

    @classmethod
    def for_tasks(cls, cache_root: Path | None, partial: bool = False) -> "LoadMemo":
        return cls(cache_root, TASK_LIMITS, TASKS_FILE, partial=partial)

    @property
    def enabled(self) -> bool:
        return self.path is not None

    def _load(self) -> None:
        self._read = True
        data = FactStore(None).get_at(self.fact, self.path, self.key)
        if not isinstance(data, dict) or type(data.get("gen")) is not int or not isinstance(data.get("entries"), dict):
            return
        entries = data["entries"]
        self.gen = data["gen"]
        self.entries = {k: v for k, v in entries.items() if type(v) is list and len(v) == 2 and type(v[0]) is int}

    def get(self, key: str) -> Any:
        """The stored payload for `key`, or None."""
        if not self.enabled:
            return None
        if not self._read:
            self._load()
        entry = self.entries.get(key)
        tally(self.fact, MISSED if entry is None else FOUND)  # one file holds them all: each key is a fact
        if entry is None:
            return None
        self.used.add(key)
        if entry[0] < self.gen - 1:  # about to age out though still in use: refresh it on this load's write
            self.changed = True
        return entry[1]

    def put(self, key: str, payload: Any) -> None:
        if not self.enabled:
            return
        if not self._read:
            self._load()
        self.entries[key] = [self.gen, payload]
        self.used.add(key)
        tally(self.fact, STORED)
        self.changed = True

    def forget(self, key: str) -> None:
        """An entry that did not decode: drop it, so the next write replaces it."""
        self.entries.pop(key, None)
        self.used.discard(key)
        self.changed = True

    def save(self) -> None:
        """Write the memo when this load added or refreshed something (one file, atomically)."""
        if not self.enabled or not self.changed:
            return
        gen = self.gen if self.partial else self.gen + 1
        for key in self.used:
            self.entries[key][0] = gen
        if self.partial:
            entries = dict(sorted(self.entries.items()))
        else:
            kept = sorted(((v[0], k) for k, v in self.entries.items() if v[0] > gen - KEEP_WRITES), reverse=True)
            kept = kept[: max(KEEP_FACTOR * len(self.used), KEEP_MIN)]
            entries = {k: self.entries[k] for _, k in sorted(kept, key=lambda gk: gk[1])}
        FactStore(None).put_at(self.fact, self.path, self.key, {"gen": gen, "entries": entries})
        self.gen, self.entries, self.changed = gen, entries, False

    def close(self) -> None:
        """Drop the stored data (a few hundred thousand objects) once the load is done with it."""
        self.entries, self.used = {}, set()
        self._read = True


def _memo_path(cache_root: Path, fact: Fact, file: str) -> Path | None:
    """`<cache_root>/load/<file>`, or None when it (or its folder) is a symlink or leads out."""
    folder = _memo_folder(cache_root, fact)
    path = None if folder is None else folder / file
    return None if path is None or path.is_symlink() else path


def _memo_folder(cache_root: Path, fact: Fact) -> Path | None:
    """`<cache_root>/load`, or None when, links followed, it leads out of the cache folder."""
    folder = cache_root / fact.folder
    try:
        return folder if folder.resolve().is_relative_to(cache_root.resolve()) else None
    except (OSError, RuntimeError):  # a symlink loop
        return None


class LoadMemos:
    """The memos of one load: project headers, task files, and a memo per project folder, opened when a
    folder's meta tables or functions are read (`None` cache: all off)."""

    def __init__(self, cache_root: Path | None) -> None:
        self.root = cache_root
        self.headers = LoadMemo(cache_root, FACT, HEADERS_FILE)
        self.tasks = LoadMemo.for_tasks(cache_root)  # `partial` once the load knows it reads only some projects
        self._folders: dict[str, LoadMemo] = {}
        # checked once a load (a link planted as the folder, or as a subfolder, leads nowhere)
        self._base = _memo_folder(cache_root, FACT) if cache_root is not None else None

    @property
    def enabled(self) -> bool:
        return self.headers.enabled

    def of(self, folder: str) -> LoadMemo:
        """The memo of the project folder named `folder` (its meta tables and functions)."""
        if folder not in self._folders:
            key = hashlib.sha256(f"{salt()}\0folder\0".encode() + folder.encode("utf-8", "surrogateescape")).hexdigest()
            shard = self._base / key[:2] if self._base is not None else None
            path = None if shard is None or shard.is_symlink() else shard / f"{key}.json"
            self._folders[folder] = LoadMemo(None, FACT, path_and_key=(path, key))
        return self._folders[folder]

    def done(self) -> None:
        """Write what this load added and drop what was read (a few hundred thousand objects)."""
        for memo in (self.headers, self.tasks, *self._folders.values()):
            memo.save()
        self.close()

    def close(self) -> None:
        """Drop what was read, writing nothing (a load stopped at a budget, FX179)."""
        for memo in (self.headers, self.tasks, *self._folders.values()):
            memo.close()


class KeyPrefix:
    """The part of every key that a project shares: versions, project name, variables, secrets."""

    def __init__(self, project: str, context: dict[str, str], secrets: list[str]) -> None:
        self.digest = hashlib.sha256(json.dumps([salt(), project, context, secrets], sort_keys=True).encode())

    def key(self, kind: str, stem: str, raw: bytes) -> str:
        digest = self.digest.copy()
        digest.update(f"\0{kind}\0{stem}\0{len(raw)}\0".encode())
        digest.update(raw)
        return digest.hexdigest()


SQL_OK = "sql-ok"  # a task file's entry: its bytes passed the SQL limits (`check_sql_text`)


def task_key(raw: bytes) -> str:
    return hashlib.sha256(f"{salt()}\0task\0{len(raw)}\0".encode() + raw).hexdigest()


def check_task_limits(memo: LoadMemo, raw: bytes | None, text: str, shown: str) -> Diagnostic | None:
    """`check_sql_text`, skipped for bytes that passed it before (its token walk is a fifth of a warm load).
    `memo`: the task files' memo (`LoadMemo.for_tasks`).

    Only a pass is stored: a refused task is checked (and reported) every time. Reading the file's
    text (size, encoding, control characters) is never skipped.
    """
    if raw is None or not memo.enabled:
        return check_sql_text(text, shown)
    key = task_key(raw)
    if memo.get(key) == SQL_OK:
        return None
    problem = check_sql_text(text, shown)
    if problem is None:
        memo.put(key, SQL_OK)
    return problem


def read_raw(path: Path) -> bytes | None:
    """The file's bytes when it is small enough to read; else None (the loader then reports why)."""
    try:
        return read_bytes(path, MAX_FILE_BYTES)
    except OSError:
        return None


def recall(memo: LoadMemo, key: str, shown: str, kind: type, project: str) -> tuple[bool, Any, list[Diagnostic]]:
    """(found, result, findings) from the memo; a bad entry is dropped and reads as not found."""
    payload = memo.get(key)
    if payload is None:
        return False, None, []
    try:
        if type(payload) is not list or len(payload) != 2 or type(payload[1]) is not list:
            raise memo_codec.BadEntry("an entry is [result, findings]")
        result = None if payload[0] is None else memo_codec.decode(payload[0], shown, kind)
        found = [memo_codec.decode(d, shown, Diagnostic) for d in payload[1]]
        if result is not None and (result.project != project or not _plain_name(result.name)):
            raise memo_codec.BadEntry("a name the loader would have refused")
    except Exception:  # any shape problem: load the file as if there were no memo
        memo.forget(key)
        return False, None, []
    return True, result, found


def remember(memo: LoadMemo, key: str, shown: str, kind: type, result: Any, found: list[Diagnostic]) -> None:
    """Store a fresh result, unless it holds something the memo cannot give back exactly."""
    if not memo.enabled:
        return
    try:
        payload = [None if result is None else memo_codec.encode(result, shown, kind),
                   [memo_codec.encode(d, shown, Diagnostic) for d in found]]
    except (memo_codec.NotStorable, TypeError):
        return
    memo.put(key, payload)


def _plain_name(name: str) -> bool:
    """Names become folder names and identifiers: a stored one must still be one the loader accepts."""
    return plain_name_problem(name) is None


class KeyedFile(NamedTuple):
    """A meta-table or function file with its bytes and memo key, read once a load."""

    path: Path
    shown: str
    raw: bytes | None  # None: the memo is off, or the file is too big or unreadable (the loader says why)
    key: str | None


def keyed_files(memo: LoadMemo, prefix: KeyPrefix, kind: str, files: list[tuple[Path, str]]) -> list[KeyedFile]:
    out = []
    for path, shown in files:
        raw = read_raw(path) if memo.enabled else None
        out.append(KeyedFile(path, shown, raw, None if raw is None else prefix.key(kind, path.stem, raw)))
    return out


def memo_table(memo: LoadMemo, ws: Workspace, project: Project, file: KeyedFile, diags: list[Diagnostic],
               cache: YamlCache, loaded: tuple[MetaTable | None, list[Diagnostic]] | None = None) -> MetaTable | None:
    """`load_table`, or its stored result when the file and its inputs are unchanged.

    `loaded`: what a worker's `load_table` made of this file (`load/parallel.py`)."""
    path, shown, raw, key = file
    if raw is None or key is None:
        return load_table(ws, project, path, shown, diags, cache)
    found, table, findings = recall(memo, key, shown, MetaTable, project.name)
    if not found:
        findings = []
        if loaded is not None:
            table, findings = loaded
        else:
            table = load_table(ws, project, path, shown, findings, cache, raw)
        remember(memo, key, shown, MetaTable, table, findings)
    if table is not None:
        table.source_key = key
    diags.extend(findings)
    return table


def memo_function(memo: LoadMemo, project: Project, file: KeyedFile, diags: list[Diagnostic],
                  cache: YamlCache) -> Function | None:
    """`load_function`, or its stored result (as `memo_table`)."""
    path, shown, raw, key = file
    if raw is None or key is None:
        return load_function(project, path, shown, diags, cache)
    found, function, findings = recall(memo, key, shown, Function, project.name)
    if not found:
        findings = []
        function = load_function(project, path, shown, findings, cache, raw)
        remember(memo, key, shown, Function, function, findings)
    if function is not None:
        function.source_key = key
    diags.extend(findings)
    return function
