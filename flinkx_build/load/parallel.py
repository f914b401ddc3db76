"""A cold load on every core: the meta-table files the load memo lacks, parsed in forked workers.

ruamel's round-trip parser is slow per file, so a first load of a
workspace with thousands of meta tables spends long in it, on one core,
before anything else can start. Each file is independent (a table reads
only its project's header and flinkx.yaml), so the files the memo does not
have, of every project the load reads, go to one pool of workers (they
inherit the project headers through fork and write nothing but YAML cache
entries, atomically); the parent stores the results in the memo and checks
names in file order, exactly as a serial load does. One pool for all
projects, not one per project: 400 projects of seven tables each never
reached a project's threshold, and their 2,800 tables loaded on one core.
"""
from __future__ import annotations

from pathlib import Path

from flinkx_build.errors import Diagnostic
from flinkx_build.incremental.scheduler import CORES
from flinkx_build.incremental.scheduler import can_fork
from flinkx_build.incremental.scheduler import on_every_core
from flinkx_build.load.memo import KeyedFile
from flinkx_build.load.memo import LoadMemos
from flinkx_build.load.tables import load_table
from flinkx_build.load.yaml_io import YamlCache
from flinkx_build.workspace_model import MetaTable
from flinkx_build.workspace_model import Project
from flinkx_build.workspace_model import Workspace

THRESHOLD = 64  # below this many misses a pool costs more than it saves
Loaded = tuple[MetaTable | None, list[Diagnostic]]


def _load_one(ws: Workspace, project: Project, path: Path, shown: str, raw: bytes, cache: YamlCache) -> Loaded:
    findings: list[Diagnostic] = []
    return load_table(ws, project, path, shown, findings, cache, raw), findings


def tables_on_every_core(memos: LoadMemos, ws: Workspace, files: list[tuple[Project, KeyedFile]],
                         cache: YamlCache, max_columns: int | None = None) -> dict[Path, Loaded]:
    """path -> (table, findings) for the files (each with its project) the memos lack, when there
    are enough to pay for workers. Past `max_columns` columns (in file order) the rest are not parsed:
    the workspace is over its budget (FX179), which the load then reports at the file in order."""
    if not memos.enabled or CORES < 2 or not can_fork():
        return {}
    misses = [(project, f.path, f.shown, f.raw) for project, f in files
              if f.raw is not None and f.key is not None and memos.of(project.directory.name).get(f.key) is None]
    if len(misses) < THRESHOLD:
        return {}
    results = on_every_core(lambda i: _load_one(ws, *misses[i], cache), len(misses), chunksize=16)
    loaded: list[Loaded] = []
    columns = 0
    for result in results:  # in file order
        loaded.append(result)
        columns += len(result[0].columns) if result[0] is not None else 0
        if max_columns is not None and columns > max_columns:
            results.close()  # the chunks not started are dropped
            break
    return {path: result for (_, path, _, _), result in zip(misses, loaded)}
