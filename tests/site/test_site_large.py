"""Issue 30: the docs site of generated workspaces (`scripts/benchgen.py`): its size grows linearly,
and at 1,000 tasks the lineage view of the busiest node stays readable in a real browser (a
screenshot of it is kept as a test artifact)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.site.browser_helpers import console_problems
from tests.site.browser_helpers import lineage_ids
from tests.site.browser_helpers import open_page
from tests.site.browser_helpers import wait_for
from tests.site.conftest import artifacts_dir
from tests.site.conftest import flinkx_docs

COLUMN_CAP = 40  # site.js: nodes shown per column before "Show more"


def generated(folder: Path, tasks: int) -> Path:
    subprocess.run([sys.executable, str(REPO / "scripts/benchgen.py"), str(folder), "--tasks", str(tasks)],
                   check=True, capture_output=True, timeout=600)
    return folder


def site_bytes(site: Path) -> int:
    return sum(p.stat().st_size for p in site.rglob("*") if p.is_file())


@pytest.mark.slow
def test_the_sites_size_grows_linearly_with_the_tasks(tmp_path):
    sizes = {}
    for tasks in (24, 48):
        ws = generated(tmp_path / f"ws{tasks}", tasks)
        done = flinkx_docs(ws, tmp_path / f"site{tasks}", timeout=1800)
        assert done.returncode == 0, done.stdout + done.stderr
        sizes[tasks] = site_bytes(tmp_path / f"site{tasks}")
    assert sizes[48] / 48 <= 1.15 * sizes[24] / 24, sizes  # linear: bytes per task do not grow


def _graph_data(site: Path) -> dict:
    text = (site / "data/graph.js").read_text(encoding="utf-8")
    return json.loads(text[text.index("=") + 1: text.rindex(";")])


@pytest.mark.slow
def test_a_1000_task_site_in_the_browser(tmp_path, browser):
    from selenium.webdriver.common.by import By

    ws = generated(tmp_path / "ws", 1000)
    site = tmp_path / "site"
    done = flinkx_docs(ws, site, timeout=3600)
    assert done.returncode == 0, done.stdout + done.stderr
    graph = _graph_data(site)
    degree = [0] * len(graph["nodes"])
    for u, v, _ in graph["edges"]:
        degree[u] += 1
        degree[v] += 1
    tables = [i for i, n in enumerate(graph["nodes"]) if n[1] == "table"]
    busiest = graph["nodes"][max(tables, key=lambda i: (degree[i], -i))][0]

    open_page(browser, site / "lineage.html")  # no node named: the view opens on the busiest table
    wait_for(browser, lambda: lineage_ids(browser), timeout=120)
    centre = browser.find_element(By.CSS_SELECTOR, ".lnode.centre").get_attribute("data-id")
    assert centre == busiest
    shown = lineage_ids(browser)
    columns = len(browser.find_elements(By.CSS_SELECTOR, ".lineage-column"))
    assert len(shown) <= COLUMN_CAP * columns < len(graph["nodes"])  # one neighbourhood, never the workspace
    assert busiest.split(".")[-1] in browser.find_element(By.ID, "lineage-status").text

    # the busiest node of any kind (a function most tasks call): one column of callers, capped
    top = graph["nodes"][max(range(len(degree)), key=lambda i: (degree[i], -i))][0]
    open_page(browser, site / "lineage.html", f"#node={top}&up=1&down=1")
    wait_for(browser, lambda: top in lineage_ids(browser), timeout=120)
    shown = lineage_ids(browser)
    assert len(shown) <= 2 * COLUMN_CAP + 1 < degree[[n[0] for n in graph["nodes"]].index(top)] + 1
    status = browser.find_element(By.ID, "lineage-status").text
    assert "more behind" in status
    path = artifacts_dir() / "docs-site-1000-tasks-busiest-node.png"
    browser.save_screenshot(str(path))
    print(f"screenshot of the 1,000-task site's busiest node: {path}")  # kept as a test artifact
    assert path.stat().st_size > 0

    task = next(i for i in sorted(shown) if i.startswith("task."))
    before = len(lineage_ids(browser))
    browser.find_element(By.CSS_SELECTOR, f'.lnode[data-id="{task}"] .expand').click()
    wait_for(browser, lambda: len(lineage_ids(browser)) > before)

    open_page(browser, site / "index.html")
    browser.find_element(By.TAG_NAME, "body").send_keys("/")
    browser.switch_to.active_element.send_keys("order_id")
    results = wait_for(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#search-results [role=option]"), timeout=120)
    assert "column" in results[0].text.lower()
    assert console_problems(browser) == []
