"""Workspace checks that read the semantic model: one module per check, one `Check` object each.

`REGISTRY` lists every check (`check.py`: its codes, their human names, its docs page); `run_checks`
is what build and lint call, so each finding is reported once with the same code and position by
every command.
"""
from __future__ import annotations

from bisect import bisect_right

from flinkx_build.checks import cast_types
from flinkx_build.checks import cdc_sources
from flinkx_build.checks import changelog_sinks
from flinkx_build.checks import columns
from flinkx_build.checks import connector_options
from flinkx_build.checks import connector_roles
from flinkx_build.checks import credentials
from flinkx_build.checks import engine_settings
from flinkx_build.checks import flink_target
from flinkx_build.checks import function_calls
from flinkx_build.checks import grouping
from flinkx_build.checks import hint_arguments
from flinkx_build.checks import insert_columns
from flinkx_build.checks import insert_schema
from flinkx_build.checks import late_data_sink
from flinkx_build.checks import lookup_keys
from flinkx_build.checks import lookup_operands
from flinkx_build.checks import mrs_hints
from flinkx_build.checks import on_conflict
from flinkx_build.checks import operand_types
from flinkx_build.checks import query_shapes
from flinkx_build.checks import reserved_options
from flinkx_build.checks import settings
from flinkx_build.checks import streaming_order
from flinkx_build.checks import task_sinks
from flinkx_build.checks import time_attributes
from flinkx_build.checks import workspace
from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.errors import Diagnostic
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.workspace_model import Workspace

# FX499 comes from `flinkx upgrade-check` alone (upgrade/report.py): a version change, not a task's SQL
UPGRADE_STATE = Check("state across a Flink version change", (CheckCode("FX499", "state-not-restored"),), None, flink_finds_it=False)
# FX301 comes from lint's planner pass (lint/planner_pass.py): the target's own planner, not the model
PLANNER = Check("the target's planner, in lint", (CheckCode("FX301", "planner"),), None)

# in the order they run: a task's findings come out in this order
REGISTRY: tuple[Check, ...] = (
    columns.CHECK, function_calls.CHECK, insert_schema.CHECK, changelog_sinks.CHECK, lookup_keys.CHECK, time_attributes.CHECK,
    cdc_sources.CHECK, credentials.CHECK, settings.CHECK, mrs_hints.CHECK, late_data_sink.CHECK,
    connector_options.CHECK, connector_roles.CHECK, engine_settings.CHECK, reserved_options.CHECK, flink_target.CHECK, on_conflict.CHECK, grouping.CHECK, insert_columns.CHECK, cast_types.CHECK, operand_types.CHECK,
    streaming_order.CHECK, lookup_operands.CHECK, task_sinks.CHECK, query_shapes.CHECK, hint_arguments.CHECK, workspace.CHECK, UPGRADE_STATE, PLANNER,
)
CHECKS = tuple(check.run for check in REGISTRY if check.run is not None)


def check_codes() -> frozenset[str]:
    """Every code the semantic checks report."""
    return frozenset(code for check in REGISTRY for code in check.code_names)


def codes_flink_also_finds() -> frozenset[str]:
    """The codes of the checks whose problems Flink's planner finds too (`flinkx validate` goes on past them)."""
    return frozenset(code for check in REGISTRY if check.flink_finds_it for code in check.code_names)


# A finding that follows from another one in the same statement is not said beside it (one finding per root
# cause, issue 44): a lookup join whose key compares two kinds of type, or has no equality, matches no key of the
# dimension either (FX441 would only repeat the mistake as a missing key); nor has a table without a lookup.
DEPENDANTS: dict[str, tuple[str, ...]] = {"FX441": ("FX440", "FX442", "FX443")}


def run_checks(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    """Every check's findings, except in statements the resolver already found broken:
    a bad hint or an unknown table would only cascade into column findings there; and except the
    dependants (`DEPENDANTS`) of a finding in the same statement."""
    broken = _broken_lines(analysed)
    out: list[Diagnostic] = []
    for check in CHECKS:
        out.extend(d for d in check(ws, analysed) if d.path != analysed.task.display_path or d.line not in broken)
    starts = sorted(rs.parsed.pos.line for rs in analysed.statements)
    roots = {(d.code, d.path, bisect_right(starts, d.line)) for d in out}
    return [d for d in out if not any((root, d.path, bisect_right(starts, d.line)) in roots for root in DEPENDANTS.get(d.code, ()))]


def _broken_lines(analysed: AnalysedTask) -> set[int]:
    path = analysed.task.display_path
    error_lines = {d.line for d in analysed.diagnostics if d.is_error and d.path == path}
    starts = [rs.parsed.pos.line for rs in analysed.statements]
    out: set[int] = set()
    for i, start in enumerate(starts):
        end = starts[i + 1] - 1 if i + 1 < len(starts) else max(error_lines | {start})
        lines = set(range(start, end + 1))
        if lines & error_lines:
            out |= lines
    return out
