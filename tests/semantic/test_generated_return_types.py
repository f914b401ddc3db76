"""The fixed return types of built-in functions are the target planner's (data/flink/<v>/return_types.json,
scripts/gen_flink_facts.py), not a hand table: each shape here was a false FX411 with the old table, and
Flink 1.20.5 plans it (`test_flink_accepts_them`)."""
from __future__ import annotations

import pytest

from flinkx_build.flink_data import facts_for
from flinkx_build.semantic.functions import call_type
from tests.helpers import flink_available

SOURCE = "CREATE TEMPORARY TABLE src (ts TIMESTAMP(3), s STRING) WITH ('connector' = 'datagen');\n"
# the old table: TIMESTAMPDIFF BIGINT (the planner: INT), LOCALTIMESTAMP TIMESTAMP_LTZ(3) (the planner: TIMESTAMP(3))
TASKS = {
    "diff_into_int": SOURCE + "CREATE TEMPORARY TABLE o1 (secs INT) WITH ('connector' = 'blackhole');\n"
                              "INSERT INTO o1 SELECT TIMESTAMPDIFF(SECOND, ts, ts) FROM src;\n",
    "localtimestamp_into_timestamp": SOURCE + "CREATE TEMPORARY TABLE o2 (at_ TIMESTAMP(3)) WITH ('connector' = 'blackhole');\n"
                                              "INSERT INTO o2 SELECT LOCALTIMESTAMP FROM src;\n",
}
# still a true positive: a STRING into an INT column
WRONG = SOURCE + "CREATE TEMPORARY TABLE o3 (n INT) WITH ('connector' = 'blackhole');\nINSERT INTO o3 SELECT MD5(s) FROM src;\n"


@pytest.fixture
def workspace(make_workspace):
    files = {"projects/p/project.yaml": "name: p\n"}
    files.update({f"projects/p/tasks/{name}.sql": sql for name, sql in TASKS.items()})
    return make_workspace(files)


def test_a_planner_typed_call_into_its_sink_column_lints_clean(workspace, cli):
    linted = cli("lint", cwd=workspace)
    assert linted.exit_code == 0, linted.lines


def test_a_call_of_the_wrong_type_is_still_fx411(workspace, cli):
    (workspace / "projects/p/tasks/wrong.sql").write_text(WRONG)
    linted = cli("lint", cwd=workspace)
    assert linted.exit_code == 1
    assert [line for line in linted.lines if "wrong.sql:3:" in line and " FX411 " in line and "CHAR(32)" in line], linted.lines


def test_the_type_follows_the_workspaces_version():
    assert "BTRIM" in facts_for("2.3").return_types and "BTRIM" not in facts_for("1.20").return_types
    assert call_type("BTRIM", [None], flink_version="2.3").format() == "STRING"
    assert call_type("BTRIM", [None], flink_version="1.20") is None  # unknown on 1.20: never a guess


@pytest.mark.flink
@pytest.mark.skipif(flink_available() is not None, reason=f"Flink validation unavailable: {flink_available()}")
def test_flink_accepts_them(workspace, cli):
    validated = cli("validate", cwd=workspace)
    assert validated.exit_code == 0, validated.lines
