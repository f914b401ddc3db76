"""load: read flinkx.yaml, projects, meta tables, functions and tasks.

Loading never raises for a user mistake: it returns the workspace it could
read plus diagnostics, so lint can report everything at once and build can
stop on the first error set. Only a missing workspace is a `UsageError`.
"""
from __future__ import annotations

import os
from pathlib import Path

from flinkx_build.errors import Diagnostic
from flinkx_build.errors import UsageError
from flinkx_build.errors import did_you_mean
from flinkx_build.hashing import sha256
from flinkx_build.load.tables import load_function
from flinkx_build.load.tables import load_table
from flinkx_build.limits import check_sql_text
from flinkx_build.load.config import read_config
from flinkx_build.load.config import scalar_text
from flinkx_build.load.config import string_map
from flinkx_build.load.names import has_control
from flinkx_build.load.names import name_diagnostic
from flinkx_build.load.names import outside_diagnostic
from flinkx_build.load.yaml_io import YamlCache
from flinkx_build.load.yaml_io import key_loc
from flinkx_build.load.yaml_io import load_yaml
from flinkx_build.load.yaml_io import read_text
from flinkx_build.load.yaml_io import value_loc
from flinkx_build.model import Project
from flinkx_build.model import Task
from flinkx_build.model import Workspace
from flinkx_build.model import WorkspaceConfig

CONFIG_FILE = "flinkx.yaml"
_PROJECT_KEYS = {"name", "description", "variables"}


def display_path(path: Path) -> str:
    """Path as the user should see it: relative to the cwd when below it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if rel.startswith("..") else rel


def find_workspace(start: Path) -> Path:
    """The folder holding flinkx.yaml: `start` or one of its parents."""
    start = start.resolve()
    for folder in [start, *start.parents]:
        if (folder / CONFIG_FILE).is_file():
            return folder
    raise UsageError(f"{display_path(start)}: no {CONFIG_FILE} here or in any parent folder (is this a flinkx workspace?)")


def load_workspace(root: Path, use_cache: bool = True) -> tuple[Workspace, list[Diagnostic]]:
    root = root.resolve()
    config_path = root / CONFIG_FILE
    if not config_path.is_file():
        raise UsageError(f"{display_path(root)}: not a flinkx workspace (no {CONFIG_FILE})")
    diags: list[Diagnostic] = []
    config = _load_config(config_path, root, diags)
    cache = YamlCache(root / config.cache_dir / "yaml" if use_cache else None, root / config.cache_dir)
    projects: dict[str, Project] = {}
    projects_dir = root / "projects"
    for proj_dir in _project_dirs(projects_dir, root, diags):
        project = _load_project_header(proj_dir, root, diags, cache)
        if project is None:
            continue
        if project.name in projects:
            diags.append(Diagnostic(display_path(proj_dir), 1, 1, "FX105", f"project '{project.name}' is defined twice"))
            continue
        projects[project.name] = project
    workspace = Workspace(root, config, projects, config_path)
    for project in projects.values():
        _load_project_contents(workspace, project, diags, cache)
    return workspace, diags


def _load_config(path: Path, root: Path, diags: list[Diagnostic]) -> WorkspaceConfig:
    shown = display_path(path)
    outside = outside_diagnostic(path, root, shown, "FX100")
    if outside:
        diags.append(outside)
        return WorkspaceConfig()
    data, errors = load_yaml(path, shown)
    # every problem with flinkx.yaml stops the command (exit 2): report them all as FX100
    diags.extend(Diagnostic(d.path, d.line, d.col, "FX100", d.message, d.hint) for d in errors)
    return read_config(data, shown, root, diags)


def _project_dirs(projects_dir: Path, root: Path, diags: list[Diagnostic]) -> list[Path]:
    if not projects_dir.is_dir():
        return []
    outside = outside_diagnostic(projects_dir, root, display_path(projects_dir))
    if outside:
        diags.append(outside)
        return []
    folders = []
    for folder in sorted(p for p in projects_dir.iterdir() if p.is_dir()):
        problem = outside_diagnostic(folder, root, display_path(folder))
        if problem is None and has_control(folder.name):
            problem = Diagnostic(display_path(folder), 1, 1, "FX186", f"project folder {folder.name!r} holds a control character", "rename it")
        if problem:
            diags.append(problem)
            continue
        folders.append(folder)
    return folders


def _load_project_header(proj_dir: Path, root: Path, diags: list[Diagnostic], cache: YamlCache) -> Project | None:
    project = Project(name=proj_dir.name, directory=proj_dir)
    path = proj_dir / "project.yaml"
    shown = display_path(path)
    if not path.is_file():
        bad = name_diagnostic(proj_dir.name, "project folder", display_path(proj_dir), 1, 1)
        diags.extend([bad] if bad else [])
        return None if bad else project
    outside = outside_diagnostic(path, root, shown)
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


def _files(folder: Path, pattern: str, root: Path, diags: list[Diagnostic]) -> list[Path]:
    """Regular files under `folder` matching `pattern`, none reached through a symlink leaving the workspace."""
    if not folder.is_dir():
        return []
    outside = outside_diagnostic(folder, root, display_path(folder))
    if outside:
        diags.append(outside)
        return []
    for dirpath, dirnames, _ in os.walk(folder):  # rglob skips linked folders: say so when they lead out
        for name in dirnames:
            linked = Path(dirpath) / name
            problem = outside_diagnostic(linked, root, display_path(linked)) if linked.is_symlink() else None
            diags.extend([problem] if problem else [])
    found = []
    for path in sorted(folder.rglob(pattern)):
        if not path.is_file():  # folders named x.sql, FIFOs, sockets, dangling links
            continue
        problem = outside_diagnostic(path, root, display_path(path))
        if problem is None and has_control(path.relative_to(folder).as_posix()):
            problem = Diagnostic(display_path(path), 1, 1, "FX186", f"file name {path.name!r} holds a control character", "rename it")
        if problem:
            diags.append(problem)
            continue
        found.append(path)
    return found


def _yaml_files(folder: Path, root: Path, diags: list[Diagnostic]) -> list[Path]:
    return [p for p in _files(folder, "*", root, diags) if p.suffix in (".yaml", ".yml")]


def _load_project_contents(ws: Workspace, project: Project, diags: list[Diagnostic], cache: YamlCache) -> None:
    for path in _yaml_files(project.directory / "tables", ws.root, diags):
        table = load_table(ws, project, path, display_path(path), diags, cache)
        if table is None:
            project.unloadable_tables.add(path.stem.lower())
            continue
        same = project.tables.setdefault(table.name, [])
        if any(t.kind == table.kind for t in same):
            diags.append(Diagnostic(table.loc.path, table.loc.line, table.loc.col, "FX105", f"{table.kind} table '{project.name}.{table.name}' is defined twice"))
            continue
        same.append(table)
    for path in _yaml_files(project.directory / "functions", ws.root, diags):
        function = load_function(project, path, display_path(path), diags, cache)
        if function is None:
            continue
        if function.name.lower() in project.functions:
            diags.append(Diagnostic(function.loc.path, function.loc.line, function.loc.col, "FX105", f"function '{project.name}:{function.name}' is defined twice"))
            continue
        project.functions[function.name.lower()] = function
    tasks_dir = project.directory / "tasks"
    for path in _files(tasks_dir, "*.sql", ws.root, diags):
        shown = display_path(path)
        text, _, problem = read_text(path, shown, lone_cr_ok=False)
        # limits before sqlfluff: a task over them is refused whole, in milliseconds
        problem = problem or (check_sql_text(text, shown) if text is not None else None)
        if problem or text is None:
            diags.extend([problem] if problem else [])
            continue
        name = path.relative_to(tasks_dir).with_suffix("").as_posix()
        rel = path.relative_to(ws.root).as_posix()
        project.tasks[name] = Task(project.name, name, path, shown, text, sha256(text), rel)
