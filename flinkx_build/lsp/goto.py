"""Go to definition: a reference in a task -> the YAML (or statement) that defines it."""
from __future__ import annotations

import os
from pathlib import Path

from flinkx_build.load.root import CONFIG_FILE
from flinkx_build.load.yaml_io import item_loc
from flinkx_build.load.yaml_io import key_loc
from flinkx_build.load.yaml_io import load_yaml
from flinkx_build.lsp.analysis import TaskAnalysis
from flinkx_build.lsp.locate import ColumnTarget
from flinkx_build.lsp.locate import FunctionTarget
from flinkx_build.lsp.locate import TableTarget
from flinkx_build.lsp.locate import Target
from flinkx_build.lsp.locate import VariableTarget
from flinkx_build.lsp.locate import local_definition
from flinkx_build.workspace_model import Loc


def definition(analysis: TaskAnalysis, target: Target) -> Loc | None:
    """Where `target` is defined; paths are absolute."""
    if isinstance(target, TableTarget):
        return _table(analysis, target)
    if isinstance(target, FunctionTarget):
        use = analysis.resolved.functions.get(target.bound.key) if target.bound.kind == "project" else None
        return _absolute(use.function.loc) if use else None
    if isinstance(target, VariableTarget):
        return _variable(analysis, target.name)
    if isinstance(target, ColumnTarget):
        origin = target.column.origin
        return Loc(os.path.abspath(origin.path), origin.line, origin.col) if origin else None
    return None


def _table(analysis: TaskAnalysis, target: TableTarget) -> Loc | None:
    bound = target.bound
    if bound.kind == "meta" and bound.key in analysis.resolved.tables:
        return _absolute(analysis.resolved.tables[bound.key].table.loc)
    if bound.kind == "local":
        stmt = local_definition(analysis.statements, bound.key)
        if stmt is not None:
            pos = stmt.code_pos or stmt.pos
            return Loc(str(analysis.task.path.resolve()), pos.line, pos.col)
    return None


def _variable(analysis: TaskAnalysis, name: str) -> Loc | None:
    """A project's own variable wins over the workspace's (`Workspace.variables_for`)."""
    ws = analysis.session.workspace
    project = ws.projects.get(analysis.task.project)
    if project is not None and name in project.variables:
        return _yaml_key(project.directory / "project.yaml", ("variables", name))
    config = ws.root / CONFIG_FILE
    if name in ws.config.variables:
        return _yaml_key(config, ("variables", name))
    if name in ws.config.secrets:
        data, _ = load_yaml(config, str(config))
        secrets = data.get("secrets") if isinstance(data, dict) else None
        if isinstance(secrets, list) and name in secrets:
            return _absolute(item_loc(secrets, secrets.index(name), str(config)))
    return None


def _yaml_key(path: Path, keys: tuple[str, ...]) -> Loc | None:
    data, _ = load_yaml(path, str(path))
    node = data
    loc = None
    for key in keys:
        if not isinstance(node, dict) or key not in node:
            return loc
        loc = key_loc(node, key, str(path))
        node = node[key]
    return _absolute(loc) if loc else None


def _absolute(loc: Loc) -> Loc:
    # model paths are display paths (relative to the server's working folder)
    return Loc(os.path.abspath(loc.path), loc.line, loc.col)
