"""`flinkx lint FILE...` loads only what the named tasks can name: their projects and those they name.

A task binds a name of another project only by spelling that project's name
(`p.t`, `p:f`, `SET p.t.option`, or a `${var}` that renders to it), which is
what the task summaries' keys already rely on (`semantic/summary_cache.py`,
`text_words`). So once flinkx.yaml and every project.yaml are read, the
named tasks' projects are loaded whole and of the projects whose name is a
word of a named task's rendered text the meta tables and functions; every
other project is its header (`load_workspace`'s `Only`). At 1,600 projects
that is three projects' files instead of 17,000.

Three findings look at every project: an unknown table (FX130), a function
asked of the wrong project (FX140) or an unknown function (FX141) is told the
nearest name in any project. A scoped lint that makes one is done again on the
whole workspace (`needs_whole`), so its hint is the one a whole lint gives. Named YAML files, or a file outside a project's
tasks folder, load the whole workspace as before.
"""
from __future__ import annotations

from pathlib import Path

from flinkx_build.errors import Diagnostic
from flinkx_build.limits import MAX_FILE_BYTES
from flinkx_build.load.read_once import read_bytes
from flinkx_build.load.workspace import Only
from flinkx_build.resolve.names import HINTS_FROM_EVERY_PROJECT
from flinkx_build.semantic.summary_cache import text_words
from flinkx_build.workspace_model import Workspace

# findings whose hint searches every project's names (`resolve/names.py`, `_in_other_projects`)
WHOLE_WORKSPACE_HINTS = HINTS_FROM_EVERY_PROJECT


def lint_scope(ws: Workspace, files: list[Path]) -> Only | None:
    """What `lint FILES` must load of `ws` (read up to its project headers), or None: all of it."""
    by_folder: dict[str, list[str]] = {}
    folders_named: dict[str, list[str]] = {}
    for project in ws.projects.values():
        by_folder.setdefault(project.directory.name, []).append(project.name)
        folders_named.setdefault(project.name.lower(), []).append(project.directory.name)
    projects_dir = (ws.root / "projects").resolve()
    whole: set[str] = set()
    tables: set[str] = set()
    for file in files:
        path = file.resolve()
        try:
            parts = path.relative_to(projects_dir).parts
        except ValueError:
            return None
        owners = by_folder.get(parts[0], []) if len(parts) >= 3 and parts[1] == "tasks" else []
        if path.suffix != ".sql" or len(owners) != 1:
            return None
        try:
            raw = read_bytes(path, MAX_FILE_BYTES)
        except OSError:
            return None
        if raw is None:
            return None
        # what the loader refuses (encoding, limits) it reports at the file, which is loaded whole
        words = text_words(raw.decode("utf-8", errors="replace"), ws.context_for(owners[0]))
        whole.add(parts[0])
        for word in words & folders_named.keys():
            tables.update(folders_named[word])
    return Only(frozenset(whole), frozenset(tables - whole))


def needs_whole(found: list[Diagnostic]) -> bool:
    """A scoped lint found something whose hint a whole load could word differently."""
    return any(d.code in WHOLE_WORKSPACE_HINTS for d in found)
