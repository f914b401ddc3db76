"""Workspace checks that read the semantic model: one module per check.

`run_checks` is what build and lint call, so each finding is reported once
with the same code and position by every command.
"""
from __future__ import annotations

import sys

from flinkx_build.checks import cast_types
from flinkx_build.checks import cdc_sources
from flinkx_build.checks import changelog_sinks
from flinkx_build.checks import columns
from flinkx_build.checks import connector_options
from flinkx_build.checks import credentials
from flinkx_build.checks import engine_settings
from flinkx_build.checks import grouping
from flinkx_build.checks import hint_arguments
from flinkx_build.checks import insert_columns
from flinkx_build.checks import insert_schema
from flinkx_build.checks import late_data_sink
from flinkx_build.checks import lookup_keys
from flinkx_build.checks import lookup_operands
from flinkx_build.checks import mrs_hints
from flinkx_build.checks import query_shapes
from flinkx_build.checks import settings
from flinkx_build.checks import streaming_order
from flinkx_build.checks import time_attributes
from flinkx_build.checks import workspace
from flinkx_build.errors import Diagnostic
from flinkx_build.model import Workspace
from flinkx_build.resolve.model import ResolvedTask
from flinkx_build.semantic.model import TaskModel

CHECKS = (columns.check, insert_schema.check, changelog_sinks.check, lookup_keys.check, time_attributes.check,
          cdc_sources.check, credentials.check, settings.check, mrs_hints.check, late_data_sink.check,
          connector_options.check, engine_settings.check, grouping.check, insert_columns.check, cast_types.check,
          streaming_order.check, lookup_operands.check, query_shapes.check, hint_arguments.check)


def check_codes() -> frozenset[str]:
    """The codes the checks report (each check module lists its own in CODES)."""
    modules = {sys.modules[check.__module__] for check in CHECKS} | {workspace}
    return frozenset(code for module in modules for code in getattr(module, "CODES", ()))


def run_checks(ws: Workspace, resolved: ResolvedTask, model: TaskModel) -> list[Diagnostic]:
    """Every check's findings, except in statements the resolver already found broken:
    a bad hint or an unknown table would only cascade into column findings there."""
    broken = _broken_lines(resolved)
    out: list[Diagnostic] = []
    for check in CHECKS:
        out.extend(d for d in check(ws, resolved, model) if d.path != resolved.task.display_path or d.line not in broken)
    return out


def _broken_lines(resolved: ResolvedTask) -> set[int]:
    path = resolved.task.display_path
    error_lines = {d.line for d in resolved.diagnostics if d.is_error and d.path == path}
    starts = [rs.parsed.pos.line for rs in resolved.statements]
    out: set[int] = set()
    for i, start in enumerate(starts):
        end = starts[i + 1] - 1 if i + 1 < len(starts) else max(error_lines | {start})
        lines = set(range(start, end + 1))
        if lines & error_lines:
            out |= lines
    return out
