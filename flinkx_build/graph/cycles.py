"""FX200 (dependency cycles) for a build, without importing networkx when nothing can have changed.

Whether the workspace graph has a cycle depends only on its edges and on
which of them are lookups (a loop closed only by lookup joins is no cycle in
stream mode: `build.find_cycles`). So a build hashes exactly that, the mode
and flinkx's code, and a graph found acyclic before is not searched again;
importing networkx and searching 5,000 nodes cost 0.15 s of a one-second
build. Only "acyclic" is stored: a graph with a cycle (a failing build) is
searched every time, so its findings are always fresh. The entry is a cache
entry like every other (`flinkx_build.cache_entries`), authenticated with
this user's key: a planted "acyclic" for a graph with a cycle is a miss, so
it cannot hide an FX200.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from flinkx_build.errors import Diagnostic
from flinkx_build.graph.build import GraphParts
from flinkx_build.graph.build import cycle_diagnostics
from flinkx_build.graph.build import find_cycles
from flinkx_build.incremental.facts import ACYCLIC_GRAPH
from flinkx_build.incremental.store import FactStore

FACT = ACYCLIC_GRAPH


def topology_key(parts: GraphParts) -> str:
    digest = hashlib.sha256(f"{FACT.format}\0{FACT.version}\0{parts.attrs.get('mode')}\0".encode())
    edges = sorted({f"{u}\0{v}\0{data.get('relation') == 'lookup'}" for u, v, data in parts.edges})
    digest.update("\n".join(edges).encode())
    return digest.hexdigest()


def cycle_findings(parts: GraphParts, cache_root: Path | None) -> list[Diagnostic]:
    """FX200 at the first task of each cycle, as `build.cycle_diagnostics` reports them."""
    key = topology_key(parts)
    store = FactStore(cache_root)
    if store.get(FACT, key) is True:
        return []
    graph = parts.to_networkx()
    found = cycle_diagnostics(graph, find_cycles(graph))
    if not found:
        store.put(FACT, key, True)
    return found
