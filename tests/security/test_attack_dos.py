"""Issue 26 item 6: a pull request's SQL cannot make lint parse for minutes under the limits.

sqlfluff's pure-Python parser takes 2 to 20 ms a token by the construct; the token limits are
checked before it runs, so each hostile file below is refused with one finding at the
statement's first token (FX181) or at the file (FX180), in about a second. The guard allows ten
times that expected time; the code before this change parsed the first file for two minutes and
the second for 90 s (both were under the old limits of 10,000 and 50,000 tokens).
"""
from __future__ import annotations

import time

from flinkx_build import limits

EXPECTED_SECONDS = 3.0
GUARD_SECONDS = 10 * EXPECTED_SECONDS

TABLES = {
    "projects/ods/tables/src.yaml": "type: datagen\ncolumns:\n  - {name: a, type: INT}\nwith:\n  connector: datagen\n",
    "projects/ods/tables/snk.yaml": "type: blackhole\ncolumns:\n  - {name: a, type: INT}\nwith:\n  connector: blackhole\n",
}


def _lint(cli, root):
    started = time.perf_counter()
    result = cli("lint", str(root))
    return result, time.perf_counter() - started


def test_a_chain_of_2400_ors_is_refused_at_its_first_token(make_workspace, cli):
    chain = " OR ".join(f"a = {i}" for i in range(2400))  # 33 KB, about 9,600 tokens
    root = make_workspace({**TABLES, "projects/ods/tasks/ors.sql": f"-- generated\nINSERT INTO snk\nSELECT a FROM src WHERE {chain};\n"})
    result, elapsed = _lint(cli, root)
    assert f"{root}/projects/ods/tasks/ors.sql:2:1: FX181 statement has more than {limits.MAX_STATEMENT_TOKENS:,} tokens" in result.stdout, result.lines
    assert result.exit_code == 1 and elapsed < GUARD_SECONDS, elapsed


def test_200_statements_nested_31_deep_are_refused_as_a_file(make_workspace, cli):
    statement = "INSERT INTO snk SELECT " + "(a + " * 31 + "a" + ")" * 31 + " FROM src;\n"
    root = make_workspace({**TABLES, "projects/ods/tasks/deep.sql": statement * 200})
    result, elapsed = _lint(cli, root)
    assert f"{root}/projects/ods/tasks/deep.sql:1:1: FX180 task file has more than {limits.MAX_FILE_TOKENS:,} SQL tokens" in result.stdout, result.lines
    assert result.exit_code == 1 and elapsed < GUARD_SECONDS, elapsed


def test_the_limits_leave_real_statements_far_below_them():
    """Real statements reach 320 tokens and 5 levels; a limit must not refuse one."""
    assert limits.MAX_STATEMENT_TOKENS >= 5 * 320 and limits.MAX_SQL_DEPTH > 5
    statement = "INSERT INTO snk SELECT " + ", ".join(f"CAST(a{i} AS STRING)" for i in range(60)) + " FROM src;\n"
    assert limits.sql_limit_problem(statement * 20) is None
