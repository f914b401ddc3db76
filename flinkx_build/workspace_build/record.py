"""The record of the last successful build: what an incremental build needs of every task it does not visit.

A build after one edit must not load, key and read 10,000 tasks to learn that
9,999 are as they were (issue 45). The last build leaves, as a fact of the one
store (`incremental/facts.py`, BUILD_RECORD), what it was made from and what
each task gave it:

* every entry below `projects/` as the run memo's walk saw it (a file by its
  stat, `run_memo.Fingerprint.entries`, and a recent file by its bytes too),
  and flinkx.yaml's bytes: the next build compares them to know what changed;
* every project's header (the next load reads no project.yaml) and the whole
  name index (the summary keys of the tasks it does make);
* of each task, in the workspace's order: its file, its findings as the build
  reported them, the planner's, its edges in the graph (the manifest's maps and
  the cycle check), what the checks across tasks read (mysql-cdc readers, sink
  writes, Kafka reads) and the file it compiled to;
* the findings of everything else (the load's, the meta tables' YAML);
* the build folder's signature (the manifest it patches must be that build's).

It is keyed by the workspace, the build folder, the options and the current
folder (findings show paths relative to it), and checked like every entry: a
record that does not decode is a miss, and the build is then made whole.
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import asdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flinkx_build.errors import Diagnostic
from flinkx_build.graph.build import task_elements
from flinkx_build.incremental.facts import BUILD_RECORD
from flinkx_build.incremental.store import FactStore
from flinkx_build.load.workspace import Headers
from flinkx_build.noqa import suppressed
from flinkx_build.run_memo import Fingerprint
from flinkx_build.semantic.summary import TaskSummary
from flinkx_build.semantic.summary import across_parts
from flinkx_build.semantic.summary import from_across_parts
from flinkx_build.semantic.summary_cache import name_parts
from flinkx_build.workspace_model import Task
from flinkx_build.workspace_model import Workspace

Edge = tuple[str, str, bool]  # (from, to, a lookup: no dependency in stream mode)


@dataclass
class TaskPart:
    """What one task gave the last build."""

    rel: str  # its file below the workspace root
    output: str | None  # its file in the build folder (None: not compiled)
    findings: list[Diagnostic]  # its summary's, as the build reported them (lint settings and noqa applied)
    planned: list[Diagnostic]  # the planner's, likewise
    edges: list[Edge]
    across: list[Any]  # what the checks across tasks read of its summary (`summary.across_parts`)

    def summary(self, key: str) -> TaskSummary:
        """A summary holding what the checks across tasks read (nothing else)."""
        project, name = key.split("/", 1)
        return from_across_parts(key, project, name, self.across)


@dataclass
class BuildRecord:
    config: str  # flinkx.yaml (`Fingerprint.config`)
    entries: dict[str, str]  # every entry below projects/ as the walk keyed it
    racy: dict[str, str]  # of those, the files too recent for their stat alone: their bytes' hash
    headers: Headers
    names: list[list]
    others: list[Diagnostic]  # the load's findings and the YAML's, as reported
    tasks: dict[str, TaskPart]  # task key -> its part, in the workspace's order
    files: dict[str, list[int]]  # the build folder's signature (`run_memo.folder_signature`)

    def to_json(self) -> dict[str, Any]:
        return {"config": self.config, "entries": self.entries, "racy": self.racy,
                "headers": [[folder, list(header)] for folder, header in self.headers], "names": self.names,
                "others": _diags_json(self.others), "files": self.files,
                "tasks": [[key, part.rel, part.output, _diags_json(part.findings), _diags_json(part.planned),
                           [list(e) for e in part.edges], part.across] for key, part in self.tasks.items()]}

    @classmethod
    def from_json(cls, data: Any) -> "BuildRecord":
        """Raises (KeyError, TypeError, ValueError) on any other shape."""
        headers: Headers = [(_text(folder), (_text(name), _text(description), {_text(k): _text(v) for k, v in variables.items()}))
                            for folder, (name, description, variables) in data["headers"]]
        tasks = {}
        for key, rel, output, findings, planned, edges, across in data["tasks"]:
            if output is not None:
                _text(output)
            if not isinstance(across, list) or len(across) != 4:
                raise TypeError("a task's part across tasks")
            tasks[_text(key)] = TaskPart(_text(rel), output, _diags(findings), _diags(planned),
                                         [(_text(u), _text(v), bool(lookup)) for u, v, lookup in edges], across)
        files = {_text(rel): [int(n) for n in sig] for rel, sig in data["files"].items()}
        return cls(_text(data["config"]), _texts(data["entries"]), _texts(data["racy"]), headers, list(data["names"]),
                   _diags(data["others"]), tasks, files)


def _text(value: Any) -> str:
    if type(value) is not str:
        raise TypeError("text expected")
    return value


def _texts(value: Any) -> dict[str, str]:
    if type(value) is not dict or not set(map(type, value.values())) <= {str}:
        raise TypeError("a mapping of text expected")
    return value


def _diags_json(diags: list[Diagnostic]) -> list[dict[str, Any]]:
    return [asdict(d) for d in diags]


def _diags(data: Any) -> list[Diagnostic]:
    return [Diagnostic(_text(d["path"]), int(d["line"]), int(d["col"]), _text(d["code"]), _text(d["message"]),
                       _text(d["hint"]), _text(d["severity"]), bool(d["fixable"])) for d in data]


def record_key(root: Path, out_dir: Path, options: dict[str, Any]) -> str:
    """One record per workspace, build folder, options and current folder (findings show paths from it)."""
    parts = [BUILD_RECORD.format, str(BUILD_RECORD.version), str(root), str(out_dir), os.getcwd(),
             repr(sorted(options.items()))]
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def read_record(cache_root: Path | None, key: str) -> BuildRecord | None:
    data = FactStore(cache_root).get(BUILD_RECORD, key)
    if data is None:
        return None
    try:
        return BuildRecord.from_json(data)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return None


def write_record(cache_root: Path | None, key: str, record: BuildRecord) -> None:
    FactStore(cache_root).put(BUILD_RECORD, key, record.to_json())


def edges_of(ws: Workspace, summary: TaskSummary) -> list[Edge]:
    """The task's edges in the workspace graph, as `graph.build.task_elements` adds them."""
    return [(e[0], e[1], e[2].get("relation") == "lookup") for e in task_elements(ws, summary) if len(e) == 3]


def task_part(ws: Workspace, task: Task, summary: TaskSummary, output: str | None, planned: list[Diagnostic],
              text_of: Callable[[str], str]) -> TaskPart:
    """`text_of(path)`: a task file's text by its displayed path ("" for any other file), for `-- noqa` as the
    build applies it to each finding at the file it points at."""
    findings = [d for d in ws.config.lint.apply(summary.diagnostics)
                if not suppressed(task.text if d.path == task.display_path else text_of(d.path), d)]
    return TaskPart(task.rel_path, output, findings, planned, edges_of(ws, summary), across_parts(summary))


def record_of(run: Fingerprint, ws: Workspace, others: list[Diagnostic], tasks: list[Task], summaries: dict[str, TaskSummary],
              outputs: dict[str, str], planned: dict[str, list[Diagnostic]], files: dict[str, list[int]]) -> BuildRecord:
    """The record of a whole build of `ws`: every task (`tasks`, in the workspace's order), its summary and
    output file, the planner's findings by task, the findings of everything else as reported (`others`)."""
    texts = {t.display_path: t.text for t in tasks}
    parts = {t.key: task_part(ws, t, summaries[t.key], outputs.get(t.key), planned.get(t.key, []), lambda p: texts.get(p, ""))
             for t in tasks}
    return BuildRecord(run.config, dict(run.entries), dict(run.racy), headers_of(ws), name_parts(ws), others, parts, files)


def headers_of(ws: Workspace) -> Headers:
    """Every project's header, in the workspace's order, by its folder's name."""
    return [(p.directory.name, (p.name, p.description, dict(p.variables))) for p in ws.projects.values()]
