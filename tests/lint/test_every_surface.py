"""Issue 44's mistakes, each one edit of the example workspace, said alike by every surface: lint, `build --check`,
the pre-commit hook (lint of the changed file alone) and the editor (the language server's analysis of the buffer):
one line, at the same token, with the same code. The words and hints of each are asserted beside its check. (Case 16,
a column retyped in a table's YAML, breaks two tasks: tests/checks/test_operand_types.py; the planner's cases, 11, 13,
14 and 15, are held in tests/lint/test_planner_verdicts.py and tests/planner.)"""
from __future__ import annotations

import re

import pytest

from flinkx_build.lsp.analysis import Models
from tests.helpers import edited_example
from tests.helpers import one_verdict

SYNC = "projects/dim/tasks/sync_dim_user.sql"
STATS = "projects/dws/tasks/order_stats_1m.sql"
CATEGORY = "projects/dws/tasks/category_user_stats.sql"
ENRICH = "projects/dwd/tasks/orders/enrich_orders.sql"
REFUND = "projects/dws/tasks/shop_refund_1d.sql"
SECOND_INSERT = ("\nINSERT INTO dim_user\nSELECT user_id, user_name, phone, gender, city, vip_level, "
                 "DATE_FORMAT(register_time, 'yyyy-MM-dd'), updated_at\nFROM ods.users;\n")
CDC_INSERT = ("\nINSERT INTO ods.orders\nSELECT CAST(user_id AS STRING), user_id, 'x', CAST(0 AS DECIMAL(12, 2)), "
              "CAST(0 AS DECIMAL(12, 2)), 'x', updated_at, updated_at, updated_at\nFROM ods.users;\n")
SWAP = ("COUNT(DISTINCT order_id)                 AS order_cnt,\n  COUNT(DISTINCT user_id)                  AS buyer_cnt,",
        "COUNT(DISTINCT user_id)                  AS buyer_cnt,\n  COUNT(DISTINCT order_id)                 AS order_cnt,")

# case -> (the edit, where the one finding is: path, line, col, code)
CASES = {
    "1 double-quoted SET value with a variable": ((STATS, "= 'dws_order_stats_1m_${env}'", '= "dws_order_stats_1m_${env}"'),
                                                  (STATS, 9, None, "FX02")),
    "2 Kafka client key typo": ((STATS, "`properties.group.id`", "`properties.group.idd`"), (STATS, 9, 1, "FX420")),
    "3 Flink configuration key typo": ((CATEGORY, "mini-batch.enabled", "mini-batch.enable"), (CATEGORY, 15, 1, "FX128")),
    "4 two INSERTs into one table": ((SYNC, "", SECOND_INSERT), (SYNC, 30, 13, "FX474")),
    "5 two same-typed columns swapped": ((STATS, *SWAP), (STATS, 18, 3, "FX414")),
    "6 a project function with too many arguments": ((ENRICH, "dim:parse_ua(o.user_agent)", "dim:parse_ua(o.user_agent, 1)"),
                                                     (ENRICH, 47, 3, "FX143")),
    "7 an INSERT into a source-only connector": ((SYNC, "", CDC_INSERT), (SYNC, 30, 13, "FX432")),
    "8 ods.user for ods.users": ((SYNC, "FROM ods.users;", "FROM ods.user;"), (SYNC, 28, 10, "FX130")),
    "9 a forgotten procTime SET": ((ENRICH, "SET ods.kafka_orders.procTime = proc_time AS PROCTIME();\n", ""), (ENRICH, 53, 57, "FX401")),
    "9 a project function under the wrong project": ((ENRICH, "dim:parse_ua(", "ods:parse_ua("), (ENRICH, 47, 3, "FX140")),
    "9 NVL": ((ENRICH, "dim:parse_ua(o.user_agent)", "NVL(o.user_agent, 'x')"), (ENRICH, 47, 3, "FX141")),
    "9 a missing semicolon": ((REFUND, "SET 'table.exec.state.ttl' = '36 h';", "SET 'table.exec.state.ttl' = '36 h'"), (REFUND, 25, 1, "FX120")),
}
LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<code>FX\w+) ")


def _place(line: str) -> tuple[str, int, int, str]:
    found = LINE.match(line)
    assert found, line
    return found["path"], int(found["line"]), int(found["col"]), found["code"]


@pytest.mark.parametrize("case", list(CASES))
def test_every_surface_says_the_mistake_once_at_its_token(cli, tmp_path, case):
    edit, (path, line, col, code) = CASES[case]
    ws = edited_example(tmp_path, [edit])
    [said] = one_verdict(cli, ws)  # lint and `build --check`: the same one line
    place = _place(said)
    assert place[:2] == (path, line) and place[3] == code and col in (None, place[2]), said
    hook = [text for text in cli("lint", ".", path, cwd=ws).stdout.splitlines() if " FX" in text]
    assert hook == [said]
    analysis = Models(use_planner=False).analyse_task(ws / path, (ws / path).read_text(encoding="utf-8"))
    assert [(d.line, d.col, d.code) for d in analysis.diagnostics] == [place[1:]]
