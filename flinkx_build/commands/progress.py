"""A progress bar for long builds, lints and validations (rich), on a terminal only.

Shown on stderr when both stdout and stderr are terminals and -q is not
given (CI logs and pipes never get one), and only once the work has taken
over a second: a quick run prints exactly what it printed before. The bar
is transient (it disappears when done), so what stays on the screen is the
usual findings and summary. It names the task in hand.
"""
from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import TYPE_CHECKING
from typing import Iterator

from flinkx_build.commands.console import QUIET
from flinkx_build.commands.console import verbosity

if TYPE_CHECKING:
    from rich.progress import Progress
    from rich.progress import TaskID

    from flinkx_build.workspace_build.compile_all import WorkspaceBuild
    from flinkx_build.errors import Diagnostic
    from flinkx_build.pipeline import Session
    from flinkx_build.semantic.summary import TaskSummary
    from flinkx_build.workspace_model import Task

SHOW_AFTER_S = 1.0


class TaskProgress:
    """`phase(label, total)` then `advance(task_name)` per task; does nothing when the bar is off."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.started = time.monotonic()
        self._bar: Progress | None = None
        self._task: TaskID | None = None
        self._label, self._total, self._done = "", 0, 0

    def phase(self, label: str, total: int) -> None:
        self._label, self._total, self._done = label, total, 0
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, description=label, total=total, completed=0, current="")

    def advance(self, name: str) -> None:
        if not self.enabled:
            return
        self._done += 1
        if self._bar is None and time.monotonic() - self.started >= SHOW_AFTER_S:
            self._start()
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=self._done, current=name)

    def _start(self) -> None:
        from rich.console import Console  # imported by a run that shows a bar, not by every run
        from rich.progress import BarColumn
        from rich.progress import MofNCompleteColumn
        from rich.progress import Progress
        from rich.progress import TextColumn
        from rich.progress import TimeElapsedColumn

        console = Console(file=sys.stderr, highlight=False, markup=False, emoji=False)
        self._bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                             TimeElapsedColumn(), TextColumn("{task.fields[current]}"),
                             console=console, transient=True)  # other output prints above the bar
        self._task = self._bar.add_task(self._label, total=self._total, completed=self._done, current="")
        self._bar.start()

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def bar_wanted() -> bool:
    """A terminal on both streams, and no -q."""
    try:
        terminal = sys.stdout.isatty() and sys.stderr.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        terminal = False
    return terminal and verbosity() > QUIET


@contextmanager
def task_progress() -> Iterator[TaskProgress]:
    progress = TaskProgress(bar_wanted())
    try:
        yield progress
    finally:
        progress.stop()


def compile_with_progress(session: Session, projects: list[str]) -> WorkspaceBuild:
    """`compile_workspace` with the terminal bar (shown only where `bar_wanted`)."""
    from flinkx_build.workspace_build.compile_all import compile_workspace

    with task_progress() as progress:
        return compile_workspace(session, projects, progress)


def plan_with_progress(session: Session, tasks: list[Task], summaries: list[TaskSummary]) -> dict[str, list[Diagnostic]]:
    """Task key -> the target planner's findings, for each of `tasks` compiled (`workspace_build/planner_findings.py`),
    with the terminal bar; what could not run is said once on stderr."""
    from flinkx_build.commands.console import echo_error
    from flinkx_build.lint.planner_pass import PlannerPass
    from flinkx_build.workspace_build.planner_findings import planned_tasks

    planner = PlannerPass(session)
    try:
        with task_progress() as progress:
            return planned_tasks(session, tasks, summaries, planner, progress)
    finally:
        planner.close()
        if planner.note:
            echo_error(f"flinkx: {planner.note}")
