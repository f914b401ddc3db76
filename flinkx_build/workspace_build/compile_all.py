"""The whole workspace compiled: every task's summary, compiled SQL and the cross-task findings.

Build and validate share this step. Each task's summary comes from the
summary cache when none of its inputs changed (`semantic/summary_cache.py`);
only the others are parsed (in parallel when there are many), resolved and
compiled. The graph and the workspace checks read the summaries.
"""
from __future__ import annotations

from dataclasses import dataclass

from flinkx_build.checks.workspace import workspace_findings
from flinkx_build.errors import Diagnostic
from flinkx_build.graph.build import GraphParts
from flinkx_build.graph.build import graph_parts
from flinkx_build.graph.cycles import cycle_findings
from flinkx_build.noqa import suppressed
from flinkx_build.pipeline import PARALLEL_THRESHOLD
from flinkx_build.pipeline import Session
from flinkx_build.progress import NO_PROGRESS
from flinkx_build.progress import Progress
from flinkx_build.semantic.summary import TaskSummary


@dataclass
class WorkspaceBuild:
    outputs: dict[str, tuple[str, str]]  # task key -> (path in the build folder, compiled SQL)
    summaries: list[TaskSummary]
    diagnostics: list[Diagnostic]
    graph: GraphParts  # `.to_networkx()` for the DiGraph


def compile_workspace(session: Session, projects: list[str], progress: Progress = NO_PROGRESS) -> WorkspaceBuild:
    """`progress` is the caller's (the command line passes its terminal bar, `commands/progress.py`)."""
    diags = list(session.load_diagnostics)
    tasks = session.tasks(projects)
    missing = [task for task in tasks if not session.summary_known(task)]
    to_compile = {task.key for task in missing}
    progress.phase("compiling", len(missing))
    if len(missing) >= PARALLEL_THRESHOLD:  # a cold build: all of its work on every core
        session.summarize_on_every_core(missing, on_done=lambda task: progress.advance(task.key))
        to_compile = {task.key for task in missing if not session.summary_known(task)}  # none when it ran
    outputs: dict[str, tuple[str, str]] = {}
    summaries = []
    # a few changed tasks are parsed in a worker while the cached summaries are read
    by_key: dict[str, TaskSummary] = {}
    with session.parsing_ahead(missing if len(missing) < PARALLEL_THRESHOLD else []):
        # the cached ones first, so the worker's parse overlaps with reading them
        for task in sorted(tasks, key=lambda t: t.key in to_compile):
            if task.key in to_compile:
                progress.advance(task.key)
            by_key[task.key] = session.summary(task)
    for task in tasks:
        summary = by_key[task.key]
        summaries.append(summary)
        diags.extend(summary.diagnostics)
        if summary.compiled is not None:
            outputs[task.key] = (f"{task.project}/{task.name}.sql", summary.compiled)
    # a chain of tasks that feeds back into itself cannot be deployed in order
    graph = graph_parts(session.workspace, summaries)
    diags.extend(cycle_findings(graph, session.cache.root))
    diags.extend(workspace_findings(session.workspace, summaries, whole=not projects))
    # the workspace's `lint:` settings and `-- noqa` as lint applies them: one verdict for lint,
    # build --check and pre-commit (a code turned off in flinkx.yaml no longer fails only the build)
    texts = {t.display_path: t.text for t in tasks}
    diags = [d for d in session.workspace.config.lint.apply(diags) if not suppressed(texts.get(d.path, ""), d)]
    return WorkspaceBuild(outputs, summaries, diags, graph)
