"""Issue 28: shapes of real-world Flink SQL that Flink 1.20 accepts and `flinkx lint` flagged.

Each task is linted as part of a real workspace and must be clean; next to it a true positive
of the same shape must still fire, so a test cannot pass by switching a check off. The
`flink`-marked test has Flink's planner accept the clean tasks as built (the oracle).
"""
from __future__ import annotations

import pytest

from tests.helpers import flink_available

TICKER = """\
name: ticker
type: datagen
kind: stream
columns:
  - {name: symbol, type: STRING}
  - {name: price, type: BIGINT}
  - {name: rowtime, type: "TIMESTAMP(3)"}
with: {connector: datagen}
"""

# before: FX410 "writes 0 columns" (a lone `(VALUES ...)` was no FROM item at all)
VALUES_TASK = """\
CREATE TEMPORARY TABLE pairs (a INT, b STRING) WITH ('connector' = 'blackhole');
INSERT INTO pairs SELECT * FROM (VALUES (1, 'x'), (2, 'y'));
INSERT INTO pairs SELECT * FROM (VALUES (1, 'x'), (2, 'y')) AS t (a, b);
INSERT INTO pairs SELECT a, b FROM (VALUES (1, 'x')) AS t (a, b) WHERE a > 0;
"""
VALUES_WRONG = "INSERT INTO pairs SELECT a, b FROM (VALUES (1, 'x')) AS t (a, b) WHERE c > 0;\n"

# before: FX410 "writes 1 columns" and FX401 on each metadata column; in Flink 1.20 `*` has
# every metadata column, VIRTUAL ones included (planner-checked: docs/decisions.md)
METADATA_TASK = """\
CREATE TEMPORARY TABLE events (
  id INT,
  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
  part INT METADATA FROM 'partition',
  `offset` BIGINT METADATA VIRTUAL
) WITH ('connector' = 'datagen');
CREATE TEMPORARY TABLE events_out (id INT, ts TIMESTAMP_LTZ(3), part INT, o BIGINT) WITH ('connector' = 'blackhole');
CREATE TEMPORARY TABLE events_named (id INT, ts TIMESTAMP_LTZ(3), part INT, o BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO events_out SELECT * FROM events;
INSERT INTO events_named SELECT id, ts, part, `offset` FROM events;
"""
METADATA_WRONG = "INSERT INTO events_out SELECT id, ts, part, `offset` FROM events WHERE nope > 0;\n"

# before: FX411 (the star read as ticker's columns) and FX403 on `T` (Flink's own docs' form); two sinks, not one
# written by two jobs (FX474)
MATCH_TASK = """\
SET ticker.`watermark` = 'WATERMARK FOR rowtime AS rowtime - INTERVAL ''1'' SECOND';
CREATE TEMPORARY TABLE dips (symbol STRING, start_tstamp TIMESTAMP(3), end_tstamp TIMESTAMP(3)) WITH ('connector' = 'blackhole');
CREATE TEMPORARY TABLE dips_ab (symbol STRING, start_tstamp TIMESTAMP(3), end_tstamp TIMESTAMP(3)) WITH ('connector' = 'blackhole');
INSERT INTO dips
SELECT * FROM ticker
MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY rowtime
  MEASURES START_ROW.rowtime AS start_tstamp, LAST(PRICE_UP.rowtime) AS end_tstamp
  ONE ROW PER MATCH
  AFTER MATCH SKIP TO LAST PRICE_UP
  PATTERN (START_ROW PRICE_DOWN+ PRICE_UP)
  DEFINE PRICE_DOWN AS PRICE_DOWN.price < START_ROW.price, PRICE_UP AS PRICE_UP.price > START_ROW.price
) MR;
INSERT INTO dips_ab
SELECT T.symbol, T.start_tstamp, end_tstamp FROM ticker
MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY rowtime
  MEASURES A.rowtime AS start_tstamp, B.rowtime AS end_tstamp
  PATTERN (A B)
  DEFINE B AS B.price > A.price
) AS T;
"""
# ONE ROW PER MATCH keeps only the PARTITION BY columns and the measures: `price` is gone
MATCH_WRONG = MATCH_TASK.split("INSERT INTO dips_ab\n", 1)[1].replace("end_tstamp FROM", "price FROM")

# before: FX120 at `//`; Calcite's lexer reads `//` to the end of the line as a comment, quotes
# and `;` inside it included (the splitter must not end the statement there)
COMMENT_TASK = """\
CREATE TEMPORARY TABLE prices (price BIGINT) WITH ('connector' = 'blackhole'); // don't; not a statement
INSERT INTO prices
SELECT price // it's the price; still one statement
FROM ticker
WHERE symbol <> 'http://not-a-comment';
"""
COMMENT_WRONG = "INSERT INTO prices SELECT nope // unknown\nFROM ticker;\n"

# before: FX120; Calcite allows blanks around the dot of a compound identifier
DOT_GAP_TASK = """\
CREATE TEMPORARY TABLE quotes (symbol STRING, price BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO quotes SELECT c. symbol, c .price FROM ticker AS c;
"""
DOT_GAP_WRONG = "INSERT INTO quotes SELECT c. symbol, c .nope FROM ticker AS c;\n"

# before: FX01 on `default`; Flink's SQL-client SET takes the value as text
DIALECT_TASK = """\
SET table.sql-dialect=default;
CREATE TEMPORARY TABLE buyers (`user` STRING) WITH ('connector' = 'blackhole');
INSERT INTO buyers SELECT symbol FROM ticker;
"""
DIALECT_WRONG = "INSERT INTO buyers SELECT symbol AS user FROM ticker;\n"

# before: FX401 on `cost`; the WITH bracket was read as the column list (of none)
CTAS_TASK = """\
CREATE TABLE made WITH ('connector' = 'blackhole') AS SELECT symbol, price AS cost FROM ticker;
CREATE TEMPORARY TABLE costs (cost BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO costs SELECT cost FROM made;
"""
CTAS_WRONG = "INSERT INTO costs SELECT price FROM made;\n"

# before: FX130 "unknown table 'renamed'" on each use, `c` was not a column, `ADD (...)` was FX120
ALTER_TASK = """\
CREATE TABLE made2 (a INT, b STRING) WITH ('connector' = 'datagen');
ALTER TABLE made2 ADD c INT;
ALTER TABLE made2 ADD (d STRING, e AS a + 1);
ALTER TABLE made2 RENAME TO renamed;
CREATE TEMPORARY TABLE ac (a INT, c INT, d STRING, e INT) WITH ('connector' = 'blackhole');
INSERT INTO ac SELECT a, c, d, e FROM renamed;
"""
ALTER_WRONG = "INSERT INTO ac SELECT a, c, d, nope FROM renamed;\n"

# before: FX120 on each catalog statement and FX131 "unknown project 'db1'": a database the task
# creates or uses makes `db1.t` Flink's database.table, not Dataphin's project.table
CATALOG_TASK = """\
CREATE CATALOG c1 COMMENT 'in memory' WITH ('type' = 'generic_in_memory');
DESCRIBE CATALOG c1;
CREATE DATABASE c1.db1;
ALTER DATABASE c1.db1 SET ('owner' = 'me');
USE CATALOG c1;
CREATE TABLE db1.t (a INT) WITH ('connector' = 'datagen');
CREATE TEMPORARY TABLE a_out (a INT) WITH ('connector' = 'blackhole');
INSERT INTO a_out SELECT a FROM db1.t;
DROP CATALOG IF EXISTS c2;
"""
CATALOG_WRONG = "INSERT INTO a_out SELECT nope FROM db1.t;\nINSERT INTO a_out SELECT a FROM db2.t;\n"

TASKS = {"values": VALUES_TASK, "metadata": METADATA_TASK, "match": MATCH_TASK, "comment": COMMENT_TASK,
         "dot_gap": DOT_GAP_TASK, "dialect": DIALECT_TASK, "ctas": CTAS_TASK, "alter": ALTER_TASK,
         "catalog": CATALOG_TASK}
WRONG = {
    "catalog": (CATALOG_WRONG, "FX401 unknown column 'nope'"),
    "alter": (ALTER_WRONG, "FX401 unknown column 'nope'"),
    "ctas": (CTAS_WRONG, "FX401 unknown column 'price'"),
    "comment": (COMMENT_WRONG, "FX401 unknown column 'nope'"),
    "dot_gap": (DOT_GAP_WRONG, "FX401 unknown column 'c.nope' in c"),
    "dialect": (DIALECT_WRONG, "FX01 reserved word 'user'"),
    "values": (VALUES_WRONG, "FX401 unknown column 'c'"),
    "metadata": (METADATA_WRONG, "FX401 unknown column 'nope'"),
    "match": ("INSERT INTO dips_ab\n" + MATCH_WRONG, "FX401 unknown column 'price'"),
}


@pytest.fixture
def workspace(make_workspace):
    files = {"projects/p/project.yaml": "name: p\n", "projects/p/tables/ticker.yaml": TICKER}
    files.update({f"projects/p/tasks/{name}.sql": sql for name, sql in TASKS.items()})
    return make_workspace(files)


def _findings(result) -> list[str]:
    return [line for line in result.lines if " FX" in line]


@pytest.mark.parametrize("name", list(TASKS))
def test_flink_accepted_shape_lints_clean(workspace, cli, name):
    for other in TASKS:
        if other != name:
            (workspace / f"projects/p/tasks/{other}.sql").unlink()
    linted = cli("lint", cwd=workspace)
    assert (linted.exit_code, _findings(linted)) == (0, [])


@pytest.mark.parametrize("name", list(WRONG))
def test_the_true_positive_next_to_it_still_fires(workspace, cli, name):
    wrong, finding = WRONG[name]
    path = workspace / f"projects/p/tasks/{name}.sql"
    path.write_text(path.read_text() + wrong)
    linted = cli("lint", cwd=workspace)
    assert linted.exit_code == 1
    assert [line for line in _findings(linted) if f"/{name}.sql:" in line and finding in line], linted.lines


@pytest.mark.flink
@pytest.mark.skipif(flink_available() is not None, reason=f"Flink validation unavailable: {flink_available()}")
def test_flink_accepts_the_clean_tasks(workspace, cli):
    validated = cli("validate", cwd=workspace)
    assert validated.exit_code == 0, validated.lines


# Values the compiler would change silently: `"5"` compiled to `'"5"'`, and Flink's parser rejects
# a double-quoted hint value (was FX152 "unexpected '"10'", with nothing `flinkx fix` could do).
QUOTES_TASK = """\
SET ticker.`rows-per-second` = "5";
CREATE TEMPORARY TABLE prices (price BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO prices SELECT price FROM ticker /*+ OPTIONS('rows-per-second'="10", 'fields.price.min'='1') */;
"""


def test_double_quoted_set_and_hint_values_are_fx02_with_a_fix(make_workspace, cli):
    files = {"projects/p/project.yaml": "name: p\n", "projects/p/tables/ticker.yaml": TICKER,
             "projects/p/tasks/quotes.sql": QUOTES_TASK}
    workspace = make_workspace(files)
    linted = cli("lint", cwd=workspace)
    assert _findings(linted) == [
        "projects/p/tasks/quotes.sql:1:32: FX02 SET value \"5\" must be a single-quoted string: '5'.",
        "projects/p/tasks/quotes.sql:3:75: FX02 hint value \"10\" must be a single-quoted string: '10'.",
    ]
    assert cli("fix", cwd=workspace).exit_code == 0
    fixed = (workspace / "projects/p/tasks/quotes.sql").read_text()
    assert fixed == QUOTES_TASK.replace('"5"', "'5'").replace('"10"', "'10'")
    assert _findings(cli("lint", cwd=workspace)) == []


def test_a_database_the_task_does_not_name_is_still_a_project(workspace, cli):
    path = workspace / "projects/p/tasks/catalog.sql"
    path.write_text(path.read_text() + CATALOG_WRONG)
    assert [line for line in _findings(cli("lint", cwd=workspace)) if "FX131 unknown project 'db2'" in line]


@pytest.mark.flink
def test_flink_parser_agrees_on_the_forms(flink):
    accepted = [
        "CREATE CATALOG IF NOT EXISTS c1 COMMENT 'x' WITH ('type' = 'generic_in_memory')",
        "ALTER CATALOG c1 RESET ('k', 'j')",
        "ALTER CATALOG c1 COMMENT 'new'",
        "DESCRIBE CATALOG EXTENDED c1",
        "ALTER DATABASE db1 SET ('k' = 'v')",
        "EXPLAIN CHANGELOG_MODE STATEMENT SET BEGIN INSERT INTO a SELECT 1; END",
        "SELECT 10 // 2 AS x\nFROM t",
        "SET table.sql-dialect=default",
        "ALTER TABLE t ADD (d STRING, e AS a + 1)",
        "ALTER TABLE t MODIFY (c BIGINT)",
    ]
    assert [flink.parse_only(sql) for sql in accepted] == [None] * len(accepted)
    # a double-quoted hint value is Flink's syntax error: FX02 (with its fix) is no false alarm
    assert flink.parse_only("SELECT a FROM t /*+ OPTIONS('k'=\"v\") */") is not None
