"""One mistake, one line (issue 44 case 12): what follows from a root finding is not reported beside it.

Each case is one edit of the example workspace; lint and `build --check` print exactly the root, at its
token. (With the planner on, the tasks that read a table whose YAML did not load are not planned either:
tests/lint/test_planner_verdicts.py.)"""
from __future__ import annotations

import pytest

from tests.helpers import edited_example
from tests.helpers import one_verdict

STATS = "projects/dws/tasks/order_stats_1m.sql"
REFUND = "projects/dws/tasks/shop_refund_1d.sql"

CASES = {
    # an indentation error in a table's YAML: the tasks that use the name said FX132 (its offline twin was left)
    "yaml indentation": (("projects/dim/tables/dim_user.yaml", "\ncolumns:", "\n columns:"),
                         "projects/dim/tables/dim_user.yaml:7:2: FX101 malformed YAML: line 7 is indented differently "
                         "from the lines above it (align it with the keys or list items it belongs to)"),
    # a parse error: the SETs on the table the broken statement reads were "never used" (FX490)
    "parse error": ((STATS, "GROUP BY window_start", "GROUP BY BY window_start"),
                    f"{STATS}:25:1: FX120 cannot parse: 'GROUP BY BY window_start, window_end, channel'"),
    # a watermark on a column that does not exist: the window over the table said FX451 too
    "bad watermark": ((STATS, "WATERMARK FOR order_time AS", "WATERMARK FOR order_tim AS"),
                      f"{STATS}:8:34: FX151 watermark column 'order_tim' is not a column of dwd.dwd_orders (did you mean "
                      "'order_time'?)"),
    # a missing ';': the statement after it did not parse, the SETs before it were "never used"; and the fix is named
    "missing semicolon": ((REFUND, "SET 'table.exec.state.ttl' = '36 h';", "SET 'table.exec.state.ttl' = '36 h'"),
                          f"{REFUND}:25:1: FX120 cannot parse: 'INSERT INTO dws_shop_refund_1d\\nSELECT\\n  apply_date"
                          "                              ...' (a ';' is missing at the end of the statement before INSERT)"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_root_finding_comes_alone(cli, tmp_path, case):
    edit, line = CASES[case]
    assert one_verdict(cli, edited_example(tmp_path, [edit])) == [line]


def test_a_yaml_error_in_a_table_without_a_twin_is_alone_too(cli, tmp_path):
    # (the tasks reading it used to be planned, and Flink said "Object 'kafka_orders' not found" in each)
    ws = edited_example(tmp_path, [("projects/ods/tables/kafka_orders.yaml", "\ncolumns:", "\n columns:")])
    [line] = one_verdict(cli, ws)
    assert line.startswith("projects/ods/tables/kafka_orders.yaml:6:9: FX101 ")


def test_the_tables_of_a_refused_catalog_are_not_unknown_tables(cli, make_workspace):
    # seed 001 (DLI): a job that reads the tables of a hive catalog it creates and uses. FX195 refuses the
    # catalog; its tables are the catalog's, which no flinkx command sees: "unknown table" twice was a cascade
    ws = make_workspace({"flinkx.yaml": 'engine: flink\nflink_version: "1.15"\n', "projects/dli/tasks/t.sql": (
        "CREATE CATALOG myhive WITH ( 'type' = 'hive' ,'hive-conf-dir' = '/opt/flink/conf' );\n"
        "USE CATALOG myhive;\n"
        "insert into printSink select * from dataGenSource;\n")})
    [line] = one_verdict(cli, ws)
    assert line.startswith("projects/dli/tasks/t.sql:1:1: FX195 'CREATE CATALOG' makes Flink load code")


def test_a_table_unknown_in_flinks_own_catalog_is_still_unknown(cli, make_workspace):
    # only a catalog flinkx cannot see hides its tables: after USE CATALOG of an in-memory one, or back in the
    # default catalog, an undefined name is FX130 as before
    ws = make_workspace({"projects/p/tasks/t.sql": (
        "CREATE CATALOG mem WITH ('type' = 'generic_in_memory');\n"
        "CREATE CATALOG myhive WITH ('type' = 'hive');\n"
        "USE CATALOG myhive;\n"
        "USE CATALOG mem;\n"
        "INSERT INTO nowhere SELECT * FROM nothing;\n")})
    found = one_verdict(cli, ws)
    assert [line.split(": ")[1].split()[0] for line in found] == ["FX195", "FX130", "FX130"], found


def test_grouping_set_without_its_s_is_named(cli, make_workspace):
    # seed 001's CUBE page spells its equivalent query `GROUP BY GROUPING SET (...)`; Flink 1.15's parser stops
    # at GROUPING (tests/planner/test_seed001_dli_115.py). The hint was "a ';' is missing before SET"
    ws = make_workspace({"projects/p/tasks/t.sql": (
        "CREATE TEMPORARY TABLE src (a INT, b INT) WITH ('connector' = 'datagen');\n"
        "CREATE TEMPORARY TABLE out1 (n BIGINT) WITH ('connector' = 'print');\n"
        "INSERT INTO out1 SELECT COUNT(*) FROM src GROUP BY GROUPING SET ((a), (b), ());\n")})
    [line] = one_verdict(cli, ws)
    assert line.startswith("projects/p/tasks/t.sql:3:61: FX120 cannot parse"), line
    assert line.endswith("(write GROUPING SETS: GROUPING SET is not a Flink keyword)"), line
