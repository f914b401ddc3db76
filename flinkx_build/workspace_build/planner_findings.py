"""The target planner's verdict in a build: lint's planner pass (FX301, `lint/planner_pass.py`) over
every task the build compiled, so `flinkx build`, `build --check`, the flinkx-build pre-commit hook
and lint report the same findings when Java and the target's jars are here (issue 28 item 4).

A task the planner accepted before with the same inputs is answered from the pass's index of
accepted tasks, keyed by the task's summary key: an incremental build neither resolves nor plans
the tasks it did not change.
"""
from __future__ import annotations

from flinkx_build.errors import Diagnostic
from flinkx_build.lint.planner_pass import PlannerPass
from flinkx_build.pipeline import Session
from flinkx_build.progress import NO_PROGRESS
from flinkx_build.progress import Progress
from flinkx_build.semantic.summary import TaskSummary
from flinkx_build.workspace_model import Task


def planner_findings(session: Session, projects: list[str], summaries: list[TaskSummary], planner: PlannerPass,
                     progress: Progress = NO_PROGRESS) -> list[Diagnostic]:
    """FX301 for each compiled task, after the workspace's `lint:` settings (as lint applies them)."""
    return [d for found in planned_tasks(session, session.tasks(projects), summaries, planner, progress).values() for d in found]


def planned_tasks(session: Session, tasks: list[Task], summaries: list[TaskSummary], planner: PlannerPass,
                  progress: Progress = NO_PROGRESS) -> dict[str, list[Diagnostic]]:
    """Task key -> its FX301 findings, after the workspace's `lint:` settings, for each of `tasks` compiled."""
    compiled = {s.key: s for s in summaries if s.compiled is not None}
    chosen = [t for t in tasks if t.key in compiled]
    progress.phase("planning", len(chosen))
    lint = session.workspace.config.lint
    found: dict[str, list[Diagnostic]] = {}
    planning = {}
    for task in chosen:
        progress.advance(task.key)
        planning[task.key] = planner.submit(task, compiled[task.key].diagnostics)  # planned on every core
    for key, planned in planning.items():
        found[key] = lint.apply(planned())
    return found
