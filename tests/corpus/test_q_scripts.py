"""How `scripts/real_sql_corpus.py gather` reads Flink's SQL client and gateway test scripts (*.q):
a statement is kept when its output ends in `!ok` or `!info`, dropped (and counted) on `!error`."""
from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

from real_sql_corpus import q_statements  # noqa: E402

# the two formats as the SQL client's and the gateway's scripts write them (result tables shortened)
SCRIPT = """\
# a comment line of the test script
SET 'table.dml-sync' = 'true';
[INFO] Execute statement succeeded.
!info

create table src (
  id int
) with (
  'connector' = 'values'
);
!output
+--------+
| result |
+--------+
|     OK |
+--------+
1 row in set
!ok

SELECT * FROM (VALUES (1)) AS T(id);
+----+
| id |
+----+
|  1 |
+----+
1 row in set
!ok

SELECT nope FROM src;
[ERROR] Could not execute SQL statement. Reason:
org.apache.calcite.sql.validate.SqlValidatorException: Column 'nope' not found in any table
!error

EXECUTE STATEMENT SET BEGIN
INSERT INTO src SELECT 1;
INSERT INTO src SELECT 2;
END;
!output
Job ID:
!info
"""


def test_kept_statements_are_the_ones_flink_ran_without_an_error():
    kept, dropped = q_statements(SCRIPT)
    assert kept == [
        "SET 'table.dml-sync' = 'true';",
        "create table src (\n  id int\n) with (\n  'connector' = 'values'\n);",
        "SELECT * FROM (VALUES (1)) AS T(id);",
        "EXECUTE STATEMENT SET BEGIN\nINSERT INTO src SELECT 1;\nINSERT INTO src SELECT 2;\nEND;",
    ]
    assert dropped == [{"line": 29, "category": "an !error case of the test script",
                        "reason": "org.apache.calcite.sql.validate.SqlValidatorException: Column 'nope' not found in any table"}]


def test_a_script_cut_off_before_its_verdict_keeps_nothing_of_the_open_statement():
    kept, dropped = q_statements("SELECT 1;\n!ok\n\nSELECT 2;\n+---+\n")
    assert (kept, dropped) == (["SELECT 1;"], [])
