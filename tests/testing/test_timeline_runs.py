"""The example workspace's timeline tests on the real runtime: they fail when their task is changed to be wrong.

Each mutation below changes what a task computes in a way its timeline test is there to catch; the run of those
tests on the mutated copy must fail every one of them (the same tests pass on the example workspace itself:
test_example_workspace.py, and on 2.3: test_target_runtime.py).
"""
from __future__ import annotations

import re
import shutil

import pytest

from tests.conftest import EXAMPLE
from tests.testing.conftest import needs_flink
from tests.testing.conftest import run_flinkx

pytestmark = [pytest.mark.flink, needs_flink]

# task file -> (text, wrong text), and the timeline test that must then fail
MUTATIONS = {
    "dws/tasks/order_stats_1m.sql": ("INTERVAL '1' MINUTE", "INTERVAL '2' MINUTE",
                                     "the window fires at the watermark and drops the late row"),
    "dws/tasks/quick_refunds.sql": ("o.order_time + INTERVAL '1' HOUR", "o.order_time + INTERVAL '10' MINUTE",
                                    "a lagging refund stream still joins its orders"),
    "dws/tasks/activity_1m.sql": ("INTERVAL '1' MINUTE", "INTERVAL '2' MINUTE",
                                  "an idle refund stream holds the window back until it is marked idle"),
    # the buyer looked up by the wrong key (a regular join instead of the lookup is FX430 before any test runs)
    "dwd/tasks/orders/enrich_orders.sql": ("ON o.user_id = u.user_id", "ON o.line_no = u.user_id",
                                           "the lookup sees the buyer's new city after 12:00"),
}


def test_timeline_tests_fail_when_their_task_is_wrong(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
    for rel, (text, wrong, _) in MUTATIONS.items():
        path = root / "projects" / rel
        sql = path.read_text(encoding="utf-8")
        assert text in sql, rel
        path.write_text(sql.replace(text, wrong), encoding="utf-8")
    names = [name for _, _, name in MUTATIONS.values()]
    args = [arg for name in names for arg in ("--select", name)]
    result = run_flinkx("test", str(root), *args, cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    failed = set(re.findall(r"^FAIL  [\w/]+: (.+?) \(", result.stdout, re.MULTILINE))
    assert failed == set(names), result.stdout
    assert f"flinkx: 0 passed, {len(names)} failed" in result.stderr
