"""A build's graph as plain parts (graph/build.py GraphParts) and its cached acyclicity (graph/cycles.py)."""
from __future__ import annotations

import shutil

from flinkx_build.graph.build import cycle_diagnostics
from flinkx_build.graph.build import find_cycles
from flinkx_build.graph.build import graph_parts
from flinkx_build.graph.build import workspace_graph
from flinkx_build.graph.cycles import cycle_findings
from flinkx_build.pipeline import Session
from tests.conftest import EXAMPLE
from tests.graph.test_graph import CYCLE


def _parts(session: Session):
    return graph_parts(session.workspace, [session.summary(t, compile=False) for t in session.tasks()])


def test_the_parts_make_the_graph_networkx_makes_and_its_adjacency(tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    session = Session.open(ws, use_cache=False)
    parts = _parts(session)
    graph = workspace_graph(session.workspace, [session.summary(t, compile=False) for t in session.tasks()])
    assert list(parts.to_networkx().nodes(data=True)) == list(graph.nodes(data=True))
    assert list(parts.to_networkx().edges(data=True)) == list(graph.edges(data=True))
    parent_map, child_map = parts.adjacency()
    assert parent_map == {n: sorted(graph.predecessors(n)) for n in sorted(graph.nodes)}
    assert child_map == {n: sorted(graph.successors(n)) for n in sorted(graph.nodes)}
    assert any(parent_map.values()) and any(child_map.values())


def test_an_acyclic_topology_is_remembered_and_a_cycle_never_is(make_workspace, tmp_path):
    cache = tmp_path / "cache"
    acyclic = make_workspace({**CYCLE, "projects/b/tasks/y.sql": "INSERT INTO t2 SELECT x FROM a.dim;\n"}, name="acyclic")
    parts = _parts(Session.open(acyclic, use_cache=False))
    assert cycle_findings(parts, cache) == []
    assert len(list((cache / "graphs").rglob("*.json"))) == 1

    cyclic = make_workspace(CYCLE, name="cyclic")
    session = Session.open(cyclic, use_cache=False)
    parts = _parts(session)
    graph = parts.to_networkx()
    expected = cycle_diagnostics(graph, find_cycles(graph))
    assert [d.code for d in expected] == ["FX200"]
    assert cycle_findings(parts, cache) == expected
    assert cycle_findings(parts, cache) == expected  # searched again: nothing stored for it
    assert len(list((cache / "graphs").rglob("*.json"))) == 1


def test_a_cycle_closed_after_a_build_is_found(make_workspace, cli):
    ws = make_workspace({**CYCLE, "projects/b/tasks/y.sql": "INSERT INTO t2 SELECT x FROM a.dim;\n"})
    assert cli("build", str(ws)).exit_code == 0  # acyclic: remembered in the cache
    (ws / "projects/b/tasks/y.sql").write_text(CYCLE["projects/b/tasks/y.sql"], encoding="utf-8")
    result = cli("build", str(ws))
    assert result.exit_code == 1
    assert "FX200 dependency cycle: task.a.x -> table.a.t1 -> task.b.y -> table.b.t2 -> task.a.x" in result.stdout


LOOP_TABLE = """name: {name}
type: kafka
kind: stream
columns:
  - {{name: id, type: BIGINT}}
  - {{name: note, type: STRING}}
with:
  connector: kafka
  topic: {name}
  properties.bootstrap.servers: "${{kafka_servers}}"
  properties.group.id: loop
  scan.startup.mode: earliest-offset
  format: json
"""


def test_lint_reports_a_pure_cross_project_cycle_as_the_build_does(cli, tmp_path):
    # issue 44 case 10: dwd -> dws -> dwd, nothing else wrong: lint said clean, build FX200
    from tests.helpers import edited_example
    from tests.helpers import one_verdict

    ws = edited_example(tmp_path, [
        ("projects/dwd/tables/dwd_loop.yaml", "", LOOP_TABLE.format(name="dwd_loop")),
        ("projects/dws/tables/dws_loop.yaml", "", LOOP_TABLE.format(name="dws_loop")),
        ("projects/dwd/tasks/loop.sql", "", "INSERT INTO dwd_loop\nSELECT id, note FROM dws.dws_loop;\n"),
        ("projects/dws/tasks/loop.sql", "", "INSERT INTO dws_loop\nSELECT id, note FROM dwd.dwd_loop;\n"),
    ])
    assert one_verdict(cli, ws) == [
        "projects/dwd/tasks/loop.sql:1:13: FX200 dependency cycle: task.dwd.loop -> table.dwd.dwd_loop -> task.dws.loop "
        "-> table.dws.dws_loop -> task.dwd.loop (break the loop: let one of these tasks write another table, or read its "
        "input by a lookup join (FOR SYSTEM_TIME AS OF), which a stream build does not count as a dependency)"]
