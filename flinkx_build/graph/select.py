"""Node selection the way dbt does it, as set operations over the networkx graph.

A selector is a node with graph operators:

    NODE      the node            +NODE     it and all its ancestors
    NODE+     it and descendants  2+NODE    ancestors up to two edges away
    +NODE+    both                NODE+1    descendants one edge away
    @NODE     descendants and all of their ancestors (what a rebuild needs)

Space-separated selectors are a union, comma-joined ones an intersection
(`+dws.x,dwd/y+`); repeated --select options are a union too, and --exclude
removes its union from the result. NODE is a node id (`table.dwd.dwd_orders`,
`task.dws.agg/x`, `function.dim.mask_phone`) or a short form: `dwd.dwd_orders`
(a table, or a task at the top of tasks/), `dws/agg/x` (a task),
`dim:mask_phone` (a function), or a bare name when only one node has it.
`proj.name` means the table when both a table and a top-level task have
that name (a task often writes the table it is named after).
"""
from __future__ import annotations

import re
from typing import Iterable

import networkx as nx

from flinkx_build.errors import UsageError
from flinkx_build.errors import did_you_mean

_ATOM = re.compile(r"^(?P<at>@)?(?:(?P<up>\d*)\+)?(?P<node>[^+@]+)(?:\+(?P<down>\d*))?$")


def resolve_node(graph: nx.DiGraph, text: str) -> str:
    """The node id `text` denotes; UsageError with a hint when none or several do."""
    if text in graph:
        return text
    candidates = _short_forms(graph, text)
    if len(candidates) == 1:
        return candidates[0]
    if len(candidates) > 1:
        raise UsageError(f"'{text}' is ambiguous: {', '.join(sorted(candidates))}")
    pool = [*graph.nodes, *(n.split(".", 1)[1] for n in graph.nodes)]
    hint = did_you_mean(text, pool)
    raise UsageError(f"unknown node '{text}'" + (f" ({hint})" if hint else ""))


def _short_forms(graph: nx.DiGraph, text: str) -> list[str]:
    found: list[str] = []
    if "/" in text:
        project, _, path = text.partition("/")
        found.append(f"task.{project}.{path.removesuffix('.sql')}")
    elif ":" in text:
        project, _, name = text.partition(":")
        found += [n for n in graph if n.lower() == f"function.{project}.{name}".lower()]
    elif "." in text:
        # `proj.name` is a table (tasks are written with `/`); a task or a
        # function only when no table has that name
        found += [f"table.{text}"] if f"table.{text}" in graph else [f"task.{text}", f"function.{text}"]
    else:
        found += [n for n, data in graph.nodes(data=True) if data.get("name") == text]
    return sorted({n for n in found if n in graph})


def _atom(graph: nx.DiGraph, spec: str) -> set[str]:
    m = _ATOM.match(spec)
    if not m:
        raise UsageError(f"invalid selector '{spec}' (write NODE, +NODE, NODE+, +NODE+, N+NODE, NODE+N or @NODE)")
    node = resolve_node(graph, m.group("node"))
    selected = {node}
    up, down = m.group("up"), m.group("down")
    if m.group("at"):
        if up is not None:
            raise UsageError(f"invalid selector '{spec}': @ and a leading + do not combine")
        below = {node} | nx.descendants(graph, node)
        return below | {a for n in below for a in nx.ancestors(graph, n)}
    if up is not None:
        selected |= _reach(graph.reverse(copy=False), node, up)
    if down is not None:
        selected |= _reach(graph, node, down)
    return selected


def _reach(graph: nx.DiGraph, node: str, depth: str) -> set[str]:
    if not depth:
        return set(nx.descendants(graph, node))
    return set(nx.single_source_shortest_path_length(graph, node, cutoff=int(depth)))


def select_nodes(graph: nx.DiGraph, selects: Iterable[str] = (), excludes: Iterable[str] = ()) -> set[str]:
    """Union over selectors (space or repeat), intersection within comma groups."""

    def union(specs: Iterable[str]) -> set[str]:
        out: set[str] = set()
        for arg in specs:
            for group in arg.split():
                parts = [_atom(graph, p) for p in group.split(",") if p]
                if parts:
                    out |= set.intersection(*parts)
        return out

    selects = list(selects)
    chosen = union(selects) if selects else set(graph.nodes)
    return chosen - union(excludes)


def restrict_to_projects(graph: nx.DiGraph, nodes: set[str], projects: Iterable[str]) -> set[str]:
    """Nodes of these projects, plus the nodes of other projects one edge away.

    The neighbours stay so the picture of a project shows where its inputs
    come from and who reads its outputs: the cross-project edges are the
    ones reviewers care about.
    """
    wanted = set(projects)
    inside = {n for n in nodes if graph.nodes[n].get("project") in wanted}
    border = {m for n in inside for m in (*graph.predecessors(n), *graph.successors(n))}
    return inside | (border & nodes)
