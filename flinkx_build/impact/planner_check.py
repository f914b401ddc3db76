"""`flinkx impact --validate`: ask the Flink planner of the workspace's flink_version about the impacted tasks at the
head, so the report can say where flinkx's prediction and Flink differ."""
from __future__ import annotations

from flinkx_build.impact.compare import Impact
from flinkx_build.pipeline import Session
from flinkx_build.planner import FlinkUnavailable
from flinkx_build.planner.process import Planner
from flinkx_build.planner.session import open_planner
from flinkx_build.planner.session import target_or_problem
from flinkx_build.validate.contract import ScriptToValidate


def task_for(session: Session, imp: Impact):
    name = imp.node.removeprefix(f"task.{imp.project}.")
    project = session.workspace.projects.get(imp.project)
    return project.tasks.get(name) if project is not None else None


def open_flink(session: Session) -> Planner:
    """The planner driver of the workspace's flink_version (its jars fetched on first use); FlinkUnavailable."""
    target = target_or_problem(session.workspace.config.flink_version, "validate")
    if isinstance(target, str):
        raise FlinkUnavailable(target)
    return open_planner(target.version, fetch=True)


def flink_verdicts(session: Session, impacts: list[Impact]) -> dict[str, list[str]]:
    """Impacted task node -> Flink's messages at the head ([] where Flink accepts it), on the head's target."""
    out: dict[str, list[str]] = {}
    with open_flink(session) as flink:
        for imp in impacts:
            task = task_for(session, imp)
            if task is None:
                continue
            script = session.compiled(task)
            to_check = ScriptToValidate(script.key, task.display_path, tuple(script.statements), tuple(script.udfs), session.mode)
            out[imp.node] = [f.message for f in flink.validate(to_check)]
    return out


def disagreements(impacts: list[Impact], verdicts: dict[str, list[str]]) -> list[str]:
    """One line per task where the prediction (breaking or not) is not what Flink says."""
    lines = []
    for imp in impacts:
        if imp.node not in verdicts:
            continue
        rejected = bool(verdicts[imp.node])
        if rejected != imp.breaking:
            said = f"Flink rejects it: {verdicts[imp.node][0]}" if rejected else "Flink accepts it"
            lines.append(f"{imp.node}: flinkx predicted {imp.klass}, but {said}")
    return lines
