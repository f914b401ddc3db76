"""The pages of projects, meta tables, functions and views, the home page and the lineage view."""
from __future__ import annotations

from urllib.parse import quote

from flinkx_build.credentials import mask_options
from flinkx_build.credentials import mask_value
from flinkx_build.emit.manifest import function_node
from flinkx_build.emit.manifest import table_node
from flinkx_build.emit.manifest import task_node
from flinkx_build.site.html_parts import anchor
from flinkx_build.site.html_parts import e
from flinkx_build.site.html_parts import frame
from flinkx_build.site.html_parts import link
from flinkx_build.site.html_parts import source_link
from flinkx_build.site.html_parts import table_html
from flinkx_build.site.site_model import SiteModel
from flinkx_build.site.site_model import column_walk
from flinkx_build.site.site_model import project_node
from flinkx_build.site.site_model import split_column
from flinkx_build.workspace_model import MetaTable

KIND_LABEL = {"project": "Project", "table": "Meta table", "task": "Task", "view": "View", "function": "Function"}


def node_link(site: SiteModel, node_id: str, text: str | None = None, fragment: str = "") -> str:
    """A link to a node's page from another page (both in pages/), or its name when it has none."""
    node = site.nodes.get(node_id)
    if node is None:
        return e(text or node_id)
    label = text or (f"{node.project}.{node.name}" if node.kind != "project" else node.name)
    return link(node.page + fragment, label)


def lineage_link(site: SiteModel, node_id: str, root: str = "../") -> str:
    return f'<a class="lineage-link" href="{root}lineage.html#node={e(quote(node_id, safe=""))}">Lineage graph</a>'


def column_link(site: SiteModel, column: str) -> str:
    table, name = split_column(column)
    node = table_node(table)
    if node in site.nodes:
        return link(site.nodes[node].page + "#" + anchor(name), column)
    return e(column)


def heading(site: SiteModel, node_id: str, extra: str = "") -> str:
    node = site.nodes[node_id]
    kind = KIND_LABEL.get(node.kind, node.kind)
    crumbs = "" if node.kind == "project" else f' <span class="crumb">in project {node_link(site, project_node(node.project), node.project)}</span>'
    return (f'<p class="kind">{e(kind)}</p><h1>{e(node.name)}</h1>'
            f'<p class="meta">{crumbs} {source_link(site.docs, node.source, node.line)} {extra}</p>')


def description(text: str) -> str:
    return f'<p class="description">{e(text)}</p>' if text else ""


def project_page(site: SiteModel, name: str) -> str:
    project = site.workspace.projects[name]
    node_id = project_node(name)
    tables = [t for t in site.tables.values() if t.project == name]
    tasks = [s for s in site.summaries.values() if s.project == name]
    functions = [f for f in site.functions.values() if f.project == name]
    body = [heading(site, node_id), description(project.description)]
    body.append(f"<h2>Meta tables ({len(tables)})</h2>")
    body.append(table_html(["table", "kind", "connector", "description"], [
        [node_link(site, table_node(t.key), t.name), e(t.kind), e(t.type), e(t.description)] for t in sorted(tables, key=lambda t: t.name)
    ], "list"))
    body.append(f"<h2>Tasks ({len(tasks)})</h2>")
    body.append(table_html(["task", "reads", "writes"], [
        [node_link(site, task_node(s.key), s.name), e(", ".join(r.table for r in s.reads)), e(", ".join(w.table for w in s.writes))]
        for s in sorted(tasks, key=lambda s: s.name)
    ], "list"))
    if functions:
        body.append(f"<h2>Functions ({len(functions)})</h2>")
        body.append(table_html(["function", "returns", "class"], [
            [node_link(site, function_node(f.key), f.name), e(f.returns), e(f.class_name)] for f in sorted(functions, key=lambda f: f.name)
        ], "list"))
    return frame(name, site.title, "\n".join(body), "../", "project")


def table_page(site: SiteModel, table: MetaTable) -> str:
    node_id = table_node(table.key)
    body = [heading(site, node_id, lineage_link(site, node_id)), description(table.description)]
    facts = [["kind", e(table.kind)], ["connector", e(table.type)]]
    if table.primary_key:
        facts.append(["primary key", e(", ".join(table.primary_key))])
    if table.locked:
        facts.append(["locked options", e(", ".join(table.locked))])
    body.append(table_html(["", ""], facts, "facts"))
    keys = {k.lower() for k in table.primary_key}
    body.append("<h2>Columns</h2>")
    body.append(table_html(["column", "type", "key", "comment", "lineage"], [
        [f'<span id="{e(anchor(c.name))}-row">{e(c.name)}</span>', f'<code class="type">{e(c.type)}</code>',
         "PK" if c.name.lower() in keys else "", e(c.comment), link("#" + anchor(c.name), "lineage")]
        for c in table.columns
    ], "columns"))
    body.append(_options(table))
    readers = [(u, site.relations.get((node_id, u), "")) for u in site.children.get(node_id, []) if u.startswith("task.")]
    writers = [u for u in site.parents.get(node_id, []) if u.startswith("task.")]
    body.append(f"<h2>Written by ({len(writers)})</h2>" + _node_list(site, writers))
    body.append(f"<h2>Read by ({len(readers)})</h2>" + _node_list(site, [r for r, _ in readers],
                                                                   {r: "lookup" for r, how in readers if how == "lookup"}))
    body.append("<h2>Column lineage</h2>")
    for column in table.columns:
        body.append(_column_lineage(site, f"{table.key}.{column.name}", column.name))
    return frame(f"{table.project}.{table.name}", site.title, "\n".join(body), "../", "table")


def _options(table: MetaTable) -> str:
    out = []
    modes = [("options", table.options)] + [(f"{m} options", o) for m, o in (("stream", table.stream_options), ("batch", table.batch_options)) if o]
    for title, options in modes:
        if not options:
            continue
        rows = [[f"<code>{e(k)}</code>", f"<code>{e(v)}</code>"] for k, v in mask_options(options).items()]
        out.append(f"<h2>{e(title.capitalize())}</h2>" + table_html(["option", "value"], rows, "options"))
    return "".join(out)


def _node_list(site: SiteModel, nodes: list[str], notes: dict[str, str] | None = None) -> str:
    if not nodes:
        return '<p class="none">none</p>'
    notes = notes or {}
    items = "".join(f"<li>{node_link(site, n)}{' <span class=note>(' + e(notes[n]) + ')</span>' if n in notes else ''}</li>" for n in nodes)
    return f'<ul class="nodes">{items}</ul>'


def _column_lineage(site: SiteModel, column: str, name: str) -> str:
    parts = [f'<section class="column-lineage" id="{e(anchor(name))}" aria-labelledby="{e(anchor(name))}-h">',
             f'<h3 id="{e(anchor(name))}-h">{e(name)}</h3>']
    for title, downstream in (("Upstream", False), ("Downstream", True)):
        steps = column_walk(site, column, downstream)
        if not steps:
            parts.append(f'<p class="{title.lower()}"><b>{title}:</b> none</p>')
            continue
        rows = [[column_link(site, s.column), f'<span class="how">{e(s.how)}</span>', node_link(site, task_node(s.task)), str(s.depth)]
                for s in steps]
        parts.append(table_html(["column", "how", "via task", "steps"], rows, f"lineage {title.lower()}", f"{title} of {name}"))
    parts.append("</section>")
    return "".join(parts)


def function_page(site: SiteModel, key: str) -> str:
    fn = site.functions[key]
    node_id = function_node(key)
    facts = [["class", f"<code>{e(fn.class_name)}</code>"], ["language", e(fn.language)], ["kind", e(fn.kind)],
             ["returns", f'<code class="type">{e(fn.returns)}</code>'], ["resource", e(mask_value("resource", fn.resource))]]
    callers = site.children.get(node_id, [])
    body = [heading(site, node_id, lineage_link(site, node_id)), table_html(["", ""], facts, "facts"),
            f"<h2>Called by ({len(callers)})</h2>" + _node_list(site, callers)]
    return frame(fn.key, site.title, "\n".join(body), "../", "function")


def view_page(site: SiteModel, node_id: str, task_key: str, view: dict) -> str:
    body = [heading(site, node_id), f"<p>Defined in task {node_link(site, task_node(task_key))}.</p>",
            f'<h2>SQL</h2><pre class="sql"><code>{e(view["sql"])}</code></pre>']
    return frame(view["name"], site.title, "\n".join(body), "../", "view")


def index_page(site: SiteModel, description_text: str) -> str:
    rows = []
    for project in sorted(site.workspace.projects.values(), key=lambda p: p.name):
        count = {k: sum(1 for n in site.nodes.values() if n.project == project.name and n.kind == k) for k in ("table", "task", "function")}
        rows.append([link("pages/" + site.nodes[project_node(project.name)].page, project.name), e(project.description),
                     str(count["table"]), str(count["task"]), str(count["function"])])
    body = [f"<h1>{e(site.title)}</h1>", description(description_text),
            '<p class="hint">Press <kbd>/</kbd> to search tables, columns, tasks and functions; '
            'arrows choose a result, <kbd>Enter</kbd> opens it.</p>',
            "<h2>Projects</h2>", table_html(["project", "description", "tables", "tasks", "functions"], rows, "list")]
    return frame("Projects", site.title, "\n".join(body), "", "index")


def lineage_page(site: SiteModel) -> str:
    body = """<h1>Lineage</h1>
<p class="hint">Centred on one node: choose how many steps upstream and downstream to show; activate a node to
add its neighbours, and open its page with its link. Start from a page's "Lineage graph" link or from search.</p>
<form class="controls" id="lineage-controls">
<label for="depth-up">Upstream steps</label> <select id="depth-up">{options}</select>
<label for="depth-down">Downstream steps</label> <select id="depth-down">{options}</select>
<button type="button" id="lineage-reset">Reset expansions</button>
</form>
<p id="lineage-status" role="status" aria-live="polite"></p>
<div id="lineage" class="lineage" aria-label="Lineage graph"></div>
""".replace("{options}", "".join(f'<option value="{n}"{" selected" if n == 1 else ""}>{n}</option>' for n in range(0, 6)))
    return frame("Lineage", site.title, body, "", "lineage")
