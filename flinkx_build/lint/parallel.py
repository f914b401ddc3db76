"""A cold `flinkx lint` on every core: the sqlfluff rule pass of the files the cache lacks, in worker processes.

The rule pass is pure-Python parsing and rule checking (tens of ms a
statement) and independent per file, so it is forked out like the parse in
`Session.summarize_on_every_core`. Workers compute and fill the rule and parse caches (they inherit the loaded
workspace through fork; entries are written atomically); the parent does
all the rest (resolving, semantic and workspace checks) itself, in order, so
the findings are exactly those of a serial lint.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flinkx_build.incremental.scheduler import CORES
from flinkx_build.incremental.scheduler import can_fork
from flinkx_build.incremental.scheduler import on_every_core
from flinkx_build.lint.result_cache import RuleCache
from flinkx_build.lint.result_cache import RulePass
from flinkx_build.lint.select import CodeFilter
from flinkx_build.lint.task_jobs import rule_job
from flinkx_build.lint.task_jobs import task_rule_cache_key
from flinkx_build.pipeline import PARALLEL_THRESHOLD
from flinkx_build.pipeline import Session
from flinkx_build.workspace_model import Task

def _lint_one(session: Session, task: Task, codes: CodeFilter, key: str) -> dict[str, Any]:
    """In a worker: the rule pass of one task, stored in the rule and parse caches here: encoding a
    thousand parses again in the parent cost as much as the rest of its work."""
    from flinkx_build.lint.rule_pass import run_rule_pass

    diags, parsed, _ = run_rule_pass(rule_job(session, task, False, codes))
    data = RuleCache(session.cache.root).put(key, RulePass(diags, parsed))
    session.remember_parse(task, parsed, encoded=data["parsed"])  # into the parse cache too: the next build reuses it
    session.forget(task)  # the parent has it from the answer: kept here, it only grows this worker
    return data


def rule_passes_in_parallel(session: Session, tasks: list[Task], codes: CodeFilter,
                            on_done: Callable[[Task], None] | None = None) -> dict[str, RulePass]:
    """Task key -> rule pass: read from the cache, and made by workers for the rest when there are
    enough of them to pay for starting workers (the caller makes those one by one)."""
    cache = RuleCache(session.cache.root)
    keys = {task.key: task_rule_cache_key(session, task, codes) for task in tasks}
    done: dict[str, RulePass] = {}
    missing = []
    for index, task in enumerate(tasks):
        found = cache.get(keys[task.key])
        if found is None:
            missing.append(index)
        else:
            done[task.key] = found
    if len(missing) < PARALLEL_THRESHOLD or CORES < 2 or not can_fork():
        return done
    session.close_parser()  # one process per core now
    work = [tasks[index] for index in missing]
    made = on_every_core(lambda i: _lint_one(session, work[i], codes, keys[work[i].key]), len(work))
    for task, data in zip(work, made):
        result = RulePass.from_json(data)
        if result is not None:  # the worker has cached it (`_lint_one`)
            session.remember_parse(task, result.parsed, store=False)
            done[task.key] = result
        if on_done is not None:
            on_done(task)
    return done
