"""The column checks agree with the real Flink planner, case by case.

Each case is a task of one workspace; flinkx's semantic findings (FX4xx) are
compared with what Flink 1.20 says about the compiled task: a finding exactly
where Flink rejects, none where Flink accepts (false alarms are the worst bug).
"""
from __future__ import annotations

import pytest

from tests.helpers import session_for
from tests.semantic.conftest import flink_rejects
from tests.semantic.conftest import workspace_with_tasks

WATERMARK = "SET ods.orders.`watermark` = 'WATERMARK FOR ts AS ts';\n"
PROCTIME = "SET ods.orders.procTime = pt AS PROCTIME();\n"

# name -> (task SQL, the FX code flinkx must report, or None where Flink accepts)
CASES: dict[str, tuple[str, str | None]] = {
    "plain": ("INSERT INTO order_sink SELECT id, qty, CAST(price * qty AS DECIMAL(12, 2)), 'x' FROM ods.orders;", None),
    "widening": ("INSERT INTO wide_sink SELECT id, qty, price, channel FROM ods.orders;", None),
    "decimal_into_smaller_decimal": ("INSERT INTO order_sink SELECT id, qty, price * qty, channel FROM ods.orders;", None),
    "join_qualified": ("INSERT INTO order_sink SELECT o.id, o.qty, o.price, p.brand FROM ods.orders o JOIN ods.products p ON o.product_id = p.id;", None),
    "row_field": ("INSERT INTO order_sink SELECT id, qty, price, o.info.city FROM ods.orders AS o;", None),
    "subquery": ("INSERT INTO order_sink SELECT s.id, s.qty, s.price, s.channel FROM (SELECT id, qty, price, channel FROM ods.orders WHERE qty > 0) AS s;", None),
    "cte": ("INSERT INTO order_sink WITH big AS (SELECT * FROM ods.orders WHERE qty > 10) SELECT id, qty, price, channel FROM big;", None),
    "window": (WATERMARK + "INSERT INTO window_sink SELECT window_start, channel, COUNT(*) FROM TABLE(TUMBLE(TABLE ods.orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, channel;", None),
    "correlated": ("INSERT INTO order_sink SELECT id, qty, price, channel FROM ods.orders o WHERE EXISTS (SELECT 1 FROM ods.products p WHERE p.id = o.product_id);", None),
    "aggregate_widening": ("INSERT INTO wide_sink SELECT id, SUM(qty), SUM(price), MAX(channel) FROM ods.orders GROUP BY id;", None),
    "case_coalesce": ("INSERT INTO order_sink SELECT id, CASE WHEN qty > 1 THEN qty ELSE 0 END, price, COALESCE(channel, 'n') FROM ods.orders;", None),
    "static_partition": ("CREATE TEMPORARY TABLE fs (id BIGINT, dt STRING) PARTITIONED BY (dt) WITH ('connector' = 'filesystem', 'path' = 'file:///tmp/flinkx-fs', 'format' = 'csv');\n"
                         "INSERT INTO fs PARTITION (dt = '2026-12-01') SELECT id FROM ods.orders;", None),
    "static_partition_wrong_count": ("CREATE TEMPORARY TABLE fs (id BIGINT, dt STRING) PARTITIONED BY (dt) WITH ('connector' = 'filesystem', 'path' = 'file:///tmp/flinkx-fs', 'format' = 'csv');\n"
                                     "INSERT INTO fs PARTITION (dt = '2026-12-01') SELECT id, channel FROM ods.orders;", "FX410"),
    "column_list": ("INSERT INTO order_sink (id, brand) SELECT id, channel FROM ods.orders;", None),
    "union_all": ("INSERT INTO order_sink SELECT id, qty, price, channel FROM ods.orders UNION ALL SELECT id, 1, 0.5, brand FROM ods.products;", None),
    "group_by_expression": ("INSERT INTO wide_sink SELECT user_id, COUNT(*), AVG(price), channel FROM ods.orders GROUP BY user_id, channel;", None),
    "misspelled_column": ("INSERT INTO order_sink SELECT id, qtty, price, channel FROM ods.orders;", "FX401"),
    "misspelled_qualified": ("INSERT INTO order_sink SELECT o.id, o.qty, o.price, p.brnd FROM ods.orders o JOIN ods.products p ON o.product_id = p.id;", "FX401"),
    "ambiguous": ("INSERT INTO order_sink SELECT id, o.qty, o.price, p.brand FROM ods.orders o JOIN ods.products p ON o.product_id = p.id;", "FX402"),
    "unknown_qualifier": ("INSERT INTO order_sink SELECT x.id, qty, price, channel FROM ods.orders o;", "FX403"),
    "too_few_columns": ("INSERT INTO order_sink SELECT id, qty, price FROM ods.orders;", "FX410"),
    "too_many_columns": ("INSERT INTO order_sink SELECT id, qty, price, channel, user_id FROM ods.orders;", "FX410"),
    "bigint_into_int": ("INSERT INTO order_sink SELECT id, user_id, price, channel FROM ods.orders;", "FX411"),
    "string_into_bigint": ("INSERT INTO order_sink SELECT channel, qty, price, channel FROM ods.orders;", "FX411"),
    "double_into_decimal": ("INSERT INTO order_sink SELECT id, 1, weight, brand FROM ods.products;", None),
    "boolean_into_int": ("INSERT INTO order_sink SELECT id, qty > 1, price, channel FROM ods.orders;", "FX411"),
    "timestamp_into_string": ("INSERT INTO order_sink SELECT id, qty, price, ts FROM ods.orders;", "FX411"),
    "decimal_into_int": ("INSERT INTO order_sink SELECT id, price, price, channel FROM ods.orders;", "FX411"),
    "unknown_in_where": ("INSERT INTO order_sink SELECT id, qty, price, channel FROM ods.orders WHERE chanel = 'app';", "FX401"),
    "unknown_in_subquery": ("INSERT INTO order_sink SELECT s.id, s.qty, s.price, s.channel FROM (SELECT id, qty, price, channel FROM ods.orders WHERE quantity > 0) AS s;", "FX401"),
    "unknown_descriptor": (WATERMARK + "INSERT INTO window_sink SELECT window_start, channel, COUNT(*) FROM TABLE(TUMBLE(TABLE ods.orders, DESCRIPTOR(tss), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, channel;", "FX401"),
    "unknown_from_subquery_alias": ("INSERT INTO order_sink SELECT s.id, s.qty, s.amount, s.channel FROM (SELECT id, qty, price, channel FROM ods.orders) AS s;", "FX401"),
    # changelog modes (FX430): the stand-in connector plays each real connector's changelog mode
    "group_into_kafka": ("INSERT INTO ods.events_kafka SELECT id, channel, COUNT(*), MAX(ts) FROM ods.orders GROUP BY id, channel;", "FX430"),
    "window_into_kafka": (WATERMARK + "INSERT INTO ods.events_kafka SELECT MAX(id), channel, COUNT(*), window_start FROM TABLE(TUMBLE(TABLE ods.orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, channel;", None),
    "left_join_into_kafka": ("INSERT INTO ods.events_kafka SELECT o.id, p.brand, o.user_id, o.ts FROM ods.orders o LEFT JOIN ods.products p ON o.product_id = p.id;", "FX430"),
    "inner_join_into_kafka": ("INSERT INTO ods.events_kafka SELECT o.id, p.brand, o.user_id, o.ts FROM ods.orders o JOIN ods.products p ON o.product_id = p.id;", None),
    "cdc_into_kafka": ("INSERT INTO ods.events_kafka SELECT id, name, id, CAST(NULL AS TIMESTAMP(3)) FROM ods.cdc_users;", "FX430"),
    "cdc_into_upsert": ("INSERT INTO upsert_stats SELECT name, id FROM ods.cdc_users;", None),
    "group_into_upsert": ("INSERT INTO upsert_stats SELECT channel, COUNT(*) FROM ods.orders GROUP BY channel;", None),
    "distinct_into_kafka": ("INSERT INTO ods.events_kafka SELECT DISTINCT id, channel, user_id, ts FROM ods.orders;", "FX430"),
    # lookup joins (FX440)
    "lookup_on_key": (PROCTIME + "INSERT INTO order_sink SELECT o.id, o.qty, o.price, d.brand FROM ods.orders o JOIN dim.dim_product FOR SYSTEM_TIME AS OF o.pt AS d ON o.product_id = d.id;", None),
    "lookup_probe_narrower": (PROCTIME + "INSERT INTO order_sink SELECT o.id, o.qty, o.price, d.brand FROM ods.orders o JOIN dim.dim_product FOR SYSTEM_TIME AS OF o.pt AS d ON o.qty = d.id;", None),
    "lookup_dimension_narrower": (PROCTIME + "INSERT INTO order_sink SELECT o.id, o.qty, o.price, d.brand FROM ods.orders o JOIN dim.dim_product FOR SYSTEM_TIME AS OF o.pt AS d ON o.price = d.id;", "FX440"),
    "lookup_other_key_equal_types": (PROCTIME + "INSERT INTO order_sink SELECT o.id, o.qty, o.price, d.brand FROM ods.orders o JOIN dim.dim_product FOR SYSTEM_TIME AS OF o.pt AS d ON CAST(o.id AS STRING) = d.brand AND o.price = d.id;", None),
    "lookup_without_equality": (PROCTIME + "INSERT INTO order_sink SELECT o.id, o.qty, o.price, d.brand FROM ods.orders o JOIN dim.dim_product FOR SYSTEM_TIME AS OF o.pt AS d ON o.product_id > d.id;", "FX440"),
    # time attributes (FX450, FX451)
    "watermark_on_string": ("SET ods.raw_events.`watermark` = 'WATERMARK FOR ts_str AS ts_str';\nINSERT INTO dwd.wide_sink SELECT id, id, 1.0, ts_str FROM ods.raw_events;", "FX450"),
    "watermark_on_timestamp6": ("SET ods.raw_events.`watermark` = 'WATERMARK FOR ts6 AS ts6';\nINSERT INTO dwd.wide_sink SELECT id, id, 1.0, ts_str FROM ods.raw_events;", "FX450"),
    "window_on_plain_timestamp": ("INSERT INTO window_sink SELECT window_start, channel, COUNT(*) FROM TABLE(TUMBLE(TABLE ods.orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, channel;", "FX451"),
    "window_on_proctime": (PROCTIME + "INSERT INTO window_sink SELECT CAST(window_start AS TIMESTAMP(3)), channel, COUNT(*) FROM TABLE(TUMBLE(TABLE ods.orders, DESCRIPTOR(pt), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, channel;", None),
    "local_table_with_watermark": ("CREATE TEMPORARY TABLE clicks (id BIGINT, channel STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen');\n"
                                   "INSERT INTO window_sink SELECT window_start, channel, COUNT(*) FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, channel;", None),
    "local_table_without_watermark": ("CREATE TEMPORARY TABLE clicks (id BIGINT, channel STRING, ts TIMESTAMP(3)) WITH ('connector' = 'datagen');\n"
                                      "INSERT INTO window_sink SELECT window_start, channel, COUNT(*) FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, channel;", "FX451"),
}
CODES_UNDER_TEST = {"FX401", "FX402", "FX403", "FX410", "FX411", "FX430", "FX440", "FX450", "FX451"}


@pytest.fixture(scope="module")
def judged(tmp_path_factory, flink):
    import textwrap

    from tests.conftest import write_tree
    from tests.semantic.conftest import TABLES

    root = tmp_path_factory.mktemp("agreement") / "ws"
    files = {**TABLES, **{f"projects/dwd/tasks/{name}.sql": sql + "\n" for name, (sql, _) in CASES.items()}}
    write_tree(root, {k: textwrap.dedent(v) for k, v in files.items()})
    session = session_for(root)
    out = {}
    for name in CASES:
        task = session.workspace.projects["dwd"].tasks[name]
        ours = [d for d in session.analysed(task).diagnostics if d.code in CODES_UNDER_TEST]
        out[name] = (ours, flink_rejects(flink, session, task))
    return out


@pytest.mark.flink
@pytest.mark.parametrize("name", sorted(CASES))
def test_flinkx_and_flink_agree(judged, name):
    ours, flink_messages = judged[name]
    expected = CASES[name][1]
    assert bool(flink_messages) == (expected is not None), f"the case itself is wrong: Flink says {flink_messages}"
    assert [d.code for d in ours] == ([expected] if expected else []), [d.format() for d in ours]


def test_findings_are_one_line_with_a_hint(make_workspace):
    ws = workspace_with_tasks(make_workspace, {"t": "INSERT INTO order_sink\nSELECT id, qty, price, p.brnd\nFROM ods.orders o JOIN ods.products p ON o.product_id = p.id;\n"})
    session = session_for(ws)
    task = session.workspace.projects["dwd"].tasks["t"]
    (finding,) = [d for d in session.analysed(task).diagnostics if d.code == "FX401"]
    assert finding.format().endswith("t.sql:2:24: FX401 unknown column 'p.brnd' in p (did you mean 'brand'?)")
