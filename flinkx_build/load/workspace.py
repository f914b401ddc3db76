"""load: read flinkx.yaml, projects, meta tables, functions and tasks.

Loading never raises for a user mistake: it returns the workspace it could
read plus diagnostics, so lint can report everything at once and build can
stop on the first error set. Only a missing workspace is a `UsageError`.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from pathlib import PurePosixPath
from typing import NamedTuple

from flinkx_build.cache_version import versioned_cache_root
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import UsageError
from flinkx_build.errors import WorkspaceErrors
from flinkx_build.errors import did_you_mean
from flinkx_build.hashing import sha256
from flinkx_build.limits import MAX_WORKSPACE_COLUMNS
from flinkx_build.limits import MAX_WORKSPACE_TABLE_BYTES
from flinkx_build.limits import budget_crossing
from flinkx_build.limits import over_budget
from flinkx_build.load.config import scalar_text
from flinkx_build.load.config import string_map
from flinkx_build.load.listing import display_path
from flinkx_build.load.listing import files
from flinkx_build.load.listing import loops
from flinkx_build.load.listing import yaml_files
from flinkx_build.load.memo import KeyPrefix
from flinkx_build.load.memo import KeyedFile
from flinkx_build.load.memo import LoadMemo
from flinkx_build.load.memo import LoadMemos
from flinkx_build.load.memo import check_task_limits
from flinkx_build.load.memo import keyed_files
from flinkx_build.load.memo import memo_function
from flinkx_build.load.memo import memo_table
from flinkx_build.load.memo import read_raw
from flinkx_build.load.names import entry_outside_diagnostic
from flinkx_build.load.names import has_control
from flinkx_build.load.names import name_diagnostic
from flinkx_build.load.names import outside_diagnostic
from flinkx_build.load.parallel import tables_on_every_core
from flinkx_build.load.project_memo import header_key
from flinkx_build.load.project_memo import recall_header
from flinkx_build.load.project_memo import remember_header
from flinkx_build.load.root import CONFIG_FILE
from flinkx_build.load.root import load_config
from flinkx_build.load.yaml_io import YamlCache
from flinkx_build.load.yaml_io import key_loc
from flinkx_build.load.yaml_io import load_yaml
from flinkx_build.load.yaml_io import read_text
from flinkx_build.load.yaml_io import value_loc
from flinkx_build.process_tricks import collector_paused
from flinkx_build.workspace_model import MetaTable
from flinkx_build.workspace_model import Project
from flinkx_build.workspace_model import Task
from flinkx_build.workspace_model import Workspace

_PROJECT_KEYS = {"name", "description", "variables"}


class Only(NamedTuple):
    """The project folders a limited load reads: `whole`, and of `tables` their meta tables and functions.

    `borrow`: another workspace root whose project folders of these names hold the same files; their
    headers are read there (a revision checked out for `flinkx impact` then needs none of their folders).
    """

    whole: frozenset[str]
    tables: frozenset[str]
    borrow: tuple[Path, frozenset[str]] | None = None


Headers = list[tuple[str, tuple[str, str, dict[str, str]]]]  # (folder, (name, description, variables)), in load order


def load_workspace(root: Path, use_cache: bool = True, memo_cache: Path | None = None,
                   on_projects: Callable[[Workspace], Only | None] | None = None,
                   only: Only | None = None, headers: Headers | None = None) -> tuple[Workspace, list[Diagnostic]]:
    """The workspace at `root` and the findings about it.

    `memo_cache`: the cache folder whose load memo to use instead of this workspace's own, e.g. the
    working tree's for a revision checked out into a temporary folder (the memo keys on content,
    never on where the files are), even when `use_cache` is off for everything else.
    `on_projects`: called with the workspace once flinkx.yaml and every project.yaml are read,
    before the meta tables, functions and tasks (`lint/early.py` starts rule passes then). What it
    returns, if not None, limits the load (`Only`): every other project keeps its header (name,
    variables) only (`impact/scope.py`). `only`: that limit, known before the load.
    `headers`: every project's header as a load of the same `projects/` folder and project.yaml files
    made them (an incremental build's record, `workspace_build/record.py`): no folder is listed and no
    project.yaml read, and their findings are the caller's to give.
    """
    root = root.resolve()
    config_path = root / CONFIG_FILE
    if not config_path.is_file():
        raise UsageError(f"{display_path(root)}: not a flinkx workspace (no {CONFIG_FILE})")
    diags: list[Diagnostic] = []
    config = load_config(config_path, root, diags)
    cache_root = versioned_cache_root(root, config.cache_dir) if use_cache else None
    cache = YamlCache.under(cache_root)
    projects: dict[str, Project] = {}
    projects_dir = root / "projects"
    memos = LoadMemos(memo_cache if memo_cache is not None else cache_root)
    with collector_paused():
        for folder, (name, description, variables) in headers or ():
            projects[name] = Project(name=name, directory=projects_dir / folder, description=description, variables=dict(variables))
        listing = [] if headers is not None else _with_borrowed(_project_dirs(projects_dir, root, diags), root, only, diags)
        for proj_dir, proj_root in listing:
            project = _project_header(memos.headers, proj_dir, proj_root, diags, cache)
            if project is None:
                continue
            if project.name in projects:
                diags.append(Diagnostic(display_path(proj_dir), 1, 1, "FX105", f"project '{project.name}' is defined twice"))
                continue
            projects[project.name] = project
    workspace = Workspace(root, config, projects, config_path)
    if on_projects is not None:
        only = on_projects(workspace) or only
    memos.tasks.partial = only is not None  # the task files of some projects: the others' checks are kept as they are
    with collector_paused():
        chosen = [(p, only is None or p.directory.name in only.whole) for p in projects.values()
                  if only is None or p.directory.name in only.whole or p.directory.name in only.tables]
        # every project's table files listed and keyed first: a cold load then parses what the memo
        # lacks of all of them on every core at once (`load/parallel.py`), then each project loads in order
        listed = [_table_files(workspace, project, memos.of(project.directory.name)) for project, _ in chosen]
        _within_budget(budget_crossing(((f.shown, _size(f)) for tf in listed for f in tf.files),
                                       MAX_WORKSPACE_TABLE_BYTES, "meta-table YAML bytes"), memos)
        preloaded = tables_on_every_core(memos, workspace, [(p, f) for (p, _), tf in zip(chosen, listed) for f in tf.files], cache,
                                         MAX_WORKSPACE_COLUMNS)
        columns = ColumnBudget(memos)
        for (project, tasks), table_files in zip(chosen, listed):
            _load_project_contents(workspace, project, diags, cache, memos.of(project.directory.name), table_files, preloaded,
                                   tasks, columns, memos.tasks)
        memos.done()  # what was read is freed by reference counting, before the collector is back
    return workspace, diags


def _size(file: KeyedFile) -> int:
    if file.raw is not None:
        return len(file.raw)
    try:
        return os.stat(file.path).st_size
    except OSError:  # the loader reports it
        return 0


def _within_budget(crossing: Diagnostic | None, memos: LoadMemos) -> None:
    """Stop the load at a workspace-wide budget (FX179): one finding, exit 1, nothing else read or checked."""
    if crossing is not None:
        memos.close()
        raise WorkspaceErrors([crossing])


class ColumnBudget:
    """The meta-table columns loaded so far, in file order: the load stops at the table that passes the budget."""

    def __init__(self, memos: LoadMemos) -> None:
        self.memos = memos
        self.total = 0

    def add(self, table: MetaTable) -> None:
        self.total += len(table.columns)
        if self.total > MAX_WORKSPACE_COLUMNS:
            _within_budget(over_budget(table.loc.path, self.total, MAX_WORKSPACE_COLUMNS, "meta-table columns"), self.memos)


def _project_dirs(projects_dir: Path, root: Path, diags: list[Diagnostic]) -> list[Path]:
    if not projects_dir.is_dir():
        diags.extend(loops([projects_dir]))
        return []
    outside = outside_diagnostic(projects_dir, root, display_path(projects_dir))
    if outside:
        diags.append(outside)
        return []
    folders = []
    # one scandir: a project folder is known a folder, and not a link, by its entry (a stat each was a
    # tenth of loading 3,000 project headers)
    with os.scandir(projects_dir) as scan:
        entries = sorted((projects_dir / e.name, e.is_symlink(), _is_folder(e)) for e in scan)
    diags.extend(loops([p for p, link, _ in entries if link]))
    for folder, link, _ in (e for e in entries if e[2]):
        problem = entry_outside_diagnostic(folder, root, lambda: display_path(folder)) if link or folder.name == ".git" else None
        if problem is None and has_control(folder.name):
            problem = Diagnostic(display_path(folder), 1, 1, "FX186", f"project folder {folder.name!r} holds a control character", "rename it")
        if problem:
            diags.append(problem)
            continue
        folders.append(folder)
    return folders


def _is_folder(entry: os.DirEntry) -> bool:
    """A folder, or a link to one; a link that cannot be followed (a loop: ELOOP) is not, and `loops` reports it."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def _with_borrowed(dirs: list[Path], root: Path, only: Only | None, diags: list[Diagnostic]) -> list[tuple[Path, Path]]:
    """Each project folder with the root it lies in: `root`, or `only.borrow`'s root for a borrowed one
    (with the findings about those folders there), all by folder name as the loader orders them."""
    found = [(d, root) for d in dirs]
    if only is None or only.borrow is None:
        return found
    other, names = only.borrow
    names = names - {d.name for d in dirs}
    said: list[Diagnostic] = []
    found += [(d, other) for d in _project_dirs(other / "projects", other, said) if d.name in names]
    for diag in said:
        rel = Path(os.path.relpath(os.path.abspath(diag.path), other / "projects")).parts
        if rel and rel[0] in names:
            diags.append(diag)
    return sorted(found, key=lambda pair: pair[0].name)


def _project_header(memo: LoadMemo, proj_dir: Path, root: Path, diags: list[Diagnostic], cache: YamlCache) -> Project | None:
    """`_load_project_header`, or its stored result when `project.yaml` and the folder's name are unchanged."""
    path = proj_dir / "project.yaml"
    # a link is loaded (and refused) as ever; a plain entry of a checked project folder is inside (anything
    # but a regular file, or none, reads as None: the loader then says what it is)
    raw = read_raw(path) if memo.enabled and not os.path.islink(path) else None
    if raw is None:
        return _load_project_header(proj_dir, root, diags, cache)
    key = header_key(raw, proj_dir.name)
    found, header, findings = recall_header(memo, key, lambda: display_path(path))
    if not found:
        findings = []
        project = _load_project_header(proj_dir, root, findings, cache)
        header = None if project is None else (project.name, project.description, project.variables)
        remember_header(memo, key, display_path(path), header, findings)
    diags.extend(findings)
    if header is None:
        return None
    name, description, variables = header
    return Project(name=name, directory=proj_dir, description=description, variables=variables)


def _load_project_header(proj_dir: Path, root: Path, diags: list[Diagnostic], cache: YamlCache) -> Project | None:
    project = Project(name=proj_dir.name, directory=proj_dir)
    path = proj_dir / "project.yaml"
    shown = display_path(path)
    if not path.is_file():
        bad = name_diagnostic(proj_dir.name, "project folder", display_path(proj_dir), 1, 1)
        diags.extend([bad] if bad else [])
        return None if bad else project
    outside = entry_outside_diagnostic(path, root, lambda: shown)  # `proj_dir` is checked (`_project_dirs`)
    if outside:
        diags.append(outside)
        return None
    data, errors = load_yaml(path, shown, cache)
    diags.extend(errors)
    if not isinstance(data, dict):
        if data is not None:
            diags.append(Diagnostic(shown, 1, 1, "FX104", "project.yaml must be a mapping", "for example 'name: ods'"))
        return project
    for key in data:
        if key not in _PROJECT_KEYS:
            loc = key_loc(data, key, shown)
            diags.append(Diagnostic(shown, loc.line, loc.col, "FX103", f"unknown key '{key}' in project.yaml", did_you_mean(key, _PROJECT_KEYS)))
    name = data.get("name")
    if name is not None:
        loc = value_loc(data, "name", shown)
        bad = name_diagnostic(scalar_text(name), "project name", shown, loc.line, loc.col) if isinstance(name, str) else \
            Diagnostic(shown, loc.line, loc.col, "FX104", "project name must be text")
        if bad:
            diags.append(bad)  # the folder's name stands in, so the rest still loads
        else:
            project.name = name
    if project.name == proj_dir.name:
        bad = name_diagnostic(proj_dir.name, "project folder", display_path(proj_dir), 1, 1)
        if bad:
            diags.append(bad)
            return None
    description = data.get("description")
    if description is not None and not isinstance(description, str):
        loc = value_loc(data, "description", shown)
        diags.append(Diagnostic(shown, loc.line, loc.col, "FX104", "description must be text"))
    project.description = scalar_text(description) if isinstance(description, str) else ""
    project.variables = string_map(data, "variables", shown, diags, "FX104")
    return project


def read_task_file(path: Path, shown: str, memo: LoadMemo) -> tuple[str | None, Diagnostic | None]:
    """A task file's text, or None and the finding that refuses it (size, encoding, control
    characters, then the SQL limits: a task over them is refused whole, before sqlfluff sees it).
    `memo`: the task files' memo (`LoadMemo.for_tasks`)."""
    raw = read_raw(path) if memo.enabled else None
    text, _, problem = read_text(path, shown, lone_cr_ok=False, raw=raw)
    problem = problem or (check_task_limits(memo, raw, text, shown) if text is not None else None)
    return (None, problem) if problem or text is None else (text, None)


def _refused_stems(found: list[Diagnostic]) -> set[str]:
    """The names of the files a folder listing refused with an error (a link out of the workspace, ...)."""
    return {PurePosixPath(d.path).stem.lower() for d in found if d.is_error}


def _unloadable(project: Project, name: str, found: list[Diagnostic]) -> None:
    """Table `name` of `project` did not load whole; `found`: what its file's load said (its errors' paths kept)."""
    project.unloadable_tables.setdefault(name.lower(), set()).update(d.path for d in found if d.is_error)


class TableFiles(NamedTuple):
    """A project's meta-table files keyed for the memo, and what listing its tables folder found."""

    prefix: KeyPrefix
    files: list[KeyedFile]
    found: list[Diagnostic]


def _table_files(ws: Workspace, project: Project, memo: LoadMemo) -> TableFiles:
    prefix = KeyPrefix(project.name, ws.context_for(project.name), ws.config.secrets)
    found: list[Diagnostic] = []
    listed = yaml_files(project.directory / "tables", ws.root, found)
    return TableFiles(prefix, keyed_files(memo, prefix, "table", [(f.path, f.shown) for f in listed]), found)


def _load_project_contents(ws: Workspace, project: Project, diags: list[Diagnostic], cache: YamlCache, memo: LoadMemo,
                           table_files: TableFiles, preloaded: dict[Path, tuple[MetaTable | None, list[Diagnostic]]],
                           tasks: bool = True, columns: ColumnBudget | None = None, task_memo: LoadMemo | None = None) -> None:
    """`preloaded`: what the workers made of the tables the memo lacked; the loop stays in file order.
    `columns`: the workspace's column budget (FX179), counted in that order."""
    prefix = table_files.prefix
    diags.extend(table_files.found)  # where a serial walk of the tables folder put them
    for refused in (d for d in table_files.found if d.is_error):  # a link out of the workspace, ...
        _unloadable(project, PurePosixPath(refused.path).stem, [refused])
    for file in table_files.files:
        before = len(diags)
        table = memo_table(memo, ws, project, file, diags, cache, preloaded.get(file.path))
        if table is None:
            _unloadable(project, file.path.stem, diags[before:])
            continue
        if any(d.is_error for d in diags[before:]):
            # loaded in part (a column or a key dropped): the tasks checked against it would only say the YAML's
            # mistake again, at their columns (one finding per root cause)
            _unloadable(project, table.name, diags[before:])
        same = project.tables.setdefault(table.name, [])
        if any(t.kind == table.kind for t in same):
            diags.append(Diagnostic(table.loc.path, table.loc.line, table.loc.col, "FX105", f"{table.kind} table '{project.name}.{table.name}' is defined twice"))
            continue
        same.append(table)
        if columns is not None:
            columns.add(table)
    listing: list[Diagnostic] = []
    function_files = [(f.path, f.shown) for f in yaml_files(project.directory / "functions", ws.root, listing)]
    diags.extend(listing)
    project.unloadable_functions.update(_refused_stems(listing))
    for file in keyed_files(memo, prefix, "function", function_files):
        function = memo_function(memo, project, file, diags, cache)
        if function is None:
            project.unloadable_functions.add(file.path.stem.lower())
            continue
        if function.name.lower() in project.functions:
            diags.append(Diagnostic(function.loc.path, function.loc.line, function.loc.col, "FX105", f"function '{project.name}:{function.name}' is defined twice"))
            continue
        project.functions[function.name.lower()] = function
    if not tasks:
        return
    tasks_dir = project.directory / "tasks"
    tasks_rel = tasks_dir.relative_to(ws.root).as_posix()
    for path, shown, rel in files(tasks_dir, "*.sql", ws.root, diags):
        text, problem = read_task_file(path, shown, task_memo or LoadMemo(None))
        if text is None:
            diags.extend([problem] if problem else [])
            continue
        # as Path.with_suffix(""): a file named just ".sql" has no suffix and keeps its name
        name = rel if rel == ".sql" or rel.endswith("/.sql") else rel[: -len(".sql")]
        project.tasks[name] = Task(project.name, name, path, shown, text, sha256(text), f"{tasks_rel}/{rel}")
