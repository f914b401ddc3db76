"""What moving a workspace from its `flink_version` to another breaks, task by task.

The workspace is linted twice, as it is and as the target version (every check that reads
`flink_version`: FX01's reserved words, removed options, ON CONFLICT, types, functions, arity),
and the findings the target adds are the report. A streaming job with state gets FX499 when
the move crosses a major version and its state does not survive: with the planners, a restore trial
across versions answers per task (state_trial.py: the source version's savepoint restored by the target);
without them the warning says the state was not proven. What the target's own planner says about each
task comes in through `planner_verdicts`.
"""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from flinkx_build.errors import Diagnostic
from flinkx_build.flink_data import FlinkFacts
from flinkx_build.flink_data import facts_for
from flinkx_build.frontend import query_ir as ir
from flinkx_build.lint.run import lint_workspace
from flinkx_build.pipeline import Session
from flinkx_build.upgrade.state_trial import LOST
from flinkx_build.upgrade.state_trial import NOT_CHECKED
from flinkx_build.upgrade.state_trial import SURVIVES
from flinkx_build.upgrade.state_trial import Survival

# the codes a version change can add (besides FX499 below)
VERSION_CODES = ("FX01", "FX122", "FX123", "FX124", "FX125", "FX126", "FX127", "FX497", "FX498")
KIND = {"FX01": "reserved word", "FX122": "removed option", "FX123": "deprecated option", "FX124": "type",
        "FX125": "function", "FX126": "function arguments", "FX127": "syntax", "FX497": "ON CONFLICT",
        "FX498": "option value", "FX499": "state", "FX301": "planner"}


@dataclass
class TaskUpgrade:
    task: str  # project/name
    path: str
    findings: list[Diagnostic] = field(default_factory=list)

    @property
    def breaks(self) -> bool:
        return any(d.is_error for d in self.findings)


@dataclass
class UpgradeReport:
    source: str
    target: str
    tasks: list[TaskUpgrade]
    other: list[Diagnostic]  # findings in meta-table YAML and flinkx.yaml
    planner_note: str = ""  # why the target's planner gave no verdict, when it did not
    state: dict[str, Survival] = field(default_factory=dict)  # task key -> whether its state survives (a trial)

    @property
    def findings(self) -> list[Diagnostic]:
        return sorted(self.other + [d for t in self.tasks for d in t.findings])


def session_as(root: Path, version: str | None) -> Session:
    """A fresh session (no caches) whose workspace is read as `version` (None: as written)."""
    session = Session.open(root, use_cache=False)
    if version is not None:
        session.workspace.config.flink_version = version
    return session


def _key(d: Diagnostic) -> tuple[str, int, int, str]:
    # not the message: it names the version ("... in Flink 1.20"), the same problem on both is not the move's
    return (d.path, d.line, d.col, d.code)


def upgrade_report(root: Path, to_version: str, use_planner: bool = True) -> UpgradeReport:
    """`use_planner`: ask the target's planner too (FX301), fetching its jars on first use."""
    target = facts_for(to_version)  # raises UnknownFlinkVersion: the command reports it
    before_session = session_as(root, None)
    source = facts_for(before_session.workspace.config.flink_version)
    before, _ = lint_workspace(before_session, [])
    after_session = session_as(root, target.version)
    after, _ = lint_workspace(after_session, [])
    seen = {_key(d) for d in before}
    added = [d for d in after if d.code in VERSION_CODES and _key(d) not in seen]
    survival = _trials(before_session, source, target) if use_planner else {}
    added += state_findings(after_session, source, target, survival)
    broken_before = {d.path for d in before if d.is_error}
    verdicts, planner_note = planner_verdicts(after_session, after, broken_before) if use_planner else ([], "")
    added += verdicts
    tasks = []
    by_path = {}
    for project in after_session.workspace.projects.values():
        for task in project.tasks.values():
            entry = TaskUpgrade(task.key, task.display_path)
            tasks.append(entry)
            by_path[task.display_path] = entry
    other = []
    for d in added:
        (by_path[d.path].findings if d.path in by_path else other).append(d)
    for entry in tasks:
        entry.findings.sort()
    return UpgradeReport(source.version, target.version, sorted(tasks, key=lambda t: t.task), sorted(other), planner_note,
                         survival)


def _trials(session: Session, source: FlinkFacts, target: FlinkFacts) -> dict[str, Survival]:
    """The restore trial across versions per stateful task, when the move crosses a major version (Flink keeps
    state within one); {} when the planners cannot run here (the warning then says so)."""
    from flinkx_build.planner import FlinkUnavailable
    from flinkx_build.upgrade.state_trial import state_survival

    if source.version.split(".")[0] == target.version.split(".")[0] or session.mode != "stream":
        return {}
    try:
        survival = state_survival(session, source.version, target.version)
    except FlinkUnavailable:
        return {}
    stateful = {task.key for task in session.tasks([]) if any(
        stmt.parsed.kind == "insert" and stateful_operator(stmt.parsed.query) for stmt in session.analysed(task).statements)}
    return {key: value for key, value in survival.items() if value.status != NOT_CHECKED or key in stateful}


def planner_verdicts(session: Session, found: list[Diagnostic], broken_before: set[str]) -> tuple[list[Diagnostic], str]:
    """The target planner's verdict on each task the offline checks let compile (FX301, as lint
    reports it, at the Dataphin token), and why there is none when the planner cannot run here.
    A task already broken at its own version (`broken_before`, its files) is not the move's.

    The user asked about this version, so its jars are fetched like `flinkx validate` does; the
    planner's place a fast check already names is not repeated."""
    from flinkx_build.lint.planner_pass import PlannerPass  # a JVM client: only when a report is made

    planner = PlannerPass(session, fetch=True)
    by_path: dict[str, list[Diagnostic]] = {}
    for d in found:
        by_path.setdefault(d.path, []).append(d)
    out: list[Diagnostic] = []
    try:
        for project in session.workspace.projects.values():
            for task in project.tasks.values():
                if task.display_path not in broken_before:
                    out.extend(planner.findings(task, by_path.get(task.display_path, [])))
    finally:
        planner.close()
    return out, planner.note


def state_findings(session: Session, source: FlinkFacts, target: FlinkFacts,
                   survival: dict[str, Survival] | None = None) -> list[Diagnostic]:
    """FX499 for each streaming task with a stateful operator whose state is not shown to survive the move to
    another major version (Flink 2.0's release notes promise nothing): the trial's refusal with Flink's
    message, or, without a trial, that it was not proven. A task whose trial restored gets none."""
    if source.version.split(".")[0] == target.version.split(".")[0] or session.mode != "stream":
        return []
    survival = survival or {}
    out = []
    for project in session.workspace.projects.values():
        for task in project.tasks.values():
            trial = survival.get(task.key)
            if trial is not None and trial.status == SURVIVES:
                continue
            for stmt in session.analysed(task).statements:
                what = stateful_operator(stmt.parsed.query) if stmt.parsed.kind == "insert" else ""
                if what:
                    at = stmt.parsed.code_pos or stmt.parsed.pos
                    out.append(Diagnostic(task.display_path, at.line, at.col, "FX499", _state_message(what, source, target, trial),
                                          "start the job without a savepoint on the new version (and replay its sources), or keep it on the old one",
                                          severity="warning"))
                    break
    return out


def _state_message(what: str, source: FlinkFacts, target: FlinkFacts, trial: Survival | None) -> str:
    if trial is not None and trial.status == LOST:
        return (f"the job keeps state ({what}) that Flink {target.version} does not restore from a Flink {source.version} "
                f"savepoint (a restore trial): {trial.detail}")
    why = f"not proven: {trial.detail}" if trial is not None else "not proven: no restore trial ran (the planners are off)"
    return (f"the job keeps state ({what}) that Flink {target.version} may not restore from a Flink {source.version} "
            f"savepoint ({why})")


def stateful_operator(query: ir.StatementQuery | None) -> str:
    """What in a query keeps state in a streaming job ('' for none found): aggregation, DISTINCT,
    a regular join, an OVER aggregate, a window or MATCH_RECOGNIZE."""
    if query is None:
        return ""
    for q in query.queries:
        if q.group_by or any(_aggregates(i.expr) for i in q.items):
            return "an aggregation"
        if q.distinct:
            return "SELECT DISTINCT"
        if any(s.kind == "window" for s in q.sources):
            return "a window"
        if any(s.kind == "match" for s in q.sources):
            return "MATCH_RECOGNIZE"
        if any(s.join and not s.lookup for s in q.sources[1:]):
            return "a join"
        if any(e.over for i in q.items for e in i.expr.walk()):
            return "an OVER aggregate or ROW_NUMBER"
    return ""


def _aggregates(expr: ir.Expr) -> bool:
    from flinkx_build.semantic.functions import AGGREGATES  # the one list of aggregate names

    return any(e.kind == ir.CALL and e.text in AGGREGATES and not e.over for e in expr.walk())


def with_kind(d: Diagnostic) -> str:
    return KIND.get(d.code, d.code)
