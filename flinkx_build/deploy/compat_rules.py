"""What a change to one stateful operator does to its state, read from two compiled plans' nodes.

Flink restores an operator's state when the state's serializers are compatible: the key (grouping key, partition
key, join key), the accumulators, the rows it keeps. Each rule here names the part of the node that decides one
of them, and its verdict (compat.py's levels):

- the key's or the kept rows' types change, an accumulator is added, removed or changed in layout, the join
  type or the deduplication's kept row changes: Flink refuses (`will not restore`);
- the same layout under another rule (a key expression of the same type, a window size or type, an interval
  join's bounds, a Top-N limit or direction, SUM -> MAX of the same type): Flink restores, the state means
  something else (`other meaning`);
- what only shapes the output (a rank number column, a proc-time field's name): restores with the same meaning.

Every rule was checked against Flink's own restores (the restore suite, data/flink/<v>/restores.json); the few
that differ between versions are read from that record by the case that shows them. A change no rule covers is
`unknown`: predicted verdicts never say "restores" for what was not measured.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from flinkx_build import type_text
from flinkx_build.deploy import restore_facts

RESTORES = "restores"
OTHER_MEANING = "other-meaning"
WILL_NOT_RESTORE = "will-not-restore"
UNKNOWN = "unknown"

AGGREGATES = {"group-aggregate", "global-group-aggregate", "incremental-group-aggregate", "group-table-aggregate",
              "python-group-aggregate", "python-group-table-aggregate"}
WINDOW_AGGREGATES = {"window-aggregate", "global-window-aggregate", "group-window-aggregate", "python-group-window-aggregate"}
DEDUPLICATES = {"deduplicate"}
RANKS = {"rank", "sort-limit", "limit", "sort"}
JOINS = {"join"}
INTERVAL_JOINS = {"interval-join"}
# stateful operators flinkx has no finer rule for: any change is `unknown`
OTHER_STATEFUL = {"window-deduplicate", "window-rank", "window-join", "temporal-join", "multi-join", "match",
                  "over-aggregate", "python-over-aggregate", "changelog-normalize", "temporal-sort"}
STATEFUL_KINDS = AGGREGATES | WINDOW_AGGREGATES | DEDUPLICATES | RANKS | JOINS | INTERVAL_JOINS | OTHER_STATEFUL
# accumulators of one value of the argument's type (no retraction): measured SUM -> MAX keeps its state
_ONE_VALUE_ACCUMULATORS = {"SUM", "MAX", "MIN"}
_TYPE = re.compile(r"^stream-exec-(?P<kind>.+?)_(?P<version>\d+)$")
_INTERNAL_NAME = re.compile(r"^\$(?P<name>[A-Z0-9_]+)\$\d+$")


@dataclass(frozen=True)
class Change:
    level: str
    operator: str  # a short name of the operator, from Flink's own description
    rule: str  # which rule decided, and what changed
    lost: bool = False  # the state has no operator to go to: Flink may still "restore" the job, dropping it

    def format(self) -> str:
        return f"{self.operator}: {self.rule}"


@dataclass
class StatefulOperator:
    kind: str
    version: str
    name: str
    node: dict[str, Any]
    inputs: list[list[tuple[str, str]]] = field(default_factory=list)  # fields of each input row


def kind_of(node: dict[str, Any]) -> tuple[str, str]:
    match = _TYPE.match(str(node.get("type", "")))
    return (match["kind"], match["version"]) if match else (str(node.get("type", "")), "")


def canonical(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def row_fields(output_type: Any) -> list[tuple[str, str]]:
    """(name, type) of each field of a plan's row type (its string or its JSON form)."""
    if isinstance(output_type, dict):
        return [(str(f.get("name")), canonical(f.get("fieldType"))) for f in output_type.get("fields", [])]
    text = str(output_type or "")
    return type_text.row_fields(text) if text.startswith("ROW<") and text.endswith(">") else []


def short_name(node: dict[str, Any]) -> str:
    """Flink's description of the operator without its select list: `GroupAggregate(groupBy=[k])`."""
    description = str(node.get("description") or node.get("type", "?"))
    if ", select=[" in description:
        description = description[:description.index(", select=[")] + ")"
    return description if len(description) <= 120 else description[:117] + "..."


def family(kind: str) -> str:
    for name, kinds in (("aggregate", AGGREGATES), ("window aggregate", WINDOW_AGGREGATES), ("deduplicate", DEDUPLICATES),
                        ("rank", RANKS), ("join", JOINS), ("interval join", INTERVAL_JOINS)):
        if kind in kinds:
            return name
    return kind


def _fields(op: StatefulOperator, indexes: Any, side: int = 0) -> list[tuple[str, str]]:
    row = op.inputs[side] if side < len(op.inputs) else []
    return [row[i] if isinstance(i, int) and i < len(row) else (f"#{i}", "?") for i in indexes or []]


def _show(value: Any) -> str:
    if isinstance(value, list) and value and all(isinstance(v, tuple) and len(v) == 2 for v in value):
        return "[" + ", ".join(f"{n} {t}" for n, t in value) + "]"
    if isinstance(value, list) and value and all(isinstance(v, list) for v in value):
        return "; ".join(_show(v) for v in value)
    text = canonical(value)
    return text if len(text) <= 120 else text[:117] + "..."


class _Rules:
    """The changes found in one operator pair."""

    def __init__(self, old: StatefulOperator, new: StatefulOperator, flink_version: str) -> None:
        self.old, self.new, self.version = old, new, flink_version
        self.changes: list[Change] = []

    def add(self, level: str, rule: str) -> None:
        self.changes.append(Change(level, self.new.name, rule))

    def differs(self, old: Any, new: Any, level: str, what: str, why: str = "") -> bool:
        if old == new:
            return False
        self.add(level, f"{what} changed: {_show(old)} -> {_show(new)}" + (f" ({why})" if why else ""))
        return True

    def keys(self, old: list[tuple[str, str]], new: list[tuple[str, str]], what: str) -> None:
        """A key's types are its serializer: another type will not restore; other fields of the same types do,
        and the state then belongs to other keys."""
        if not self.differs([t for _, t in old], [t for _, t in new], WILL_NOT_RESTORE, f"{what} types",
                            "the key serializer changes"):
            self.differs(old, new, OTHER_MEANING, what, "same types: the state is kept under other keys")

    def rows_kept(self, what: str) -> None:
        """Rows kept in state: their types are the serializer; the same types under other names may hold other
        columns."""
        old, new = self.old.inputs, self.new.inputs
        if not self.differs([[t for _, t in row] for row in old], [[t for _, t in row] for row in new], WILL_NOT_RESTORE,
                            f"{what} (types)", "the serializer of the kept rows changes"):
            self.differs(old, new, OTHER_MEANING, what, "same types: the kept rows may hold other columns")

    def ttl(self) -> None:
        def ttls(op: StatefulOperator) -> dict[str, str]:
            return {str(s.get("name")): str(s.get("ttl", "0 ms")) for s in op.node.get("state") or []}

        before, after = ttls(self.old), ttls(self.new)
        for name in sorted(set(before) & set(after)):
            if before[name] == after[name]:
                continue
            switched = (before[name] == "0 ms") != (after[name] == "0 ms")
            if not switched:
                self.add(UNKNOWN, f"state TTL of {name} changed ({before[name]} -> {after[name]}): not measured")
            elif restore_facts.restores(self.version, "group_state_ttl"):
                self.add(OTHER_MEANING, f"state TTL of {name} switched {'on' if before[name] == '0 ms' else 'off'} "
                                        f"({before[name]} -> {after[name]}): Flink {self.version} migrates the state")
            else:
                self.add(WILL_NOT_RESTORE, f"state TTL of {name} switched {'on' if before[name] == '0 ms' else 'off'} "
                                           f"({before[name]} -> {after[name]}): the state's serializer changes")


def _calls(op: StatefulOperator) -> list[dict[str, Any]]:
    out = []
    for call in op.node.get("aggCalls") or []:
        internal = str(call.get("internalName") or call.get("name") or "")
        match = _INTERNAL_NAME.match(internal)
        out.append({"function": match["name"] if match else internal, "args": _fields(op, call.get("argList")),
                    "distinct": bool(call.get("distinct")), "filter": call.get("filterArg", -1),
                    "type": canonical(call.get("type")), "text": internal})
    return out


def _aggregates(r: _Rules) -> None:
    before, after = _calls(r.old), _calls(r.new)
    if len(before) != len(after):
        r.add(WILL_NOT_RESTORE, f"{'an aggregate added' if len(after) > len(before) else 'an aggregate removed'} "
                                f"({len(before)} -> {len(after)} aggregates): the accumulators' serializer changes")
        return
    retracting = bool(r.new.node.get("needRetraction"))
    for old, new in zip(before, after):
        said = f"{old['text']}({_show(old['args'])}) -> {new['text']}({_show(new['args'])})"
        if old["distinct"] != new["distinct"]:
            r.add(WILL_NOT_RESTORE, f"DISTINCT changed: {said}: a distinct aggregate keeps other state")
        elif old["function"] != new["function"]:
            same_layout = ({old["function"], new["function"]} <= _ONE_VALUE_ACCUMULATORS and not retracting
                           and [t for _, t in old["args"]] == [t for _, t in new["args"]] and old["type"] == new["type"])
            if same_layout:
                r.add(OTHER_MEANING, f"aggregate function changed: {said}: the same accumulator, read by another function")
            else:
                r.add(WILL_NOT_RESTORE, f"aggregate function changed: {said}: the accumulator changes")
        elif [t for _, t in old["args"]] != [t for _, t in new["args"]] or old["type"] != new["type"]:
            r.add(WILL_NOT_RESTORE, f"aggregate argument type changed: {said}: the accumulator changes")
        elif old["args"] != new["args"]:
            r.add(OTHER_MEANING, f"aggregate argument changed: {said}: the accumulator now sums up another column")
        elif old["filter"] != new["filter"]:
            r.add(UNKNOWN, f"aggregate FILTER changed: {said}: not measured")


def _group(r: _Rules) -> None:
    o, n = r.old.node, r.new.node
    r.keys(_fields(r.old, o.get("grouping")), _fields(r.new, n.get("grouping")), "grouping keys")
    r.differs(o.get("needRetraction"), n.get("needRetraction"), WILL_NOT_RESTORE,
              "input changelog (the aggregates' retraction state)")
    _aggregates(r)


def _window_group(r: _Rules) -> None:
    _group(r)
    o = r.old.node.get("windowing") or r.old.node.get("window") or {}
    n = r.new.node.get("windowing") or r.new.node.get("window") or {}
    r.differs(_window_text(o), _window_text(n), OTHER_MEANING, "window type or size", "the kept slices are read as other windows")
    if isinstance(o, dict) and isinstance(n, dict):
        r.differs(o.get("isRowtime"), n.get("isRowtime"), OTHER_MEANING, "window time (event/processing)",
                  "the kept windows are closed by another clock")


def _window_text(windowing: Any) -> str:
    """`TumblingWindow(size=PT1M)` from a plan's window spec."""
    window = windowing.get("window", windowing) if isinstance(windowing, dict) else windowing
    if not isinstance(window, dict):
        return canonical(window)
    details = ", ".join(f"{k}={canonical(v)}" for k, v in sorted(window.items()) if k != "type")
    return f"{window.get('type', '?')}({details})"


def _rank(r: _Rules) -> None:
    o, n = r.old.node, r.new.node
    r.keys(_fields(r.old, (o.get("partition") or {}).get("fields")),
           _fields(r.new, (n.get("partition") or {}).get("fields")), "Top-N partition keys")
    r.rows_kept("rows a Top-N keeps in state")

    def order(op: StatefulOperator) -> list[tuple[tuple[str, str], bool, bool]]:
        fields = (op.node.get("orderBy") or {}).get("fields") or []
        return [(_fields(op, [f.get("index")])[0], bool(f.get("isAscending")), bool(f.get("nullIsLast"))) for f in fields]

    before, after = order(r.old), order(r.new)
    if not r.differs([f[0][1] for f in before], [f[0][1] for f in after], WILL_NOT_RESTORE, "Top-N order key types",
                     "the sort key serializer changes"):
        r.differs(before, after, OTHER_MEANING, "Top-N order", "the kept rows are ranked by another order")
    r.differs(canonical(o.get("rankRange")), canonical(n.get("rankRange")), OTHER_MEANING, "Top-N range",
              "the kept rows are cut at another rank")
    r.differs(canonical(o.get("rankStrategy")), canonical(n.get("rankStrategy")), WILL_NOT_RESTORE, "Top-N strategy",
              "another strategy keeps other state")
    r.differs(o.get("rankType"), n.get("rankType"), UNKNOWN, "rank function", "not measured")
    # outputRowNumber only adds the rank to the output: measured, the state restores with the same meaning


def _deduplicate(r: _Rules) -> None:
    o, n = r.old.node, r.new.node
    r.keys(_fields(r.old, o.get("uniqueKeys")), _fields(r.new, n.get("uniqueKeys")), "deduplication keys")
    if r.differs(o.get("keepLastRow"), n.get("keepLastRow"), WILL_NOT_RESTORE, "kept row (first/last)",
                 "keep-first and keep-last keep other state"):
        return
    if o.get("isRowtime") != n.get("isRowtime"):
        restores = restore_facts.restores(r.version, "dedup_rowtime")
        r.differs(o.get("isRowtime"), n.get("isRowtime"), OTHER_MEANING if restores else WILL_NOT_RESTORE,
                  "deduplication order (rowtime)", f"Flink {r.version} {'keeps' if restores else 'cannot keep'} the state")
    elif n.get("keepLastRow") or n.get("isRowtime"):
        r.rows_kept("rows a deduplication keeps in state")


def _join_spec(spec: dict[str, Any], op: StatefulOperator) -> tuple[Any, list, list, Any]:
    return (spec.get("joinType"), _fields(op, spec.get("leftKeys"), 0), _fields(op, spec.get("rightKeys"), 1),
            canonical(spec.get("nonEquiCondition")))


def _input_specs(node: dict[str, Any]) -> list[str]:
    return re.findall(r"(?:left|right)InputSpec=\[([^\]]*)\]", str(node.get("description") or ""))


def _join(r: _Rules) -> None:
    old_type, old_left, old_right, old_cond = _join_spec(r.old.node.get("joinSpec") or {}, r.old)
    new_type, new_left, new_right, new_cond = _join_spec(r.new.node.get("joinSpec") or {}, r.new)
    if r.differs(old_type, new_type, WILL_NOT_RESTORE, "join type", "an outer join keeps other state"):
        return
    r.rows_kept("rows a join keeps in state")
    r.differs(_input_specs(r.old.node), _input_specs(r.new.node), WILL_NOT_RESTORE, "join input unique keys",
              "the join keeps its rows in another state layout")
    r.keys(old_left + old_right, new_left + new_right, "join keys")
    r.differs(old_cond, new_cond, OTHER_MEANING if new_type == "INNER" else UNKNOWN, "join condition")


def _interval_join(r: _Rules) -> None:
    o, n = r.old.node.get("intervalJoinSpec") or {}, r.new.node.get("intervalJoinSpec") or {}
    old_type, old_left, old_right, old_cond = _join_spec(o.get("joinSpec") or {}, r.old)
    new_type, new_left, new_right, new_cond = _join_spec(n.get("joinSpec") or {}, r.new)
    if r.differs(old_type, new_type, WILL_NOT_RESTORE, "join type", "an outer join keeps other state"):
        return
    r.rows_kept("rows an interval join keeps in state")
    r.keys(old_left + old_right, new_left + new_right, "join keys")
    r.differs(old_cond, new_cond, OTHER_MEANING if new_type == "INNER" else UNKNOWN, "join condition")
    ob, nb = o.get("windowBounds") or {}, n.get("windowBounds") or {}
    if r.differs(ob.get("isEventTime"), nb.get("isEventTime"), UNKNOWN, "interval join time (event/processing)",
                 "not measured"):
        return
    r.differs([ob.get("leftLowerBound"), ob.get("leftUpperBound")], [nb.get("leftLowerBound"), nb.get("leftUpperBound")],
              OTHER_MEANING, "interval join bounds", "the kept rows are matched within another interval")


_FAMILY_RULES = {"aggregate": _group, "window aggregate": _window_group, "rank": _rank, "deduplicate": _deduplicate,
                 "join": _join, "interval join": _interval_join}


def compare_operator(old: StatefulOperator, new: StatefulOperator, flink_version: str) -> list[Change]:
    """What changed in one stateful operator (matched by its id or its position), each change with its verdict."""
    if family(old.kind) != family(new.kind):
        return [Change(WILL_NOT_RESTORE, new.name, f"another operator in its place ({old.kind} -> {new.kind}): "
                                                   "its state is not this operator's", lost=True)]
    if old.kind != new.kind:
        old_names = [str(x.get("name")) for x in old.node.get("state") or []]
        new_names = [str(x.get("name")) for x in new.node.get("state") or []]
        if old_names != new_names:  # e.g. a group aggregate continued by mini-batch's global aggregate
            return [Change(UNKNOWN, new.name, f"another operator in its place ({old.kind} -> {new.kind}): Flink may hand it "
                                              "the old state; whether it reads it was not measured")]
    elif old.version != new.version:
        return [Change(UNKNOWN, new.name, f"plan version of {new.kind} changed ({old.version} -> {new.version})")]
    r = _Rules(old, new, flink_version)
    r.ttl()
    rule = _FAMILY_RULES.get(family(new.kind))
    if rule is not None:
        rule(r)
    else:
        ignore = {"id", "description", "inputProperties", "configuration"}
        if {k: v for k, v in old.node.items() if k not in ignore} != {k: v for k, v in new.node.items() if k not in ignore}:
            r.add(UNKNOWN, f"{new.kind} changed; flinkx has no finer rule for this operator")
    return r.changes
