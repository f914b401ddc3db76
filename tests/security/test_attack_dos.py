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
    """Real statements reach 320 tokens and 5 levels; a wide ODS-to-DWD task casting 250 columns has
    2,769 tokens and parses in about 2 s: a limit must refuse none of them, nor a file of four."""
    assert limits.MAX_STATEMENT_TOKENS >= 5 * 320 and limits.MAX_SQL_DEPTH > 5
    statement = "INSERT INTO snk SELECT " + ", ".join(f"CAST(a{i} AS STRING)" for i in range(60)) + " FROM src;\n"
    assert limits.sql_limit_problem(statement * 20) is None
    wide = "INSERT INTO snk\nSELECT\n" + ",\n".join(f"  CAST(src.a{i} AS STRING) AS a{i}" for i in range(250)) + "\nFROM src;\n"
    assert sum(1 for _ in limits.sql_tokens(wide)) > 2_700
    assert limits.sql_limit_problem(wide * 4) is None


def _summary_keys(root):
    from flinkx_build.pipeline import Session

    session = Session.open(root, None, use_cache=True)
    tasks = [t for p in sorted(session.workspace.projects.values(), key=lambda p: p.name) for t in p.tasks.values()]
    return {t.key: session.summary_cache.key(t, session.context_for(t)) for t in tasks}


def test_summary_keys_take_only_the_projects_a_task_names(make_workspace):
    """Many projects with a table of one name made every summary key hash every project's table
    (quadratic in projects). A key now covers the task's own project and the projects its rendered
    text names: an edit elsewhere keeps it, an edit of a table it reads, even through `${var}`, changes it."""
    table = "type: datagen\ncolumns:\n  - {name: a, type: INT}\nwith:\n  connector: datagen\n"
    files = {"flinkx.yaml": "engine: flink\nvariables: {upstream: p0}\n"}
    for i in range(3):
        files[f"projects/p{i}/tables/src.yaml"] = table
        files[f"projects/p{i}/tables/snk.yaml"] = table.replace("datagen", "blackhole")
    files["projects/p1/tasks/own.sql"] = "INSERT INTO snk SELECT a FROM src;\n"
    files["projects/p1/tasks/up.sql"] = "INSERT INTO snk SELECT a FROM ${upstream}.src;\n"
    root = make_workspace(files)
    before = _summary_keys(root)
    (root / "projects/p2/tables/src.yaml").write_text(table + "  rows-per-second: '5'\n")
    assert _summary_keys(root) == before  # p2 is named by no task of p1
    (root / "projects/p0/tables/src.yaml").write_text(table + "  rows-per-second: '5'\n")
    after = _summary_keys(root)
    assert after["p1/up"] != before["p1/up"] and after["p1/own"] == before["p1/own"]
