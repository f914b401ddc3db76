"""State compatibility of a job upgrade, from the COMPILE PLAN JSON of the old and the new SQL.

Pure functions over two plans (dicts as Flink's `CompiledPlan.asJsonString()` gives them), so
`flinkx deploy` and `flinkx impact` share them. The classes are Alibaba VVR's:

- fully compatible: no stateful operator changed;
- partially compatible: a stateful operator keeps its keys but its state holds more, less or
  other values (an aggregate added to, removed from or changed in a group or window aggregation);
- incompatible: grouping keys, window type, size or time attribute, deduplication/rank keys or
  ordering, join keys or the rows a join or deduplication keeps changed; a stateful operator was
  removed, replaced or reordered; state TTL switched on or off;
- unknown: several stateful changes at once, a stateful operator added, an operator with no rule
  here, or a change of the Flink version or an operator's plan version.

Stateful operators are matched in topological order. Column references (grouping keys, aggregate
arguments, join keys) are compared by the input field's name and type, not by position, so a
column added upstream does not look like a key change.
"""
from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from flinkx_build import type_text

COMPATIBLE = "compatible"
PARTIAL = "partial"
INCOMPATIBLE = "incompatible"
UNKNOWN = "unknown"
LABELS = {COMPATIBLE: "fully compatible", PARTIAL: "partially compatible", INCOMPATIBLE: "incompatible", UNKNOWN: "unknown"}

_AGGREGATES = {"group-aggregate", "global-group-aggregate", "incremental-group-aggregate", "group-table-aggregate",
               "python-group-aggregate", "python-group-table-aggregate"}
_WINDOW_AGGREGATES = {"window-aggregate", "global-window-aggregate", "group-window-aggregate", "python-group-window-aggregate"}
_DEDUPLICATES = {"deduplicate", "window-deduplicate"}
_RANKS = {"rank", "window-rank", "sort-limit", "limit", "sort"}
_JOINS = {"join", "window-join", "interval-join", "temporal-join", "multi-join"}
_OTHER_STATEFUL = {"match", "over-aggregate", "python-over-aggregate", "changelog-normalize", "temporal-sort"}
STATEFUL_KINDS = _AGGREGATES | _WINDOW_AGGREGATES | _DEDUPLICATES | _RANKS | _JOINS | _OTHER_STATEFUL
_TYPE = re.compile(r"^stream-exec-(?P<kind>.+?)_(?P<version>\d+)$")


@dataclass(frozen=True)
class Change:
    level: str
    operator: str  # a short name of the operator, from Flink's own description
    rule: str  # which rule decided, and what changed

    def format(self) -> str:
        return f"{self.operator}: {self.rule}"


@dataclass(frozen=True)
class Verdict:
    level: str
    changes: tuple[Change, ...] = ()
    reason: str = ""  # for unknown verdicts without a single operator

    @property
    def label(self) -> str:
        return LABELS[self.level]

    @property
    def summary(self) -> str:
        """One line: the class, then the deciding operator and rule."""
        if self.reason:
            return f"{self.label}: {self.reason}"
        if not self.changes:
            return f"{self.label}: no stateful operator changed"
        deciding = [c for c in self.changes if c.level == self.level] or list(self.changes)
        return f"{self.label}: " + "; ".join(c.format() for c in deciding)

    def to_data(self) -> dict[str, Any]:
        return {"verdict": self.level, "label": self.label, "summary": self.summary, "reason": self.reason,
                "changes": [{"level": c.level, "operator": c.operator, "rule": c.rule} for c in self.changes]}


@dataclass
class StatefulOperator:
    kind: str
    version: str
    name: str
    node: dict[str, Any]
    inputs: list[list[tuple[str, str]]] = field(default_factory=list)  # fields of each input row


def _kind(node: dict[str, Any]) -> tuple[str, str]:
    match = _TYPE.match(str(node.get("type", "")))
    return (match["kind"], match["version"]) if match else (str(node.get("type", "")), "")


def _canonical(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def row_fields(output_type: Any) -> list[tuple[str, str]]:
    """(name, type) of each field of a plan's row type (its string or its JSON form)."""
    if isinstance(output_type, dict):
        return [(str(f.get("name")), _canonical(f.get("fieldType"))) for f in output_type.get("fields", [])]
    text = str(output_type or "")
    return type_text.row_fields(text) if text.startswith("ROW<") and text.endswith(">") else []


def _short_name(node: dict[str, Any]) -> str:
    """Flink's description of the operator without its select list: `GroupAggregate(groupBy=[k])`."""
    description = str(node.get("description") or node.get("type", "?"))
    if ", select=[" in description:
        description = description[:description.index(", select=[")] + ")"
    return description if len(description) <= 120 else description[:117] + "..."


def _window_text(windowing: dict[str, Any]) -> str:
    """`TumblingWindow(size=PT1M)` from a plan's window spec."""
    window = windowing.get("window", windowing) if isinstance(windowing, dict) else windowing
    if not isinstance(window, dict):
        return _canonical(window)
    details = ", ".join(f"{k}={_canonical(v)}" for k, v in sorted(window.items()) if k != "type")
    return f"{window.get('type', '?')}({details})"


def stateful_operators(plan: dict[str, Any]) -> list[StatefulOperator]:
    """The plan's stateful operators in topological order (ties by node id)."""
    nodes = {n["id"]: n for n in plan.get("nodes", [])}
    preds: dict[int, list[int]] = {i: [] for i in nodes}
    for edge in plan.get("edges", []):
        if edge.get("target") in preds and edge.get("source") in nodes:
            preds[edge["target"]].append(edge["source"])
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
    out = []
    for node_id in order:
        node = nodes[node_id]
        kind, version = _kind(node)
        if kind in STATEFUL_KINDS or (node.get("state") and not kind.startswith("local-")):
            inputs = [row_fields(nodes[p].get("outputType")) for p in preds[node_id]]
            out.append(StatefulOperator(kind, version, _short_name(node), node, inputs))
    return out


def _family(kind: str) -> str:
    for name, kinds in (("aggregate", _AGGREGATES), ("window aggregate", _WINDOW_AGGREGATES),
                        ("deduplicate", _DEDUPLICATES), ("rank", _RANKS), ("join", _JOINS)):
        if kind in kinds:
            return name
    return kind


def _fields(op: StatefulOperator, indexes: Any, side: int = 0) -> list[str]:
    row = op.inputs[side] if side < len(op.inputs) else []
    out = []
    for index in indexes or []:
        out.append(f"{row[index][0]} {row[index][1]}" if isinstance(index, int) and index < len(row) else f"#{index}")
    return out


def _agg_calls(op: StatefulOperator) -> list[str]:
    calls = []
    for call in op.node.get("aggCalls") or []:
        args = ", ".join(_fields(op, call.get("argList")))
        distinct = "DISTINCT " if call.get("distinct") else ""
        calls.append(f"{call.get('internalName') or call.get('name')}({distinct}{args}) -> {_canonical(call.get('type'))}")
    return calls


def _ttl_changes(old: StatefulOperator, new: StatefulOperator) -> list[Change]:
    def ttls(op: StatefulOperator) -> dict[str, str]:
        return {str(s.get("name")): str(s.get("ttl", "0 ms")) for s in op.node.get("state") or []}

    before, after = ttls(old), ttls(new)
    for name in sorted(set(before) & set(after)):
        if (before[name] == "0 ms") != (after[name] == "0 ms"):
            return [Change(INCOMPATIBLE, new.name, f"state TTL of {name} switched {'on' if before[name] == '0 ms' else 'off'} "
                                                   f"({before[name]} -> {after[name]}): the state's serializer changes")]
    return []


def _differs(old: Any, new: Any, level: str, op: StatefulOperator, what: str) -> list[Change]:
    if old == new:
        return []
    return [Change(level, op.name, f"{what} changed: {_show(old)} -> {_show(new)}")]


def _show(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "[" + ", ".join(value) + "]"
    text = _canonical(value)
    return text if len(text) <= 120 else text[:117] + "..."


def _aggregate_changes(old: StatefulOperator, new: StatefulOperator) -> list[Change]:
    before, after = _agg_calls(old), _agg_calls(new)
    if before == after:
        return []
    added = [c for c in after if c not in before]
    removed = [c for c in before if c not in after]
    if not removed:
        rule = f"aggregate added ({', '.join(added)}): the aggregation's state row gains a field"
    elif not added:
        rule = f"aggregate removed ({', '.join(removed)}): the aggregation's state row loses a field"
    else:
        rule = f"aggregates changed ({', '.join(removed)} -> {', '.join(added)}): the aggregation's state row changes"
    return [Change(PARTIAL, new.name, rule)]


def compare_operator(old: StatefulOperator, new: StatefulOperator) -> list[Change]:
    """What changed in one stateful operator, each change with its class."""
    if old.version != new.version:
        return [Change(UNKNOWN, new.name, f"plan version of {new.kind} changed ({old.version} -> {new.version})")]
    o, n = old.node, new.node
    family = _family(new.kind)
    changes = _ttl_changes(old, new)
    if family in ("aggregate", "window aggregate"):
        changes += _differs(_fields(old, o.get("grouping")), _fields(new, n.get("grouping")), INCOMPATIBLE, new, "grouping keys")
        if family == "window aggregate":
            old_w, new_w = o.get("windowing") or o.get("window") or {}, n.get("windowing") or n.get("window") or {}
            changes += _differs(_window_text(old_w), _window_text(new_w), INCOMPATIBLE, new, "window type or size")
            time_attr = ("timeAttributeType", "isRowtime", "timeAttributeIndex")
            changes += _differs([_canonical(old_w.get(k)) for k in time_attr], [_canonical(new_w.get(k)) for k in time_attr],
                                INCOMPATIBLE, new, "window time attribute")
        changes += _differs(o.get("needRetraction"), n.get("needRetraction"), INCOMPATIBLE, new,
                            "input changelog (the aggregates' retraction state)")
        if not any(c.level == INCOMPATIBLE for c in changes):
            changes += _aggregate_changes(old, new)
    elif family in ("deduplicate", "rank"):
        keys = ("uniqueKeys", "partitionKeys", "partitionSpec")
        changes += _differs([_fields(old, o.get(k)) if k != "partitionSpec" else _canonical(o.get(k)) for k in keys],
                            [_fields(new, n.get(k)) if k != "partitionSpec" else _canonical(n.get(k)) for k in keys],
                            INCOMPATIBLE, new, f"{family} keys")
        ordering = ("isRowtime", "keepLastRow", "orderKey", "sortSpec", "rankType", "rankRange", "rankStrategy", "outputRankNumber")
        changes += _differs([_canonical(o.get(k)) for k in ordering], [_canonical(n.get(k)) for k in ordering],
                            INCOMPATIBLE, new, f"{family} ordering")
        changes += _differs(row_fields(o.get("outputType")), row_fields(n.get("outputType")), INCOMPATIBLE, new, "row kept in state")
    elif family == "join":
        def spec(op: StatefulOperator) -> list[Any]:
            js = op.node.get("joinSpec") or {}
            return [js.get("joinType"), _fields(op, js.get("leftKeys"), 0), _fields(op, js.get("rightKeys"), 1),
                    _canonical(op.node.get("windowBounds")), _canonical(op.node.get("leftWindowing")), _canonical(op.node.get("rightWindowing"))]
        changes += _differs(spec(old), spec(new), INCOMPATIBLE, new, "join type, keys or bounds")
        changes += _differs(old.inputs, new.inputs, INCOMPATIBLE, new, "rows a join keeps in state")
    else:
        ignore = {"id", "description", "inputProperties", "configuration"}
        if {k: v for k, v in o.items() if k not in ignore} != {k: v for k, v in n.items() if k not in ignore}:
            changes.append(Change(UNKNOWN, new.name, f"{new.kind} changed; flinkx has no finer rule for this operator"))
    return changes


def classify(old_plan: dict[str, Any], new_plan: dict[str, Any]) -> Verdict:
    """The state-compatibility verdict of replacing the job of `old_plan` by that of `new_plan`."""
    old_version, new_version = old_plan.get("flinkVersion"), new_plan.get("flinkVersion")
    if old_version != new_version:
        return Verdict(UNKNOWN, reason=f"the Flink version changed ({old_version} -> {new_version})")
    old_ops, new_ops = stateful_operators(old_plan), stateful_operators(new_plan)
    changes: list[Change] = []
    matcher = difflib.SequenceMatcher(a=[_family(o.kind) for o in old_ops], b=[_family(o.kind) for o in new_ops], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for old, new in zip(old_ops[i1:i2], new_ops[j1:j2]):
                changes += compare_operator(old, new)
        elif tag == "delete":
            changes += [Change(INCOMPATIBLE, o.name, "stateful operator removed: its state cannot be restored") for o in old_ops[i1:i2]]
        elif tag == "insert":
            changes += [Change(UNKNOWN, o.name, "stateful operator added: it starts empty, and the operators after it may "
                                                "not find their state") for o in new_ops[j1:j2]]
        else:
            for o in old_ops[i1:i2]:
                changes.append(Change(INCOMPATIBLE, o.name, "stateful operator replaced or reordered: "
                                      + ", ".join(n.name for n in new_ops[j1:j2])))
    if any(c.level == INCOMPATIBLE for c in changes):
        return Verdict(INCOMPATIBLE, tuple(changes))
    if len(changes) > 1:
        return Verdict(UNKNOWN, tuple(changes), reason=f"{len(changes)} stateful changes at once: "
                                                       + "; ".join(c.format() for c in changes))
    if changes:
        return Verdict(changes[0].level, tuple(changes))
    return Verdict(COMPATIBLE)
