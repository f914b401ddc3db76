"""The pieces every page of the docs site is made of: escaping, the frame, links.

Workspace text is hostile (a description may hold `<script>`): every value goes through `e()`
(text and attributes alike), data for scripts through `script_json`, and a source link is
built from the configured template with the path percent-encoded and must stay an http(s)
URL. A Content-Security-Policy allows scripts and styles from the site's own files only: no
inline script, no network.
"""
from __future__ import annotations

import html
import json
from typing import Any
from urllib.parse import quote

from flinkx_build.workspace_model import DocsConfig

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'none'; base-uri 'none'; form-action 'none'")


def e(value: Any) -> str:
    """Text or an attribute value, escaped (quotes too)."""
    return html.escape("" if value is None else str(value), quote=True)


def script_json(data: Any) -> str:
    """JSON that is also a safe JavaScript expression in any context."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def source_url(docs: DocsConfig, path: str, line: int) -> str | None:
    """The configured `source_url` with `{path}` (percent-encoded) and `{line}` filled in; None when
    no template is set or the result is not an http(s) URL."""
    template = docs.source_url
    if not template or not path or path.startswith("/"):
        return None
    url = template.replace("{path}", quote(path, safe="/")).replace("{line}", str(int(line)))
    return url if url.lower().startswith(("https://", "http://")) else None


def source_link(docs: DocsConfig, path: str, line: int = 1) -> str:
    """`path:line`, a link to the repository when a template is configured."""
    text = f"{path}:{line}" if path else ""
    url = source_url(docs, path, line)
    if url is None:
        return f'<code class="src">{e(text)}</code>'
    return f'<a class="src" href="{e(url)}" rel="noopener noreferrer">{e(text)}</a>'


def link(href: str, text: str, cls: str = "") -> str:
    attr = f' class="{e(cls)}"' if cls else ""
    return f'<a href="{e(href)}"{attr}>{e(text)}</a>'


def anchor(name: str) -> str:
    """An element id (and `#fragment`) for a column name: any text, percent-encoded."""
    return "col-" + quote(name, safe="")


def frame(title: str, site_title: str, body: str, root: str, page_kind: str) -> str:
    """A whole page: header with the search box, the body, the site's script."""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(title)} - {e(site_title)}</title>
<link rel="stylesheet" href="{root}assets/site.css">
</head>
<body data-root="{root}" data-page="{e(page_kind)}">
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<a class="brand" href="{root}index.html">{e(site_title)}</a>
<nav aria-label="Site"><a href="{root}index.html">Projects</a> <a href="{root}lineage.html">Lineage</a></nav>
<div class="search" role="search">
<label for="search" class="visually-hidden">Search tables, columns, tasks, functions</label>
<input id="search" type="search" placeholder="Search (press /)" autocomplete="off" role="combobox"
 aria-autocomplete="list" aria-expanded="false" aria-controls="search-results">
<ul id="search-results" role="listbox" aria-label="Search results" hidden></ul>
</div>
</header>
<main id="main" tabindex="-1">
{body}
</main>
<script src="{root}assets/site.js"></script>
</body></html>
"""


def table_html(headers: list[str], rows: list[list[str]], cls: str = "", caption: str = "") -> str:
    """`rows` hold HTML already escaped by the caller."""
    cap = f"<caption>{e(caption)}</caption>" if caption else ""
    if not any(headers):  # a table of facts: each row's first cell names it
        body = "".join(f'<tr><th scope="row">{row[0]}</th>' + "".join(f"<td>{c}</td>" for c in row[1:]) + "</tr>" for row in rows)
        return f'<table class="{e(cls)}">{cap}<tbody>{body}</tbody></table>'
    head = "".join(f'<th scope="col">{e(h)}</th>' for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f'<table class="{e(cls)}">{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
