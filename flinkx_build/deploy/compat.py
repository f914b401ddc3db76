"""Whether a job's state survives an upgrade, in Flink's terms: three verdicts, predicted from two compiled jobs.

- restores: Flink maps every operator's state onto the new job and the state means what it meant;
- restores, the state means something else: Flink restores it, but under another rule (a window size, a key
  expression of the same type, a Top-N limit, SUM -> MAX): allowed with --allow-changed-meaning;
- will not restore: Flink refuses the savepoint (an operator's state cannot be mapped, or a serializer changed).

A prediction may also be `unknown` (an edit no rule covers, another Flink version): only a trial can tell.

Both sides are compiled by the workspace's Flink (the planner driver), each with the ids its operators get when
the SQL is submitted (planner/java/.../JobShape.java computes them as Flink's job graph generator does). Flink
maps savepoint state by those ids, so an operator whose id is not in the new job loses its state: that part of
the prediction is Flink's own arithmetic. Operators found on both sides are compared by compat_rules.py. A
trial (`deploy --prove`, and before every `--apply` stop) replaces the prediction by Flink's restore itself.
"""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Any

from flinkx_build.deploy.compat_rules import OTHER_MEANING
from flinkx_build.deploy.compat_rules import RESTORES
from flinkx_build.deploy.compat_rules import STATEFUL_KINDS
from flinkx_build.deploy.compat_rules import UNKNOWN
from flinkx_build.deploy.compat_rules import WILL_NOT_RESTORE
from flinkx_build.deploy.compat_rules import Change
from flinkx_build.deploy.compat_rules import StatefulOperator
from flinkx_build.deploy.compat_rules import compare_operator
from flinkx_build.deploy.compat_rules import kind_of
from flinkx_build.deploy.compat_rules import row_fields
from flinkx_build.deploy.compat_rules import short_name
from flinkx_build.flink_data import UnknownFlinkVersion
from flinkx_build.flink_data import normalized

__all__ = ["RESTORES", "OTHER_MEANING", "WILL_NOT_RESTORE", "UNKNOWN", "Change", "Verdict", "CompiledJob", "Operator",
           "classify", "same_job"]

LABELS = {RESTORES: "restores", OTHER_MEANING: "restores, the state means something else",
          WILL_NOT_RESTORE: "will not restore", UNKNOWN: "unknown"}
_SEVERITY = (RESTORES, OTHER_MEANING, UNKNOWN, WILL_NOT_RESTORE)
# sinks whose runtime keeps no state: their operator ids may move (every other source and sink may keep some)
STATELESS_SINKS = frozenset({"blackhole", "print"})


@dataclass(frozen=True)
class Operator:
    """One operator of a job as Flink builds it: its plan node, its name, the id its state is kept under."""

    node: int
    name: str
    id: str
    inputs: tuple[str, ...] = ()

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Operator:
        return cls(int(data.get("node", -1)), str(data.get("name", "")), str(data.get("id", "")),
                   tuple(str(i) for i in data.get("inputs") or ()))


def attach_unnamed(plan: dict[str, Any], operators: list[Operator]) -> list[Operator]:
    """Operators a connector's sink builds itself carry no plan node in their names (`StreamingFileWriter`, `end:
    Writer` of the filesystem sink, measured): each belongs to the sink its rows go into, the sink node fed by the
    node of the nearest named operator upstream (or that node itself, when it is the sink)."""
    nodes = {n["id"]: n for n in plan.get("nodes", [])}
    sinks = {i for i, n in nodes.items() if str(n.get("type", "")).startswith("stream-exec-sink_")}
    named = {op.node for op in operators if op.node >= 0}
    feeds: dict[int, list[int]] = {}
    for edge in plan.get("edges", []):
        feeds.setdefault(edge.get("source"), []).append(edge.get("target"))
    by_id = {op.id: op for op in operators}
    out = []
    for op in operators:
        node, current = op.node, op
        while node < 0 and current.inputs and current.inputs[0] in by_id:
            current = by_id[current.inputs[0]]
            node = current.node
        if op.node < 0 and node >= 0 and node not in sinks:
            quiet = [s for s in feeds.get(node, []) if s in sinks and s not in named]
            node = quiet[0] if len(quiet) == 1 else -1
        out.append(Operator(node if op.node < 0 else op.node, op.name, op.id, op.inputs))
    return out


@dataclass
class CompiledJob:
    """A task's job compiled by a Flink client: COMPILE PLAN JSON, and its operators when the client gave them."""

    plan: dict[str, Any]
    operators: list[Operator] | None = None
    connectors: dict[str, str] = field(default_factory=dict)  # table identifier -> its connector (the plan may name
    # a temporary table only by its identifier)


@dataclass(frozen=True)
class Verdict:
    level: str
    changes: tuple[Change, ...] = ()
    reason: str = ""  # for a verdict without a single operator
    proven: bool = False  # by a restore trial (Flink restored or refused), not predicted from the plans

    @property
    def label(self) -> str:
        return LABELS[self.level]

    @property
    def restores(self) -> bool:
        return self.level in (RESTORES, OTHER_MEANING)

    @property
    def summary(self) -> str:
        """One line: predicted or proven, the verdict, then the deciding operators and rules."""
        head = f"{'proven' if self.proven else 'predicted'}: {self.label}"
        if self.reason:
            return f"{head}: {self.reason}"
        if not self.changes:
            return f"{head}: no stateful operator changed"
        deciding = [c for c in self.changes if c.level == self.level] or list(self.changes)
        return f"{head}: " + "; ".join(c.format() for c in deciding)

    def to_data(self) -> dict[str, Any]:
        return {"verdict": self.level, "label": self.label, "proven": self.proven, "summary": self.summary,
                "reason": self.reason,
                "changes": [{"level": c.level, "operator": c.operator, "rule": c.rule} for c in self.changes]}


def worst(levels: list[str]) -> str:
    return max(levels, key=_SEVERITY.index) if levels else RESTORES


@dataclass
class _Node:
    op: StatefulOperator
    node_id: int
    ids: set[str] = field(default_factory=set)
    role: str = "operator"  # operator | source | sink


def _graph(plan: dict[str, Any]) -> tuple[dict[int, dict[str, Any]], dict[int, list[int]]]:
    nodes = {n["id"]: n for n in plan.get("nodes", [])}
    preds: dict[int, list[int]] = {i: [] for i in nodes}
    for edge in plan.get("edges", []):
        if edge.get("target") in preds and edge.get("source") in nodes:
            preds[edge["target"]].append(edge["source"])
    return nodes, preds


def _topological(nodes: dict[int, dict[str, Any]], preds: dict[int, list[int]]) -> list[int]:
    order, done = [], set()

    def visit(node_id: int) -> None:
        if node_id in done:
            return
        done.add(node_id)
        for pred in sorted(preds[node_id]):
            visit(pred)
        order.append(node_id)

    for node_id in sorted(nodes):
        visit(node_id)
    return order


def _connector(node: dict[str, Any], connectors: dict[str, str]) -> str:
    table = (node.get("dynamicTableSink") or node.get("scanTableSource") or {}).get("table") or {}
    options = (table.get("resolvedTable") or {}).get("options") or {}
    return str(options.get("flinkx.original-connector") or options.get("connector")
               or connectors.get(str(table.get("identifier"))) or "")


def _role(kind: str, node: dict[str, Any], connectors: dict[str, str]) -> str | None:
    """Which nodes may hold state: stateful operators, sources, and sinks other than the stateless ones."""
    if kind in STATEFUL_KINDS or (node.get("state") and not kind.startswith("local-")):
        return "operator"
    if kind == "lookup-join" and node.get("asyncOptions"):
        return "operator"  # its in-flight rows
    if kind == "table-source-scan":
        return "source"
    if kind == "sink" and _connector(node, connectors) not in STATELESS_SINKS:
        return "sink"
    return None


def stateful_nodes(job: CompiledJob) -> list[_Node]:
    """The job's nodes that may keep state, in topological order (ties by node id), with their operator ids."""
    nodes, preds = _graph(job.plan)
    ids: dict[int, set[str]] = {}
    for op in job.operators or []:
        ids.setdefault(op.node, set()).add(op.id)
    out = []
    for node_id in _topological(nodes, preds):
        node = nodes[node_id]
        kind, version = kind_of(node)
        role = _role(kind, node, job.connectors)
        if role is None:
            continue
        inputs = [row_fields(nodes[p].get("outputType")) for p in preds[node_id]]
        out.append(_Node(StatefulOperator(kind, version, short_name(node), node, inputs), node_id, ids.get(node_id, set()), role))
    return out


def canonical_plan(plan: dict[str, Any]) -> Any:
    """The plan without its node numbering (a planner numbers nodes from a counter that outlives one plan)."""
    nodes, preds = _graph(plan)
    order = _topological(nodes, preds)
    number = {node_id: i for i, node_id in enumerate(order)}
    canonical_nodes = [{**{k: v for k, v in nodes[i].items() if k != "id"}, "id": number[i]} for i in order]
    edges = sorted((number[e["source"]], number[e["target"]], str(e.get("shuffle")))
                   for e in plan.get("edges", []) if e.get("source") in number and e.get("target") in number)
    return [plan.get("flinkVersion"), canonical_nodes, edges]


def same_job(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether two compiled plans run the same job: an edit of comments, layout or keyword case only."""
    return canonical_plan(old) == canonical_plan(new)


def _match_by_ids(old_nodes: list[_Node], new_nodes: list[_Node]) -> tuple[list[tuple[_Node, _Node]], list[_Node], list[_Node]]:
    """(pairs, old nodes whose state has no operator in the new job, new nodes that start empty)."""
    by_id = {op_id: n for n in new_nodes for op_id in n.ids}
    pairs, lost, matched = [], [], set()
    for old in old_nodes:
        found = [by_id[i] for i in sorted(old.ids) if i in by_id]
        if not found or any(i not in by_id for i in old.ids):
            lost.append(old)
        else:
            pairs.append((old, found[0]))
            matched.add(found[0].node_id)
    return pairs, lost, [n for n in new_nodes if n.node_id not in matched]


def _lost(node: _Node) -> Change:
    what = {"source": "a source's state (its read positions)", "sink": "a sink's state"}.get(node.role, "its state")
    return Change(WILL_NOT_RESTORE, node.op.name,
                  f"{what} is kept under an operator id the new job does not have: Flink cannot map it (the job's "
                  "shape before it changed, or a statement was added or removed)", lost=True)


def classify(old: CompiledJob, new: CompiledJob, flink_version: str) -> Verdict:
    """The predicted verdict of restoring the job of `old`'s savepoint into the job of `new`."""
    version = _major_minor(flink_version)
    old_version, new_version = old.plan.get("flinkVersion"), new.plan.get("flinkVersion")
    if old_version != new_version:
        return Verdict(UNKNOWN, reason=f"the Flink version changed ({old_version} -> {new_version}): only a trial tells")
    old_nodes, new_nodes = stateful_nodes(old), stateful_nodes(new)
    if old.operators is None or new.operators is None:
        return Verdict(UNKNOWN, reason="the operators' ids are unknown (the client gave none): only a trial tells")
    pairs, lost, started = _match_by_ids(old_nodes, new_nodes)
    changes = [_lost(n) for n in lost]
    for before, after in pairs:
        if before.role == "operator" or after.role == "operator":
            changes += compare_operator(before.op, after.op, version)
    upstream = _upstream_ids(new)
    for node in started:
        if node.role != "operator":
            continue
        fed = [a for _, a in pairs if a.role == "operator" and node.ids & upstream.get(a.node_id, set())]
        if fed:
            changes.append(Change(OTHER_MEANING, fed[0].op.name, f"a new stateful operator before it starts empty: "
                                                                 f"{node.op.name}"))
    return Verdict(worst([c.level for c in changes]), tuple(changes))


def _major_minor(flink_version: str) -> str:
    try:
        return normalized(flink_version)
    except UnknownFlinkVersion:
        return flink_version


def _upstream_ids(job: CompiledJob) -> dict[int, set[str]]:
    """Per plan node, the ids of every operator upstream of it."""
    by_id = {op.id: op for op in job.operators or []}
    out: dict[int, set[str]] = {}
    for op in job.operators or []:
        seen: set[str] = set()
        stack = list(op.inputs)
        while stack:
            current = stack.pop()
            if current in seen:
                continue
            seen.add(current)
            stack.extend(by_id[current].inputs if current in by_id else ())
        out.setdefault(op.node, set()).update(seen)
    return out

