"""Issue 30: with `docs: {site_url}` in flinkx.yaml, impact's markdown links each task to its page of the docs site."""
from __future__ import annotations

from flinkx_build.graph.docs_links import page_name
from tests.impact.test_impact_scenarios import rename_column
from tests.site.conftest import flinkx_docs


def test_markdown_links_each_task_to_its_page_when_a_docs_url_is_configured(shop, impact, tmp_path):
    rename_column(shop)
    result, _ = impact(shop, "--base", "HEAD", fmt="markdown")
    assert "[docs](" not in result.stdout  # no site configured: no link
    config = shop.path("flinkx.yaml")
    config.write_text(config.read_text(encoding="utf-8") + '\ndocs:\n  site_url: "https://docs.example.test/shop/"\n', encoding="utf-8")
    result, _ = impact(shop, "--base", "HEAD", fmt="markdown")
    row = next(line for line in result.stdout.splitlines() if line.startswith("| [`dwd/orders/enrich_orders`]("))
    page = page_name("task.dwd.orders/enrich_orders")
    assert f" ([docs](https://docs.example.test/shop/pages/{page})) |" in row, row
    # the page it names is the one `flinkx docs` writes for that task
    done = flinkx_docs(shop.ws, tmp_path / "site")
    assert (tmp_path / "site" / "pages" / page).is_file(), done.stdout + done.stderr
    assert "orders/enrich_orders" in (tmp_path / "site" / "pages" / page).read_text(encoding="utf-8")
