"""Operator ids that stay put: pin each operator of an upgraded job to the id its state has in the savepoint.

A job submitted as SQL gets its operator ids from the shape of the whole job (Flink hashes each operator's
position): a statement added before or after an unchanged one, a filter before a window, a computed key move the
ids of the operators that did not change, and Flink refuses the savepoint ("Cannot map checkpoint/savepoint
state", measured on 1.20 and 2.3). Flink lets a job name the id an operator's state is restored from (a
user-provided operator hash); a savepoint keeps each operator's state under the id Flink computed for it, so the
ids of the running job are those its own statements give, computable at any time.

Which old operator a new one continues is decided by its address in the plan, not by its id: the table its
statement writes (and which INSERT into that table it is), then the stateful operators on the way there, each
with the input it is reached through; stateless operators (a filter, a projection) are not part of an address.
So a new statement, a removed one, two swapped ones, a filter or a computed key leave the other operators'
addresses alone. The pins (`pins`) go with the submission (DeployClient's submit of a compiled plan); every
other new operator whose own id an old operator had is moved to an id of its own, so no state reaches an
operator that did not keep it.
"""
from __future__ import annotations

import hashlib
import re
from typing import Any

from flinkx_build.deploy.compat import CompiledJob
from flinkx_build.deploy.compat import Operator
from flinkx_build.deploy.compat import stateful_nodes
from flinkx_build.deploy.compat_rules import family

_NODE_ID = re.compile(r"\[\d+\]")


def _graph(plan: dict[str, Any]) -> tuple[dict[int, dict[str, Any]], dict[int, list[tuple[int, int]]], dict[int, int]]:
    """Nodes; per node its consumers (target, the input of the target it feeds); per node its number of inputs."""
    nodes = {n["id"]: n for n in plan.get("nodes", [])}
    inputs: dict[int, list[int]] = {}
    for edge in plan.get("edges", []):
        inputs.setdefault(edge.get("target"), []).append(edge.get("source"))
    consumers: dict[int, list[tuple[int, int]]] = {i: [] for i in nodes}
    for target, sources in inputs.items():
        for index, source in enumerate(sources):
            if source in consumers and target in nodes:
                consumers[source].append((target, index))
    return nodes, consumers, {i: len(inputs.get(i, [])) for i in nodes}


def _table(node: dict[str, Any]) -> str:
    spec = node.get("dynamicTableSink") or node.get("scanTableSource") or {}
    return str((spec.get("table") or {}).get("identifier") or node.get("description") or "")


def addresses(job: CompiledJob) -> dict[int, str]:
    """Plan node -> its address, for every node that may keep state (compat.stateful_nodes): the sink its rows
    reach (`sink <table>#k`, the k-th INSERT into that table), then each stateful or multi-input operator on
    the way (`<kind>#<input>`), then its own kind."""
    nodes, consumers, fan_in = _graph(job.plan)
    keeping = {n.node_id: n for n in stateful_nodes(job)}
    sinks: dict[int, str] = {}
    seen: dict[str, int] = {}
    for node_id in sorted(nodes):  # statements in order
        if str(nodes[node_id].get("type", "")).startswith("stream-exec-sink_"):
            table = _table(nodes[node_id])
            seen[table] = seen.get(table, 0) + 1
            sinks[node_id] = f"sink {table}#{seen[table]}"
    memo: dict[int, str] = {}

    def down(node_id: int) -> str:
        """Where the node's rows go, as an address."""
        if node_id in sinks:
            return sinks[node_id]
        if node_id not in memo:
            memo[node_id] = ""  # a plan has no cycle; this only ends a malformed one
            options = []
            for target, index in consumers.get(node_id, []):
                below = down(target)
                marked = target not in sinks and (
                    (target in keeping and keeping[target].role == "operator") or fan_in.get(target, 0) > 1)
                if below:
                    options.append(f"{below} < {family(keeping[target].op.kind) if target in keeping else 'input'}#{index}"
                                   if marked else below)
            memo[node_id] = min(options) if options else ""
        return memo[node_id]

    out = {}
    for node_id, node in keeping.items():
        below = down(node_id)
        if node.role == "sink" or not below:
            out[node_id] = below
        elif node.role == "source":  # a scan many statements share: its table first (matches() uses it alone too)
            out[node_id] = f"source {_table(nodes[node_id])} | {below}"
        else:  # the family, not the kind: a one-phase window aggregate continues a two-phase one's global part
            out[node_id] = f"{below} < {family(node.op.kind)}"
    return out


def _plain(name: str) -> str:
    """An operator's name without its plan node: the same operator of another plan has the same one."""
    return _NODE_ID.sub("", name)


def _operators_of(job: CompiledJob) -> dict[int, list[Operator]]:
    out: dict[int, list[Operator]] = {}
    for op in job.operators or []:
        out.setdefault(op.node, []).append(op)
    return out


def pin_key(op: Operator) -> str:
    """How a submission names the operator to pin (JobShape.pin): by the id Flink computes for it in that job."""
    return op.id


def matches(old: CompiledJob, new: CompiledJob) -> list[tuple[int, int]]:
    """(old node, new node) pairs: the same address; else the same id and family (what Flink itself would map:
    an INSERT that now writes another table keeps its operators' places); then the scans of one table, in order,
    whatever statements they feed now (a statement added beside one reading the same table changes what a shared
    scan feeds, not which source it is)."""
    old_at, new_at = addresses(old), addresses(new)
    by_address = {a: n for n, a in new_at.items() if a}
    pairs = [(o, by_address[a]) for o, a in sorted(old_at.items()) if a and a in by_address]
    used_old, used_new = {o for o, _ in pairs}, {n for _, n in pairs}
    old_nodes, new_nodes = {n.node_id: n for n in stateful_nodes(old)}, {n.node_id: n for n in stateful_nodes(new)}
    for o in sorted(old_at):
        if o in used_old:
            continue
        twin = next((n for n in sorted(new_at) if n not in used_new and old_nodes[o].ids & new_nodes[n].ids
                     and family(old_nodes[o].op.kind) == family(new_nodes[n].op.kind)), None)
        if twin is not None:
            pairs.append((o, twin))
            used_old.add(o)
            used_new.add(twin)
    for o, a in sorted(old_at.items()):
        if o in used_old or not a.startswith("source "):
            continue
        table = a.split(" | ", 1)[0]
        twin = next((n for n, b in sorted(new_at.items()) if n not in used_new and b.split(" | ", 1)[0] == table), None)
        if twin is not None:
            pairs.append((o, twin))
            used_new.add(twin)
    return pairs


def pins(old: CompiledJob, new: CompiledJob) -> dict[str, str]:
    """pin key of a new operator -> the id its state is restored from. Operators of matched nodes get their old
    operator's id (paired by name, then in order); any other new operator whose own id an old operator had gets
    an id of its own, derived from its own."""
    old_ops, new_ops = _operators_of(old), _operators_of(new)
    out: dict[str, str] = {}
    for old_node, new_node in matches(old, new):
        before, after = list(old_ops.get(old_node, [])), list(new_ops.get(new_node, []))
        for op in list(after):  # by name first (a sink's writer, its committer), then in order
            twin = next((o for o in before if _plain(o.name) == _plain(op.name)), None)
            if twin is not None:
                before.remove(twin)
                after.remove(op)
                out[pin_key(op)] = twin.id
        for op, twin in zip(after, before):
            out[pin_key(op)] = twin.id
    taken = {op.id for op in old.operators or []}
    for op in new.operators or []:
        if pin_key(op) not in out and op.id in taken:
            out[pin_key(op)] = hashlib.md5(f"flinkx-new-operator:{op.id}".encode()).hexdigest()
    return out


def effective(job: CompiledJob, pinned: dict[str, str]) -> CompiledJob:
    """The job as Flink maps its state: each operator under its pinned id where it has one."""
    if job.operators is None:
        return job
    now = {op.id: pinned.get(pin_key(op), op.id) for op in job.operators}
    ops = [Operator(op.node, op.name, now[op.id], tuple(now.get(i, i) for i in op.inputs)) for op in job.operators]
    return CompiledJob(job.plan, ops, job.connectors)
