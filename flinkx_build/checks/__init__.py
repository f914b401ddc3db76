"""Workspace checks that read the semantic model: one module per check.

`run_checks` is what build and lint call, so each finding is reported once
with the same code and position by every command.
"""
from __future__ import annotations

from flinkx_build.checks import columns
from flinkx_build.checks import insert_schema
from flinkx_build.errors import Diagnostic
from flinkx_build.model import Workspace
from flinkx_build.resolve.model import ResolvedTask
from flinkx_build.semantic.model import TaskModel

CHECKS = (columns.check, insert_schema.check)


def run_checks(ws: Workspace, resolved: ResolvedTask, model: TaskModel) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for check in CHECKS:
        out.extend(check(ws, resolved, model))
    return out
