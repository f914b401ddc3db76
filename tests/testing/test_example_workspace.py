"""CI runs `flinkx test example-workspace`: every showcase test passes on the real Flink."""
from __future__ import annotations

import re
import time
import xml.etree.ElementTree as ET

import pytest

from tests.conftest import EXAMPLE
from tests.conftest import REPO
from tests.testing.conftest import needs_flink
from tests.testing.conftest import run_flinkx

pytestmark = [pytest.mark.flink, needs_flink]

# every kind of task the showcase must cover, by the test that covers it
SHOWCASE = {
    "one-minute window per channel": "dws/order_stats_1m",  # window aggregate
    "a late row is dropped by the watermark": "dws/order_stats_1m",  # Flink drops a late row
    "order lines enriched with buyer and product": "dwd/orders/enrich_orders",  # lookup joins
    "product changes looked up in HBase and upserted": "dim/build_dim_product",  # lookup join
    "the user changelog ends as one row per user": "dim/sync_dim_user",  # CDC into an upsert sink
    "the upsert sink receives no -U": "dim/sync_dim_user",  # Flink drops -U before an upsert sink
    "category and user stats from one statement set": "dws/category_user_stats",  # statement set
    "backfill of refunds per shop and day": "dws/shop_refund_1d",  # mirror table, batch mode
    "windows over the enriched order lines of the dwd test": "dws/order_stats_1m",  # cross-project chain
    "two families of one HBase row from two streams": "dws/user_profile_hbase",  # cropped sinks, merged by key
    "order state changes into the upsert topic": "dwd/orders/sync_orders",  # CDC into upsert-kafka
    "paid metrics retract a refunded order": "dws/realtime_metrics",  # chain through a changelog
    "refunds enriched with shop and buyer": "dwd/refunds/enrich_refunds",  # metadata, hints, pruning
    # timelines (docs/testing.md#timelines)
    "the window fires at the watermark and drops the late row": "dws/order_stats_1m",  # tumbling window, late row
    "a lagging refund stream still joins its orders": "dws/quick_refunds",  # interval join, a lagging side
    "an idle refund stream holds the window back until it is marked idle": "dws/activity_1m",  # idleness
    "the lookup sees the buyer's new city after 12:00": "dwd/orders/enrich_orders",  # proc-time lookup, dim change
    "a dedup with TTL keeps the first row within the TTL and a new one after it": "dws/first_orders",  # state TTL
}


def test_example_workspace_tests_pass(tmp_path):
    report = tmp_path / "junit.xml"
    began = time.perf_counter()
    result = run_flinkx("test", str(EXAMPLE), "--junit-xml", str(report), cwd=REPO)
    elapsed = time.perf_counter() - began
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    for name, task in SHOWCASE.items():
        assert any(re.match(rf"PASS  {re.escape(task)}: {re.escape(name)}( \[batch\])? \(", line) for line in lines), (name, lines)
    assert not any(line.startswith("FAIL") for line in lines)
    assert re.search(rf"flinkx: {len(SHOWCASE)} passed, 0 failed", result.stderr)
    suite = ET.parse(report).getroot()
    assert suite.get("tests") == str(len(SHOWCASE)) and suite.get("failures") == "0"
    assert {case.get("name") for case in suite.iter("testcase")} == set(SHOWCASE)
    # a hang guard, not a speed budget: ten times the 18-28 s docs/testing.md gives for this run
    assert elapsed < 280, f"the example tests took {elapsed:.0f} s"
