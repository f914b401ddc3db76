"""The differential harness (issue 28, item 5): mutate real workspaces, let the real Flink
planner label each mutant, run lint on it, and score lint against the planner.

One planner driver serves every mutant (`planner.process.Planner`); each mutant is one edited task file in a copy of
its workspace, loaded by a fresh `Session` (the caches are keyed by content, so the untouched
tasks and meta tables load from them).
"""
from __future__ import annotations

import random
import shutil
import os
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from flinkx_build.checks import check_codes
from flinkx_build.commands.validate import map_finding
from flinkx_build.compile.script import CompiledScript
from flinkx_build.errors import Diagnostic
from flinkx_build.lint.run import lint_task
from flinkx_build.workspace_model import Task
from flinkx_build.pipeline import Session
from flinkx_build.validate.contract import ScriptToValidate
from flinkx_build.planner.process import Planner as FlinkPlanner
from tests.differential.catalogue import mutations_of
from tests.differential.mutations import Mutation
from tests.differential.mutations import TaskSites
from tests.differential.mutations import held_out

REPO = Path(__file__).resolve().parents[2]
COOKBOOK = REPO / "tests" / "fixtures" / "corpus" / "flink-sql-cookbook"
LOADS_CODE = "udfs__01_python_udfs.sql"  # a Python UDF: nothing plans it without running Python


def prepare_workspaces(root: Path) -> list[Path]:
    """Copies of the example workspace, seed 000 and the cookbook corpus (as one project) under `root`."""
    example = root / "example"
    shutil.copytree(REPO / "example-workspace", example, ignore=shutil.ignore_patterns("engines", "build", ".flinkx*"))
    seed = root / "seed000"
    shutil.copytree(REPO / "tests" / "fixtures" / "seed000", seed, ignore=shutil.ignore_patterns("build", ".flinkx*"))
    cookbook = root / "cookbook"
    tasks = cookbook / "projects" / "cookbook" / "tasks"
    tasks.mkdir(parents=True)
    (cookbook / "flinkx.yaml").write_text("engine: flink\nlint:\n  FX480: off\n", encoding="utf-8")
    for sql in sorted(COOKBOOK.glob("*.sql")):
        if sql.name != LOADS_CODE:
            shutil.copy(sql, tasks / sql.name)
    return [example, seed, cookbook, agreement_workspace(root / "agreement")]


def agreement_workspace(root: Path) -> Path:
    """The typed tables of tests/semantic and the tasks of its agreement test: a workspace the
    checks of issue 28 were not written against (its mutants are all held out)."""
    import textwrap

    from tests.conftest import write_tree
    from tests.semantic.conftest import TABLES
    from tests.semantic.test_agreement import CASES

    files = {**TABLES, **{f"projects/dwd/tasks/{name}.sql": sql + "\n" for name, (sql, _) in CASES.items()}}
    write_tree(root, {k: textwrap.dedent(v) for k, v in files.items()})
    return root


@dataclass
class Verdict:
    mutation: Mutation
    workspace: str
    planner: str  # rejected | accepted | refused (the build stopped it before Flink)
    planner_message: str
    planner_line: int  # the task line the planner's error maps to (0: none, or not in the task)
    lint: list[Diagnostic]
    planner_lint: list[Diagnostic] | None = None  # lint with the planner, when that exists
    held_out: bool = False

    @property
    def flagged(self) -> bool:
        return bool(self.lint)

    @property
    def located(self) -> bool:
        """A finding on the edited line, or on the line Flink's own error points at (a GROUP BY
        left short is reported by Flink at the SELECT item that is no longer grouped)."""
        return any(d.line in (self.mutation.line, self.planner_line) for d in self.lint)


def errors_of(diags: list[Diagnostic], task: Task) -> list[Diagnostic]:
    return [d for d in diags if d.is_error and d.path == task.display_path]


class Planner:
    """The real planner's verdict on one task of a session."""

    def __init__(self, flink: FlinkPlanner) -> None:
        self.flink = flink
        self.semantic = check_codes()

    def verdict(self, session: Session, task: Task) -> tuple[str, str, int]:
        """(rejected | accepted | refused, the first message, its line in the task file or 0)."""
        resolved = session.analysed(task)
        stops = [d for d in resolved.diagnostics if d.is_error and d.code not in self.semantic]
        if stops:
            return "refused", stops[0].format(), stops[0].line
        try:
            script: CompiledScript = session.compiled(task)
        except Exception as exc:  # noqa: BLE001 - a compile the mutant breaks: the build refuses it
            return "refused", f"compile: {exc}", 0
        to_check = ScriptToValidate(script.key, f"{task.key}.sql", tuple(script.statements), tuple(script.udfs), session.mode)
        findings = self.flink.validate(to_check)
        if not findings:
            return "accepted", "", 0
        mapped = map_finding(script, findings[0], to_check.compiled_path)
        return "rejected", findings[0].message, mapped.line if mapped.path == task.display_path else 0


def _find_task(session: Session, key: str) -> Task:
    return next(t for t in session.workspace.all_tasks() if t.key == key)


def clean_tasks(workspace: Path, planner: Planner) -> tuple[Session, list[Task]]:
    """The tasks lint and the planner both accept as they are: only those are mutated."""
    session = Session.open(workspace)
    out = []
    for task in session.workspace.all_tasks():
        if errors_of(lint_task(session, task).diagnostics, task):
            continue
        if planner.verdict(session, task)[0] == "accepted":
            out.append(task)
    return session, out


TASK_PATHS: dict[tuple[str, str], Path] = {}  # (workspace, task key) -> the task's file


def generate(workspaces: list[Path], planner: Planner) -> list[tuple[Path, Mutation]]:
    out = []
    for workspace in workspaces:
        session, tasks = clean_tasks(workspace, planner)
        for task in tasks:
            TASK_PATHS[(str(workspace), task.key)] = task.path
            resolved = session.analysed(task)
            sites = TaskSites(task.key, task.text, [s.parsed for s in resolved.statements], session.analysed(task))
            out.extend((workspace, m) for m in mutations_of(sites))
    return out


def select(mutants: list[tuple[Path, Mutation]], seed: int, per_kind: int | None) -> list[tuple[Path, Mutation]]:
    """Every mutant, or at most `per_kind` of each kind, drawn with `seed` (deterministic)."""
    if per_kind is None:
        return mutants
    by_kind: dict[str, list[tuple[Path, Mutation]]] = defaultdict(list)
    for item in mutants:
        by_kind[item[1].kind].append(item)
    rng = random.Random(seed)
    out = []
    for kind in sorted(by_kind):
        items = sorted(by_kind[kind], key=lambda i: (str(i[0]), i[1].site()))
        out.extend(rng.sample(items, min(per_kind, len(items))))
    return out


def judge(workspace: Path, mutation: Mutation, planner: Planner, seed: int, with_planner: bool = False) -> Verdict:
    path = TASK_PATHS[(str(workspace), mutation.task)]
    original = path.read_text(encoding="utf-8")
    path.write_text(mutation.apply(original), encoding="utf-8")
    try:
        session = Session.open(workspace)
        task = _find_task(session, mutation.task)
        lint = errors_of(lint_task(session, task).diagnostics, task)
        label, message, line = planner.verdict(session, task)
        planner_lint = lint_with_planner(workspace, task) if with_planner else None
    finally:
        path.write_text(original, encoding="utf-8")
    unseen = workspace.name == UNSEEN
    return Verdict(mutation, workspace.name, label, message, line, lint, planner_lint, unseen or held_out(mutation, seed))


def planner_flag() -> str | None:
    """How `flinkx lint` adds the real planner (FX301): "" when lint plans by default (it has
    `--no-planner`), else its option, or None when this checkout's lint has no planner."""
    shown = subprocess.run([sys.executable, "-m", "flinkx_build", "lint", "--help"], capture_output=True, text=True, timeout=120).stdout
    if "--no-planner" in shown:
        return ""
    return next((flag for flag in ("--planner", "--with-planner", "--flink") if flag in shown), None)


def lint_with_planner(workspace: Path, task: Task) -> list[Diagnostic]:
    flag = planner_flag()
    if flag is None:
        return []
    env = {k: v for k, v in os.environ.items() if k != "FLINKX_NO_PLANNER"}
    run = subprocess.run([sys.executable, "-m", "flinkx_build", "lint", *([flag] if flag else []), "--format", "json",
                          str(workspace), str(task.path)], capture_output=True, text=True, timeout=600, env=env)
    import json

    try:
        found = json.loads(run.stdout or "[]")
    except ValueError:
        return []
    rows = found if isinstance(found, list) else found.get("diagnostics", [])
    return [Diagnostic(r["path"], r["line"], r["col"], r["code"], r.get("message", "")) for r in rows
            if r.get("severity", "error") == "error" and r["path"] == task.display_path]


@dataclass
class Score:
    mutants: int = 0
    rejected: int = 0
    accepted: int = 0
    refused: int = 0
    true_pos: int = 0
    false_neg: int = 0
    false_pos: int = 0  # flagged while the planner accepts (a benign edit included)
    located: int = 0
    misses: list[Verdict] = field(default_factory=list)
    alarms: list[Verdict] = field(default_factory=list)

    def add(self, v: Verdict) -> None:
        self.mutants += 1
        if v.planner == "refused":
            self.refused += 1
            return
        if v.planner == "rejected":
            self.rejected += 1
            if v.flagged:
                self.true_pos += 1
                self.located += v.located
            else:
                self.false_neg += 1
                self.misses.append(v)
        else:
            self.accepted += 1
            if v.flagged:
                self.false_pos += 1
                self.alarms.append(v)

    @staticmethod
    def _pct(a: int, b: int) -> str:
        return f"{100 * a / b:.0f}%" if b else "-"

    def row(self, name: str) -> str:
        return (f"| {name} | {self.mutants} | {self.rejected} | {self.accepted} | {self.refused} | "
                f"{self._pct(self.true_pos, self.rejected)} | {self._pct(self.true_pos, self.true_pos + self.false_pos)} | "
                f"{self._pct(self.false_pos, self.accepted)} | {self._pct(self.located, self.true_pos)} |")


# built-in function arity and argument types: the generated signature table's checks (another engineer's)
FUNCTION_KINDS = ("extra_argument", "string_for_number")
HEADER = ("| kind | mutants | Flink rejects | Flink accepts | build refuses | recall | precision | false alarms | on the line |\n"
          "|---|---|---|---|---|---|---|---|---|")


UNSEEN = "agreement"  # the workspace no check was tuned on


def table(verdicts: list[Verdict], split: str) -> str:
    """`split`: tuned | held-out | unseen (the agreement workspace alone) | all."""
    if split == "unseen":
        chosen = [v for v in verdicts if v.workspace == UNSEEN]
    else:
        chosen = [v for v in verdicts if split == "all" or v.held_out == (split == "held-out")]
    by_kind: dict[str, Score] = defaultdict(Score)
    overall = Score()
    for v in chosen:
        by_kind[v.mutation.kind].add(v)
        overall.add(v)
    rows = [by_kind[k].row(k) for k in sorted(by_kind)]
    mine = Score()
    for v in chosen:
        if v.mutation.kind not in FUNCTION_KINDS:
            mine.add(v)
    return "\n".join([HEADER, *rows, overall.row("**overall**"), mine.row("**overall without function arity/types**")])


def score(verdicts: list[Verdict]) -> Score:
    out = Score()
    for v in verdicts:
        out.add(v)
    return out
