"""Semantic diff of two snapshots, and what it does to every task downstream.

Changed nodes are found by meaning: a meta table or function by its
canonical content hash (variables resolved, YAML comments and layout gone,
file name irrelevant when `name:` is explicit), a task by its normalised
rendered SQL and what its names are bound to.

Each task a change reaches is classified:
  changed   its own SQL changed (or it was added);
  direct    it reads, writes or calls a changed node;
  indirect  it is downstream of a changed or directly impacted task.
and is breaking or not. Breaking means the job as deployed will fail or
change shape: it reads a column that was removed or retyped, a key,
watermark, connector or locked option of a table it uses changed, the table
it writes no longer has the columns its INSERT produces, a function it calls
changed its signature, or it no longer builds (new errors in the head).
"""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field

import networkx as nx

from flinkx_build.errors import Diagnostic
from flinkx_build.impact.snapshot import Snapshot
from flinkx_build.impact.snapshot import TaskFacts
from flinkx_build.resolve.analysed import ColumnDef
from flinkx_build.resolve.analysed import TableDef
from flinkx_build.resolve.effective import locked_options
from flinkx_build.workspace_model import Function
from flinkx_build.workspace_model import MetaTable

FAIL_ON = ("breaking", "cross-project", "any", "never")
BREAKING, CHANGES_DATA, NON_BREAKING = "breaking", "changes-data", "non-breaking"
_STRENGTH = {NON_BREAKING: 0, CHANGES_DATA: 1, BREAKING: 2}
RANK = {"indirect": 0, "direct": 1, "changed": 2}


@dataclass
class Change:
    node: str
    kind: str  # project | table | function | task
    project: str
    change: str  # added | removed | modified | moved
    source: str  # workspace-relative; "old -> new" when moved
    details: list[str] = field(default_factory=list)


@dataclass
class Impact:
    node: str
    project: str
    source: str
    relation: str  # changed | direct | indirect
    klass: str = NON_BREAKING  # breaking | changes-data | non-breaking
    causes: set[str] = field(default_factory=set)  # changed node ids
    reasons: list[str] = field(default_factory=list)
    cross_project: bool = False

    @property
    def breaking(self) -> bool:
        """Flink will reject the task at the head (the semantic checks' findings say so)."""
        return self.klass == BREAKING


@dataclass
class ImpactResult:
    changes: list[Change]
    impacts: list[Impact]
    new_errors: list[Diagnostic]  # errors the head has and the base had not (load and task)
    graph: nx.DiGraph  # base and head composed: removed nodes stay drawable

    @property
    def breaking(self) -> list[Impact]:
        return [i for i in self.impacts if i.breaking]

    def trips(self, fail_on: str) -> bool:
        """The CI gate: each level also fails on everything the level before fails on."""
        if fail_on == "never":
            return False
        breaking = bool(self.breaking or self.new_errors)
        if fail_on == "breaking":
            return breaking
        cross = breaking or any(i.cross_project for i in self.impacts)
        if fail_on == "cross-project":
            return cross
        return cross or bool(self.impacts) or any(c.change != "moved" for c in self.changes)


@dataclass
class TableDelta:
    removed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    retyped: dict[str, tuple[str, str]] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    watermark: str = ""
    connector: str = ""
    locked: list[str] = field(default_factory=list)
    options: list[str] = field(default_factory=list)
    physical: bool = False  # names, types or order of the writable columns changed


def table_delta(b: TableDef, h: TableDef, locked: set[str]) -> TableDelta:
    delta = TableDelta()
    bcols = {c.name.lower(): c for c in b.columns}
    hcols = {c.name.lower(): c for c in h.columns}
    delta.removed = [c.name for c in b.columns if c.name.lower() not in hcols]
    delta.added = [c.name for c in h.columns if c.name.lower() not in bcols]
    for name, old in bcols.items():
        new = hcols.get(name)
        if new is None:
            continue
        if _col_type(old) != _col_type(new):
            delta.retyped[old.name] = (_col_text(old), _col_text(new))
        elif old.comment != new.comment:
            delta.comments.append(old.name)
    for attr, what in (("primary_key", "primary key"), ("index", "index"), ("unique_index", "unique index")):
        old_k, new_k = getattr(b, attr), getattr(h, attr)
        if [k.lower() for k in old_k] != [k.lower() for k in new_k]:
            delta.keys.append(f"{what} ({', '.join(old_k)}) -> ({', '.join(new_k)})")
    if b.watermark != h.watermark:
        delta.watermark = f"watermark {_wm(b.watermark)} -> {_wm(h.watermark)}"
    old_c = b.options.get("connector", b.table.type)
    new_c = h.options.get("connector", h.table.type)
    if old_c != new_c:
        delta.connector = f"connector {old_c} -> {new_c}"
    for key in sorted(set(b.options) | set(h.options)):
        if key == "connector" or b.options.get(key) == h.options.get(key):
            continue
        (delta.locked if key in locked else delta.options).append(key)
    delta.physical = _physical(b) != _physical(h)
    return delta


def _col_type(col: ColumnDef) -> tuple[str, str, str | None]:
    return (" ".join(col.type.upper().split()), col.expression, col.metadata_key)


def _col_text(col: ColumnDef) -> str:
    if col.expression:
        return f"AS {col.expression}"
    return col.type + (" METADATA" if col.metadata_key is not None else "")


def _wm(wm: tuple[str, str] | None) -> str:
    return f"FOR {wm[0]} AS {wm[1]}" if wm else "(none)"


def _physical(d: TableDef) -> list[tuple[str, str]]:
    return [(c.name.lower(), " ".join(c.type.upper().split())) for c in d.columns if not c.is_virtual]


def _locked(b: MetaTable | None, h: MetaTable | None) -> set[str]:
    return (locked_options(b) if b else set()) | (locked_options(h) if h else set())


def describe(delta: TableDelta) -> list[str]:
    """Table-level change details, with a likely rename spelled out."""
    out = []
    if len(delta.removed) == 1 and len(delta.added) == 1:
        out.append(f"column {delta.removed[0]} renamed to {delta.added[0]}")
    else:
        out += [f"column {c} removed" for c in delta.removed] + [f"column {c} added" for c in delta.added]
    out += [f"column {c} retyped {old} -> {new}" for c, (old, new) in delta.retyped.items()]
    out += [f"comment of column {c} changed" for c in delta.comments]
    out += delta.keys + [x for x in (delta.watermark, delta.connector) if x]
    out += [f"locked option '{k}' changed" for k in delta.locked] + [f"option '{k}' changed" for k in delta.options]
    return out or ["no change to columns, keys or options"]


def classify_reader(delta: TableDelta, read: set[str], insert_wildcard: bool) -> tuple[bool, list[str]]:
    read_l = {c.lower() for c in read}
    breaking = []
    for c in delta.removed:
        if c.lower() in read_l:
            breaking.append(f"reads column {c}, which was removed")
    for c, (old, new) in delta.retyped.items():
        if c.lower() in read_l:
            breaking.append(f"reads column {c}, retyped {old} -> {new}")
    breaking += delta.keys + [x for x in (delta.watermark, delta.connector) if x]
    breaking += [f"locked option '{k}' changed" for k in delta.locked]
    if insert_wildcard and (delta.added or delta.removed):
        breaking.append("INSERT ... SELECT * now passes a different set of columns to its sink")
    if breaking:
        return True, breaking
    soft = [f"column {c} added" for c in delta.added] + [f"column {c} removed (not read)" for c in delta.removed]
    soft += [f"column {c} retyped (not read)" for c in delta.retyped] + [f"comment of column {c} changed" for c in delta.comments]
    soft += [f"option '{k}' changed" for k in delta.options]
    return False, soft or ["no change to the definition this task uses"]


def classify_writer(delta: TableDelta) -> tuple[bool, list[str]]:
    breaking = []
    if delta.physical:
        what = [f"added {c}" for c in delta.added] + [f"removed {c}" for c in delta.removed] + [f"retyped {c}" for c in delta.retyped]
        breaking.append("writes it: the INSERT must match the new columns (" + (", ".join(what) or "order changed") + ")")
    breaking += delta.keys + [x for x in (delta.connector,) if x]
    breaking += [f"locked option '{k}' changed" for k in delta.locked]
    if breaking:
        return True, breaking
    return False, ["writes it; its columns and keys are unchanged"]


def compare(base: Snapshot, head: Snapshot) -> ImpactResult:
    graph = nx.compose(base.graph, head.graph)
    changes = _changes(base, head)
    impacts: dict[str, Impact] = {}

    def new_errors(node: str) -> list[Diagnostic]:
        old = base.tasks[node].error_keys if node in base.tasks else set()
        return [d for d in head.tasks[node].errors if (d.code, d.message) not in old]

    def hit(node: str, relation: str, klass: str, cause: str | None, reasons: list[str]) -> Impact:
        facts = head.tasks[node]
        imp = impacts.setdefault(node, Impact(node, facts.project, facts.source, relation))
        if RANK[relation] > RANK[imp.relation]:
            imp.relation = relation
        if _STRENGTH[klass] > _STRENGTH[imp.klass]:
            imp.klass = klass
        if cause:
            imp.causes.add(cause)
        imp.reasons += [r for r in reasons if r not in imp.reasons]
        return imp

    for change in sorted(changes, key=lambda c: c.kind != "task"):  # a task's own change reads first
        node = change.node
        if change.change == "moved" or change.kind == "project":
            continue
        if change.kind == "task":
            if node in head.tasks:
                what = f"task {change.change}" + (f": {'; '.join(change.details)}" if change.details else "")
                hit(node, "changed", NON_BREAKING, node, [what])
            continue
        users = {t for snap in (base, head) for t, f in snap.tasks.items() if node in f.reads | f.writes | f.functions}
        for task in sorted(users & set(head.tasks)):
            # what the change touches; whether Flink still accepts it is the head's findings' call
            touched, reasons = _classify_use(node, change, base, head, task)
            hit(task, "direct", CHANGES_DATA if touched else NON_BREAKING, node, [f"{short_id(node)}: {r}" for r in reasons])
    for task in sorted(head.tasks):
        errors = new_errors(task)
        if errors:
            relation = impacts[task].relation if task in impacts else "direct"
            hit(task, relation, BREAKING, None, [f"Flink will reject it: {d.path}:{d.line}:{d.col}: {d.code} {d.message}" for d in errors[:3]])

    # A meta table whose YAML the head breaks (a key on a column that is gone, ...) breaks every task using it.
    base_load = {(d.code, d.message) for d in base.load_errors} | base.quiet_load_keys
    new_load = [d for d in head.load_errors if (d.code, d.message) not in base_load and d.is_error]
    for task, facts in sorted(head.tasks.items()):
        used = {head.tables[n].loc.path for n in facts.reads | facts.writes if n in head.tables}
        used |= {path for n in facts.unloaded for path in head.unloaded_paths.get(n.lower(), ())}
        found = [d for d in new_load if d.path in used]
        if found:
            relation = impacts[task].relation if task in impacts else "direct"
            hit(task, relation, BREAKING, None, [f"Flink will reject it: {d.path}:{d.line}:{d.col}: {d.code} {d.message}" for d in found[:3]])

    # Everything downstream of a changed node or of a directly impacted task.
    seeds: dict[str, set[str]] = {c.node: {c.node} for c in changes if c.change != "moved" and c.node in graph}
    for imp in list(impacts.values()):
        seeds.setdefault(imp.node, set()).update(imp.causes)
    for seed, causes in sorted(seeds.items()):
        for node in nx.descendants(graph, seed):
            if node in head.tasks:
                hit(node, "indirect", BREAKING if new_errors(node) else NON_BREAKING, None, []).causes.update(causes)
    for imp in impacts.values():
        if imp.relation == "indirect":
            via = sorted({p for t in graph.predecessors(imp.node) for p in graph.predecessors(t) if p in impacts or p in seeds})
            imp.reasons.insert(0, "downstream of " + ", ".join(short_id(v) for v in via) if via else "downstream of a change")
        imp.cross_project = any(graph.nodes[c].get("project") != imp.project for c in imp.causes if c in graph)
    new = [d for d in head.load_errors if (d.code, d.message) not in base_load]
    new += [d for task in sorted(head.tasks) for d in new_errors(task)]
    ordered = sorted(impacts.values(), key=lambda i: (not i.breaking, -RANK[i.relation], i.node))
    return ImpactResult(changes, ordered, sorted(set(new)), graph)


def short_id(node: str) -> str:
    """`table.ods.orders` -> `ods.orders`; `task.dwd.a/b` -> `dwd/a/b`; `function.dim.f` -> `dim:f`."""
    kind, _, rest = node.partition(".")
    project, _, name = rest.partition(".")
    return {"task": f"{project}/{name}", "function": f"{project}:{name}"}.get(kind, rest)


def _classify_use(node: str, change: Change, base: Snapshot, head: Snapshot, task: str) -> tuple[bool, list[str]]:
    """Breaking or not, and why, for one task using one changed table or function."""
    b, h = base.tasks.get(task), head.tasks[task]
    if change.change != "modified":
        return False, [f"{change.kind} {change.change}"]
    if change.kind == "function":
        return _classify_call(base.functions[node], head.functions[node])
    locked = _locked(base.tables.get(node), head.tables.get(node))
    breaking, reasons = False, []
    # What the task gets (its SETs and hints applied) when only the table
    # changed; the bare tables when the task changed too, so its own edits
    # (a new watermark, say) are not blamed on the table.
    pairs = list(zip(b.defs.get(node, []), h.defs.get(node, []))) if b and b.fingerprint == h.fingerprint else []
    if not pairs:
        pairs = [(base.table_defs[node], head.table_defs[node])]
    if node in h.reads or (b is not None and node in b.reads):
        # columns read on either side: a task edited in the same change still counts what it read before
        read = (b.columns.get(node, set()) if b else set()) | h.columns.get(node, set())
        wildcard = node in h.insert_wildcard or bool(b and node in b.insert_wildcard)
        for old, new in pairs:
            brk, why = classify_reader(table_delta(old, new, locked), read, wildcard)
            breaking |= brk
            reasons += [r for r in why if r not in reasons]
    if node in h.writes or (b is not None and node in b.writes):
        brk, why = classify_writer(table_delta(base.table_defs[node], head.table_defs[node], locked))
        breaking |= brk
        reasons += why
    return breaking, reasons


def _classify_call(old: Function, new: Function) -> tuple[bool, list[str]]:
    """A caller breaks when the signature changes; a new class or jar is the function's own business."""
    breaking = [
        f"calls it: {attr} {getattr(old, attr)} -> {getattr(new, attr)}"
        for attr in ("returns", "kind", "language") if getattr(old, attr) != getattr(new, attr)
    ]
    if breaking:
        return True, breaking
    soft = [f"calls it: {what} changed" for attr, what in (("class_name", "class"), ("resource", "resource")) if getattr(old, attr) != getattr(new, attr)]
    return False, soft or ["calls it"]


def _changes(base: Snapshot, head: Snapshot) -> list[Change]:
    out = [Change(f"project.{p}", "project", p, "added", "") for p in sorted(head.projects - base.projects)]
    out += [Change(f"project.{p}", "project", p, "removed", "") for p in sorted(base.projects - head.projects)]
    for kind, b_map, h_map in (("table", base.tables, head.tables), ("function", base.functions, head.functions)):
        for node in sorted(set(b_map) | set(h_map)):
            if node not in b_map or node not in h_map:
                what, snap, items = ("added", head, h_map) if node not in b_map else ("removed", base, b_map)
                out.append(Change(node, kind, items[node].project, what, snap.source(node)))
            elif base.hashes[node] != head.hashes[node]:  # the objects themselves only for what changed
                old, new = b_map[node], h_map[node]
                if kind == "table":
                    details = describe(table_delta(base.table_defs[node], head.table_defs[node], _locked(old, new)))
                else:
                    details = _classify_call(old, new)[1]
                    details = [d.removeprefix("calls it: ") for d in details]
                out.append(Change(node, kind, new.project, "modified", head.source(node), details))
            elif base.source(node) != head.source(node):
                out.append(Change(node, kind, h_map[node].project, "moved", f"{base.source(node)} -> {head.source(node)}", ["no semantic change"]))
    known_before = {n.lower() for n in (*base.tables, *base.functions)}
    known_after = {n.lower() for n in (*head.tables, *head.functions)}
    for node in sorted(set(base.tasks) | set(head.tasks)):
        old_t, new_t = base.tasks.get(node), head.tasks.get(node)
        if old_t is None or new_t is None:
            facts = new_t or old_t
            out.append(Change(node, "task", facts.project, "added" if old_t is None else "removed", facts.source))
        elif old_t.fingerprint != new_t.fingerprint or _rebound(old_t, new_t, known_before, known_after):
            out.append(Change(node, "task", new_t.project, "modified", new_t.source, _task_details(old_t, new_t)))
    return out


def _rebound(old: TaskFacts, new: TaskFacts, known_before: set[str], known_after: set[str]) -> bool:
    """Same text, but a name now means another node that existed before and still does.

    Bindings gained from an added node or lost with a removed one are that
    node's change (its users are hit directly), not the task's.
    `known_before`/`known_after`: the table and function nodes of the base and the head, in lower case.
    A table whose YAML did not load whole is still the one the name means (`TaskFacts.unloaded`).
    """
    before = {n.lower() for n in old.reads | old.writes | old.functions | old.unloaded}
    after = {n.lower() for n in new.reads | new.writes | new.functions | new.unloaded}
    return any(n in known_before for n in after - before) or any(n in known_after for n in before - after)


def _task_details(old: TaskFacts, new: TaskFacts) -> list[str]:
    out = [] if old.fingerprint == new.fingerprint else ["SQL changed"]
    for attr, verb in (("reads", "reads"), ("writes", "writes"), ("functions", "calls")):
        before, after = getattr(old, attr), getattr(new, attr)
        out += [f"now {verb} {short_id(n)}" for n in sorted(after - before)]
        out += [f"no longer {verb} {short_id(n)}" for n in sorted(before - after)]
    return out or ["SQL changed"]
