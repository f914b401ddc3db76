"""`flinkx test` on a 2.3 workspace runs on Flink 2.3's own runtime (flinkx's driver on the 2.3 jars), with
the results, messages and exit codes of 1.20's run (issue 29 item 2; both on the driver since issue 42).

Each test is one real CLI run on a copy of the example workspace; the jars are unpacked once a machine
(tests/conftest.py: the pinned archives, $FLINKX_WHEEL_DIR in CI).
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import EXAMPLE
from tests.planner.conftest import jars_23  # noqa: F401 - the session fixture: Flink 2.3's jars
from tests.planner.conftest import needs_planner
from tests.testing.conftest import needs_flink
from tests.testing.conftest import run_flinkx
from tests.testing.test_example_workspace import SHOWCASE
from tests.testing.test_failures import BAD_TASK
from tests.testing.test_failures import CASES as FAILING_CASES

pytestmark = [pytest.mark.flink, pytest.mark.network, needs_planner("2.3")]

# the tasks whose upsert key is not their sink's primary key: Flink 2.3 (FLIP-558) plans them only with an
# ON CONFLICT clause, 1.20 has no such clause; the statement's last line in each task
UPSERT_KEY_MISMATCH = {
    "dim/tasks/build_dim_product.sql": ["  ON p.rowkey = CAST(c.product_id AS STRING);"],
    "dws/tasks/order_stats_1m.sql": ["GROUP BY window_start, window_end, channel;"],
    "dws/tasks/realtime_metrics.sql": ["GROUP BY stat_date;"],
    "dws/tasks/user_profile_hbase.sql": ["WHERE user_id IS NOT NULL;"],
}
ON_CONFLICT_MESSAGE = "Please specify an ON CONFLICT clause"
NO_ON_CONFLICT_CHECK = "SET 'table.exec.sink.require-on-conflict' = 'false';\n"


def _copy(tmp_path: Path, version: str, tests: bool = True) -> Path:
    root = tmp_path / f"ws-{version}"
    ignored = ("tests",) if not tests else ()
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".flinkx-cache", "build", *ignored))
    config = root / "flinkx.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace('flink_version: "1.20"', f'flink_version: "{version}"'),
                      encoding="utf-8")
    return root


def _add_on_conflict(root: Path) -> None:
    for rel, endings in UPSERT_KEY_MISMATCH.items():
        path = root / "projects" / rel
        text = path.read_text(encoding="utf-8")
        for ending in endings:
            assert ending in text, (rel, ending)
            text = text.replace(ending, ending[:-1] + "\nON CONFLICT DO DEDUPLICATE;")
        path.write_text(text, encoding="utf-8")


def _without_timings(text: str) -> str:
    return re.sub(r"\(\d+\.\d s\)", "(s)", text)


def test_the_example_tests_pass_on_flink_23(tmp_path, jars_23):
    """The 13 showcase cases pass on 2.3 once its tasks say ON CONFLICT, which 1.20's parser rejects: they ran on 2.3."""
    root = _copy(tmp_path, "2.3")
    _add_on_conflict(root)
    result = run_flinkx("test", str(root), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    for name, task in SHOWCASE.items():
        assert any(re.match(rf"PASS  {re.escape(task)}: {re.escape(name)}( \[batch\])? \(", line) for line in lines), (name, lines)
    assert f"flinkx: {len(SHOWCASE)} passed, 0 failed" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_task_flink_23_refuses_fails_its_tests_with_23s_message(tmp_path, jars_23):
    """The one result that differs between the versions: the unchanged example, whose tests all pass on 1.20
    (test_example_workspace.py), fails on 2.3 exactly where 2.3's planner wants ON CONFLICT, with its message."""
    root = _copy(tmp_path, "2.3")
    result = run_flinkx("test", str(root), cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    failed = {m[1] for m in re.finditer(r"^FAIL  ([\w/]+): ", result.stdout, re.MULTILINE)}
    refused = {"dim/build_dim_product", "dws/order_stats_1m", "dws/realtime_metrics", "dws/user_profile_hbase"}
    assert failed == refused
    reasons = [line for line in result.stdout.splitlines() if line.startswith("      Flink could not run the test: ")]
    cases = sum(task in refused for task in SHOWCASE.values())  # every case of those tasks, timelines too
    assert len(reasons) == cases and all(ON_CONFLICT_MESSAGE in line for line in reasons), reasons
    assert f"flinkx: {len(SHOWCASE) - cases} passed, {cases} failed" in result.stderr


@needs_flink
def test_failing_expectations_fail_alike_on_both_versions(tmp_path, jars_23):
    """test_failures.py's failing cases, run on 1.20 and on 2.3 (each on its own jars): the same report, line
    for line (timings aside), and the same exit code. The two tasks into the jdbc sink turn 2.3's ON CONFLICT
    check off (an allowed SET; 1.20 has no such option and ignores it), so both versions plan them."""
    outputs = {}
    for version in ("1.20", "2.3"):
        root = _copy(tmp_path, version, tests=False)
        (root / "projects/dws/tasks/bad_cast.sql").write_text(NO_ON_CONFLICT_CHECK + BAD_TASK, encoding="utf-8")
        stats = root / "projects/dws/tasks/order_stats_1m.sql"
        stats.write_text(NO_ON_CONFLICT_CHECK + stats.read_text(encoding="utf-8"), encoding="utf-8")
        (root / "projects/dws/tests").mkdir()
        (root / "projects/dws/tests/failing.yaml").write_text(FAILING_CASES.lstrip("\n"), encoding="utf-8")
        result = run_flinkx("test", root.name, cwd=tmp_path)
        outputs[version] = (result.returncode, _without_timings(result.stdout).replace(root.name, "ws"),
                            _without_timings(result.stderr.splitlines()[-1] if result.stderr else ""))
    assert outputs["1.20"][0] == outputs["2.3"][0] == 1, outputs
    assert "flinkx: 1 passed, 6 failed" in outputs["2.3"][2], outputs
    # both report the rows each operator dropped as late (Flink's numLateRecordsDropped), line for line
    assert "      late: 1 row dropped by GlobalWindowAggregate\n" in outputs["2.3"][1]
    assert outputs["2.3"][1] == outputs["1.20"][1]
    assert outputs["2.3"][2] == outputs["1.20"][2]


@needs_flink
@pytest.mark.parametrize("version", ["1.20", "2.3"])
def test_a_job_past_its_timeout_is_one_fx314_line(tmp_path, jars_23, version):
    """A job that does not end within --timeout is cancelled and its case fails with one FX314 line at the case
    (every job takes longer than a millisecond); the run goes on and exits 1, on either runtime."""
    root = _copy(tmp_path, version)
    result = run_flinkx("test", root.name, "--select", "dim/sync_dim_user", "--timeout", "0.001", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    lines = [line.strip() for line in result.stdout.splitlines() if "FX314" in line]
    assert lines == [
        f"{root.name}/projects/dim/tests/sync_dim_user.yaml:{line}:3: FX314 the job did not finish within 0.001 s and "
        "was cancelled (a bounded test job normally ends in seconds; raise --timeout if this one needs longer)"
        for line in (7, 28)], result.stdout
    assert "flinkx: 0 passed, 2 failed" in result.stderr


def test_the_23_companion_workspace_tests_pass(tmp_path, jars_23):
    """example-workspace-2.3's tests: a VARIANT document from PARSE_JSON (Flink 2.1+), and a timeline whose points
    show 2.3's ON CONFLICT DO DEDUPLICATE turning an update into a delete and an insert, run on 2.3."""
    companion = EXAMPLE.parent / "example-workspace-2.3"
    root = tmp_path / "ws"
    shutil.copytree(companion, root, ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
    result = run_flinkx("test", str(root), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.match(r"PASS  dws/order_docs: order payloads parsed into documents \(", result.stdout), result.stdout
    assert re.search(r"^PASS  dws/user_channel: the count is inserted, then deleted and inserted anew \(",
                     result.stdout, re.MULTILINE), result.stdout
    assert "flinkx: 2 passed, 0 failed" in result.stderr
