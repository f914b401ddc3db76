"""A workspace's root and its flinkx.yaml: what every command reads first, and all a replayed build reads.

Kept apart from the loader (`workspace.py`, which pulls in the meta-table reader, the memos and the
worker pool) so that a build or lint that changed nothing (`run_memo.py`) imports no more than it needs.
"""
from __future__ import annotations

from pathlib import Path

from flinkx_build.errors import Diagnostic
from flinkx_build.errors import UsageError
from flinkx_build.load.config import read_config
from flinkx_build.load.listing import display_path
from flinkx_build.load.names import outside_diagnostic
from flinkx_build.load.yaml_io import load_yaml
from flinkx_build.workspace_model import WorkspaceConfig

CONFIG_FILE = "flinkx.yaml"


def find_workspace(start: Path) -> Path:
    """The folder holding flinkx.yaml: `start` or one of its parents."""
    start = start.resolve()
    for folder in [start, *start.parents]:
        if (folder / CONFIG_FILE).is_file():
            return folder
    raise UsageError(f"{display_path(start)}: no {CONFIG_FILE} here or in any parent folder (is this a flinkx workspace?)")


def load_config(path: Path, root: Path, diags: list[Diagnostic]) -> WorkspaceConfig:
    """flinkx.yaml read, every problem in it an FX100 in `diags` (each stops the command: exit 2)."""
    shown = display_path(path)
    outside = outside_diagnostic(path, root, shown, "FX100")
    if outside:
        diags.append(outside)
        return WorkspaceConfig()
    data, errors = load_yaml(path, shown)
    diags.extend(Diagnostic(d.path, d.line, d.col, "FX100", d.message, d.hint) for d in errors)
    return read_config(data, shown, root, diags)
