"""What one task contributes to the workspace-wide views, as plain data.

The graph, the manifest, the workspace checks (FX460, FX470, FX471, FX495,
FX496) and impact's snapshot each need a few facts of every task (what it
reads and writes, where, which columns, its findings, its compiled SQL),
not the resolved task with its parse trees. A `TaskSummary` holds exactly
those facts, so it can be cached per task (`summary_cache.py`) and a build
that changed one task resolves one task, not a thousand.

Paths inside a summary are as the loader shows them (relative to the cwd);
`to_json` stores them relative to the workspace root and `from_json` shows
them again, so an entry does not depend on where flinkx runs (`flinkx
impact` loads the base revision from a temporary folder).
"""
from __future__ import annotations

import os
from dataclasses import asdict
from dataclasses import dataclass
from dataclasses import astuple
from dataclasses import field
from pathlib import Path
from typing import Any

from flinkx_build.errors import Diagnostic
from flinkx_build.hashing import canonical_hash
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.resolve.analysed import Origin
from flinkx_build.resolve.reads import CdcReader
from flinkx_build.resolve.reads import mysql_cdc_readers
from flinkx_build.resolve.reads import reads_of
from flinkx_build.semantic.columns import column_use


@dataclass(frozen=True, slots=True)
class TableRead:
    """A meta table the task reads: the graph's read edge."""

    table: str
    lookup_only: bool  # read only through lookup joins (a snapshot: never a cycle in stream mode)
    columns: tuple[str, ...]  # the columns read, a wildcard's included
    wildcard: bool  # read through `*`
    line: int
    col: int


@dataclass(frozen=True, slots=True)
class TableWrite:
    table: str
    line: int
    col: int


@dataclass(frozen=True, slots=True)
class KafkaRead:
    """A Kafka source read with an explicit consumer group (FX471)."""

    table: str
    servers: str
    topic: str
    group: str
    origin: Origin  # where the group id was set


@dataclass(slots=True)
class TaskSummary:
    key: str  # project/name
    project: str
    name: str
    display_path: str
    content_hash: str
    diagnostics: list[Diagnostic]
    compiled: str | None  # the standalone Flink SQL, None when the task has errors
    fingerprint: str  # equal <=> the task's own rendered SQL means the same (impact)
    reads: list[TableRead] = field(default_factory=list)
    writes: list[TableWrite] = field(default_factory=list)
    functions: list[str] = field(default_factory=list)
    columns_read: dict[str, list[str]] = field(default_factory=dict)  # named columns, no wildcards
    insert_wildcard: list[str] = field(default_factory=list)  # tables an INSERT ... SELECT * passes on
    sink_writes: list[TableWrite] = field(default_factory=list)  # INSERT targets outside hints (FX470)
    kafka_reads: list[KafkaRead] = field(default_factory=list)
    cdc_readers: list[CdcReader] = field(default_factory=list)
    column_lineage: list[dict[str, str]] = field(default_factory=list)
    # meta tables it names whose YAML did not load whole: not among its reads and writes (nothing of them is
    # known), but impact still calls the task broken when its change breaks that YAML
    unloaded_tables: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)

    @property
    def read_keys(self) -> set[str]:
        return {r.table for r in self.reads}

    @property
    def write_keys(self) -> set[str]:
        return {w.table for w in self.writes}


def summarize(rt: AnalysedTask, compiled: str | None, settings: list[str]) -> TaskSummary:
    """The summary of an analysed task; `settings` enter the fingerprint."""
    task = rt.task
    use = column_use(rt)
    first: dict[tuple[str, str], tuple[int, int]] = {}
    lookup_only: dict[str, bool] = {}
    sinks: dict[str, tuple[int, int]] = {}
    for rs in rt.statements:
        for ref, bound in zip(rs.parsed.tables, rs.tables):
            if bound.kind != "meta":
                continue
            role = "writes" if rs.parsed.kind == "insert" and ref.role == "write" else "reads"
            first.setdefault((bound.key, role), (ref.pos.line, ref.pos.col))
            if role == "reads":
                lookup_only[bound.key] = lookup_only.get(bound.key, True) and ref.role == "lookup"
            elif not ref.in_hint:
                sinks.setdefault(bound.key, (ref.pos.line, ref.pos.col))
    reads = [TableRead(k, lookup_only.get(k, False), tuple(sorted(use.columns.get(k, ()))), k in use.wildcard,
                       *first.get((k, "reads"), (1, 1))) for k in sorted(rt.reads)]
    writes = [TableWrite(k, *first.get((k, "writes"), (1, 1))) for k in sorted(rt.writes)]
    kafka = []
    for _, bound, options in reads_of(rt, "kafka"):
        group, origin = options.get("properties.group.id", (None, None))
        topic = options.get("topic", ("", None))[0]
        servers = options.get("properties.bootstrap.servers", ("", None))[0]
        if group and topic and origin is not None:
            kafka.append(KafkaRead(bound.key, servers, topic, group, origin))
    lineage = [
        {"column": target.format(), "from": source.column.format(), "transformation": source.transformation}
        for target, source in rt.column_lineage()
    ]
    # The task's own text after rendering, normalised: what its names are bound to is
    # compared separately by impact (a binding lost with a removed table is that table's change).
    fingerprint = canonical_hash([settings, [rs.parsed.normalized for rs in rt.statements]])
    return TaskSummary(
        key=task.key, project=task.project, name=task.name, display_path=task.display_path,
        content_hash=task.content_hash, diagnostics=list(rt.diagnostics), compiled=compiled, fingerprint=fingerprint,
        reads=reads, writes=writes, functions=sorted(rt.functions),
        columns_read={k: sorted(v) for k, v in sorted(rt.columns_read.items())},
        insert_wildcard=sorted(use.insert_wildcard),
        sink_writes=[TableWrite(k, *pos) for k, pos in sinks.items()],
        kafka_reads=kafka, cdc_readers=mysql_cdc_readers(rt), column_lineage=lineage,
        unloaded_tables=rt.unloaded_tables,
    )


# --- JSON, with paths relative to the workspace root ------------------------------------------

class _Paths:
    """Displayed paths <-> stored ones (memoised: a summary names the same few files again and again)."""

    def __init__(self, root: Path) -> None:
        self.root = str(root.resolve())
        self._shown: dict[str, str] = {}
        self._cwd = ""  # what `_shown` and `_base` were made for: shown paths are relative to the current folder
        self._base: str | None = None  # the root relative to it, when the root is the current folder or below

    def store(self, shown: str) -> str:
        absolute = os.path.abspath(shown)
        rel = os.path.relpath(absolute, self.root)
        return "ws:" + Path(rel).as_posix() if not rel.startswith("..") else "abs:" + absolute

    def show(self, stored: str) -> str:
        cwd = os.getcwd()
        if cwd != self._cwd:
            base = os.path.relpath(self.root, cwd)
            self._cwd, self._shown, self._base = cwd, {}, None if base.startswith("..") else base
        if stored not in self._shown:
            self._shown[stored] = self._show(stored)
        return self._shown[stored]

    def _show(self, stored: str) -> str:
        from flinkx_build.load.workspace import display_path

        kind, _, rest = stored.partition(":")
        if kind == "ws":  # string paths: a Path per stored path cost more than the whole decode
            if self._base is not None:  # what relpath gives, without its walk up from the current folder
                shown = os.path.normpath(os.path.join(self._base, rest))
                if not shown.startswith(".."):
                    return shown
            return display_path(os.path.join(self.root, rest))  # type: ignore[arg-type]
        if kind == "abs":
            return display_path(rest)  # type: ignore[arg-type]
        raise ValueError(f"bad stored path {stored!r}")


def _paths(root: Path) -> _Paths:
    if root not in _PATHS:
        _PATHS[root] = _Paths(root)
    return _PATHS[root]


_PATHS: dict[Path, _Paths] = {}


def to_json(summary: TaskSummary, root: Path) -> dict[str, Any]:
    paths = _paths(root)
    data = asdict(summary)
    data["display_path"] = paths.store(summary.display_path)
    data["diagnostics"] = [{**asdict(d), "path": paths.store(d.path)} for d in summary.diagnostics]
    for item, kafka in zip(data["kafka_reads"], summary.kafka_reads):
        item["origin"]["path"] = paths.store(kafka.origin.path)
    for item, reader in zip(data["cdc_readers"], summary.cdc_readers):
        item["origin"]["path"] = paths.store(reader.origin.path)
    return data


def across_parts(summary: TaskSummary) -> list[Any]:
    """What the checks across tasks read of a summary (`checks.workspace.across_tasks`), as compact JSON, paths
    as shown: [display path, sink writes, Kafka reads, mysql-cdc readers]."""
    return [summary.display_path, [[w.table, w.line, w.col] for w in summary.sink_writes],
            [[k.table, k.servers, k.topic, k.group, list(astuple(k.origin))] for k in summary.kafka_reads],
            [[c.table, c.server, c.ids[0], c.ids[1], list(astuple(c.origin))] for c in summary.cdc_readers]]


def from_across_parts(key: str, project: str, name: str, data: list[Any]) -> TaskSummary:
    """A summary holding only what `across_parts` kept (the checks across tasks read it alike); raises on another shape."""
    shown, sinks, kafka, cdc = data

    def origin(item: list[Any]) -> Origin:
        return Origin(str(item[0]), str(item[1]), int(item[2]), int(item[3]))

    return TaskSummary(
        key=key, project=project, name=name, display_path=str(shown), content_hash="", diagnostics=[], compiled=None,
        fingerprint="", sink_writes=[TableWrite(str(t), int(line), int(col)) for t, line, col in sinks],
        kafka_reads=[KafkaRead(str(t), str(s), str(topic), str(g), origin(o)) for t, s, topic, g, o in kafka],
        cdc_readers=[CdcReader(key, str(t), str(s), (int(lo), int(hi)), origin(o)) for t, s, lo, hi, o in cdc])


_TEXT = {str}


def _text_map(item: Any) -> dict[str, str]:
    """A decoded JSON object of text values, as it is (its keys are text: JSON's are). Checked with
    one `map` instead of a `str()` per value: half of reading a thousand summaries was this."""
    if type(item) is not dict or not set(map(type, item.values())) <= _TEXT:
        raise TypeError("expected a mapping of text")
    return item


def from_json(data: dict[str, Any], root: Path) -> TaskSummary:
    """The inverse of `to_json`; raises (KeyError, TypeError, ValueError) on a foreign shape."""
    paths = _paths(root)

    def origin(item: dict[str, Any]) -> Origin:
        return Origin(str(item["layer"]), paths.show(item["path"]), int(item["line"]), int(item["col"]))

    compiled = data["compiled"]
    if compiled is not None and not isinstance(compiled, str):
        raise TypeError("compiled must be text")
    return TaskSummary(
        key=str(data["key"]), project=str(data["project"]), name=str(data["name"]),
        display_path=paths.show(data["display_path"]), content_hash=str(data["content_hash"]),
        diagnostics=[Diagnostic(paths.show(d["path"]), int(d["line"]), int(d["col"]), str(d["code"]), str(d["message"]),
                                str(d["hint"]), str(d["severity"]), bool(d["fixable"])) for d in data["diagnostics"]],
        compiled=compiled, fingerprint=str(data["fingerprint"]),
        reads=[TableRead(str(r["table"]), bool(r["lookup_only"]), tuple(str(c) for c in r["columns"]), bool(r["wildcard"]),
                         int(r["line"]), int(r["col"])) for r in data["reads"]],
        writes=[TableWrite(str(w["table"]), int(w["line"]), int(w["col"])) for w in data["writes"]],
        functions=[str(f) for f in data["functions"]],
        columns_read={str(k): [str(c) for c in v] for k, v in data["columns_read"].items()},
        insert_wildcard=[str(t) for t in data["insert_wildcard"]],
        sink_writes=[TableWrite(str(w["table"]), int(w["line"]), int(w["col"])) for w in data["sink_writes"]],
        kafka_reads=[KafkaRead(str(k["table"]), str(k["servers"]), str(k["topic"]), str(k["group"]), origin(k["origin"]))
                     for k in data["kafka_reads"]],
        cdc_readers=[CdcReader(str(c["task"]), str(c["table"]), str(c["server"]), (int(c["ids"][0]), int(c["ids"][1])),
                               origin(c["origin"])) for c in data["cdc_readers"]],
        column_lineage=[_text_map(item) for item in data["column_lineage"]],
        unloaded_tables=[str(t) for t in data["unloaded_tables"]],
    )
