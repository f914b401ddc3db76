"""The three output formats of `flinkx test` (pure Python), and --select's usage errors."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from flinkx_build.testing.compare import TableVerdict
from flinkx_build.testing.report import CaseResult
from flinkx_build.testing.report import as_json
from flinkx_build.testing.report import human
from flinkx_build.testing.report import junit
from flinkx_build.testing.report import summary
from tests.conftest import EXAMPLE
from tests.testing.conftest import needs_flink
from tests.testing.conftest import run_flinkx

RESULTS = [
    CaseResult("passes", "dws/order_stats_1m", "stream", "t.yaml", 1, "pass", 1.25,
               [TableVerdict("dws.dws_order_stats_1m", "rows", True)]),
    CaseResult("wrong row", "dws/order_stats_1m", "batch", "t.yaml", 9, "fail", 2.0,
               [TableVerdict("dws.dws_order_stats_1m", "rows", False, "1 missing row (expected 1, got 0)",
                             ['missing:    {channel: app}  (t.yaml:14)'])]),
    CaseResult("job fails", "dws/bad", "stream", "t.yaml", 20, "error", 0.5, [], "the job failed: X: y"),
]


def test_human():
    assert human(RESULTS, 4.0).splitlines() == [
        "PASS  dws/order_stats_1m: passes (1.2 s)",
        "FAIL  dws/order_stats_1m: wrong row [batch] (2.0 s)  t.yaml:9",
        "      dws.dws_order_stats_1m (rows): 1 missing row (expected 1, got 0)",
        "        missing:    {channel: app}  (t.yaml:14)",
        "FAIL  dws/bad: job fails (0.5 s)  t.yaml:20",
        "      Flink could not run the test: the job failed: X: y",
    ]
    assert summary(RESULTS, 4.0) == "flinkx: 1 passed, 2 failed (4.0 s)"


def test_json():
    data = json.loads(as_json(RESULTS, 4.0))
    assert (data["passed"], data["failed"]) == (1, 2)
    assert [c["status"] for c in data["cases"]] == ["pass", "fail", "error"]
    assert data["cases"][1]["tables"][0]["details"] == ['missing:    {channel: app}  (t.yaml:14)']


def test_junit():
    suite = ET.fromstring(junit(RESULTS, 4.0))
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("3", "1", "1")
    cases = list(suite.iter("testcase"))
    assert [c.get("classname") for c in cases] == ["dws.order_stats_1m", "dws.order_stats_1m", "dws.bad"]
    assert cases[0].find("failure") is None
    failure = cases[1].find("failure")
    assert failure.get("message") == "dws.dws_order_stats_1m: 1 missing row (expected 1, got 0)"
    assert "missing:    {channel: app}" in failure.text
    assert cases[2].find("error").get("message") == "the job failed: X: y"


@needs_flink
def test_select_that_matches_nothing_is_a_usage_error(tmp_path):
    result = run_flinkx("test", str(EXAMPLE), "--select", "dws/order_stats_1n", cwd=tmp_path)
    assert result.returncode == 2
    assert "flinkx: error: --select dws/order_stats_1n: no test for it (did you mean 'dws/order_stats_1m'?)" in result.stderr
