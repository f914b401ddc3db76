"""The workspace graph, `flinkx graph` and its formats, selection and cycles."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from flinkx_build.errors import UsageError
from flinkx_build.graph.build import CYCLE_HINT
from flinkx_build.graph.build import find_cycles
from flinkx_build.graph.build import workspace_graph
from flinkx_build.graph.select import resolve_node
from flinkx_build.graph.select import restrict_to_projects
from flinkx_build.graph.select import select_nodes
from flinkx_build.pipeline import Session
from tests.graph.gitrepo import FIXTURE

ENRICH = "task.dwd.orders/enrich_orders"
STATUS = "task.dwd.orders/order_status"
BIG = "task.dws.agg/big_orders"
LAST = "task.dws.user_last_order"
WATCH = "task.dws.status_watch"
TASKS = {ENRICH, STATUS, BIG, LAST, WATCH}
TABLES = {
    "table.ods.orders", "table.ods.users", "table.dwd.dwd_orders", "table.dwd.order_status",
    "table.dws.big_orders", "table.dws.user_last_order", "table.dws.status_alerts",
}
DWD_ORDERS_COLUMNS = ["amount", "channel", "city", "order_id", "order_time", "phone_masked", "user_id", "user_name"]


@pytest.fixture
def shop_ws(tmp_path) -> Path:
    return Path(shutil.copytree(FIXTURE, tmp_path / "shop", ignore=shutil.ignore_patterns(".flinkx-cache", "build")))


@pytest.fixture
def graph(shop_ws):
    session = Session.open(shop_ws, use_cache=False)
    return workspace_graph(session.workspace, [session.summary(t) for t in session.tasks()])


def test_nodes_and_attributes(graph):
    assert {n for n, d in graph.nodes(data=True) if d["kind"] == "task"} == TASKS
    assert {n for n, d in graph.nodes(data=True) if d["kind"] == "table"} == TABLES
    assert {n for n, d in graph.nodes(data=True) if d["kind"] == "function"} == {"function.ods.mask_phone"}
    assert graph.nodes[ENRICH] == {"kind": "task", "project": "dwd", "name": "orders/enrich_orders", "source": "projects/dwd/tasks/orders/enrich_orders.sql", "ok": True}
    assert graph.nodes["table.ods.users"]["source"] == "projects/ods/tables/users.yaml"
    assert set(graph.graph["projects"]) == {"ods", "dwd", "dws"}


def test_edges_carry_relation_and_columns(graph):
    assert set(graph.predecessors(ENRICH)) == {"table.ods.orders", "table.ods.users", "function.ods.mask_phone"}
    assert set(graph.successors(ENRICH)) == {"table.dwd.dwd_orders"}
    read = graph.edges["table.ods.orders", ENRICH]
    assert read["relation"] == "reads" and read["columns"] == ["amount", "channel", "order_id", "order_time", "user_id"]
    lookup = graph.edges["table.ods.users", ENRICH]
    assert lookup["relation"] == "lookup" and lookup["columns"] == ["city", "phone", "user_id", "user_name"]
    assert graph.edges["function.ods.mask_phone", ENRICH]["relation"] == "calls"
    assert graph.edges[ENRICH, "table.dwd.dwd_orders"]["relation"] == "writes"
    assert (graph.edges[ENRICH, "table.dwd.dwd_orders"]["line"], graph.edges[ENRICH, "table.dwd.dwd_orders"]["col"]) == (7, 13)


def test_select_star_reads_every_column(graph):
    edge = graph.edges["table.dwd.dwd_orders", LAST]
    assert edge["wildcard"] is True and edge["columns"] == DWD_ORDERS_COLUMNS
    assert graph.edges["table.dwd.dwd_orders", BIG]["wildcard"] is False


def test_manifest_maps_come_from_the_graph(shop_ws, cli):
    result = cli("build", str(shop_ws))
    assert result.exit_code == 0, result.lines
    manifest = json.loads((shop_ws / "build" / "manifest.json").read_text())
    assert manifest["parent_map"][ENRICH] == ["function.ods.mask_phone", "table.ods.orders", "table.ods.users"]
    assert manifest["child_map"]["table.dwd.dwd_orders"] == [BIG, LAST]


@pytest.mark.parametrize("spec, expected", [
    ("dwd.dwd_orders+", {"table.dwd.dwd_orders", BIG, LAST, "table.dws.big_orders", "table.dws.user_last_order"}),
    ("+dws.big_orders", {"table.dws.big_orders", BIG, "table.dwd.dwd_orders", ENRICH, "table.ods.orders", "table.ods.users", "function.ods.mask_phone"}),
    ("+dwd/orders/order_status+", {"table.ods.orders", STATUS, "table.dwd.order_status", WATCH, "table.dws.status_alerts"}),
    ("ods.orders+1", {"table.ods.orders", ENRICH, STATUS}),
    ("1+dws/status_watch", {WATCH, "table.dwd.order_status"}),
    ("ods:mask_phone+,+dws.user_last_order", {"function.ods.mask_phone", ENRICH, "table.dwd.dwd_orders", LAST, "table.dws.user_last_order"}),
    ("dws.big_orders dws.status_alerts", {"table.dws.big_orders", "table.dws.status_alerts"}),
    ("@dwd.order_status", {"table.dwd.order_status", WATCH, "table.dws.status_alerts", STATUS, "table.ods.orders"}),
    ("task.dws.status_watch", {WATCH}),
    ("status_watch", {WATCH}),
])
def test_selection(graph, spec, expected):
    assert select_nodes(graph, [spec]) == expected


def test_exclude_and_union_of_options(graph):
    chosen = select_nodes(graph, ["ods.orders+1", "dws/status_watch"], ["dwd/orders/order_status"])
    assert chosen == {"table.ods.orders", ENRICH, WATCH}


def test_short_forms_and_errors(graph):
    assert resolve_node(graph, "dwd/orders/enrich_orders.sql") == ENRICH
    assert resolve_node(graph, "ods:MASK_PHONE") == "function.ods.mask_phone"
    with pytest.raises(UsageError, match=r"unknown node 'dwd.dwd_order' \(did you mean 'dwd.dwd_orders'\?\)"):
        resolve_node(graph, "dwd.dwd_order")
    with pytest.raises(UsageError, match="ambiguous"):
        resolve_node(graph, "user_last_order")  # the dws table and the dws task


def test_project_keeps_its_neighbours(graph):
    chosen = restrict_to_projects(graph, set(graph.nodes), ["dws"])
    dws = {n for n in graph if graph.nodes[n]["project"] == "dws"}
    assert chosen == dws | {"table.dwd.dwd_orders", "table.dwd.order_status"}


def test_cli_mermaid(shop_ws, cli):
    result = cli("graph", str(shop_ws))
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    assert out.startswith("flowchart LR\n")
    assert out.count("subgraph ") == 3 and '["dwd"]' in out
    assert re.search(r'n\d+\[\("dwd_orders"\)\]', out)  # tables are cylinders
    # a lookup's label is a node on its edge (Mermaid floats cross-subgraph edge labels away)
    lookups = re.findall(r"^  n\d+ -\.- (l\d+) -\.-> n\d+$", out, re.M)
    assert lookups and all(re.search(rf'^    {lid}\(\["lookup"\]\)$', out, re.M) for lid in lookups)
    assert " -.-> " in out
    assert out.count(" --> ") + len(lookups) + out.count(" -.-> ") - len(lookups) == 12


def test_cli_dot(shop_ws, cli):
    out = cli("graph", str(shop_ws), "--format", "dot", "--select", "+dws.big_orders").stdout
    assert out.startswith("digraph flinkx {") and out.rstrip().endswith("}")
    assert out.count("subgraph \"cluster_") == 3
    assert '"table.ods.users" -> "task.dwd.orders/enrich_orders" [style=dashed, label="lookup"' in out
    assert "status_watch" not in out


def test_cli_json(shop_ws, cli):
    data = json.loads(cli("graph", str(shop_ws), "--format", "json", "--project", "dws").stdout)
    ids = {n["id"] for n in data["nodes"]}
    assert {"table.dwd.dwd_orders", LAST, WATCH} <= ids and ENRICH not in ids
    edge = next(e for e in data["edges"] if e["to"] == LAST)
    assert edge == {"from": "table.dwd.dwd_orders", "to": LAST, "relation": "reads", "columns": DWD_ORDERS_COLUMNS, "wildcard": True}
    assert data["cycles"] == []


def test_cli_html_is_retired_in_favour_of_the_docs_site(shop_ws, cli):
    result = cli("graph", str(shop_ws), "--format", "html")
    assert result.exit_code == 2
    assert result.stdout == "" and "flinkx docs" in result.stderr and "lineage.html" in result.stderr, result.lines

def test_cli_bad_selection_exits_2(shop_ws, cli):
    result = cli("graph", str(shop_ws), "--select", "dwd.nope+")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == ["flinkx: error: unknown node 'dwd.nope'"]
    result = cli("graph", str(shop_ws), "--project", "dwdd")
    assert result.exit_code == 2 and "did you mean 'dwd'" in result.stderr


CYCLE = {
    "projects/a/tables/t1.yaml": "type: kafka\ncolumns: [{name: x, type: INT}]\nwith: {connector: kafka, topic: t1, properties.bootstrap.servers: k, format: json}\n",
    "projects/b/tables/t2.yaml": "type: kafka\ncolumns: [{name: x, type: INT}]\nwith: {connector: kafka, topic: t2, properties.bootstrap.servers: k, format: json}\n",
    "projects/a/tables/dim.yaml": "type: jdbc\ncolumns: [{name: x, type: INT}]\nprimary_key: [x]\nwith: {connector: jdbc, url: u, table-name: dim}\n",
    "projects/a/tasks/x.sql": "-- a feeds b\nINSERT INTO t1\nSELECT x FROM b.t2;\n",
    "projects/b/tasks/y.sql": "INSERT INTO t2 SELECT x FROM a.t1;\n",
}


def test_cycle_is_reported_with_its_path(make_workspace, cli):
    ws = make_workspace(CYCLE)
    result = cli("graph", str(ws), "--format", "json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["cycles"] == [["task.a.x", "table.a.t1", "task.b.y", "table.b.t2"]]
    line = result.stderr.strip()
    assert line.endswith("projects/a/tasks/x.sql:2:13: FX200 dependency cycle: task.a.x -> table.a.t1 -> task.b.y -> table.b.t2 -> task.a.x"
                         f" ({CYCLE_HINT})")


def test_lookup_loop_is_not_a_cycle_in_stream_mode(make_workspace):
    files = {
        **CYCLE,
        "projects/a/tasks/x.sql": "SET t2.procTime = p AS PROCTIME();\nINSERT INTO dim SELECT s.x FROM b.t2 AS s JOIN dim FOR SYSTEM_TIME AS OF s.p AS d ON s.x = d.x;\n",
        "projects/b/tasks/y.sql": "INSERT INTO t2 SELECT x FROM a.t1;\n",
    }
    ws = make_workspace(files)
    session = Session.open(ws, use_cache=False)
    graph = workspace_graph(session.workspace, [session.summary(t) for t in session.tasks()])
    assert graph.edges["table.a.dim", "task.a.x"]["relation"] == "lookup"
    assert find_cycles(graph) == []
    assert find_cycles(graph, include_lookups=True) == [["task.a.x", "table.a.dim"]]


def test_graph_writes_nothing_but_the_cache(shop_ws, cli):
    before = {p for p in shop_ws.rglob("*")}
    cli("graph", str(shop_ws), "--format", "json")
    after = {p for p in shop_ws.rglob("*") if ".flinkx-cache" not in p.parts}
    assert after == before
