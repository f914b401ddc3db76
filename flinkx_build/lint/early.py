"""`flinkx lint FILE...`: the named files' rule passes start before the meta tables load.

A rule pass reads only the file's text, its project's variables and the lint
settings (`lint/jobs.py`), all known once flinkx.yaml and the project.yaml files
are read. So the lint command hands `start_rule_passes` to the loader
(`load_workspace(on_projects=...)`), which sends each named task's pass to the
parser process then; the pass runs while this process loads the tables,
functions and tasks, and `lint/run.py` takes its result when it gets to the
task (`ParserProcess.take_or_submit`: only a job equal to the one it would send).
In a large workspace the pass and the rest of the load take about as long
each, so they run side by side.

A file the loader will refuse (over a limit, unreadable) or whose pass is in the
rule cache is not started; a job that turns out not to match is never used.
"""
from __future__ import annotations

from pathlib import Path

from flinkx_build.frontend.worker import ParserProcess
from flinkx_build.lint.rule_worker import run_job
from flinkx_build.lint.result_cache import RuleCache
from flinkx_build.lint.select import CodeFilter
from flinkx_build.lint.task_jobs import job_for
from flinkx_build.lint.task_jobs import rule_cache_key
from flinkx_build.load.memo import LoadMemo
from flinkx_build.load.workspace import display_path
from flinkx_build.load.workspace import read_task_file
from flinkx_build.workspace_model import Workspace
from flinkx_build.paths import below


def start_rule_passes(parser: ParserProcess, ws: Workspace, files: list[Path], codes: CodeFilter) -> None:
    cache = RuleCache(ws.cache_root)
    for file in files:
        path = file.resolve()
        project = next((p for p in ws.projects.values() if below(str(path), str(p.directory / "tasks")) is not None), None)
        if project is None or path.suffix != ".sql":
            continue
        shown = display_path(path)
        text, _ = read_task_file(path, shown, LoadMemo(None))  # what the loader will refuse is not started
        if text is None:
            continue
        job = job_for(ws, text, shown, ws.context_for(project.name), False, codes)
        if cache.get(rule_cache_key(job, ws.config.lint)) is None:
            try:
                parser.submit_ahead(run_job, job)
            except RuntimeError:  # the parser process has died: the passes are made later, here
                return
