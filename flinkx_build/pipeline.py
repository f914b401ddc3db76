"""The pipeline every command shares: load -> parse -> resolve -> compile.

`Session` holds one loaded workspace and parses each task at most once (and
not at all when the content-hash cache has it), so build, lint, graph,
explain and validate all read the same resolved model.
"""
from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable
from collections.abc import Iterator
from concurrent.futures import Future
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from flinkx_build.checks import run_checks
from flinkx_build.checks.connector_options import table_diagnostics
from flinkx_build.compile.script import CompiledScript
from flinkx_build.compile.script import compile_task
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import did_you_mean
from flinkx_build.incremental.scheduler import CORES
from flinkx_build.incremental.scheduler import can_fork
from flinkx_build.incremental.scheduler import on_every_core
from flinkx_build.frontend.cache import ParseCache
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.variables import find_variables
from flinkx_build.frontend.worker import ParserProcess
from flinkx_build.frontend.worker import parse_text as _parse_text
from flinkx_build.load.workspace import Headers
from flinkx_build.load.workspace import Only
from flinkx_build.load.workspace import load_workspace
from flinkx_build.workspace_model import Task
from flinkx_build.workspace_model import Workspace
from flinkx_build.noqa import suppressed
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.resolve.task import resolve_task
from flinkx_build.semantic import analyze
from flinkx_build.semantic.summary import TaskSummary
from flinkx_build.semantic.summary import summarize
from flinkx_build.semantic.summary_cache import SummaryCache

PARALLEL_THRESHOLD = 16  # below this, starting workers costs more than it saves



@dataclass
class Session:
    workspace: Workspace
    load_diagnostics: list[Diagnostic]
    cache: ParseCache
    mode: str
    _parsed: dict[str, list[ParsedStatement]] = field(default_factory=dict)
    _analysed: dict[str, AnalysedTask] = field(default_factory=dict)
    _compiled: dict[str, CompiledScript] = field(default_factory=dict)
    _summaries: dict[str, TaskSummary] = field(default_factory=dict)  # with their compiled SQL
    _lite: dict[str, TaskSummary] = field(default_factory=dict)  # made or read without it
    _summary_keys: dict[str, str | None] = field(default_factory=dict)  # the task's text is fixed for a session
    summary_cache: SummaryCache | None = None
    _ahead: dict[str, tuple[Future, str]] = field(default_factory=dict)  # task key -> (parse in a worker, cache key)
    _pool: ProcessPoolExecutor | None = None
    parser: ParserProcess | None = None  # forked before the load, for the few parses a run needs
    _broken_yaml: set[str] | None = None  # the files with a load error (`reads_broken_yaml`)

    @classmethod
    def open(cls, root: Path, mode: str | None = None, use_cache: bool = True, shared_cache: Path | None = None,
             parser: ParserProcess | None = None, on_projects: Callable[[Workspace], Only | None] | None = None,
             only: Only | None = None, headers: Headers | None = None, names: list[list] | None = None) -> "Session":
        """`shared_cache`: another workspace's cache folder to load through and cache summaries in
        (a revision checked out in a temporary folder uses the working tree's: every key is content).
        `parser`: a parser process the caller started and closes (`frontend/worker.py`): the few
        parses and rule passes the session needs go to it. `on_projects`, `only`, `headers`: as in
        `load_workspace`; `names`: the whole workspace's name index, when only part of it is loaded
        (`SummaryCache`)."""
        workspace, diags = load_workspace(root, use_cache, memo_cache=shared_cache, on_projects=on_projects, only=only,
                                          headers=headers)
        diags.extend(table_diagnostics(workspace))  # FX420 in meta-table YAML, once per key
        cache_dir = workspace.cache_root if use_cache else shared_cache
        mode = mode or workspace.config.mode
        return cls(workspace, diags, ParseCache(cache_dir), mode,
                   summary_cache=SummaryCache(cache_dir, workspace, mode, names), parser=parser)

    def close_parser(self) -> None:
        """Stop the parser process: a run that needs every core now (its owner's close is then a no-op)."""
        if self.parser is not None:
            self.parser.close()

    def context_for(self, task: Task) -> dict[str, str]:
        return self.workspace.context_for(task.project)

    def variable_diagnostics(self, task: Task) -> list[Diagnostic]:
        """Unknown `${var}` in a task, at the `$`."""
        from flinkx_build.frontend.splitter import line_col

        context = self.context_for(task)
        out = []
        for use in find_variables(task.text, context, self.workspace.config.secrets):
            if not use.known:
                line, col = line_col(task.text, use.offset)
                out.append(Diagnostic(task.display_path, line, col, "FX110", f"unknown variable '${{{use.name}}}'", did_you_mean(use.name, context)))
        return out

    @contextmanager
    def parsing_ahead(self, tasks: list[Task]) -> Iterator[None]:
        """Parse, in worker processes, those of `tasks` the parse cache does not have, while the
        caller goes on; `parsed()` collects each when it is asked for.

        A build that changed one task spends most of its time importing sqlfluff and parsing it:
        done in a forked worker, that overlaps with reading the other tasks' cached summaries.
        """
        missing = []
        for task in tasks:
            context = self.context_for(task)
            key = ParseCache.key(task.text, context)
            if task.key not in self._parsed and not self.cache.has(key):
                missing.append((task, context, key))
        submit = None
        if missing and self.parser is not None and self.parser.open:
            submit = self.parser.take_or_submit  # a parse the build started early (`workspace_build/early_parse.py`)
        elif missing and can_fork():
            self._pool = ProcessPoolExecutor(min(CORES, len(missing)), mp_context=mp.get_context("fork"))
            submit = self._pool.submit
        for task, context, key in missing if submit is not None else ():
            try:
                self._ahead[task.key] = (submit(_parse_text, (task.text, context)), key)
            except RuntimeError:  # the parser process has died: `parsed()` parses the rest here
                break
        try:
            yield
        finally:
            pool, self._pool, self._ahead = self._pool, None, {}
            if pool is not None:
                pool.shutdown(cancel_futures=True)

    def summarize_on_every_core(self, tasks: list[Task], on_done: Callable[[Task], None] | None = None,
                                compile: bool = True) -> None:
        """Make the summaries of `tasks` in forked workers: parse, resolve, check and compile.

        A cold build is CPU-bound from end to end (sqlfluff's parser, then the resolver, the
        semantic checks and the compiler at a few ms a task), so all of it runs on every core;
        the workers fill the parse and summary caches themselves (entries are written
        atomically). Below PARALLEL_THRESHOLD tasks this does nothing: `summary()` makes them.
        `compile=False`: summaries without the compiled SQL, as `summary(compile=False)` makes.
        """
        if len(tasks) < PARALLEL_THRESHOLD or CORES < 2 or not can_fork():
            return
        self.close_parser()  # one process per core now
        made_by_key = self._summaries if compile else self._lite

        def summarize(index: int) -> TaskSummary:  # in a worker
            task = tasks[index]
            try:
                return self.summary(task, compile=compile)
            finally:
                self.forget(task)  # answered: kept, a worker's 5,000 parses and resolved tasks grew it past 700 MB

        for task, made in zip(tasks, on_every_core(summarize, len(tasks))):
            made_by_key[task.key] = made
            if on_done is not None:
                on_done(task)

    def parsed(self, task: Task) -> list[ParsedStatement]:
        if task.key in self._ahead and task.key not in self._parsed:
            future, key = self._ahead.pop(task.key)
            try:
                statements = future.result()
            except Exception:  # a worker that died (memory, a signal): parse here, and say so if it fails
                statements = _parse_text((task.text, self.context_for(task)))
            self.cache.put(key, statements)
            self._parsed[task.key] = statements
        if task.key not in self._parsed:
            context = self.context_for(task)
            key = ParseCache.key(task.text, context)
            statements = self.cache.get(key)
            if statements is None:
                statements = _parse_text((task.text, context))
                self.cache.put(key, statements)
            self._parsed[task.key] = statements
        return self._parsed[task.key]

    def remember_parse(self, task: Task, statements: list[ParsedStatement], store: bool = True,
                       encoded: list[dict] | None = None) -> None:
        """Adopt a parse made elsewhere (lint parses while it lints); `store=False`: it came from a cache.
        `encoded`: the statements' JSON, when the caller made it (`ParseCache.put`)."""
        self._parsed[task.key] = statements
        self._analysed.pop(task.key, None)
        self._compiled.pop(task.key, None)
        self._summaries.pop(task.key, None)
        self._lite.pop(task.key, None)
        if store:
            context = self.context_for(task)
            self.cache.put(ParseCache.key(task.text, context), statements, encoded)

    def forget(self, task: Task) -> None:
        """Drop what this session made of `task` (a forked worker, once the parent has its answer)."""
        for made in (self._parsed, self._analysed, self._compiled, self._summaries, self._lite, self._summary_keys):
            made.pop(task.key, None)

    def analysed(self, task: Task) -> AnalysedTask:
        """The task with every reference bound and every column analysed, its checks' findings included."""
        if task.key not in self._analysed:
            result = resolve_task(self.workspace, task, self.parsed(task), self.mode)
            result.diagnostics[:0] = self.variable_diagnostics(task)
            analyze(self.workspace, result)
            result.diagnostics.extend(run_checks(self.workspace, result))
            self._analysed[task.key] = result
        return self._analysed[task.key]

    def summary_known(self, task: Task) -> bool:
        """This session or the summary cache has the task's summary with its compiled SQL.

        It is read now: a build asks this of every task and then reads each summary it has, and
        a read that misses costs what checking for the file did (a stat per task)."""
        return self._usable_summary(task, compile=True) is not None

    def summary_key(self, task: Task) -> str | None:
        """The key of the task's summary: equal keys, equal summaries (None: the cache is off or cannot key it)."""
        if task.key not in self._summary_keys:
            self._summary_keys[task.key] = self.summary_cache.key(task, self.context_for(task)) if self.summary_cache else None
        return self._summary_keys[task.key]

    def cached_summary(self, task: Task, compiled: bool = True) -> TaskSummary | None:
        """The task's summary if this session or the summary cache has it (nothing is parsed).

        `compiled=False`: one without the compiled SQL will do (lint, graph, impact read none).
        """
        cache = self.summary_cache
        if task.key not in self._summaries and cache is not None:
            found = cache.get(self.summary_key(task))
            if found is not None:
                self._summaries[task.key] = found
        if task.key in self._summaries:
            return self._summaries[task.key]
        if compiled or cache is None:
            return self._lite.get(task.key)
        if task.key not in self._lite:
            found = cache.get(cache.without_sql(self.summary_key(task)))
            if found is not None:
                self._lite[task.key] = found
        return self._lite.get(task.key)

    def _usable_summary(self, task: Task, compile: bool) -> TaskSummary | None:
        """A summary this session or the cache has that serves `summary(task, compile)`."""
        found = self.cached_summary(task, compiled=compile)
        return found if found is not None and (found.compiled is not None or not compile or self._blocks_compile(task, found.diagnostics)) else None

    def reads_broken_yaml(self, analysed: AnalysedTask) -> bool:
        """The task names a meta table or function whose YAML has an error (or did not load): the YAML's
        finding is the one, so the task is neither compiled nor planned (the planner would only say it again,
        in the task, or say "not found")."""
        if analysed.unloaded:
            return True
        if self._broken_yaml is None:
            self._broken_yaml = {d.path for d in self.load_diagnostics if d.is_error}
        used = [u.table.loc.path for u in analysed.tables.values()] + [u.function.loc.path for u in analysed.functions.values()]
        return any(path in self._broken_yaml for path in used)

    def _blocks_compile(self, task: Task, diags: list[Diagnostic]) -> bool:
        """An error is left once the workspace's `lint:` settings and the task's `-- noqa` have had
        their say: the verdict build reports, so a code turned off compiles as lint says it may."""
        return any(d.is_error and not suppressed(task.text, d) for d in self.workspace.config.lint.apply(diags))

    def summaries(self, tasks: list[Task], compile: bool = True) -> list[TaskSummary]:
        """`summary()` of each of `tasks`; those the caches lack are made on every core first (a
        cold graph or impact of 1,000 tasks is the cold build's work without the compiling)."""
        self.summarize_on_every_core([t for t in tasks if self._usable_summary(t, compile) is None], compile=compile)
        return [self.summary(t, compile=compile) for t in tasks]

    def summary(self, task: Task, compile: bool = True) -> TaskSummary:
        """What the task contributes to the workspace views (graph, manifest, workspace checks, impact).

        `compile=False`: the compiled SQL is not needed (lint, graph, impact). A summary made so
        skips compiling the task and is cached apart, under a key a build never reads.
        """
        found = self._usable_summary(task, compile)
        if found is not None:
            return found
        rt = self.analysed(task)
        ws = self.workspace
        settings = [ws.config.engine, ws.config.flink_version, ws.config.dataphin_version, self.mode]
        key = self.summary_key(task)
        if not compile:
            made = summarize(rt, None, settings)
            if self.summary_cache is not None:
                self.summary_cache.put(self.summary_cache.without_sql(key), made)
            self._lite[task.key] = made
            return made
        blocked = self._blocks_compile(task, rt.diagnostics) or self.reads_broken_yaml(rt)
        made = summarize(rt, None if blocked else self.compiled(task).text, settings)
        if self.summary_cache is not None:
            self.summary_cache.put(key, made)
        self._summaries[task.key] = made
        return made

    def compiled(self, task: Task) -> CompiledScript:
        if task.key not in self._compiled:
            ws = self.workspace
            self._compiled[task.key] = compile_task(self.analysed(task), ws.config.engine, ws.config.flink_version, self.mode)
        return self._compiled[task.key]

    def tasks(self, projects: list[str] | None = None) -> list[Task]:
        tasks = self.workspace.all_tasks()
        if projects:
            tasks = [t for t in tasks if t.project in projects]
        return tasks
