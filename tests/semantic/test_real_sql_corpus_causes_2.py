"""Issue 28 item 3, second gathering: the false alarms the grown real-SQL corpus found.

Flink's SQL client and gateway test scripts (tests/fixtures/corpus/flink-sql-client-tests/) drop what they
made with `DROP TEMPORARY VIEW`, drop a watermark and alter a table only if it exists; the same shapes'
siblings are here too. Each clean task was a false error
before (the finding is named above it) and lints and builds clean now, next to a true positive of the same
shape that must still fire. `test_flink_accepts_the_clean_tasks` has Flink 1.20.5 run every clean task as
built (`flinkx validate`): the shapes are Flink's, not ours.
"""
from __future__ import annotations

import pytest

from tests.helpers import flink_available
from tests.semantic.shape_cases import assert_alone_it_lints_and_builds_clean
from tests.semantic.shape_cases import assert_the_wrong_one_still_fires
from tests.semantic.shape_cases import shape_workspace

# before: FX120 "cannot parse: 'DROP TEMPORARY VIEW testUserData'" (flink-sql-client-tests/client__select.sql
# and client__select_batch.sql), and the same on DROP TEMPORARY [SYSTEM] FUNCTION
DROP_TEMPORARY_TASK = """\
CREATE TEMPORARY VIEW testUserData(name, isHappy) AS (VALUES ('30b5c1bb', true), ('91170c98', false));
CREATE TEMPORARY TABLE happy (name STRING, isHappy BOOLEAN) WITH ('connector' = 'blackhole');
INSERT INTO happy SELECT * FROM testUserData;
-- post-test cleanup
DROP TEMPORARY VIEW testUserData;
CREATE TEMPORARY VIEW v2 AS SELECT 1 AS x;
DROP TEMPORARY VIEW IF EXISTS v2;
DROP TEMPORARY FUNCTION IF EXISTS lower_udf;
DROP TEMPORARY SYSTEM FUNCTION IF EXISTS lower_udf;
"""
DROP_TEMPORARY_WRONG = "DROP TEMPORARY VIEW IF v2;\n"

# before: FX130 "unknown table" on the name of a DROP ... IF EXISTS that nothing defined; Flink accepts it
# (it drops nothing). Without IF EXISTS the name must exist: FX130 stays.
DROP_IF_EXISTS_TASK = """\
DROP TABLE IF EXISTS addresses;
DROP VIEW IF EXISTS customers_view;
DROP TEMPORARY TABLE IF EXISTS orders_tmp;
"""
DROP_IF_EXISTS_WRONG = "DROP VIEW customers_view;\n"

# before: FX01 "Reserved word 'watermark' used as identifier" on `alter table orders2 drop watermark`
# (flink-sql-client-tests/client__table.sql); the watermark is gone, so TUMBLE on ts is FX451 after it
DROP_WATERMARK_TASK = """\
CREATE TABLE orders2 (trade_order_id BIGINT NOT NULL, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' MINUTE)
WITH ('connector' = 'datagen');
alter table orders2 drop watermark;
CREATE TEMPORARY TABLE orders_out (trade_order_id BIGINT, ts TIMESTAMP(3)) WITH ('connector' = 'blackhole');
INSERT INTO orders_out SELECT * FROM orders2;
"""
DROP_WATERMARK_WRONG = ("INSERT INTO orders_out SELECT trade_order_id, window_start\n"
                        "FROM TABLE(TUMBLE(TABLE orders2, DESCRIPTOR(ts), INTERVAL '1' MINUTE));\n")

# before: FX120 "cannot parse: 'rename to non_exist2'" on `alter table if exists non_exist rename to
# non_exist2` (client__table.sql): Flink 1.20 does nothing when the table does not exist
ALTER_IF_EXISTS_TASK = """\
alter table if exists non_exist rename to non_exist2;
CREATE TABLE t3 (a INT, b STRING) WITH ('connector' = 'datagen');
ALTER TABLE IF EXISTS t3 SET ('rows-per-second' = '5');
ALTER TABLE IF EXISTS t3 RENAME b TO bb;
CREATE TEMPORARY TABLE t3_out (a INT, bb STRING) WITH ('connector' = 'blackhole');
INSERT INTO t3_out SELECT * FROM t3;
"""
ALTER_IF_EXISTS_WRONG = "alter table non_exist rename to non_exist3;\nINSERT INTO t3_out SELECT a, b FROM t3;\n"

TASKS = {"drop_temporary": DROP_TEMPORARY_TASK, "drop_if_exists": DROP_IF_EXISTS_TASK, "drop_watermark": DROP_WATERMARK_TASK,
         "alter_if_exists": ALTER_IF_EXISTS_TASK}
WRONG = {
    "drop_temporary": (DROP_TEMPORARY_WRONG, ["drop_temporary.sql:10:24: FX120 cannot parse: 'v2'"]),
    "drop_if_exists": (DROP_IF_EXISTS_WRONG, ["drop_if_exists.sql:4:11: FX130 unknown table 'customers_view'"]),
    "drop_watermark": (DROP_WATERMARK_WRONG, ["drop_watermark.sql:7:45: FX451 TUMBLE needs a time attribute"]),
    "alter_if_exists": (ALTER_IF_EXISTS_WRONG, ["alter_if_exists.sql:7:13: FX130 unknown table 'non_exist'",
                                                "alter_if_exists.sql:8:30: FX401 unknown column 'b'"]),
}


@pytest.fixture
def workspace(make_workspace):
    return shape_workspace(make_workspace, TASKS)


@pytest.mark.parametrize("name", list(TASKS))
def test_flink_accepted_shape_lints_and_builds_clean(workspace, cli, name):
    assert_alone_it_lints_and_builds_clean(workspace, cli, TASKS, name)


@pytest.mark.parametrize("name", list(WRONG))
def test_the_true_positive_next_to_it_still_fires(workspace, cli, name):
    assert_the_wrong_one_still_fires(workspace, cli, name, *WRONG[name])


@pytest.mark.flink
@pytest.mark.skipif(flink_available() is not None, reason=f"Flink validation unavailable: {flink_available()}")
def test_flink_accepts_the_clean_tasks(workspace, cli):
    validated = cli("validate", cwd=workspace)
    assert validated.exit_code == 0, validated.lines
