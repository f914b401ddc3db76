"""What a task's page shows beyond its summary: effective definitions with their origins (what
`flinkx explain` prints), the views it defines, and its job's deploy identity.

These need the resolved task, which the summary does not keep, so each task's part is cached
by content under its summary's key (`site` folder of the cache, signed like every entry): a
second `flinkx docs` of an unchanged workspace resolves nothing. Tasks the cache lacks are
resolved on every core (from the parse cache a build filled: nothing is parsed again).
Paths are stored relative to the workspace root, so an entry does not depend on the cwd;
credential values are masked before anything is stored.
"""
from __future__ import annotations

import os
from typing import Any

from flinkx_build.credentials import mask_data
from flinkx_build.credentials import mask_text
from flinkx_build.deploy.identity import Statement
from flinkx_build.deploy.identity import fingerprint
from flinkx_build.deploy.identity import job_name
from flinkx_build.deploy.state import workspace_name
from flinkx_build.incremental.scheduler import CORES
from flinkx_build.incremental.scheduler import can_fork
from flinkx_build.incremental.scheduler import on_every_core
from flinkx_build.hashing import canonical_hash
from flinkx_build.incremental.facts import TASK_PAGE
from flinkx_build.incremental.store import FactStore
from flinkx_build.pipeline import Session
from flinkx_build.resolve.explain import explain_data
from flinkx_build.workspace_model import Task

FACT = TASK_PAGE
PARALLEL_THRESHOLD = 16


def task_page_data(session: Session, task: Task, compiles: bool) -> dict[str, Any]:
    """The task's explain data, views and deploy identity, as JSON data (cached by content).

    `compiles`: the task's summary has compiled SQL (no errors block it)."""
    key = _key(session, task)
    store = FactStore(session.workspace.cache_root)
    found = store.get(FACT, key) if key else None
    if isinstance(found, dict):
        return found
    data = _make(session, task, compiles)
    store.put(FACT, key, data)
    return data


def all_task_pages(session: Session, tasks: list[Task], compiling: set[str]) -> dict[str, dict[str, Any]]:
    """`task_page_data` of every task; those the cache lacks are made on every core first."""
    missing = [t for t in tasks if not _cached(session, t)]
    made: dict[str, dict[str, Any]] = {}
    if len(missing) >= PARALLEL_THRESHOLD and CORES > 1 and can_fork():
        for task, data in zip(missing, on_every_core(lambda i: _make_one(session, missing[i], compiling), len(missing))):
            made[task.key] = data
    return {t.key: made[t.key] if t.key in made else task_page_data(session, t, t.key in compiling) for t in tasks}


def _make_one(session: Session, task: Task, compiling: set[str]) -> dict[str, Any]:
    """In a worker: one task's page data."""
    try:
        return task_page_data(session, task, task.key in compiling)
    finally:
        session.forget(task)  # answered: the parent has it


def _key(session: Session, task: Task) -> str | None:
    base = session.summary_key(task)
    return canonical_hash([FACT.format, FACT.version, base, workspace_name(session.workspace)]) if base else None


def _cached(session: Session, task: Task) -> bool:
    key = _key(session, task)
    return bool(key) and FactStore(session.workspace.cache_root).has(FACT, key)


def _make(session: Session, task: Task, compiles: bool) -> dict[str, Any]:
    rt = session.analysed(task)
    root = str(session.workspace.root)
    explain = mask_data(explain_data(rt)) if rt.ok else {"tables": []}
    tables = [_relocated(table, root) for table in explain.get("tables", [])]
    views = [
        {"name": rs.parsed.defines, "line": (rs.parsed.code_pos or rs.parsed.pos).line, "sql": mask_text(rs.parsed.source.strip())}
        for rs in rt.statements if rs.parsed.kind == "create_view" and rs.parsed.defines
    ]
    identity = None
    if compiles and rt.ok:
        script = session.compiled(task)
        statements = [Statement(s.kind, s.text) for s in script.statements]
        if any(s.kind == "insert" for s in statements):
            identity = {"job_name": job_name(workspace_name(session.workspace), task.key), "fingerprint": fingerprint(statements)}
    return {"tables": tables, "views": views, "deploy": identity}


def _relocated(table: dict[str, Any], root: str) -> dict[str, Any]:
    """explain's `"layer path:line"` origins as {layer, path (workspace-relative), line}."""
    out = dict(table)
    out["columns"] = [{**c, "from": _origin(c.get("from"), root)} for c in table.get("columns", [])]
    for key in ("primary_key", "index", "unique_index", "watermark"):
        if isinstance(table.get(key), dict):
            out[key] = {**table[key], "from": _origin(table[key].get("from"), root)}
    out["options"] = {k: {"value": v.get("value"), "from": _origin(v.get("from"), root)} for k, v in table.get("options", {}).items()}
    out["column_pruning"] = _origin(table.get("column_pruning"), root)
    return out


def _origin(text: Any, root: str) -> dict[str, Any] | None:
    if not isinstance(text, str) or " " not in text:
        return None
    layer, _, where = text.partition(" ")
    path, _, line = where.rpartition(":")
    rel = os.path.relpath(os.path.abspath(path), root)
    return {"layer": layer, "path": rel.replace(os.sep, "/") if not rel.startswith("..") else path, "line": int(line) if line.isdigit() else 1}
