"""`flinkx lint --changed-since REV`: lint, and plan, exactly the tasks a change since REV can reach.

A pull request's check should not lint 10,000 tasks to judge three. What a
change reaches is impact's rule (`semantic/project_index.reached`): a changed
table or function reaches the tasks that use or name it, a changed task
reaches the tables it writes, and those reach their readers, downstream. The
links come from the same facts impact's dependency index holds, made here for
the nodes the walk visits only:

* who names a table or function: a task binds another project's name only by
  spelling it (the rule of the task summaries' keys, `summary_cache.text_words`),
  so the tasks whose rendered text has the name as a word, in a project they can
  name, are its users; no task is parsed to know it;
* what a reached task writes, and which of a table's namers read it: their
  summaries (`Session.summary`), made for those tasks only.

The checks that compare tasks with each other (FX460, FX470, FX471, FX200,
FX495/FX496) get, beside the reached tasks, every task that could be their
partner in a finding, chosen by the same spelling rule (`_partners`): whoever
writes a table names it; a consumer group or a server-id range comes from the
task's own text or from a meta table it names. So a reached task's findings are
the ones a whole lint gives it, hints included: the workspace is loaded whole
(a hint may name any project), and only the tasks' summaries are limited.

What is reported: the findings of the reached tasks and of the changed files
(a meta table's YAML findings, the load's findings), as a whole lint reports
them; `tests/lint/test_changed_since.py` compares the two on a real repository.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from flinkx_build.resolve.reads import server_id_range
from flinkx_build.emit.manifest import function_node
from flinkx_build.emit.manifest import table_node
from flinkx_build.emit.manifest import task_node
from flinkx_build.load.listing import display_path
from flinkx_build.load.names import yaml_name
from flinkx_build.load.yaml_io import load_yaml
from flinkx_build.paths import below
from flinkx_build.pipeline import Session
from flinkx_build.semantic.project_index import reached
from flinkx_build.semantic.summary import TaskSummary
from flinkx_build.semantic.summary_cache import project_words
from flinkx_build.semantic.summary_cache import projects_named
from flinkx_build.semantic.summary_cache import text_words
from flinkx_build.variables import render
from flinkx_build.workspace_model import MetaTable
from flinkx_build.workspace_model import Task

# every number, or range of numbers, a text spells: where a server-id value can be (`server_id_range`'s forms)
_ID_RANGES = re.compile(r"(\d+)(?:\s*-\s*(\d+))?")
_YAML = (".yaml", ".yml")


@dataclass(frozen=True)
class Change:
    """The files below the workspace that differ between the revision and the working tree (added,
    removed or edited; `None`: git cannot vouch for each file, so everything is reached), and a
    changed file's bytes at the revision (None when it was not there)."""

    paths: frozenset[str] | None
    base_bytes: Callable[[str], bytes | None]


@dataclass(frozen=True)
class Reach:
    """What `lint --changed-since` checks: `tasks` (linted and planned, in workspace order); `partners`
    (summarised only, for the checks across tasks); `paths`: the display paths whose findings count."""

    tasks: list[Task]
    partners: list[Task]
    paths: frozenset[str]

    def across(self, every: list[Task]) -> list[Task]:
        """The reached tasks and their partners, in the order of `every` (the workspace's): the order
        a whole lint gives the checks across tasks, which their messages follow."""
        wanted = {t.key for t in (*self.tasks, *self.partners)}
        return [t for t in every if t.key in wanted]


def changed_reach(session: Session, change: Change) -> Reach | None:
    """The tasks the change reaches in `session`'s workspace (loaded whole), and their partners; None:
    every task (git cannot list a side file by file, or flinkx.yaml, which every task reads, changed)."""
    ws = session.workspace
    tasks = ws.all_tasks()
    if change.paths is None or "flinkx.yaml" in change.paths:
        return None
    links = _Links(session, tasks)
    seeds: list[str] = []
    for rel in sorted(change.paths):
        seeds.extend(links.seeds_of(rel, change.base_bytes))
    found = reached(seeds, links.users, links.readers, links.writes)
    chosen = [t for t in tasks if task_node(t.key) in found]
    partner_keys = links.partners(chosen)  # once: in the comprehension's test it was made again for every task
    partners = [t for t in tasks if t.key in partner_keys and task_node(t.key) not in found]
    shown = {display_path(ws.root / rel) for rel in change.paths} | {t.display_path for t in chosen}
    return Reach(chosen, partners, frozenset(shown))


class _Links:
    """The dependency index's links (`project_index.TaskLinks`) of the nodes a walk asks about, made on demand."""

    def __init__(self, session: Session, tasks: list[Task]) -> None:
        self.session = session
        self.ws = ws = session.workspace
        self.tasks = tasks
        self.by_node = {task_node(t.key): t for t in tasks}
        self.by_rel = {t.rel_path: t for t in tasks}
        self.by_word = project_words(ws)
        self.words = {t.key: text_words(t.text, ws.context_for(t.project)) for t in tasks}
        self.can_name = {t.key: projects_named(t.project, self.words[t.key], self.by_word) for t in tasks}
        root = str(ws.root)
        self.nodes_of_file: dict[str, list[str]] = {}  # a YAML file (relative to the root) -> its tables' or function's nodes
        self.folder_projects: dict[str, str] = {}
        for project in ws.projects.values():
            self.folder_projects[project.directory.name] = project.name
            for same in project.tables.values():
                for table in same:
                    self.nodes_of_file.setdefault(below(table.loc.path, root) or "", []).append(table_node(table.key))
            for fn in project.functions.values():
                self.nodes_of_file.setdefault(below(fn.loc.path, root) or "", []).append(function_node(fn.key))
        self._summaries: dict[str, TaskSummary] = {}

    def summary(self, task: Task) -> TaskSummary:
        if task.key not in self._summaries:
            self._summaries[task.key] = self.session.summary(task, compile=False)
        return self._summaries[task.key]

    def seeds_of(self, rel: str, base_bytes: Callable[[str], bytes | None]) -> list[str]:
        """The nodes a changed file stands for, at the head and at the base (a renamed or removed table's
        old name reaches the tasks that still spell it)."""
        parts = rel.split("/")
        if len(parts) < 3 or parts[0] != "projects":
            return []  # the loader reads nothing else
        folder = parts[1]
        head_project = self.folder_projects.get(folder) or _base_project_name(f"projects/{folder}/project.yaml", folder,
                                                                              base_bytes)
        if parts[2] == "project.yaml" and len(parts) == 3:  # its variables render every file of the project
            names = {head_project, _base_project_name(rel, folder, base_bytes)}
            project = self.ws.projects.get(head_project)
            if project is None:
                return []
            nodes = [task_node(t.key) for t in project.tasks.values()]
            for name in sorted(names):
                nodes += [table_node(f"{name}.{t.name}") for same in project.tables.values() for t in same]
                nodes += [function_node(f"{name}:{f.name}") for f in project.functions.values()]
            return nodes
        if parts[2] == "tasks":
            task = self.by_rel.get(rel)
            return [task_node(task.key)] if task is not None else []
        if parts[2] in ("tables", "functions") and rel.endswith(_YAML):
            nodes = list(self.nodes_of_file.get(rel, []))
            old = _base_yaml_name(rel, base_bytes)
            if old is not None:
                make = table_node if parts[2] == "tables" else function_node
                nodes.append(make(f"{head_project}.{old}" if parts[2] == "tables" else f"{head_project}:{old}"))
            return nodes
        return []

    def users(self, node: str) -> list[str]:
        """The tasks that name the table or function `node` (a read, a write, a call, a SET or a hint spells it)."""
        project, name = _project_and_name(node)
        return [task_node(t.key) for t in self.namers(project, name)]

    def namers(self, project: str, name: str) -> list[Task]:
        word = name.lower()
        return [t for t in self.tasks if word in self.words[t.key] and
                (project in self.can_name[t.key] or project.lower() in self.words[t.key])]

    def readers(self, node: str) -> list[str]:
        out = []
        for user in self.users(node):
            summary = self.summary(self.by_node[user])
            if node in {table_node(k) for k in summary.read_keys} | {function_node(k) for k in summary.functions}:
                out.append(user)
        return out

    def writes(self, node: str) -> list[str]:
        task = self.by_node.get(node)
        return [] if task is None else [table_node(k) for k in self.summary(task).write_keys]

    def partners(self, chosen: list[Task]) -> set[str]:
        """Every task that may share a finding across tasks with one of `chosen` (their keys)."""
        found: set[str] = set()
        tables = [t for p in self.ws.projects.values() for same in p.tables.values() for t in same]
        for task in chosen:
            summary = self.summary(task)
            for write in summary.sink_writes:  # FX470: whoever writes the table names it
                found.update(t.key for t in self.namers(*_project_and_name(table_node(write.table))))
            for read in summary.kafka_reads:  # FX471: the same group, set in the task's text or a named table's YAML
                group = text_words(read.group, {}) or {"group"}  # (an empty group: any task that sets one)
                found.update(t.key for t in self.tasks if group <= self.words[t.key])
                for table in tables:
                    if read.group in _option_values(table, "properties.group.id"):
                        found.update(t.key for t in self.namers(table.project, table.name))
            for reader in summary.cdc_readers:  # FX460: an overlapping server-id, in the text or a named table's YAML
                found.update(t.key for t in self.tasks if "server-id" in self.words[t.key] and
                             _spells_overlap(render(t.text, self.ws.context_for(t.project)), reader.ids))
                for table in tables:
                    if any(_overlaps(server_id_range(v), reader.ids) for v in _option_values(table, "server-id")):
                        found.update(t.key for t in self.namers(table.project, table.name))
        return found


def _project_and_name(node: str) -> tuple[str, str]:
    """`table.p.n[@offline]` or `function.p.n` -> (p, n): the names a task spells to use it."""
    _, project, name = node.split(".", 2)
    return project, name.split("@", 1)[0]


def _option_values(table: MetaTable, key: str) -> list[str]:
    return [options[key] for options in (table.options, table.stream_options, table.batch_options) if key in options]


def _overlaps(ids: tuple[int, int] | None, other: tuple[int, int]) -> bool:
    return ids is not None and ids[0] <= other[1] and other[0] <= ids[1]


def _spells_overlap(text: str, ids: tuple[int, int]) -> bool:
    """Some number or range the text spells overlaps `ids` (a server-id set in the text is one of them)."""
    for m in _ID_RANGES.finditer(text):
        low, high = int(m.group(1)), int(m.group(2) or m.group(1))
        if _overlaps((min(low, high), max(low, high)), ids):
            return True
    return False


def _base_yaml_name(rel: str, base_bytes: Callable[[str], bytes | None]) -> str | None:
    """The name a table or function file gave at the base (None when it was not there or gave none)."""
    raw = base_bytes(rel)
    if raw is None:
        return None
    data, _ = load_yaml(Path(rel), rel, raw=raw)
    return yaml_name(data, Path(rel), rel, "table", [])


def _base_project_name(rel: str, folder: str, base_bytes: Callable[[str], bytes | None]) -> str:
    raw = base_bytes(rel)
    if raw is None:
        return folder
    data, _ = load_yaml(Path(rel), rel, raw=raw)
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) and name else folder
