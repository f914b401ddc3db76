"""Two user-intent warnings Flink cannot judge (issue 44 cases 4 and 5): a table written by two jobs of one task,
and a SELECT column named for another sink column than the one it fills. Warnings, quiet on the real-SQL corpus
(tests/corpus) and the example workspaces."""
from __future__ import annotations

from tests.helpers import edited_example
from tests.helpers import one_verdict

SYNC = "projects/dim/tasks/sync_dim_user.sql"
STATS = "projects/dws/tasks/order_stats_1m.sql"
SECOND_INSERT = ("\nINSERT INTO dim_user\nSELECT user_id, user_name, phone, gender, city, vip_level, "
                 "DATE_FORMAT(register_time, 'yyyy-MM-dd'), updated_at\nFROM ods.users;\n")


def test_two_inserts_into_one_table_outside_a_statement_set_are_two_jobs(cli, tmp_path):
    ws = edited_example(tmp_path, [(SYNC, "", SECOND_INSERT)])
    assert one_verdict(cli, ws) == [
        f"{SYNC}:30:13: FX474 a second INSERT INTO dim.dim_user (the first is on line 18), not in one statement set with it: "
        "each is a job of its own, so 2 jobs write dim.dim_user (put the INSERTs in one BEGIN STATEMENT SET; ... END; "
        "(one job), or UNION ALL their queries)"]
    assert cli("build", "--check", ".", cwd=ws).exit_code == 0  # a warning: Flink runs it


def test_two_inserts_into_one_table_in_one_statement_set_are_one_job(cli, tmp_path):
    ws = edited_example(tmp_path, [(SYNC, "INSERT INTO dim_user", "BEGIN STATEMENT SET;\n\nINSERT INTO dim_user"),
                                   (SYNC, "", SECOND_INSERT + "\nEND;\n")])
    assert one_verdict(cli, ws) == []


def test_two_same_typed_columns_swapped_against_the_sink_are_a_warning(cli, tmp_path):
    ws = edited_example(tmp_path, [(STATS, "COUNT(DISTINCT order_id)                 AS order_cnt,\n  COUNT(DISTINCT user_id)                  AS buyer_cnt,",
                                    "COUNT(DISTINCT user_id)                  AS buyer_cnt,\n  COUNT(DISTINCT order_id)                 AS order_cnt,")])
    assert one_verdict(cli, ws) == [
        f"{STATS}:18:3: FX414 column 4 is named 'buyer_cnt' but fills the sink column 'order_cnt' of dws.dws_order_stats_1m: "
        "'buyer_cnt' is column 5 (1 more column(s) too) (Flink fills a sink by position: select the columns in the sink's order)"]
