"""Issue 30: the docs site in a real headless Chromium, opened from file:// as a user would.

Skipped, saying why, when chromium, chromedriver or selenium is missing (`.ci/run` installs them).
"""
from __future__ import annotations

import json

import pytest

from flinkx_build.graph.docs_links import page_name
from tests.conftest import EXAMPLE
from tests.conftest import write_tree
from tests.site.browser_helpers import console_problems
from tests.site.browser_helpers import lineage_ids
from tests.site.browser_helpers import open_page
from tests.site.browser_helpers import wait_for
from tests.site.conftest import flinkx_docs
from tests.site.test_site_pages import HOSTILE_WORKSPACE


def _keys():
    from selenium.webdriver.common.keys import Keys

    return Keys


def _graph(cli) -> dict:
    return json.loads(cli("graph", str(EXAMPLE), "--format", "json").stdout)


def _type_search(driver, text: str) -> list:
    from selenium.webdriver.common.by import By

    driver.find_element(By.TAG_NAME, "body").send_keys("/")  # the keyboard way in
    box = driver.switch_to.active_element
    assert box.get_attribute("id") == "search"
    box.send_keys(text)
    return wait_for(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#search-results [role=option]"))


def test_pages_render_without_console_errors(example_site, browser):
    pages = ["index.html", "lineage.html"] + [f"pages/{page_name(n)}" for n in (
        "project.dwd", "table.dwd.dwd_orders", "task.dwd.orders/enrich_orders", "function.dim.mask_phone",
        "view.dws.realtime_metrics.paid_orders")]
    console_problems(browser)
    for rel in pages:
        open_page(browser, example_site / rel)
        assert browser.find_element("css selector", "h1").text, rel
        if rel == "lineage.html":
            wait_for(browser, lambda: lineage_ids(browser))
        assert console_problems(browser) == [], rel


def test_search_finds_a_column_and_the_keyboard_opens_it(example_site, browser):
    open_page(browser, example_site / "index.html")
    results = _type_search(browser, "phone_masked")
    first = results[0]
    assert first.text.lower().split("\n")[:2] == ["phone_masked", "column"] and "dwd.dwd_orders" in first.text
    assert first.get_attribute("aria-selected") == "true"
    box = browser.switch_to.active_element
    box.send_keys(_keys().ARROW_DOWN, _keys().ARROW_UP, _keys().ENTER)
    wait_for(browser, lambda: browser.current_url.endswith(f"{page_name('table.dwd.dwd_orders')}#col-phone_masked"))
    assert console_problems(browser) == []


def test_a_column_typed_in_search_reaches_its_upstream_sources_across_projects_in_three_clicks(example_site, browser):
    from selenium.webdriver.common.by import By

    open_page(browser, example_site / "index.html")
    clicks = 0
    results = _type_search(browser, "user_name")
    target = next(r for r in results if "dwd.dwd_orders" in r.text)
    target.find_element(By.TAG_NAME, "a").click()
    clicks += 1
    wait_for(browser, lambda: browser.current_url.endswith("#col-user_name"))
    section = browser.find_element(By.ID, "col-user_name")
    upstream = section.find_element(By.CSS_SELECTOR, "table.upstream")
    assert upstream.is_displayed()
    sources = {a.text: a for a in upstream.find_elements(By.TAG_NAME, "a") if a.text.count(".") == 2}
    assert {"dim.dim_user.user_name", "ods.users.user_name"} <= set(sources)  # two projects upstream
    sources["ods.users.user_name"].click()
    clicks += 1
    wait_for(browser, lambda: browser.current_url.endswith(f"{page_name('table.ods.users')}#col-user_name"))
    assert browser.find_element(By.TAG_NAME, "h1").text == "users"
    assert clicks <= 3


def test_the_lineage_view_of_the_most_connected_table_shows_its_neighbours(example_site, browser, cli):
    graph = _graph(cli)
    degree: dict[str, int] = {}
    for edge in graph["edges"]:
        for end in (edge["from"], edge["to"]):
            degree[end] = degree.get(end, 0) + 1
    busiest = max((n for n in degree if n.startswith("table.")), key=lambda n: (degree[n], n))
    near = {e["from"] for e in graph["edges"] if e["to"] == busiest} | {e["to"] for e in graph["edges"] if e["from"] == busiest}
    open_page(browser, example_site / "lineage.html", f"#node={busiest}&up=1&down=1")
    wait_for(browser, lambda: lineage_ids(browser))
    assert lineage_ids(browser) == {busiest} | near
    two_up = {e["from"] for e in graph["edges"] if e["to"] in near and e["to"] in {x["from"] for x in graph["edges"] if x["to"] == busiest}}
    browser.find_element("id", "depth-up").send_keys("2")  # the depth control: the hash follows
    wait_for(browser, lambda: "up=2" in browser.current_url and two_up <= lineage_ids(browser))
    assert console_problems(browser) == []


def test_clicking_a_node_expands_its_neighbours(example_site, browser, cli):
    from selenium.webdriver.common.by import By

    graph = _graph(cli)
    centre, task = "table.dwd.dwd_orders", "task.dws.order_stats_1m"
    open_page(browser, example_site / "lineage.html", f"#node={centre}&up=0&down=1")
    wait_for(browser, lambda: task in lineage_ids(browser))
    writes = {e["to"] for e in graph["edges"] if e["from"] == task}
    assert writes and not writes & lineage_ids(browser)
    browser.find_element(By.CSS_SELECTOR, f'.lnode[data-id="{task}"] .expand').click()
    wait_for(browser, lambda: writes <= lineage_ids(browser))
    expanded = browser.find_element(By.CSS_SELECTOR, f'.lnode[data-id="{task}"] .expand')
    assert expanded.get_attribute("aria-expanded") == "true" and expanded == browser.switch_to.active_element
    assert console_problems(browser) == []


MARK = """
return Array.from(document.querySelectorAll(arguments[0])).filter(el => el.offsetParent !== null && el.tabIndex >= 0)
  .map((el, i) => { el.setAttribute('data-ti', String(i)); return String(i); });
"""
CONTROLS = "a[href], button, input, select, textarea, [tabindex]:not([tabindex='-1'])"
NAMELESS = """
return Array.from(document.querySelectorAll(arguments[0])).filter(el => el.offsetParent !== null || el.id === 'main').filter(el => {
  if (el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')) return false;
  if (el.id && document.querySelector('label[for="' + el.id + '"]')) return false;
  return !(el.textContent || '').trim() && el.id !== 'main';
}).map(el => el.outerHTML.slice(0, 120));
"""


@pytest.mark.parametrize("rel", ["index.html", "lineage.html", f"pages/{page_name('task.dwd.orders/enrich_orders')}"])
def test_every_control_is_reachable_by_keyboard_and_labelled(example_site, browser, rel):
    open_page(browser, example_site / rel, "#node=table.dwd.dwd_orders" if rel == "lineage.html" else "")
    if rel == "lineage.html":
        wait_for(browser, lambda: lineage_ids(browser))
    assert browser.execute_script(NAMELESS, CONTROLS) == []
    from selenium.webdriver.common.action_chains import ActionChains

    visible = set(browser.execute_script(MARK, CONTROLS))
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    actions = ActionChains(browser)
    reached = set()
    for _ in range(len(visible) + 5):  # Tab through the whole page once, as a keyboard user
        actions.send_keys(_keys().TAB).perform()
        reached.add(browser.execute_script("return document.activeElement.getAttribute('data-ti')"))
    missed = visible - reached
    assert not missed, f"{len(missed)} of {len(visible)} controls not reached by Tab on {rel}"


def test_hostile_text_never_runs_in_the_browser(tmp_path, browser):
    ws = write_tree(tmp_path / "ws", HOSTILE_WORKSPACE)
    assert flinkx_docs(ws, tmp_path / "site").returncode == 0
    for rel in ("index.html", f"pages/{page_name('table.ods.orders')}", f"pages/{page_name('task.ods.copy')}",
                f"pages/{page_name('project.ods')}", "lineage.html"):
        open_page(browser, tmp_path / "site" / rel)
        if rel == "index.html":
            _type_search(browser, "orders")  # hostile text in the search results (a description)
        assert browser.execute_script("return window.pwned === undefined"), rel
        assert console_problems(browser) == [], rel
