"""`flinkx lineage`: a column's upstream and downstream across three projects (ods -> dwd -> dws).

The golden files were read line by line against the example tasks: enrich_orders copies
ods.kafka_orders.user_id into dwd.dwd_orders.user_id (line 32), order_stats_1m and
category_user_stats count it (AGGREGATION), user_profile_hbase casts it into the row key
(TRANSFORMATION), peek_order_events hashes it (SHA2) into its task-local print table (TRANSFORMATION).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import EXAMPLE

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def example(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    return root


def test_downstream_and_upstream_text(cli, example):
    result = cli("lineage", "ods.kafka_orders.user_id", cwd=example)
    assert result.exit_code == 0, result.lines
    assert result.stdout == (FIXTURES / "lineage_kafka_orders_user_id.txt").read_text()


def test_upstream_mermaid(cli, example):
    result = cli("lineage", "dws.dws_order_stats_1m.buyer_cnt", "--upstream", "--format", "mermaid", cwd=example)
    assert result.exit_code == 0, result.lines
    assert result.stdout == (FIXTURES / "lineage_buyer_cnt_upstream.mmd").read_text()


def test_json_paths_name_task_and_line(cli, example):
    result = cli("lineage", "dwd.dwd_orders.user_id", "--format", "json", cwd=example)
    data = json.loads(result.stdout)
    assert [u["column"] for u in data["upstream"]] == ["ods.kafka_orders.user_id"]
    counted = next(d for d in data["downstream"] if d["column"] == "dws.dws_order_stats_1m.buyer_cnt")
    assert counted["transformation"] == "AGGREGATION"
    assert counted["path"][0]["at"] == "projects/dws/tasks/order_stats_1m.sql:19"


def test_manifest_records_column_lineage(cli, example):
    assert cli("build", str(example)).exit_code == 0
    manifest = json.loads((example / "build" / "manifest.json").read_text())
    edges = manifest["tasks"]["task.dws.order_stats_1m"]["column_lineage"]
    assert {"column": "dws.dws_order_stats_1m.buyer_cnt", "from": "dwd.dwd_orders.user_id", "transformation": "AGGREGATION"} in edges


def test_unknown_column_is_a_usage_error_with_a_hint(cli, example):
    result = cli("lineage", "dwd.dwd_orders.user_idd", cwd=example)
    assert result.exit_code == 2
    assert "did you mean 'dwd.dwd_orders.user_id'" in result.stderr
