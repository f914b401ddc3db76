"""`flinkx build` after an edit of task files alone: the changed tasks are made, every other task is the record's.

The run memo's walk (`run_memo.fingerprint`) gives every input's stat; the last
build's record (`record.py`) gives them as that build saw them. When only task
files changed (edited, added or removed below a project's `tasks/`), nothing a
meta table, a function, a project header or flinkx.yaml says has changed, so:

* the load reads no project.yaml (the headers are the record's) and, of the
  projects, only the changed tasks' folders and those their texts name
  (`lint/scope.py`'s rule, the summary keys' rule);
* each changed task's summary is made (or read) with the whole workspace's name
  index (the record's), so its key is the one a whole build gives it; a task
  whose finding's hint searches every project ("did you mean 'b.t'?": FX130,
  FX140, FX141, `resolve.names.HINTS_FROM_EVERY_PROJECT`) is not answered here;
* the checks across tasks read the record's part of every other task, in the
  workspace's order; the graph is known acyclic by its edges (a cycle is left
  to the whole build, which reports it);
* manifest.json is the last one with the changed tasks' entries and edges put
  in (`emit/manifest.py` `patch_manifest`), and only the changed files are
  written: every other file of the build folder is the current one's
  (`emit/writer.py`, `unchanged`), which its signature vouches for.

Whenever anything else changed, or the record or the build folder is not what
the record says, this answers None and the build is made whole, which writes
the record for the next one. `tests/workspace_build/test_incremental_build.py`
compares its output, byte for byte, with a whole build's.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from flinkx_build import json_codec
from flinkx_build import run_memo
from flinkx_build.checks.workspace import across_tasks
from flinkx_build.emit.manifest import patch_manifest
from flinkx_build.emit.manifest import task_entry
from flinkx_build.emit.manifest import task_node
from flinkx_build.emit.writer import manifest_bytes
from flinkx_build.errors import Diagnostic
from flinkx_build.graph.build import GraphParts
from flinkx_build.graph.cycles import cycle_findings
from flinkx_build.lint.scope import lint_scope
from flinkx_build.load.listing import display_path
from flinkx_build.load.memo import LoadMemo
from flinkx_build.load.workspace import Only
from flinkx_build.load.workspace import read_task_file
from flinkx_build.noqa import suppressed
from flinkx_build.pipeline import Session
from flinkx_build.resolve.names import HINTS_FROM_EVERY_PROJECT
from flinkx_build.semantic.summary import TaskSummary
from flinkx_build.workspace_build.record import BuildRecord
from flinkx_build.workspace_build.record import TaskPart
from flinkx_build.workspace_build.record import task_part
from flinkx_build.workspace_model import Task
from flinkx_build.workspace_model import Workspace

Plan = Callable[[Session, list[Task], list[TaskSummary]], dict[str, list[Diagnostic]]]
_NOT_A_FILE = ("link ", "unresolvable", "unreadable", "not a regular file")


@dataclass
class Incremental:
    """What the incremental build made: the findings, the files it writes and the manifest's bytes,
    the outputs it keeps, and the record of this build (its build folder's signature still to come)."""

    session: Session
    diagnostics: list[Diagnostic]
    written: dict[str, str]  # relative path in the build folder -> compiled SQL, of the changed tasks
    kept: frozenset[str]  # the other tasks' files: the current build folder's
    manifest: bytes
    record: BuildRecord

    @property
    def outputs(self) -> list[str]:
        return sorted({*self.written, *self.kept})


def changed_entries(root: Path, record: BuildRecord, run: run_memo.Fingerprint) -> set[str] | None:
    """The entries below projects/ that are not as the record has them (added, removed, or another stat, or a
    recent file's bytes); None when flinkx.yaml changed."""
    if record.config != run.config:
        return None
    before = record.entries
    changed = {rel for rel, identity in run.entries.items() if before.get(rel) != identity}
    changed.update(before.keys() - run.entries.keys())
    for rel, digest in record.racy.items():  # too recent for its stat when recorded: its bytes decide
        if rel not in changed and not run_memo.bytes_unchanged(root, rel, digest):
            changed.add(rel)
    return changed


def task_files_only(changed: set[str], folders: set[str], entries: dict[str, str]) -> list[str] | None:
    """The changed task files (`.sql` below a known project folder's `tasks/`), or None when anything else
    the loader reads changed (a meta table, a function, a project.yaml, a project folder, a link)."""
    found = []
    for rel in sorted(changed):
        parts = rel.split("/")
        if len(parts) < 3 or parts[0] != "projects" or parts[1] not in folders or parts[2] in ("tables", "functions"):
            return None
        if len(parts) == 3 and parts[2] in ("project.yaml", "tasks"):
            return None
        if parts[2] != "tasks":
            continue  # a folder or file of the project the loader does not read (its tests, a README)
        if any(entries.get(rel, "").startswith(kind) for kind in _NOT_A_FILE):
            return None
        if rel.endswith(".sql") and entries.get(rel) != "dir":
            found.append(rel)
    return found


def incremental_build(root: Path, out_dir: Path, record: BuildRecord, run: run_memo.Fingerprint,
                      open_session: Callable[..., Session], plan: Plan | None) -> Incremental | None:
    """The build after an edit of task files only, or None: it must be made whole. `open_session(**kwargs)`:
    the command's session, loaded as `kwargs` say; `plan`: the planner's findings of the tasks made (None: off)."""
    changed = changed_entries(root, record, run)
    folders = {folder for folder, _ in record.headers}
    sqls = task_files_only(changed, folders, run.entries) if changed else None
    if not sqls or not run_memo.folder_holds(out_dir, record.files):
        return None
    present = [root / rel for rel in sqls if rel in run.entries]
    scopes: list[object] = []

    def scope(ws: Workspace):
        only = lint_scope(ws, present)
        scopes.append(only)
        return only

    session = open_session(on_projects=scope, headers=record.headers, names=record.names)
    only = scopes[0] if scopes else None
    if not isinstance(only, Only):
        return None
    return _assemble(session, root, out_dir, record, set(sqls), only.whole, plan)


def _assemble(session: Session, root: Path, out_dir: Path, record: BuildRecord, sqls: set[str], whole: frozenset[str],
              plan: Plan | None) -> Incremental | None:
    """`whole`: the project folders loaded with their tasks (those of the changed files still there)."""
    ws = session.workspace
    by_project: dict[str, list[tuple[str, TaskPart]]] = {}
    for key, part in record.tasks.items():
        by_project.setdefault(key.split("/", 1)[0], []).append((key, part))
    if not by_project.keys() <= ws.projects.keys():
        return None
    loaded = {p.name for p in ws.projects.values() if p.directory.name in whole}
    made = [t for p in ws.projects.values() for t in p.tasks.values() if t.rel_path in sqls]
    for task in (t for p in ws.projects.values() for t in p.tasks.values() if t.rel_path not in sqls):
        part = record.tasks.get(task.key)  # an unchanged task of a loaded project: the record must know it
        if part is None or part.rel != task.rel_path:
            return None
    with session.parsing_ahead(made):
        summaries = {t.key: session.summary(t) for t in made}
    if any(d.code in HINTS_FROM_EVERY_PROJECT for s in summaries.values() for d in s.diagnostics):
        return None  # its hint searched only the projects loaded here: the whole build words it
    planned = plan(session, made, list(summaries.values())) if plan is not None else {}
    texts = _Texts(ws)
    parts: dict[str, TaskPart] = {}  # every task, in the workspace's order
    for project in ws.projects.values():
        if project.name not in loaded:  # (a changed file of it is gone: its task with it)
            parts.update((k, p) for k, p in by_project.get(project.name, ()) if p.rel not in sqls)
            continue
        for task in project.tasks.values():
            if task.key in summaries:
                summary = summaries[task.key]
                output = f"{task.project}/{task.name}.sql" if summary.compiled is not None else None
                parts[task.key] = task_part(ws, task, summary, output, planned.get(task.key, []), texts.text)
            else:
                parts[task.key] = record.tasks[task.key]
    elements = [(u, v, {"relation": "lookup" if lookup else "reads"}) for p in parts.values() for u, v, lookup in p.edges]
    if cycle_findings(GraphParts({"mode": ws.config.mode}, list(elements)), session.cache.root):
        return None  # a cycle: the whole build says where it closes
    lint = ws.config.lint
    shown = {display_path(root / rel) for rel in sqls}
    others = [d for d in record.others if d.path not in shown]
    others += [d for d in lint.apply(session.load_diagnostics) if d.path in shown and not suppressed(texts.text(d.path), d)]
    in_order = [summaries[k] if k in summaries else p.summary(k) for k, p in parts.items()]
    across = [d for d in lint.apply(across_tasks(in_order)) if not suppressed(texts.text(d.path), d)]
    found = others + across + [d for p in parts.values() for d in (*p.findings, *p.planned)]
    manifest = json_codec.loads((out_dir / "manifest.json").read_bytes())
    gone = {task_node(k): [(u, v) for u, v, _ in p.edges] for k, p in record.tasks.items() if k in summaries or k not in parts}
    patch_manifest(manifest, gone, {task_node(k): (task_entry(summaries[k], parts[k].output), [(u, v) for u, v, _ in parts[k].edges])
                                    for k in summaries})
    written = {p.output: summaries[k].compiled or "" for k, p in parts.items() if k in summaries and p.output is not None}
    kept = frozenset(p.output for k, p in parts.items() if k not in summaries and p.output is not None)
    new = BuildRecord(record.config, {}, {}, record.headers, record.names, others, parts, {})
    return Incremental(session, found, written, kept, manifest_bytes(manifest), new)


class _Texts:
    """A task file's text by its displayed path, for `-- noqa` (an unloaded task is read only where a finding is)."""

    def __init__(self, ws: Workspace) -> None:
        self._known = {t.display_path: t.text for p in ws.projects.values() for t in p.tasks.values()}

    def text(self, shown: str) -> str:
        if shown not in self._known:
            path, text = Path(shown), None
            if shown.endswith(".sql") and "tasks" in path.parts and os.path.isfile(path):
                text, _ = read_task_file(path, shown, LoadMemo(None))
            self._known[shown] = text or ""
        return self._known[shown]
