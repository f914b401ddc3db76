"""`flinkx docs`: the whole static site of a workspace, as {relative path: text}, and its writing.

Layout: `index.html` and `lineage.html` at the root, every other page flat in `pages/`, the
script and style in `assets/` (shipped in the package as text files), and the two data files
in `data/`. Nothing is fetched: the site works from file:// and any static host.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from flinkx_build import __version__
from flinkx_build.credentials import mask_variable_values
from flinkx_build.emit.manifest import task_node
from flinkx_build.emit.writer import write_build
from flinkx_build.pipeline import Session
from flinkx_build.site.data_files import graph_js
from flinkx_build.site.data_files import search_js
from flinkx_build.site.pages import function_page
from flinkx_build.site.pages import index_page
from flinkx_build.site.pages import lineage_page
from flinkx_build.site.pages import project_page
from flinkx_build.site.pages import table_page
from flinkx_build.site.pages import view_page
from flinkx_build.site.site_model import SiteModel
from flinkx_build.site.site_model import build_model
from flinkx_build.site.site_model import view_node
from flinkx_build.site.task_page import task_page
from flinkx_build.site.task_pages import all_task_pages
from flinkx_build.testing.fixtures import read_cases

ASSETS = ("site.js", "site.css")


@dataclass(frozen=True)
class SiteStats:
    pages: int
    files: int
    bytes: int


def collect(session: Session, title: str) -> SiteModel:
    """The site's model from the session's summaries (cached by a build) and each task's page data."""
    ws = session.workspace
    tasks = session.tasks()
    summaries = session.summaries(tasks, compile=True)
    compiling = {s.key for s in summaries if s.compiled}
    task_pages = all_task_pages(session, tasks, compiling)
    return build_model(ws, title, summaries, task_pages, tests_by_task(session))


def tests_by_task(session: Session) -> dict[str, list[tuple[str, str, int]]]:
    """task key -> (case name, workspace-relative file, line) of every test case naming it."""
    cases, _ = read_cases(session.workspace)
    root = str(session.workspace.root)
    out: dict[str, list[tuple[str, str, int]]] = {}
    for case in cases:
        rel = os.path.relpath(os.path.abspath(case.loc.path), root).replace(os.sep, "/")
        out.setdefault(case.task.removesuffix(".sql"), []).append((case.name, rel, case.loc.line))
    return out


def render_site(site: SiteModel, description: str = "") -> dict[str, str]:
    files: dict[str, str] = {"index.html": index_page(site, description), "lineage.html": lineage_page(site)}
    for name in site.workspace.projects:
        files[f"pages/{site.nodes['project.' + name].page}"] = project_page(site, name)
    for key, table in site.tables.items():
        files[f"pages/{site.nodes['table.' + key].page}"] = table_page(site, table)
    for key in site.functions:
        node = site.nodes["function." + key.replace(":", ".", 1)]
        files[f"pages/{node.page}"] = function_page(site, key)
    for key in site.summaries:
        files[f"pages/{site.nodes[task_node(key)].page}"] = task_page(site, key)
        for view in site.task_pages.get(key, {}).get("views", []):
            node_id = view_node(key, view["name"])
            files[f"pages/{site.nodes[node_id].page}"] = view_page(site, node_id, key, view)
    files["data/graph.js"] = graph_js(site)
    files["data/search.js"] = search_js(site)
    for asset in ASSETS:
        files[f"assets/{asset}"] = resources.files("flinkx_build.site").joinpath(f"assets/{asset}").read_text(encoding="utf-8")
    return files


def write_site(out: Path, files: dict[str, str], workspace_root: Path) -> SiteStats:
    """Replace `out` with the site, as a build replaces its folder (marker, atomic swap): never a
    folder flinkx did not make, the workspace or its sources."""
    manifest = {"metadata": {"generator": f"flinkx {__version__}", "kind": "docs-site"}, "tasks": {}}
    # an identifier written as `${db_password}` carries a credential variable's value into names, links and text
    files = {mask_variable_values(name): mask_variable_values(text) for name, text in files.items()}
    write_build(out, files, manifest, workspace_root=workspace_root)
    pages = sum(1 for rel in files if rel.endswith(".html"))
    return SiteStats(pages, len(files), sum(len(t.encode("utf-8")) for t in files.values()))
