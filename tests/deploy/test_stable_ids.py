"""stable_ids.py: which new operator continues which old one, and the ids a submission pins.

Plans here are small hand-made COMPILE PLAN shapes (the fields the module reads); whether Flink restores with
the pins is the restore suite's "pinned" record, checked in test_restore_verdicts.py.
"""
from __future__ import annotations

from flinkx_build.deploy import stable_ids
from flinkx_build.deploy.compat import CompiledJob
from flinkx_build.deploy.compat import Operator


def _sink(node_id: int, table: str) -> dict:
    return {"id": node_id, "type": "stream-exec-sink_1",
            "dynamicTableSink": {"table": {"identifier": f"`c`.`d`.`{table}`"}}, "description": f"Sink({table})"}


def _job(statements: list[tuple[str, str]], ids: dict[str, str], first: int = 1) -> CompiledJob:
    """One source `clicks` shared by every statement; per statement (sink table, stateful kind or ""):
    source -> [stateful] -> sink. `ids`: operator name -> the id Flink would give it."""
    nodes = [{"id": first, "type": "stream-exec-table-source-scan_1",
              "scanTableSource": {"table": {"identifier": "`c`.`d`.`clicks`"}}, "description": "Scan(clicks)"}]
    edges, operators, next_id = [], [Operator(first, f"Source: clicks[{first}]", ids["source"])], first + 1
    for table, kind in statements:
        upstream = first
        if kind:
            nodes.append({"id": next_id, "type": f"stream-exec-{kind}_1", "description": f"{kind}({table})",
                          "outputType": "ROW<`k` BIGINT>"})
            edges.append({"source": upstream, "target": next_id})
            operators.append(Operator(next_id, f"{kind}[{next_id}]", ids[f"{kind}:{table}"], (ids["source"],)))
            upstream, next_id = next_id, next_id + 1
        nodes.append(_sink(next_id, table))
        edges.append({"source": upstream, "target": next_id})
        operators.append(Operator(next_id, f"{table}[{next_id}]: Writer", ids[f"sink:{table}"]))
        next_id += 1
    return CompiledJob({"flinkVersion": "1.20", "nodes": nodes, "edges": edges}, operators, {})


def test_a_statement_added_before_keeps_the_old_aggregate_and_source_on_their_ids():
    old = _job([("agg_out", "group-aggregate")], {"source": "s1", "group-aggregate:agg_out": "a1", "sink:agg_out": "w1"})
    # Flink's ids move with the new statement in front: the aggregate now sits where another id is
    new = _job([("copy_out", ""), ("agg_out", "group-aggregate")],
               {"source": "s2", "group-aggregate:agg_out": "a2", "sink:copy_out": "a1", "sink:agg_out": "w2"}, first=10)
    pins = stable_ids.pins(old, new)  # keyed by the id Flink computes for the new operator
    assert pins["s2"] == "s1"
    assert pins["a2"] == "a1"
    # the new statement's writer had the old aggregate's id: it is moved off it, so no state reaches it
    moved = pins["a1"]
    assert moved not in ("a1", "s1", "w1") and len(moved) == 32
    effective = {op.name: op.id for op in stable_ids.effective(new, pins).operators}
    assert effective["group-aggregate[12]"] == "a1" and effective["copy_out[11]: Writer"] == moved


def test_an_insert_into_another_table_keeps_its_place_by_its_id():
    old = _job([("top_out", "rank")], {"source": "s", "rank:top_out": "r", "sink:top_out": "w"})
    new = _job([("top_out_rn", "rank")], {"source": "s", "rank:top_out_rn": "r", "sink:top_out_rn": "w"})
    assert stable_ids.matches(old, new) == [(1, 1), (2, 2), (3, 3)]  # the statement writes elsewhere: by their ids


def test_a_two_phase_window_is_continued_by_a_one_phase_one_at_its_address():
    old = _job([("win", "global-window-aggregate")], {"source": "s", "global-window-aggregate:win": "g", "sink:win": "w"})
    new = _job([("win", "window-aggregate")], {"source": "s", "window-aggregate:win": "x", "sink:win": "w"})
    assert stable_ids.pins(old, new)["x"] == "g"


def test_swapped_statements_keep_each_aggregate_on_its_own_state():
    old = _job([("a", "group-aggregate"), ("b", "window-aggregate")],
               {"source": "s", "group-aggregate:a": "ga", "window-aggregate:b": "wb", "sink:a": "sa", "sink:b": "sb"})
    # swapped: Flink's positional ids trade places (measured)
    new = _job([("b", "window-aggregate"), ("a", "group-aggregate")],
               {"source": "s", "group-aggregate:a": "wb", "window-aggregate:b": "ga", "sink:a": "sb", "sink:b": "sa"})
    pins = stable_ids.pins(old, new)  # each aggregate's Flink id is now the other's old one: both are pinned
    assert pins == {"ga": "wb", "wb": "ga", "sb": "sa", "sa": "sb"} | {k: v for k, v in pins.items() if k == "s"}
