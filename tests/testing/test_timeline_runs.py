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
    # the state lives two hours: the buyer's order at 13:00 is still a duplicate
    "dws/tasks/first_orders.sql": ("'table.exec.state.ttl' = '1 h'", "'table.exec.state.ttl' = '2 h'",
                                   "a dedup with TTL keeps the first row within the TTL and a new one after it"),
}


# a wrong count of state keys, run in the same JVM: the deduplication holds a key per buyer (7 and 8)
WRONG_KEYS = """
- name: wrong state keys
  task: dws/first_orders
  timeline:
    - rows:
        dwd.dwd_orders:
          - {order_id: o1, line_no: 1, user_id: 7}
          - {order_id: o2, line_no: 1, user_id: 8}
          - {order_id: o3, line_no: 1, user_id: 7}
    - state_keys: {Deduplicate: 3, Dedup: 2}
"""


def test_timeline_tests_fail_when_their_task_is_wrong(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
    for rel, (text, wrong, _) in MUTATIONS.items():
        path = root / "projects" / rel
        sql = path.read_text(encoding="utf-8")
        assert text in sql, rel
        path.write_text(sql.replace(text, wrong), encoding="utf-8")
    (root / "projects/dws/tests/wrong_keys.yaml").write_text(WRONG_KEYS, encoding="utf-8")
    names = [name for _, _, name in MUTATIONS.values()] + ["wrong state keys"]
    args = [arg for name in names for arg in ("--select", name)]
    result = run_flinkx("test", str(root), *args, cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    failed = set(re.findall(r"^FAIL  [\w/]+: (.+?) \(", result.stdout, re.MULTILINE))
    assert failed == set(names), result.stdout
    assert f"flinkx: 0 passed, {len(names)} failed" in result.stderr
    assert ("      Deduplicate (state keys, by line 10): holds 2 keys, expected 3\n"
            "        expected: 3 keys  (ws/projects/dws/tests/wrong_keys.yaml:10)\n"
            "        actual:   2 keys\n") in result.stdout, result.stdout
    assert ("      Dedup (state keys, by line 10): no operator of this name holds keyed state in this job "
            "(did you mean 'Deduplicate'?)\n") in result.stdout, result.stdout
