"""`flinkx graph --format html`: one offline file, workspace name, project boxes, search, zoom, panel.

The structure is checked by parsing the page; the script is run for real in
headless Chromium (`--dump-dom`) when a chromium is installed.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.conftest import EXAMPLE

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class Page(HTMLParser):
    """Every start tag with its attributes, and the text of <title>, <h1> and each <script>."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: dict[str, list[str]] = {}
        self._open: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, {k: v or "" for k, v in attrs}))
        self._open.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag):
        if tag in self._open:
            while self._open.pop() != tag:
                pass

    def handle_data(self, data):
        if self._open and self._open[-1] in ("title", "h1", "script", "style"):
            self.text.setdefault(self._open[-1], []).append(data)

    def having(self, tag: str, **attrs: str) -> list[dict[str, str]]:
        return [a for t, a in self.tags if t == tag and all(a.get(k.replace("_", "-")) == v for k, v in attrs.items())]


@pytest.fixture(scope="module")
def example_page(tmp_path_factory) -> tuple[Path, str]:
    from click.testing import CliRunner

    from flinkx_build.cli import main

    ws = tmp_path_factory.mktemp("graph") / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns("build", ".flinkx-cache", "engines"))
    result = CliRunner().invoke(main, ["graph", str(ws), "--format", "html", "--no-cache"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    path = ws.parent / "graph.html"
    path.write_text(result.stdout, encoding="utf-8")
    return path, result.stdout


def parse(text: str) -> Page:
    page = Page()
    page.feed(text)
    return page


def test_titled_with_the_workspace_name(example_page):
    _, text = example_page
    page = parse(text)
    assert page.text["title"][0] == "flinkx graph: shop-realtime"  # the <head> one: flinkx.yaml's name, not the folder "ws"
    assert "".join(page.text["h1"]) == "flinkx graph: shop-realtime"


def test_one_offline_file(example_page):
    _, text = example_page
    page = parse(text)
    for tag, attrs in page.tags:
        for key in ("src", "href", "xlink:href", "action", "data", "poster"):
            assert key not in attrs, (tag, attrs)  # no resource is referenced at all
    assert not re.search(r"url\((?!#)|@import|fetch\(|XMLHttpRequest|WebSocket|new Image|import\(", text)
    # the browser is told to refuse any request, and to run only this page's own script
    [csp] = page.having("meta", http_equiv="Content-Security-Policy")
    policy = dict(part.strip().split(" ", 1) for part in csp["content"].split(";"))
    assert policy["default-src"] == "'none'"
    inline = [s for s in page.text["script"] if "DATA" in s]
    assert len(inline) == 1
    digest = base64.b64encode(hashlib.sha256(inline[0].encode()).digest()).decode()
    assert policy["script-src"] == f"'sha256-{digest}'"


def test_every_node_sits_in_its_project_box(example_page):
    _, text = example_page
    svg = text[text.index("<svg"): text.index("</svg>") + 6]
    data = json.loads(re.search(r'<script id="graph-data" type="application/json">(.*?)</script>', text, re.S).group(1))
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    boxes = {}
    for g in root.iter("g"):
        if g.get("class") == "project":
            r = g.find("rect")
            boxes[g.get("data-project")] = tuple(float(r.get(k)) for k in ("x", "y", "width", "height"))
            assert g.find("text").text == g.get("data-project")  # the box is labelled with its project
    assert set(boxes) == {"ods", "dim", "dwd", "dws"}
    for a in boxes:  # boxes do not overlap
        for b in boxes:
            if a < b:
                ya, ha, yb, hb = boxes[a][1], boxes[a][3], boxes[b][1], boxes[b][3]
                assert ya + ha <= yb or yb + hb <= ya, (a, b)
    for g in root.iter("g"):
        if g.get("class") == "node":
            shape = g.find("rect") if g.find("rect") is not None else g.find("polygon")
            xs = [float(shape.get("x"))] if shape.tag == "rect" else [float(p.split(",")[0]) for p in shape.get("points").split()]
            ys = [float(shape.get("y"))] if shape.tag == "rect" else [float(p.split(",")[1]) for p in shape.get("points").split()]
            x, y, w, h = boxes[data["nodes"][g.get("data-id")]["project"]]
            assert x <= min(xs) and max(xs) <= x + w and y <= min(ys) and max(ys) <= y + h, g.get("data-id")


def test_panel_data_has_columns_effective_options_and_source(example_page):
    _, text = example_page
    data = json.loads(re.search(r'<script id="graph-data" type="application/json">(.*?)</script>', text, re.S).group(1))
    orders = data["nodes"]["table.dwd.dwd_orders"]
    assert orders["source"] == "projects/dwd/tables/dwd_orders.yaml"
    assert {"name": "order_id", "type": "STRING", "comment": ""} in orders["columns"]
    assert orders["options"]["connector"] == "kafka" and orders["mode"] == "stream"
    assert data["nodes"]["function.dim.mask_phone"]["class_name"]
    page = parse(text)
    assert page.having("input", id="search") and page.having("aside", id="panel")
    assert {b["id"] for b in page.having("button")} >= {"zoom-in", "zoom-out", "fit-width", "fit-all"}


def test_literal_credentials_are_masked_in_the_page(make_workspace, cli):
    ws = make_workspace({
        "flinkx.yaml": "name: secretive\n",
        "projects/p/tables/db.yaml": "type: jdbc\ncolumns: [{name: id, type: STRING}]\nwith: {connector: jdbc, url: 'jdbc:mysql://h/db', password: hunter2-literal}\n",
        "projects/p/tasks/t.sql": "CREATE TEMPORARY TABLE o (id STRING) WITH ('connector' = 'print');\nINSERT INTO o SELECT id FROM db;\n",
    })
    out = cli("graph", str(ws), "--format", "html").stdout
    assert "hunter2-literal" not in out and "******" in out
    assert "<title>flinkx graph: secretive</title>" in out


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
def test_the_script_runs_in_chromium(example_page, tmp_path):
    path, text = example_page
    data = json.loads(re.search(r'<script id="graph-data" type="application/json">(.*?)</script>', text, re.S).group(1))
    width = re.search(r'data-width="(\d+)"', text).group(1)
    dom = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1400,900", "--dump-dom",
         f"{path.as_uri()}#node=table.dwd.dwd_orders&q=order&zoom=2"],
        capture_output=True, text=True, timeout=120,
    ).stdout
    assert '<body data-ready="yes">' in dom  # the script ran to its end (CSP let it run)
    expected = sum(1 for n, v in data["nodes"].items() if "order" in (v["label"] + v["full"] + n).lower())
    assert f'<span id="matches">{expected} matches</span>' in dom
    panel = dom[dom.index('<aside id="panel">'): dom.index("</aside>")]
    for piece in ("<h2>dwd.dwd_orders</h2>", "Columns", "order_id", "Effective options (stream mode)", "projects/dwd/tables/dwd_orders.yaml", "Read by"):
        assert piece in panel, piece
    vb = [float(v) for v in re.search(r'<svg id="graph" viewBox="([^"]+)"', dom).group(1).split()]
    assert vb[2] == pytest.approx(float(width) / 2, abs=0.2)  # fitted to the width, then zoomed in twice
    picked = re.findall(r'<g class="node([^"]*)" data-id="table\.dwd\.dwd_orders"', dom)
    assert picked and "picked" in picked[0]
    dimmed = re.findall(r'<g class="node[^"]*\bdim\b[^"]*" data-id="([^"]+)"', dom)
    assert "table.ods.kafka_refunds" in dimmed and "task.dwd.orders/enrich_orders" not in dimmed  # lineage highlight
