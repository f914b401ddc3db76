"""load: read flinkx.yaml, projects, meta tables, functions and tasks.

Loading never raises for a user mistake: it returns the workspace it could
read plus diagnostics, so lint can report everything at once and build can
stop on the first error set. Only a missing workspace is a `UsageError`.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flinkx_build.errors import Diagnostic
from flinkx_build.errors import UsageError
from flinkx_build.errors import did_you_mean
from flinkx_build.hashing import sha256
from flinkx_build.load.tables import load_function
from flinkx_build.load.tables import load_table
from flinkx_build.load.yaml_io import YamlCache
from flinkx_build.load.yaml_io import key_loc
from flinkx_build.load.yaml_io import load_yaml
from flinkx_build.load.yaml_io import value_loc
from flinkx_build.model import ENGINES
from flinkx_build.model import MODES
from flinkx_build.model import DeployConfig
from flinkx_build.model import LintConfig
from flinkx_build.model import Project
from flinkx_build.model import Task
from flinkx_build.model import Workspace
from flinkx_build.model import WorkspaceConfig

CONFIG_FILE = "flinkx.yaml"
_CONFIG_KEYS = {
    "engine", "flink_version", "dataphin_version", "build_dir", "cache_dir",
    "mode", "variables", "secrets", "lint", "name", "description", "deploy",
}
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
    config = _load_config(config_path, diags)
    cache = YamlCache(root / config.cache_dir / "yaml" if use_cache else None)
    projects: dict[str, Project] = {}
    projects_dir = root / "projects"
    for proj_dir in sorted(p for p in projects_dir.iterdir() if p.is_dir()) if projects_dir.is_dir() else []:
        project = _load_project_header(proj_dir, diags, cache)
        if project.name in projects:
            diags.append(Diagnostic(display_path(proj_dir), 1, 1, "FX105", f"project '{project.name}' is defined twice"))
            continue
        projects[project.name] = project
    workspace = Workspace(root, config, projects, config_path)
    for project in projects.values():
        _load_project_contents(workspace, project, diags, cache)
    return workspace, diags


def _load_config(path: Path, diags: list[Diagnostic]) -> WorkspaceConfig:
    shown = display_path(path)
    data, errors = load_yaml(path, shown)
    diags.extend(Diagnostic(d.path, d.line, d.col, "FX100", d.message) for d in errors)
    config = WorkspaceConfig()
    if data is None:
        return config
    if not isinstance(data, dict):
        diags.append(Diagnostic(shown, 1, 1, "FX100", "flinkx.yaml must be a mapping"))
        return config
    for key in data:
        if key not in _CONFIG_KEYS:
            loc = key_loc(data, key, shown)
            diags.append(Diagnostic(shown, loc.line, loc.col, "FX100", f"unknown key '{key}'", did_you_mean(key, _CONFIG_KEYS)))

    def choice(key: str, allowed: tuple[str, ...], default: str) -> str:
        value = str(data.get(key, default))
        if value not in allowed:
            loc = value_loc(data, key, shown)
            diags.append(Diagnostic(shown, loc.line, loc.col, "FX100", f"{key} must be one of {', '.join(allowed)}, not '{value}'", did_you_mean(value, allowed)))
            return default
        return value

    config.engine = choice("engine", ENGINES, "flink")
    config.mode = choice("mode", MODES, "stream")
    for key in ("flink_version", "dataphin_version", "build_dir", "cache_dir"):
        if key in data:
            setattr(config, key, str(data[key]))
    config.variables = _string_map(data, "variables", shown, diags, "FX100")
    secrets = data.get("secrets") or []
    if not isinstance(secrets, list):
        loc = value_loc(data, "secrets", shown)
        diags.append(Diagnostic(shown, loc.line, loc.col, "FX100", "secrets must be a list of variable names"))
        secrets = []
    config.secrets = [str(s) for s in secrets]
    config.lint = _lint_config(data.get("lint") or {}, shown, data, diags)
    config.name = str(data.get("name") or "")
    config.deploy = _deploy_config(data, shown, diags)
    return config


def _deploy_config(data: Any, shown: str, diags: list[Diagnostic]) -> DeployConfig:
    """`deploy: {jars: [path, ...]}`."""
    section = data.get("deploy")
    deploy = DeployConfig()
    if section is None:
        return deploy
    jars = section.get("jars") if isinstance(section, dict) else None
    unknown = [k for k in section if k != "jars"] if isinstance(section, dict) else []
    if not isinstance(section, dict) or unknown or not isinstance(jars or [], list):
        loc = value_loc(data, "deploy", shown)
        diags.append(Diagnostic(shown, loc.line, loc.col, "FX100", "deploy must be a mapping with `jars:` (a list of jar paths)"))
        return deploy
    deploy.jars = [str(j) for j in jars or []]
    return deploy


def _lint_config(section: Any, shown: str, data: Any, diags: list[Diagnostic]) -> LintConfig:
    lint = LintConfig()
    if not isinstance(section, dict):
        loc = value_loc(data, "lint", shown)
        diags.append(Diagnostic(shown, loc.line, loc.col, "FX100", "lint must be a mapping of rule code to on/off/error/warning"))
        return lint
    for code, setting in section.items():
        if code == "reserved_word_warnings":
            lint.reserved_word_warnings = setting in (True, "on", "true")
            continue
        code = str(code).upper()
        if setting in (False, "off"):
            lint.rules[code] = False
        elif setting in (True, "on"):
            lint.rules[code] = True
        elif setting in ("error", "warning"):
            lint.rules[code] = True
            lint.severities[code] = str(setting)
        else:
            loc = value_loc(section, str(code), shown)
            diags.append(Diagnostic(shown, loc.line, loc.col, "FX100", f"lint.{code} must be on, off, error or warning"))
    return lint


def _string_map(data: Any, key: str, shown: str, diags: list[Diagnostic], code: str) -> dict[str, str]:
    section = data.get(key) if isinstance(data, dict) else None
    if section is None:
        return {}
    if not isinstance(section, dict):
        loc = value_loc(data, key, shown)
        diags.append(Diagnostic(shown, loc.line, loc.col, code, f"{key} must be a mapping"))
        return {}
    return {str(k): _scalar_text(v) for k, v in section.items()}


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _load_project_header(proj_dir: Path, diags: list[Diagnostic], cache: YamlCache) -> Project:
    project = Project(name=proj_dir.name, directory=proj_dir)
    path = proj_dir / "project.yaml"
    if not path.is_file():
        return project
    shown = display_path(path)
    data, errors = load_yaml(path, shown, cache)
    diags.extend(errors)
    if not isinstance(data, dict):
        return project
    for key in data:
        if key not in _PROJECT_KEYS:
            loc = key_loc(data, key, shown)
            diags.append(Diagnostic(shown, loc.line, loc.col, "FX103", f"unknown key '{key}' in project.yaml", did_you_mean(key, _PROJECT_KEYS)))
    project.name = str(data.get("name") or proj_dir.name)
    project.description = str(data.get("description") or "")
    project.variables = _string_map(data, "variables", shown, diags, "FX104")
    return project


def _yaml_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def _load_project_contents(ws: Workspace, project: Project, diags: list[Diagnostic], cache: YamlCache) -> None:
    for path in _yaml_files(project.directory / "tables"):
        table = load_table(ws, project, path, display_path(path), diags, cache)
        if table is None:
            continue
        same = project.tables.setdefault(table.name, [])
        if any(t.kind == table.kind for t in same):
            diags.append(Diagnostic(table.loc.path, table.loc.line, table.loc.col, "FX105", f"{table.kind} table '{project.name}.{table.name}' is defined twice"))
            continue
        same.append(table)
    for path in _yaml_files(project.directory / "functions"):
        function = load_function(project, path, display_path(path), diags, cache)
        if function is None:
            continue
        if function.name.lower() in project.functions:
            diags.append(Diagnostic(function.loc.path, function.loc.line, function.loc.col, "FX105", f"function '{project.name}:{function.name}' is defined twice"))
            continue
        project.functions[function.name.lower()] = function
    tasks_dir = project.directory / "tasks"
    if tasks_dir.is_dir():
        for path in sorted(tasks_dir.rglob("*.sql")):
            shown = display_path(path)
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                diags.append(Diagnostic(shown, 1, 1, "FX101", f"cannot read file: {exc}"))
                continue
            name = path.relative_to(tasks_dir).with_suffix("").as_posix()
            rel = path.relative_to(ws.root).as_posix()
            project.tasks[name] = Task(project.name, name, path, shown, text, sha256(text), rel)
