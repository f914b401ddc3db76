"""`flinkx impact` limited to what a change reaches: the changed projects and their dependents.

Both sides of a change are compared by what git says of their files (each
file's blob id, `impact/files.py`): a project folder whose files are the
same at both sides is unchanged. Of an unchanged project impact needs only
its links (what its tasks read, write, call and name), which the dependency
index holds (`semantic/project_index.py`, one entry per project folder's
content). From the changed folders, the index gives every task the change
can reach: the users of a changed table or function, the tasks whose
summary key names one, and everything downstream of them (a task's written
tables, their readers, and so on). Only the folders of those tasks are loaded
whole, at both sides, and of the projects their tasks can name the meta
tables and functions (a task resolves against them); every other project is
its header alone (`load_workspace`'s `Only`).

Whenever the index cannot vouch for the answer, impact loads both sides whole,
as before, and writes the entries it lacked: a listing git cannot give (links,
submodules), flinkx.yaml changed, a project added or removed, an entry missing
or made under another name index (a table or function added, removed or
renamed anywhere), or a loaded task whose summary key is not the one its
entry recorded or whose summary the cache lacks (a summary is never made
from a workspace loaded in part: a finding's hint may name any project).
"""
from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from flinkx_build.impact.files import Files
from flinkx_build.impact.files import revision_files
from flinkx_build.impact.files import worktree_files
from flinkx_build.impact.gitrev import Revision
from flinkx_build.impact.snapshot import Snapshot
from flinkx_build.load.workspace import Only
from flinkx_build.pipeline import Session
from flinkx_build.semantic.project_index import ProjectIndex
from flinkx_build.semantic.project_index import ProjectIndexStore
from flinkx_build.semantic.project_index import TaskLinks
from flinkx_build.semantic.project_index import project_key
from flinkx_build.semantic.project_index import reached
from flinkx_build.semantic.summary_cache import names_hash


@dataclass
class Listing:
    """Each project folder's index key at the base and at the head ({} when git cannot list a side)."""

    base: dict[str, str] = field(default_factory=dict)
    head: dict[str, str] = field(default_factory=dict)
    config_same: bool = False  # flinkx.yaml is the same file at both sides (and exists)


@dataclass
class Scope:
    """What the scoped impact loads, and what it checks the load against."""

    whole: frozenset[str]  # the project folders loaded whole at both sides
    tables: frozenset[str]  # and those of which only the meta tables and functions are loaded
    names: list[list]  # every project's part of the name index (the same at both sides)
    expected: tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]  # base, head: task node -> nodes it names
    quiet_load_keys: set[tuple[str, str]]  # (code, message) of load errors of the folders not loaded whole
    others: frozenset[str] = frozenset()  # the folders of which only the header is read

    @property
    def only(self) -> Only:
        return Only(self.whole, self.tables)


def listing(repo: Path, prefix: str, base: Revision, head: Revision | None) -> Listing:
    base_files = revision_files(repo, base.commit, prefix)
    head_files = revision_files(repo, head.commit, prefix) if head is not None else worktree_files(repo, prefix)
    if base_files is None or head_files is None:
        return Listing()
    same = "flinkx.yaml" in base_files and base_files.get("flinkx.yaml") == head_files.get("flinkx.yaml")
    return Listing(folder_keys(base_files), folder_keys(head_files), same)


def folder_keys(files: Files) -> dict[str, str]:
    """Project folder -> the key of its index entry (`project_key`)."""
    by_folder: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for rel, blob in files.items():
        parts = rel.split("/", 2)  # git's paths: no empty or `.` parts (a Path per file was a third of this)
        if len(parts) == 3 and parts[0] == "projects":
            by_folder[parts[1]].append((parts[2], blob))
    config = files.get("flinkx.yaml", "")
    return {folder: project_key(folder, config, listed) for folder, listed in by_folder.items()}


def plan(store: ProjectIndexStore, listed: Listing) -> Scope | None:
    """The folders to load at both sides, or None when the index cannot vouch for a scoped answer."""
    if not listed.config_same or not listed.base or listed.base.keys() != listed.head.keys():
        return None
    keys = {*listed.base.values(), *listed.head.values()}
    if not all(store.has(key) for key in keys):  # a stat each: a first run reads no entry in vain
        return None
    found: dict[str, ProjectIndex] = {}
    for key in keys:
        entry = store.get(key)
        if entry is None:
            return None
        found[key] = entry
    sides = ({f: found[k] for f, k in listed.base.items()}, {f: found[k] for f, k in listed.head.items()})
    names = [entry.names for entry in sides[0].values()]
    current = names_hash(names)
    if names_hash([entry.names for entry in sides[1].values()]) != current or any(e.names_hash != current for e in found.values()):
        return None
    folder_of: dict[str, str] = {}
    for side in sides:
        for folder, entry in side.items():
            if folder_of.setdefault(entry.project, folder) != folder:
                return None  # one project name in two folders: the loader reports it (FX105)
    changed = {f for f in listed.base if listed.base[f] != listed.head[f]}
    whole = changed | _reached(sides, changed)
    tables = set()
    for folder in whole:  # a loaded task resolves against the tables and functions of every project it can name
        for side in sides:
            for project in side[folder].reach:
                if project not in folder_of:
                    return None
                tables.add(folder_of[project])
    expected = tuple({t.node: t.named for f in whole for t in side[f].tasks} for side in sides)
    quiet = {error for f in listed.base.keys() - whole for error in sides[0][f].load_errors}
    return Scope(frozenset(whole), frozenset(tables - whole), names, expected, quiet,  # type: ignore[arg-type]
                 frozenset(listed.base.keys() - whole - tables))


def _reached(sides: tuple[dict[str, ProjectIndex], ...], changed: set[str]) -> set[str]:
    """The folders of every task a change of `changed` can reach, at either side: the users and
    namers of its tables and functions, its tasks, and everything downstream of those."""
    users: dict[str, set[str]] = defaultdict(set)  # table or function -> tasks that use or name it
    readers: dict[str, set[str]] = defaultdict(set)  # -> tasks that read or call it (the graph's edges)
    writes: dict[str, set[str]] = defaultdict(set)
    folder_of_task: dict[str, str] = {}
    for side in sides:
        for folder, entry in side.items():
            for task in entry.tasks:
                folder_of_task[task.node] = folder
                for node in (*task.reads, *task.functions):
                    readers[node].add(task.node)
                for node in (*task.reads, *task.functions, *task.writes, *task.named):
                    users[node].add(task.node)
                writes[task.node].update(task.writes)
    seeds = [n for f in sorted(changed) for side in sides for n in (*side[f].nodes, *(t.node for t in side[f].tasks))]
    seen = reached(seeds, users.__getitem__, readers.__getitem__, writes.__getitem__)
    return {folder_of_task[n] for n in seen if n in folder_of_task}


def ready(session: Session, only: Only, expected: dict[str, tuple[str, ...]]) -> bool:
    """The loaded tasks are the ones the index expects, each naming what it recorded and only
    projects that are loaded, and the summary cache has every one of them (nothing is summarised
    from a workspace loaded in part: a finding's hint may name any project)."""
    from flinkx_build.emit.manifest import task_node
    from flinkx_build.impact.snapshot import dep_nodes

    tasks = session.tasks()
    cache = session.summary_cache
    if cache is None or {task_node(t.key) for t in tasks} != expected.keys():
        return False
    loaded = {p.name for p in session.workspace.projects.values() if p.directory.name in only.whole | only.tables}
    for task in tasks:
        if session.summary_key(task) is None or task.key not in cache.reached:
            return False
        reachable, deps = cache.reached[task.key]
        if not loaded.issuperset(reachable) or tuple(dep_nodes(deps)) != expected[task_node(task.key)]:
            return False
        if session.cached_summary(task, compiled=False) is None:
            return False
    return True


def write_indexes(store: ProjectIndexStore, snap: Snapshot, keys: dict[str, str], shown_root: Path) -> int:
    """The index entries of `snap`'s project folders the store lacks (a whole-workspace snapshot); how many."""
    if not snap.names_hash:
        return 0
    by_project: dict[str, list[str]] = defaultdict(list)
    for node in snap.summary_keys:
        by_project[snap.tasks[node].project].append(node)
    nodes: dict[str, list[str]] = defaultdict(list)
    for node in (*snap.tables, *snap.functions):
        nodes[node.split(".", 2)[1]].append(node)
    errors: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for diag in snap.load_errors:
        parts = Path(os.path.relpath(os.path.abspath(diag.path), shown_root)).parts
        if len(parts) >= 2 and parts[0] == "projects":
            errors[parts[1]].add((diag.code, diag.message))
    written = 0
    for project, folder in snap.folders.items():
        key = keys.get(folder)
        if key is None or store.has(key):
            continue
        tasks = by_project.get(project, [])
        if any(node not in snap.reach for node in tasks):
            continue  # a task without a summary key: nothing to vouch for it
        reach = sorted({project, *(p for node in tasks for p in snap.reach[node][0])})
        links = tuple(TaskLinks(node, tuple(sorted(snap.tasks[node].reads)),
                                tuple(sorted(snap.tasks[node].writes)), tuple(sorted(snap.tasks[node].functions)),
                                tuple(snap.reach[node][1])) for node in tasks)
        store.put(key, ProjectIndex(project, snap.names_hash, snap.names[project], tuple(reach),
                                    tuple(sorted(nodes.get(project, []))), links, tuple(sorted(errors.get(folder, set())))))
        written += 1
    return written

