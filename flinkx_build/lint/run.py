"""lint: sqlfluff's FX rules and the workspace checks, statement by statement.

The sqlfluff pass and the build read the same parse: each statement is
linted by sqlfluff (which parses it with the `dataphin` dialect), and the
tree of that lint run is read into the facts the resolver works on. So
`flinkx lint` and `flinkx build` can never disagree about a statement.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from pathlib import Path

from flinkx_build.checks.workspace import wanted_opt_in
from flinkx_build.checks.workspace import workspace_findings
from flinkx_build.errors import Diagnostic
from flinkx_build.frontend.positions import Pos
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.graph.build import graph_parts
from flinkx_build.graph.cycles import cycle_findings
from flinkx_build.limits import offset_of
from flinkx_build.lint.changed import Reach
from flinkx_build.lint.parallel import rule_passes_in_parallel
from flinkx_build.lint.planner_pass import CODE as PLANNER_CODE
from flinkx_build.lint.planner_pass import PlannerPass
from flinkx_build.lint.result_cache import RuleCache
from flinkx_build.lint.result_cache import RulePass
from flinkx_build.lint.rule_worker import run_job
from flinkx_build.lint.select import EVERY_CODE
from flinkx_build.lint.select import CodeFilter
from flinkx_build.lint.task_jobs import rule_job
from flinkx_build.lint.task_jobs import task_rule_cache_key
from flinkx_build.lint.write import FileFix
from flinkx_build.lint.yamlfix import quote_values
from flinkx_build.noqa import suppressed
from flinkx_build.pipeline import Session
from flinkx_build.progress import NO_PROGRESS
from flinkx_build.progress import Progress
from flinkx_build.resolve.task import unknown_table_word
from flinkx_build.workspace_model import Task


@dataclass
class TaskLint:
    diagnostics: list[Diagnostic]
    fixed_text: str | None = None  # set by fix when something changed
    fixed: list[Diagnostic] = field(default_factory=list)  # the findings that fix repaired


def lint_task(session: Session, task: Task, fix: bool = False, codes: CodeFilter = EVERY_CODE,
              done: RulePass | None = None) -> TaskLint:
    """`done`: this task's rule pass, already made (by a worker process or read from the cache)."""
    rule_cache = RuleCache(session.cache.root)
    key = None
    if fix:
        done = None  # a fix makes its own pass
    elif done is None:  # (a given pass was looked up under its key by the caller)
        key = task_rule_cache_key(session, task, codes)
        done = rule_cache.get(key)
    if done is not None:
        session.remember_parse(task, done.parsed, store=False)
        return _with_model_findings(session, task, codes, done.diagnostics, [], ())
    diags, parsed, edits, rules = _rule_pass(session, task, fix, codes)
    if not fix:  # a fixing pass's tree is the fixed one: it is no parse of the text on disk (the model parses that)
        encoded = rule_cache.put(key, RulePass(diags, parsed))["parsed"] if key is not None else None
        session.remember_parse(task, parsed, encoded=encoded)
    return _with_model_findings(session, task, codes, diags, edits, rules)


def _rule_pass(session: Session, task: Task, fix: bool, codes: CodeFilter
               ) -> tuple[list[Diagnostic], list[ParsedStatement], list[tuple[int, int, str]], tuple[str, ...]]:
    """sqlfluff's FX rules over every statement of the task: (findings, parse, fix edits, the rules that ran).

    In the session's parser process when it has one (it imported sqlfluff while the workspace loaded)."""
    job = rule_job(session, task, fix, codes)
    parser = session.parser
    if parser is not None and parser.open:
        try:
            diags, parsed, edits = parser.take_or_submit(run_job, job).result()  # (started early: `lint/early.py`)
            return diags, parsed, edits, job.rules
        except Exception:  # the process died (memory, a signal): the pass is made here
            parser.close()
    diags, parsed, edits = run_job(job)
    return diags, parsed, edits, job.rules


def _with_model_findings(session: Session, task: Task, codes: CodeFilter, diags: list[Diagnostic],
                         edits: list[tuple[int, int, str]], rules: tuple[str, ...]) -> TaskLint:
    """Add what the resolver and the semantic checks find (never cached: they read meta tables and functions)."""
    lint_cfg = session.workspace.config.lint
    diags = list(diags)
    resolved = session.analysed(task)
    # a reserved word where no table has that name (`FROM ods.user`): FX130 unknown table is the root, as the
    # build says, and quoting the word (FX01's fix) would not repair it
    unknown = [found for d in diags if d.code == "FX01" and (found := unknown_table_word(session.workspace, task, Pos(d.line, d.col)))]
    if unknown:
        places = {(d.line, d.col) for d in unknown}
        diags = [d for d in diags if not (d.code == "FX01" and (d.line, d.col) in places)] + unknown
        edits = [_unquoted_at(task.text, edit, [offset_of(task.text, *place) for place in places]) for edit in edits]
    # the build reports some rule problems too (FX03): keep one line per place and code
    seen = {(d.line, d.col, d.code) for d in diags}
    diags.extend(d for d in resolved.diagnostics if (d.line, d.col, d.code) not in seen)
    diags = [d for d in lint_cfg.apply(diags) if not suppressed(task.text, d) and codes.keeps(d.code)]
    fixed_text = None
    if edits:
        fixed_text = task.text
        for start, end, text in sorted(edits, reverse=True):
            fixed_text = fixed_text[:start] + text + fixed_text[end:]
        fixed_text = None if fixed_text == task.text else fixed_text
    repaired = [d for d in diags if d.fixable and d.code in rules] if fixed_text is not None else []
    return TaskLint(diags, fixed_text, repaired)


def _unquoted_at(text: str, edit: tuple[int, int, str], places: list[int]) -> tuple[int, int, str]:
    """A statement's fix edit without the backticks FX01 put around the word at each of `places` (the word is
    an unknown table there, FX130: quoting it would not repair it). The fixed text has each earlier quoted
    word two characters longer, so the word is found from its old offset on."""
    start, end, fixed = edit
    for at in sorted((p for p in places if start <= p < end), reverse=True):
        word = text[at:].split(None, 1)[0].rstrip(";,)")
        found = fixed.find(f"`{word}`", at - start)
        if word and found >= 0:
            fixed = fixed[:found] + word + fixed[found + len(word) + 2:]
    return start, end, fixed


def select_targets(session: Session, files: list[Path]) -> tuple[list[Task], set[str]]:
    """Tasks and YAML display paths to lint; everything when `files` is empty."""
    ws = session.workspace
    tasks = ws.all_tasks()
    if not files:
        return tasks, {"*"}
    wanted = {f.resolve() for f in files}
    # a task's path is absolute below the resolved root, and only a linked file resolves elsewhere
    # (the loader enters no linked folder): resolving every task is a system call per task
    chosen = [t for t in tasks if t.path in wanted or (os.path.islink(t.path) and t.path.resolve() in wanted)]
    from flinkx_build.load.workspace import display_path

    # load findings of the named files count too: a task refused at load (FX18x) is not among `chosen`
    yaml_paths = {display_path(f) for f in wanted if f.suffix in (".yaml", ".yml", ".sql")}
    return chosen, yaml_paths


def lint_workspace(session: Session, files: list[Path], fix: bool = False, codes: CodeFilter = EVERY_CODE,
                   progress: Progress = NO_PROGRESS, planner: PlannerPass | None = None,
                   reach: Reach | None = None) -> tuple[list[Diagnostic], list[FileFix]]:
    """The findings, and (with `fix`) the files the safe fixes would change; writes nothing.
    `planner`: plan each task on its target's planner too (FX301), not while fixing. `reach`: lint
    the tasks a change reaches (`lint/changed.py`), and report what a whole lint says of them."""
    tasks, yaml_paths = (reach.tasks, set(reach.paths)) if reach is not None else select_targets(session, files)
    diags = [d for d in session.load_diagnostics if "*" in yaml_paths or d.path in yaml_paths]
    diags = [d for d in session.workspace.config.lint.apply(diags) if codes.keeps(d.code)]
    diags, fixes = _yaml_fixes(diags, fix)
    progress.phase("linting", len(tasks))
    done = {} if fix else rule_passes_in_parallel(session, tasks, codes, on_done=lambda task: progress.advance(task.key))
    progress.phase("checking", len(tasks))
    planning = []  # each task's planner findings, waited for once every task is checked (planned meanwhile)
    for task in tasks:
        progress.advance(task.key)
        result = lint_task(session, task, fix=fix, codes=codes, done=done.get(task.key))
        diags.extend(result.diagnostics)
        if planner is not None and not fix and codes.keeps(PLANNER_CODE):
            planning.append(planner.submit(task, result.diagnostics))
        if result.fixed_text is not None:
            fixes.append(FileFix(task.path, task.display_path, task.text, result.fixed_text, result.fixed))
    for planned in planning:
        diags.extend(session.workspace.config.lint.apply(planned()))
    if "*" in yaml_paths or reach is not None:  # the checks that compare tasks with each other
        lint_cfg = session.workspace.config.lint
        # a change's reach: with every task that may share a finding with a reached one, in workspace order
        across = tasks if reach is None else reach.across(session.workspace.all_tasks())
        summaries = [session.summary(t, compile=False) for t in across]
        found = workspace_findings(session.workspace, summaries, whole=True, opt_in=wanted_opt_in(lint_cfg.rules, codes.select))
        # a chain of tasks that feeds back into itself: FX200 as the build finds it, so lint and build agree
        found += cycle_findings(graph_parts(session.workspace, summaries), session.cache.root)
        texts = {t.display_path: t.text for t in across}
        diags.extend(d for d in lint_cfg.apply(found) if codes.keeps(d.code) and not suppressed(texts.get(d.path, ""), d)
                     and (reach is None or d.path in yaml_paths))
    return sorted(set(diags)), fixes


def _yaml_fixes(diags: list[Diagnostic], fix: bool) -> tuple[list[Diagnostic], list[FileFix]]:
    """Mark the FX106 findings the YAML fix can repair; with `fix`, the quoted files."""
    by_path: dict[str, list[Diagnostic]] = {}
    for diag in diags:
        if diag.code == "FX106":
            by_path.setdefault(diag.path, []).append(diag)
    fixable: set[tuple[str, int, int]] = set()
    fixes: list[FileFix] = []
    for shown, found in sorted(by_path.items()):
        path = Path(shown)
        try:
            before = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        after, quoted = quote_values(before, {(d.line, d.col) for d in found})
        fixable.update((shown, line, col) for line, col in quoted)
        repaired = [replace(d, fixable=True) for d in found if (d.line, d.col) in quoted]
        if fix and after != before:
            fixes.append(FileFix(path, shown, before, after, repaired))
    marked = [replace(d, fixable=True) if (d.path, d.line, d.col) in fixable and d.code == "FX106" else d for d in diags]
    return marked, fixes
