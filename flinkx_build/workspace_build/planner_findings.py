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


def planner_findings(session: Session, projects: list[str], summaries: list[TaskSummary], planner: PlannerPass,
                     progress: Progress = NO_PROGRESS) -> list[Diagnostic]:
    """FX301 for each compiled task, after the workspace's `lint:` settings (as lint applies them)."""
    compiled = {s.key: s for s in summaries if s.compiled is not None}
    tasks = [t for t in session.tasks(projects) if t.key in compiled]
    progress.phase("planning", len(tasks))
    found: list[Diagnostic] = []
    for task in tasks:
        progress.advance(task.key)
        found.extend(planner.findings(task, compiled[task.key].diagnostics))
    return session.workspace.config.lint.apply(found)
