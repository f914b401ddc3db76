"""Options and helpers shared by the commands."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any

import click

from flinkx_build.commands.console import echo_findings
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import UsageError
from flinkx_build.load.root import find_workspace

if TYPE_CHECKING:
    from collections.abc import Callable

    from flinkx_build.frontend.worker import ParserProcess
    from flinkx_build.load.workspace import Only
    from flinkx_build.pipeline import Session
    from flinkx_build.workspace_model import Workspace

workspace_argument = click.argument("workspace", required=False, default=".", type=click.Path(file_okay=False, path_type=Path))
mode_option = click.option("--mode", type=click.Choice(["stream", "batch"]), default=None, help="Build mirror tables for this mode (default: flinkx.yaml's mode).")
project_option = click.option("--project", "projects", multiple=True, metavar="P", help="Only this project (repeatable).")


def open_session(workspace: Path, mode: str | None = None, use_cache: bool = True,
                 parser: "ParserProcess | None" = None,
                 on_projects: "Callable[[Workspace], Only | None] | None" = None, **limits: Any) -> "Session":
    """`parser`, `on_projects`, `limits` (`headers`, `names`): as in `Session.open`."""
    from flinkx_build.pipeline import Session  # sqlfluff and the pipeline: only for a command that works

    if not workspace.exists():
        raise UsageError(f"{workspace}: no such folder")
    session = Session.open(find_workspace(workspace), mode, use_cache, parser=parser, on_projects=on_projects, **limits)
    config_errors = [d for d in session.load_diagnostics if d.code == "FX100"]
    if config_errors:
        raise UsageError("invalid flinkx.yaml\n" + "\n".join(d.format() for d in config_errors))
    return session


def check_projects(session: Session, projects: tuple[str, ...]) -> list[str]:
    from flinkx_build.errors import did_you_mean

    for name in projects:
        if name not in session.workspace.projects:
            hint = did_you_mean(name, session.workspace.projects)
            raise UsageError(f"unknown project '{name}'" + (f" ({hint})" if hint else ""))
    return list(projects)


def echo_diagnostics(diags: list[Diagnostic], err: bool = False) -> None:
    """Findings on stdout (`err=True` when stdout carries a document: graph)."""
    echo_findings(diags, err=err)
