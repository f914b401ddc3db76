"""A task's page: what it reads and writes, the effective definition of every table it uses with
the file:line each value came from, its views, tests, deploy identity and compiled SQL."""
from __future__ import annotations

from typing import Any

from flinkx_build.credentials import mask_text
from flinkx_build.emit.manifest import function_node
from flinkx_build.emit.manifest import table_node
from flinkx_build.emit.manifest import task_node
from flinkx_build.site.html_parts import e
from flinkx_build.site.html_parts import frame
from flinkx_build.site.html_parts import source_link
from flinkx_build.site.html_parts import table_html
from flinkx_build.site.pages import description
from flinkx_build.site.pages import heading
from flinkx_build.site.pages import lineage_link
from flinkx_build.site.pages import node_link
from flinkx_build.site.site_model import SiteModel
from flinkx_build.site.site_model import view_node


def leading_comment(text: str) -> str:
    """The `--` comment lines a task starts with: its description."""
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith("--"):
            break
        lines.append(stripped.lstrip("-").strip())
    return " ".join(x for x in lines if x)


def task_page(site: SiteModel, key: str) -> str:
    summary = site.summaries[key]
    data = site.task_pages.get(key, {})
    node_id = task_node(key)
    task = site.workspace.projects[summary.project].tasks.get(summary.name)
    body = [heading(site, node_id, lineage_link(site, node_id)), description(leading_comment(task.text) if task else "")]
    rows = [[node_link(site, table_node(r.table)), "lookup" if r.lookup_only else "reads",
             e(", ".join(r.columns) + (" (through *)" if r.wildcard else "")), str(r.line)] for r in summary.reads]
    rows += [[node_link(site, table_node(w.table)), "writes", "", str(w.line)] for w in summary.writes]
    body.append("<h2>Tables</h2>" + table_html(["table", "how", "columns read", "line"], rows, "list"))
    if summary.functions:
        items = "".join(f"<li>{node_link(site, function_node(f))}</li>" for f in summary.functions)
        body.append(f'<h2>Functions</h2><ul class="nodes">{items}</ul>')
    views = data.get("views", [])
    if views:
        items = "".join(f"<li>{node_link(site, view_node(key, v['name']), v['name'])}</li>" for v in views)
        body.append(f'<h2>Views</h2><ul class="nodes">{items}</ul>')
    body.append(_tests(site, key))
    body.append(_deploy(data.get("deploy")))
    if summary.diagnostics:
        items = "".join(f"<li><code>{e(mask_text(d.format()))}</code></li>" for d in summary.diagnostics)
        body.append(f'<h2>Findings</h2><ul class="findings">{items}</ul>')
    body.append("<h2>Effective definitions</h2>")
    body.append('<p class="hint">Each table as this task uses it: schema &lt; SET &lt; hint, with where every value came from.</p>')
    for table in data.get("tables", []):
        body.append(_definition(site, table))
    if summary.compiled:
        body.append(f'<h2>Compiled Flink SQL</h2><pre class="sql"><code>{e(mask_text(summary.compiled))}</code></pre>')
    return frame(key, site.title, "\n".join(b for b in body if b), "../", "task")


def _tests(site: SiteModel, key: str) -> str:
    cases = site.tests.get(key, [])
    if not cases:
        return '<h2>Tests</h2><p class="none">No test covers this task (projects/*/tests/*.yaml).</p>'
    items = "".join(f"<li>{e(name)} {source_link(site.docs, path, line)}</li>" for name, path, line in cases)
    return f'<h2>Tests ({len(cases)})</h2><ul class="tests">{items}</ul>'


def _deploy(identity: dict[str, str] | None) -> str:
    if not identity:
        return '<h2>Deploy identity</h2><p class="none">Not deployed as a job (no INSERT, or the task has errors).</p>'
    rows = [["job name", f"<code>{e(identity['job_name'])}</code>"], ["fingerprint", f"<code>{e(identity['fingerprint'])}</code>"]]
    return "<h2>Deploy identity</h2>" + table_html(["", ""], rows, "facts")


def _from(site: SiteModel, origin: dict[str, Any] | None) -> str:
    if not origin:
        return ""
    return f'<span class="layer">{e(origin.get("layer", ""))}</span> ' + source_link(site.docs, str(origin.get("path", "")), int(origin.get("line", 1)))


def _definition(site: SiteModel, table: dict[str, Any]) -> str:
    title = f"{table.get('table', '')} as {table.get('emitted_as', '')}"
    lines = ", ".join(str(n) for n in table.get("used_at_lines", []))
    out = [f'<section class="definition"><h3>{node_link(site, table_node(str(table.get("table", ""))), title)}</h3>',
           f'<p class="meta">statements at lines {e(lines)}</p>']
    out.append(table_html(["column", "type", "from"], [
        [e(c.get("name")), f'<code class="type">{e(("AS " + c["expression"]) if c.get("expression") else c.get("type"))}</code>', _from(site, c.get("from"))]
        for c in table.get("columns", [])
    ], "columns"))
    facts = []
    for key in ("primary_key", "index", "unique_index"):
        value = table.get(key) or {}
        if value.get("columns"):
            facts.append([e(key.replace("_", " ")), f"<code>{e(', '.join(value['columns']))}</code>", _from(site, value.get("from"))])
    watermark = table.get("watermark")
    if watermark:
        facts.append(["watermark", f"<code>FOR {e(watermark.get('column'))} AS {e(watermark.get('expression'))}</code>", _from(site, watermark.get("from"))])
    if facts:
        out.append(table_html(["", "", "from"], facts, "facts"))
    options = [[f"<code>{e(k)}</code>", f"<code>{e(v.get('value'))}</code>", _from(site, v.get("from"))] for k, v in table.get("options", {}).items()]
    out.append(table_html(["option", "value", "from"], options, "options"))
    out.append("</section>")
    return "".join(out)
