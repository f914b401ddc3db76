"""Where a node's page lives in the `flinkx docs` site: one naming, for the site and for the
links other reports (impact's markdown) make to it."""
from __future__ import annotations

import hashlib
import re
from urllib.parse import quote

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")  # one character at a time: linear


def page_name(node_id: str) -> str:
    """A file name for the node's page: its id with unsafe characters replaced, plus a hash of the
    id when any was (so two ids never share a page)."""
    safe = _UNSAFE.sub("_", node_id)
    if safe != node_id or len(safe) > 120:
        safe = safe[:120] + "-" + hashlib.sha256(node_id.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return safe + ".html"


def page_url(site_url: str, node_id: str) -> str:
    """The node's page on the published site (`docs: {site_url: ...}` in flinkx.yaml)."""
    return site_url.rstrip("/") + "/pages/" + quote(page_name(node_id), safe="")
