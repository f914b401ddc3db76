"""The two data files the site's script reads, as JavaScript (a page opened from file:// may not
fetch JSON): `data/graph.js`, the table graph in a compact form the lineage view walks one
neighbourhood of, and `data/search.js`, the search index. Both grow linearly with the
workspace: each node, edge and column once."""
from __future__ import annotations

from flinkx_build.emit.manifest import table_node
from flinkx_build.site.html_parts import anchor
from flinkx_build.site.html_parts import script_json
from flinkx_build.site.site_model import SiteModel

RELATIONS = ["reads", "lookup", "writes", "calls"]


def graph_js(site: SiteModel) -> str:
    """`FLINKX_GRAPH = {nodes: [[id, kind, project, name, page]], edges: [[from, to, relation]]}`,
    edges by node index and relation index."""
    ids = [n for n in sorted(site.nodes) if site.nodes[n].kind in ("table", "task", "function")]
    index = {n: i for i, n in enumerate(ids)}
    nodes = [[n, site.nodes[n].kind, site.nodes[n].project, site.nodes[n].name, site.nodes[n].page] for n in ids]
    edges = []
    for u in ids:
        for v in site.children.get(u, []):
            if v in index:
                relation = site.relations.get((u, v), "reads")
                edges.append([index[u], index[v], RELATIONS.index(relation) if relation in RELATIONS else 0])
    return "window.FLINKX_GRAPH=" + script_json({"nodes": nodes, "edges": edges, "relations": RELATIONS}) + ";\n"


def search_js(site: SiteModel) -> str:
    """`FLINKX_SEARCH = [[name, kind, detail, href]]`, href relative to the site's root."""
    rows: list[list[str]] = []
    for node in sorted(site.nodes.values(), key=lambda n: (n.kind, n.project, n.name)):
        detail = node.project if node.kind != "project" else "project"
        if node.kind == "table":
            table = site.tables.get(node.id.removeprefix("table."))
            if table is not None:
                detail = f"{node.project} · {table.type}"
        rows.append([node.name, node.kind, detail, "pages/" + node.page])
    for key, table in sorted(site.tables.items()):
        page = "pages/" + site.nodes[table_node(key)].page
        for column in table.columns:
            rows.append([column.name, "column", f"{key} · {column.type}", f"{page}#{anchor(column.name)}"])
    return "window.FLINKX_SEARCH=" + script_json(rows) + ";\n"
