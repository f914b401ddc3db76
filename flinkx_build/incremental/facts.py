"""The table of every fact flinkx derives from a workspace and keeps between runs.

A fact is made by a pure function of its inputs and kept under a key over exactly those inputs;
the entry's format and version (`Fact.format`, `Fact.version`) are checked when it is read, and
every entry lives below the cache folder's code version (`cache_version.py`), so a change of
flinkx's code, sqlfluff or Python misses every fact at once. Nothing else decides staleness: no
module keeps its own list of sources or versions. docs/architecture.md prints this table, and
`tests/incremental/test_facts.py` proves for every row that changing one of its inputs makes it
again and changing anything else does not.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fact:
    name: str
    format: str  # the entry's format, checked on every read
    version: int  # the entry's layout: a new layout is a new version, never a silent misread
    folder: str  # below `<cache folder>/<code version>/` ("" : the user's cache folder, `store`)
    inputs: tuple[str, ...]  # what the key covers: change one and the fact is made again
    made_by: str  # the pure function the stage calls on a miss
    kept_by: str  # the module that keys, encodes and decodes it


def _fact(name: str, fmt: str, version: int, folder: str, inputs: tuple[str, ...], made_by: str, kept_by: str) -> Fact:
    return Fact(name, fmt, version, folder, inputs, made_by, kept_by)


CODE_VERSION = _fact(
    "code version", "flinkx-code-version", 1, "",
    ("every file of flinkx_build and flinkx_rules (by their stats, then their bytes)", "sqlfluff's, ruamel.yaml's and Python's versions"),
    "cache_version.content_hash", "cache_version.py")
PARSED_YAML = _fact(
    "parsed YAML", "flinkx-yaml-cache", 2, "yaml",
    ("the file's bytes", "the YAML reader (libyaml or pure Python)"),
    "load.yaml_io.load_yaml", "load/yaml_cache.py")
LOADED_FILES = _fact(
    "project header, meta table, function", "flinkx-load-memo", 1, "load",  # headers.json; a file per project folder
    ("the file's bytes and stem (project.yaml: its folder's name)", "the project's name, rendered variables and the secrets list",
     "the YAML reader"),
    "load.tables.load_table, load_function; load.workspace._load_project_header", "load/memo.py, load/project_memo.py")
TASK_LIMITS = _fact(
    "a task file within the SQL limits", "flinkx-task-limits", 1, "load",  # one file, load/tasks.json
    ("the task file's bytes",),
    "limits.check_sql_text", "load/memo.py")
TASK_PARSE = _fact(
    "task parse", "flinkx-parse-cache", 2, "parse",
    ("the task's text", "the variables it renders with"),
    "frontend.worker.parse_text", "frontend/cache.py")
RULE_PASS = _fact(
    "rule pass", "flinkx-lint-rules", 1, "lint",
    ("the task's text", "the variables it renders with", "the path shown in messages", "the rules that run",
     "dataphin_version", "flinkx.yaml's lint settings"),
    "lint.rule_pass.run_rule_pass", "lint/result_cache.py")
TASK_SUMMARY = _fact(
    "task summary (its findings and compiled script)", "flinkx-task-summary", 1, "summaries",
    ("the task's path and text", "the variables it renders with", "flinkx.yaml's settings and the mode",
     "the name index (every project's tables, functions and unloadable tables)",
     "each meta table and function the task spells: its load key and place"),
    "pipeline.Session.summary (resolve, analyse, check, compile, summarize)", "semantic/summary_cache.py")
PLANNER_VERDICT = _fact(
    "planner verdict", "flinkx-planner-verdict", 2, "planner",
    ("the compiled statements and their kinds", "the declared functions", "the mode", "the target's Flink release"),
    "planner.process.Planner.validate", "lint/planner_pass.py")
PLANNER_ACCEPTED = _fact(
    "tasks the planner accepted", "flinkx-planner-clean", 2, "planner",
    ("each accepted task's summary key and mode", "the target's Flink release"),
    "lint.planner_pass.PlannerPass.findings", "lint/planner_pass.py")
ACYCLIC_GRAPH = _fact(
    "acyclic graph", "flinkx-acyclic-graph", 1, "graphs",
    ("the graph's edges", "which edges are lookups", "the mode"),
    "graph.build.find_cycles", "graph/cycles.py")
DEPENDENCY_INDEX = _fact(
    "dependency index of a project", "flinkx-project-index", 1, "summaries",
    ("the project folder's name", "flinkx.yaml's git blob id", "each file's path and git blob id"),
    "impact.scope.write_indexes (from a whole snapshot)", "semantic/project_index.py")
TASK_PAGE = _fact(
    "task page of the docs site", "flinkx-docs-task", 1, "site",
    ("the task's summary key", "the workspace's name"),
    "site.task_pages._make", "site/task_pages.py")
WHOLE_RUN = _fact(
    "whole run (a replay of build or lint)", "flinkx-run-memo", 4, "runs",
    ("the command's options and the current folder", "flinkx.yaml's bytes",
     "every file below projects/ by its stat (and a recent file's bytes)"),
    "commands.build, commands.lint", "run_memo.py")

BUILD_RECORD = _fact(
    "record of the last build: its inputs and each task's part", "flinkx-build-record", 1, "builds",
    ("the build folder, the options, the current folder", "every file below projects/ by its stat (its entry in the record)",
     "each task's summary: its findings, edges, compiled file and what the checks across tasks read"),
    "workspace_build.record.record_of", "workspace_build/record.py")

FACTS: tuple[Fact, ...] = (CODE_VERSION, PARSED_YAML, LOADED_FILES, TASK_LIMITS, TASK_PARSE, RULE_PASS, TASK_SUMMARY, PLANNER_VERDICT,
                           PLANNER_ACCEPTED, ACYCLIC_GRAPH, DEPENDENCY_INDEX, TASK_PAGE, WHOLE_RUN, BUILD_RECORD)
