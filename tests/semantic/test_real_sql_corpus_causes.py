"""Issue 28 item 3: the false alarms the gathered real-SQL corpus found (tests/fixtures/corpus/).

Each shape is a statement of the corpus cut down to what mattered; each was a false error before
(the finding is named above it) and lints clean now, next to a true positive of the same shape
that must still fire. `test_flink_accepts_the_clean_tasks` has Flink 1.20.5 plan every clean task
as built (`flinkx validate`): the shapes are Flink's, not ours.
"""
from __future__ import annotations

import pytest

from tests.helpers import flink_available
from tests.semantic.shape_cases import assert_alone_it_lints_and_builds_clean
from tests.semantic.shape_cases import assert_the_wrong_one_still_fires
from tests.semantic.shape_cases import shape_workspace

# before: FX120 "cannot parse" on SET and RESET (paimon-docs/maintenance__manage-branches.sql)
OPTIONS_TASK = """\
CREATE TABLE t1 (a INT, b STRING) WITH ('connector' = 'datagen');
ALTER TABLE t1 SET ('rows-per-second' = '5');
ALTER TABLE t1 RESET ('rows-per-second');
CREATE TEMPORARY TABLE o1 (a INT) WITH ('connector' = 'blackhole');
INSERT INTO o1 SELECT a FROM t1;
"""
OPTIONS_WRONG = "INSERT INTO o1 SELECT nope FROM t1;\n"

# before: FX120 at FIRST (paimon-docs/flink__sql-alter.sql), then FX401/FX410 on the added columns;
# Flink puts c first, then d after a and e first: e, c, a, d, b (the planner agrees, below)
PLACED_TASK = """\
CREATE TABLE t2 (a INT, b STRING) WITH ('connector' = 'datagen');
ALTER TABLE t2 ADD c BOOLEAN FIRST;
ALTER TABLE t2 ADD (d DOUBLE AFTER a, e AS a + 1 FIRST);
CREATE TEMPORARY TABLE o2 (e INT, c BOOLEAN, a INT, d DOUBLE, b STRING) WITH ('connector' = 'blackhole');
INSERT INTO o2 SELECT * FROM t2;
"""
PLACED_WRONG = ("CREATE TEMPORARY TABLE o3 (c BOOLEAN, e INT, a INT, d DOUBLE, b STRING) WITH ('connector' = 'blackhole');\n"
                "INSERT INTO o3 SELECT * FROM t2;\n")

# before: FX410 "writes 5 columns, the sink has 4": `TIMESTAMP '...'` counted as two values
# (fluss-docs/table-design__merge-engines__aggregation.sql)
VALUES_TASK = """\
CREATE TEMPORARY TABLE stats (id BIGINT, price DOUBLE, sales BIGINT, updated TIMESTAMP(3)) WITH ('connector' = 'blackhole');
INSERT INTO stats VALUES
    (1, 23.0, 15, TIMESTAMP '2024-01-01 10:00:00'),
    -- the same key again
    (1, 30.2, 20, TIMESTAMP '2024-01-01 11:00:00');
"""
VALUES_WRONG = "INSERT INTO stats VALUES (1, 23.0, 15, TIMESTAMP '2024-01-01 10:00:00', 7);\n"

# before: FX120 on each statement naming the catalog in backticks (flink-blog/2024-08-02-release-1.20.0.sql).
# ALTER CATALOG parses too, but stays FX195 by design: it can change what the catalog's factory loads
# (docs/security.md), so it is no false alarm and not in the clean task.
CATALOG_TASK = """\
CREATE CATALOG `cat` WITH ('type' = 'generic_in_memory', 'default-database' = 'db');
DESCRIBE CATALOG `cat`;
DROP CATALOG IF EXISTS `other`;
"""
CATALOG_WRONG = "DROP CATALOG IF `other`;\n"

# before: FX120 "cannot parse" on each EXPLAIN but the plainest (fluss-docs/engine-flink__delta-joins.sql)
EXPLAIN_TASK = """\
CREATE TEMPORARY TABLE src (a INT, b STRING) WITH ('connector' = 'datagen');
CREATE TEMPORARY TABLE snk (a INT, b STRING) WITH ('connector' = 'blackhole');
EXPLAIN SELECT a, b FROM src;
EXPLAIN CHANGELOG_MODE, ESTIMATED_COST INSERT INTO snk SELECT * FROM src;
EXPLAIN PLAN FOR SELECT a FROM src WHERE b <> 'x';
EXPLAIN STATEMENT SET BEGIN
  INSERT INTO snk SELECT a, b FROM src;
  INSERT INTO snk SELECT a, b FROM src WHERE a > 1;
END;
INSERT INTO snk SELECT a, b FROM src;
"""
EXPLAIN_WRONG = "EXPLAIN STATEMENT SET BEGIN\n  INSERT INTO snk SELECT a FROM WHERE;\nEND;\nEXPLAIN SELECT a AS user FROM src;\n"

# before: FX120 "cannot parse" on the CREATE TABLE (datasqrl-runner/flink.sql: DDL as Flink's SHOW CREATE
# TABLE prints it); the column's type is read, so the true positive beside it is FX411
CHARSET_TASK = """\
CREATE TEMPORARY TABLE ct (
  `id` BIGINT NOT NULL,
  `name` VARCHAR(2147483647) CHARACTER SET `UTF-16LE` NOT NULL
) WITH ('connector' = 'datagen');
CREATE TEMPORARY TABLE co (id BIGINT, name STRING) WITH ('connector' = 'blackhole');
INSERT INTO co SELECT id, name FROM ct;
"""
CHARSET_WRONG = "INSERT INTO co SELECT name, id FROM ct;\n"

# before: FX120 on RENAME a TO b, the watermark and key forms and DROP (a, b); `DROP c` parsed but was not
# applied (FX410 on `SELECT *`). Flink 1.20's ALTER TABLE schema changes, in the model now.
SCHEMA_TASK = """\
CREATE TABLE s1 (a INT, b STRING, c BIGINT, ts TIMESTAMP(3)) WITH ('connector' = 'datagen');
ALTER TABLE s1 DROP c;
ALTER TABLE s1 RENAME b TO bb;
ALTER TABLE s1 ADD WATERMARK FOR ts AS ts - INTERVAL '1' SECOND;
ALTER TABLE s1 MODIFY WATERMARK FOR ts AS ts - INTERVAL '2' SECOND;
ALTER TABLE s1 ADD PRIMARY KEY (a) NOT ENFORCED;
ALTER TABLE s1 DROP PRIMARY KEY;
ALTER TABLE s1 ADD (d DOUBLE, CONSTRAINT pk PRIMARY KEY (a) NOT ENFORCED);
CREATE TEMPORARY TABLE s_out (a INT, bb STRING, ts TIMESTAMP(3), d DOUBLE) WITH ('connector' = 'blackhole');
CREATE TEMPORARY TABLE s_win (a INT, bb STRING, ts TIMESTAMP(3), d DOUBLE) WITH ('connector' = 'blackhole');
INSERT INTO s_out SELECT * FROM s1;
INSERT INTO s_win SELECT a, bb, window_start, d FROM TABLE(TUMBLE(TABLE s1, DESCRIPTOR(ts), INTERVAL '1' MINUTE));
"""
SCHEMA_WRONG = """\
CREATE TABLE s2 (a INT, b STRING, c BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen');
ALTER TABLE s2 DROP (c);
ALTER TABLE s2 RENAME b TO bb;
ALTER TABLE s2 DROP WATERMARK;
INSERT INTO s_out SELECT a, b, ts, 1.0 FROM s2;
INSERT INTO s_out SELECT a, bb, window_start, 1.0 FROM TABLE(TUMBLE(TABLE s2, DESCRIPTOR(ts), INTERVAL '1' MINUTE));
"""

TASKS = {"options": OPTIONS_TASK, "placed": PLACED_TASK, "values": VALUES_TASK, "catalog": CATALOG_TASK, "explain": EXPLAIN_TASK,
         "charset": CHARSET_TASK, "schema": SCHEMA_TASK}
WRONG = {
    "options": (OPTIONS_WRONG, ["options.sql:6:23: FX401 unknown column 'nope'"]),
    "placed": (PLACED_WRONG, ["placed.sql:7:13: FX411 column 2 (e) is BOOLEAN, the sink column 'e' of p/placed#o3 is INT"]),
    "values": (VALUES_WRONG, ["values.sql:6:13: FX410 INSERT INTO p/values#stats writes 5 columns, the sink has 4"]),
    "catalog": (CATALOG_WRONG, ["catalog.sql:4:17: FX120 cannot parse: '`other`'"]),
    "charset": (CHARSET_WRONG, ["charset.sql:7:23: FX411 column 1 (id) is STRING, the sink column 'id' of p/charset#co is BIGINT"]),
    "schema": (SCHEMA_WRONG, ["schema.sql:17:29: FX401 unknown column 'b'", "schema.sql:18:90: FX451 TUMBLE needs a time attribute"]),
    "explain": (EXPLAIN_WRONG, ["explain.sql:12:28: FX120 cannot parse: 'FROM WHERE'",
                                "explain.sql:14:21: FX01 reserved word 'user'"]),
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


def test_fix_quotes_a_reserved_word_inside_an_explain(workspace, cli):
    path = workspace / "projects/p/tasks/explain.sql"
    path.write_text(path.read_text() + "EXPLAIN SELECT a AS user FROM src;\n")
    assert cli("fix", cwd=workspace).exit_code == 0
    assert path.read_text().endswith("EXPLAIN SELECT a AS `user` FROM src;\n")


@pytest.mark.flink
@pytest.mark.skipif(flink_available() is not None, reason=f"Flink validation unavailable: {flink_available()}")
def test_flink_accepts_the_clean_tasks(workspace, cli):
    validated = cli("validate", cwd=workspace)
    assert validated.exit_code == 0, validated.lines


@pytest.mark.flink
@pytest.mark.skipif(flink_available() is not None, reason=f"Flink validation unavailable: {flink_available()}")
def test_flink_plans_what_an_explain_explains(workspace, cli):
    """validate hands an EXPLAIN to Flink (it only plans): a wrong column inside is Flink's finding, at its token."""
    for other in TASKS:
        if other != "explain":
            (workspace / f"projects/p/tasks/{other}.sql").unlink()
    path = workspace / "projects/p/tasks/explain.sql"
    path.write_text(path.read_text() + "EXPLAIN SELECT nope FROM src;\n")
    validated = cli("validate", cwd=workspace)
    assert validated.exit_code == 1
    assert [line for line in validated.lines if "explain.sql:11:16: FX300 unknown column 'nope'" in line], validated.lines
