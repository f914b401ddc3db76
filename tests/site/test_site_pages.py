"""Issue 30: `flinkx docs` writes a static site (real `flinkx docs` processes; the browser tests
are in test_site_browser.py). Hostile text is escaped, credentials masked, facts match what the
other commands say."""
from __future__ import annotations

import json
import re
from pathlib import Path

from flinkx_build.graph.docs_links import page_name
from tests.conftest import write_tree
from tests.security.test_attack_credentials import LITERALS
from tests.security.test_attack_credentials import WORKSPACE as CREDENTIALS_WORKSPACE
from tests.site.conftest import copy_example
from tests.site.conftest import flinkx_docs

HOSTILE = "<script>window.pwned=1</script>"
HOSTILE_WORKSPACE = {
    "flinkx.yaml": f"""
        engine: flink
        description: "{HOSTILE}"
        docs:
          source_url: 'https://git.example.test/{{path}}"><script>window.pwned=2</script>#L{{line}}'
    """,
    "projects/ods/project.yaml": f'name: ods\ndescription: "{HOSTILE}"\n',
    "projects/ods/tables/orders.yaml": f"""
        type: kafka
        description: "{HOSTILE}"
        columns:
          - {{name: id, type: STRING, comment: "{HOSTILE}"}}
          - {{name: "amount", type: "DECIMAL(10, 2)", comment: "<img src=x onerror=window.pwned=3>"}}
        with:
          connector: kafka
          topic: orders
          format: json
          properties.bootstrap.servers: "k:9092"
    """,
    "projects/ods/tables/sink.yaml": """
        type: print
        columns:
          - {name: id, type: STRING}
          - {name: amount, type: "DECIMAL(10, 2)"}
        with:
          connector: print
    """,
    "projects/ods/tasks/copy.sql": f"""
        -- {HOSTILE}
        INSERT INTO sink SELECT id, amount FROM orders;
    """,
}


def site_text(site: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(site.rglob("*")) if p.is_file())


def test_hostile_workspace_text_is_escaped_everywhere(tmp_path):
    ws = write_tree(tmp_path / "ws", HOSTILE_WORKSPACE)
    done = flinkx_docs(ws, tmp_path / "site")
    assert done.returncode == 0, done.stdout + done.stderr
    text = site_text(tmp_path / "site")
    assert "<script>window" not in text and "<img src=x" not in text
    assert "window.pwned=1" in text  # it is there, as text: escaped in HTML, \u003c-escaped in the data files
    table = (tmp_path / "site/pages" / page_name("table.ods.orders")).read_text(encoding="utf-8")
    assert "&lt;script&gt;window.pwned=1&lt;/script&gt;" in table  # description and column comment
    # the source link: the template's own text stays inside the attribute, the path is percent-encoded
    link = re.search(r'<a class="src" href="([^"]*)"', table)
    assert link and link.group(1).startswith("https://git.example.test/projects/ods/tables/orders.yaml&quot;&gt;&lt;script&gt;"), link
    for page in (tmp_path / "site").rglob("*.html"):
        assert [s for s in re.findall(r"<script[^>]*>", page.read_text(encoding="utf-8")) if "src=" not in s] == [], page


def test_the_type_column_never_wraps_mid_word(example_site):
    page = (example_site / "pages" / page_name("table.dim.dim_product")).read_text(encoding="utf-8")
    assert '<code class="type">DECIMAL(10, 2)</code>' in page
    css = (example_site / "assets/site.css").read_text(encoding="utf-8")
    assert re.search(r"code\.type[^{]*\{[^}]*white-space: nowrap", css)


def test_credentials_are_masked_in_every_file_of_the_site(tmp_path):
    ws = write_tree(tmp_path / "ws", CREDENTIALS_WORKSPACE)
    done = flinkx_docs(ws, tmp_path / "site")
    text = site_text(tmp_path / "site")
    assert "avro-confluent.basic-auth.user-info" in text and "pulsar.client.authParams" in text, done.stderr
    leaked = [literal for literal in LITERALS if literal in text]
    assert not leaked, f"the site shows {leaked}"


def test_a_task_page_shows_its_definitions_with_origins_tests_and_deploy_identity(example_site, tmp_path):
    page = (example_site / "pages" / page_name("task.dwd.orders/enrich_orders")).read_text(encoding="utf-8")
    source = "https://git.example.test/shop/blob/main/projects/dim/tables/dim_product.yaml#L18"
    assert f'<a class="src" href="{source}"' in page  # an effective option, linked to the line it came from
    assert "order lines enriched with buyer and product" in page  # the test case covering it
    assert "flinkx:shop-realtime/dwd/orders/enrich_orders" in page  # deploy's job name
    fingerprint = re.search(r"fingerprint</th><td><code>([0-9a-f]{16})</code>", page)
    assert fingerprint and fingerprint.group(1) == _deploy_fingerprint("dwd/orders/enrich_orders")
    assert "INSERT INTO" in page and "${dw_mysql_password}" in page  # compiled SQL; secrets stay placeholders


def _deploy_fingerprint(task_key: str) -> str:
    """What `flinkx deploy` would name the job's SQL by (deploy/state.py), for the example workspace."""
    from flinkx_build.deploy.state import desired_jobs
    from flinkx_build.pipeline import Session
    from tests.conftest import EXAMPLE

    session = Session.open(EXAMPLE, use_cache=False)
    task = next(t for t in session.tasks() if t.key == task_key)
    jobs, _ = desired_jobs(session, [task])
    return jobs[0].fingerprint


def test_column_lineage_on_a_table_page_matches_flinkx_lineage(example_site, cli):
    from tests.conftest import EXAMPLE

    result = cli("lineage", str(EXAMPLE), "dwd.dwd_orders.user_name", "--format", "json")
    expected = json.loads(result.stdout)
    page = (example_site / "pages" / page_name("table.dwd.dwd_orders")).read_text(encoding="utf-8")
    section = page[page.index('id="col-user_name"'): page.index("</section>", page.index('id="col-user_name"'))]
    upstream = section[section.index("Upstream of"): section.index("Downstream")]
    shown = re.findall(r">([\w.]+)</a></td><td><span class=\"how\">(\w+)</span>", upstream)
    assert set(shown) == {(row["column"], row["transformation"]) for row in expected["upstream"]}
    assert ("ods.users.user_name", "TRANSFORMATION") in shown  # across projects


def test_every_page_and_view_is_written_and_search_names_every_column(example_site):
    pages = {p.name for p in (example_site / "pages").iterdir()}
    assert {page_name("project.ods"), page_name("table.dwd.dwd_orders"), page_name("function.dim.mask_phone"),
            page_name("task.dws.realtime_metrics"), page_name("view.dws.realtime_metrics.paid_orders")} <= pages
    search = (example_site / "data/search.js").read_text(encoding="utf-8")
    rows = json.loads(search[search.index("=") + 1: search.rindex(";")])
    assert ["phone_masked", "column", "dwd.dwd_orders · STRING", f"pages/{page_name('table.dwd.dwd_orders')}#col-phone_masked"] in rows


def test_a_second_run_writes_the_same_site(tmp_path):
    ws = copy_example(tmp_path / "ws")
    flinkx_docs(ws, tmp_path / "one")
    flinkx_docs(ws, tmp_path / "two")  # from the caches the first filled
    one = {p.relative_to(tmp_path / "one"): p.read_bytes() for p in (tmp_path / "one").rglob("*") if p.is_file()}
    two = {p.relative_to(tmp_path / "two"): p.read_bytes() for p in (tmp_path / "two").rglob("*") if p.is_file()}
    assert one == two
    assert any((ws / ".flinkx-cache").glob("*/site/**/*.json"))  # each task's page data is cached (in the code version's folder)


def test_a_folder_flinkx_did_not_make_is_never_replaced(tmp_path):
    ws = copy_example(tmp_path / "ws")
    mine = tmp_path / "mine"
    write_tree(mine, {"notes.txt": "keep me"})
    done = flinkx_docs(ws, mine)
    assert done.returncode == 2 and "FX190" in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
    assert (mine / "notes.txt").read_text() == "keep me" and not (mine / "index.html").exists()
    done = flinkx_docs(ws, ws / "projects")
    assert done.returncode == 2 and "FX191" in done.stderr, done.stderr


def test_a_source_url_that_is_not_http_is_refused(tmp_path):
    ws = copy_example(tmp_path / "ws", docs_config='docs:\n  source_url: "javascript:alert(1)//{path}"\n')
    done = flinkx_docs(ws, tmp_path / "site")
    assert done.returncode == 2 and "docs.source_url must be an http(s) URL" in done.stderr, done.stderr
    assert not (tmp_path / "site").exists()


def test_a_workspace_with_errors_gets_its_site_its_findings_and_exit_1(tmp_path):
    ws = write_tree(tmp_path / "ws", {**HOSTILE_WORKSPACE, "projects/ods/tasks/broken.sql": "INSERT INTO sink SELEC id FROM orders;\n"})
    done = flinkx_docs(ws, tmp_path / "site")
    assert done.returncode == 1, done.stdout + done.stderr
    findings = [line for line in done.stdout.splitlines() if line.strip()]
    assert findings and all(re.match(r"\S+broken\.sql:\d+:\d+: FX\d+ ", line) for line in findings), done.stdout
    page = (tmp_path / "site/pages" / page_name("task.ods.broken")).read_text(encoding="utf-8")
    assert "<h2>Findings</h2>" in page and "Traceback" not in done.stderr
