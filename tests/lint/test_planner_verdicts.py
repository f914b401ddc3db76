"""The example workspace's mistakes of issue 44 with the target's planner on: lint and `build --check` print
one line per mistake, at its token, with a hint that names the fix (real processes, Flink 1.20's planner)."""
from __future__ import annotations

import pytest

from flinkx_build.planner.session import planner_problem
from tests.helpers import edited_example
from tests.helpers import one_verdict_planned
from tests.lint.test_planner_pass import stop_all_services

pytestmark = [pytest.mark.flink, pytest.mark.skipif(planner_problem("1.20", fetch=True) is not None,
                                                    reason=f"no planner: {planner_problem('1.20', fetch=True)}")]
SYNC = "projects/dim/tasks/sync_dim_user.sql"


@pytest.fixture(scope="module", autouse=True)
def _stop_services():
    yield
    stop_all_services()


def test_a_function_the_task_creates_without_a_signature_is_a_warning_not_an_error(tmp_path):
    # case 14: Flink accepts CREATE FUNCTION ... LANGUAGE JAVA; it was FX301 "cannot be validated", an error
    ws = edited_example(tmp_path, [
        (SYNC, "INSERT INTO dim_user", "CREATE TEMPORARY FUNCTION my_upper AS 'com.shop.MyUpper' LANGUAGE JAVA;\n\nINSERT INTO dim_user"),
        (SYNC, "TRIM(user_name)", "my_upper(user_name)")])
    expected = [
        f"{SYNC}:18:27: FX142 function 'my_upper' is created from a class whose signature flinkx cannot know: the "
        "statements that call it are not typed or planned (declare it as a project function "
        "(projects/dim/functions/my_upper.yaml with class, returns and params) and call it as dim:my_upper)"]
    assert one_verdict_planned(ws) == expected
    assert one_verdict_planned(ws) == expected  # and from the planner's verdict cache


@pytest.mark.parametrize("edit, expected", [
    (("  city,\n", "  cty,\n"), f"{SYNC}:24:3: FX401 unknown column 'cty' (did you mean 'city'?)"),
    (("COALESCE(vip_level, 0)  ", "user_name              "),
     f"{SYNC}:25:3: FX411 column 6 (vip_level) is STRING, the sink column 'vip_level' of dim.dim_user is INT: Flink does "
     "not cast it implicitly (CAST(... AS INT))"),
    (("  city,\n", ""), f"{SYNC}:18:13: FX410 INSERT INTO dim.dim_user writes 7 columns, the sink has 8 (user_id, "
     "user_name, phone, gender, city, vip_level, register_date, updated_at) (select one expression per sink column, in "
     "the sink's order)"),
], ids=["misspelt column", "STRING into INT", "column count"])
def test_a_mistake_a_fast_check_finds_is_not_said_again_by_the_planner(tmp_path, edit, expected):
    # case 11: each gave the fast finding and an FX301 saying the same at the statement's first line (lint only)
    ws = edited_example(tmp_path, [(SYNC, *edit)])
    assert one_verdict_planned(ws) == [expected]


def test_the_tasks_reading_a_table_whose_yaml_did_not_load_are_not_planned(tmp_path):
    # case 12: one YAML error gave an FX301 "Object 'kafka_orders' not found" in every task that reads the table
    ws = edited_example(tmp_path, [("projects/ods/tables/kafka_orders.yaml", "\ncolumns:", "\n columns:")])
    [line] = one_verdict_planned(ws)
    assert line.startswith("projects/ods/tables/kafka_orders.yaml:6:9: FX101 ")


ENRICH = "projects/dwd/tasks/orders/enrich_orders.sql"
REFUND = "projects/dws/tasks/shop_refund_1d.sql"


@pytest.mark.parametrize("edit, expected", [
    # the second lookup join's FOR SYSTEM_TIME AS OF an event-time column: the token, not the INSERT's first line
    ((ENRICH, "FOR SYSTEM_TIME AS OF o.proc_time AS p", "FOR SYSTEM_TIME AS OF o.order_time AS p"),
     f"{ENRICH}:56:27: FX301 FOR SYSTEM_TIME AS OF names a column that is not a time attribute of the probe side (use the "
     "probe side's processing-time column (SET <project>.<table>.procTime = proc_time AS PROCTIME();))"),
    # a trailing comma before FROM: at the comma
    ((SYNC, "  updated_at\nFROM", "  updated_at,\nFROM"),
     f"{SYNC}:27:13: FX301 a comma right before FROM: the list before it ends with ',' (remove the trailing comma)"),
    # a state TTL Flink cannot read: at the SET that gives it (Flink reads it when it plans the INSERT)
    ((REFUND, "'36 h'", "'36 hours later'"),
     f"{REFUND}:23:1: FX301 '36 hours later' is not a value of table.exec.state.ttl (give it a duration: a number and a "
     "unit, such as '36 h', '1 d' or '30 min')"),
], ids=["lookup time column", "trailing comma", "state ttl value"])
def test_the_planners_message_is_at_the_token_with_the_fix(tmp_path, edit, expected):
    # case 13: these were at the statement's first line, in Flink's words, with "--no-planner skips this check"
    assert one_verdict_planned(edited_example(tmp_path, [edit])) == [expected]


def test_a_table_with_a_yaml_error_does_not_get_its_tasks_planned(tmp_path):
    # case 9: the unquoted DECIMAL(10, 2) gave FX107, FX103 and the planner's "Encountered COMMENT"
    table = "projects/ods/tables/kafka_orders.yaml"
    ws = edited_example(tmp_path, [(table, 'type: "DECIMAL(10, 2)"', "type: DECIMAL(10, 2)")])
    assert [line.split(": ")[1].split()[0] for line in one_verdict_planned(ws)] == ["FX107"]
