"""The planner switch lint, build and upgrade-check share: `--no-planner`, $FLINKX_NO_PLANNER, and
what the planner pass (FX301, `lint/planner_pass.py`) can do for a workspace, decided without
starting anything, so a replayed run is keyed on it (a run with Java and one without differ)."""
from __future__ import annotations

import os
from pathlib import Path

import click

from flinkx_build import run_memo
from flinkx_build.planner import LINT_CODE as PLANNER_CODE

NO_PLANNER_ENV = "FLINKX_NO_PLANNER"  # set (non-empty): as --no-planner, for every run in this environment


def no_planner_option(command):
    return click.option("--no-planner", "no_planner", is_flag=True,
                        help=f"Do not plan tasks on the target's Flink planner ({PLANNER_CODE}); the fast checks still run. "
                             f"Also: ${NO_PLANNER_ENV}=1.")(command)


def planner_state(workspace: Path, use_planner: bool) -> str:
    """"off", why the planner cannot run, or "on <version>"."""
    if not use_planner or os.environ.get(NO_PLANNER_ENV):
        return "off"
    found = run_memo.workspace_config(workspace)
    if found is None:
        return "off"
    config = found[1]
    if config.lint.rules.get(PLANNER_CODE) is False:
        return "off"
    from flinkx_build.planner.session import planner_problem

    return planner_problem(config.flink_version, fetch=False) or f"on {config.flink_version}"


def planner_note(state: str) -> str:
    """What a run says once on stderr when the planner could not run ("" when it ran or was off)."""
    return "" if state == "off" or state.startswith("on ") else f"the planner check ({PLANNER_CODE}) did not run: {state}"
