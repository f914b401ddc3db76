"""Every failure the fuzzer found, as a small explicit test (hypothesis's database is not committed).

The first four are issue 33's: found by a hostile-pull-request run before the
fuzzer was in the repository; the rest were found by `test_fuzz.py`.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import EXAMPLE
from tests.robustness.fuzz import oracle
from tests.robustness.harness import run


COLD_RUN_BOUND = 80.0  # a cold build of the example takes about 2-8 s on the loaded 2-core machine: ten times that


def behaved(outcome) -> bool:
    """The fuzzer's oracle, with a hang bound for a cold run (the fuzzer's runs are warm but for the edited file)."""
    wrong = [p for p in oracle.run_problems(outcome) if ": took " not in p]
    assert not wrong and outcome.seconds < COLD_RUN_BOUND, wrong
    return True


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("build", ".flinkx-cache", "engines"))
    return root


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_explain_json_of_a_task_whose_function_file_is_empty_is_json_naming_the_function_files_finding(cli, ws):
    (ws / "projects/dim/functions/mask_phone.yaml").write_text("")
    outcome = run(cli, ws, "explain", ".", "dwd/refunds/enrich_refunds", "--format", "json")
    assert outcome.exit_code == 1
    assert behaved(outcome)
    document = json.loads(outcome.stdout)
    found = {(f["path"], f["code"]) for f in document["findings"]}
    assert ("projects/dim/functions/mask_phone.yaml", "FX104") in found  # the cause
    # the function file's finding is the one: the call says nothing of its own (issue 44, one mistake one line)
    assert not [f for f in found if f[0] == "projects/dwd/tasks/refunds/enrich_refunds.sql"]
    assert document["task"] == "dwd/refunds/enrich_refunds"  # explained without it, as with a table that did not load


def test_explain_text_names_the_function_files_finding_too(cli, ws):
    (ws / "projects/dim/functions/mask_phone.yaml").write_text("")
    outcome = run(cli, ws, "explain", ".", "dwd/refunds/enrich_refunds")
    assert outcome.exit_code == 1
    assert any(line.startswith("projects/dim/functions/mask_phone.yaml:1:1: FX104 ") for line in outcome.lines)


@pytest.mark.parametrize("command", [("build", "."), ("lint", "."), ("graph", "."), ("explain", ".", "dwd/orders/enrich_orders")])
def test_a_table_name_that_is_a_hexadecimal_integer_too_long_to_print_is_fx185(cli, ws, command):
    _edit(ws / "projects/dwd/tables/dwd_orders.yaml", "name: dwd_orders", "name: 0x" + "f" * 5000)
    outcome = run(cli, ws, *command)
    assert outcome.exit_code in (1, 2) and behaved(outcome)
    assert any(line.startswith("projects/dwd/tables/dwd_orders.yaml:1:7: FX185 ") for line in outcome.lines), outcome.lines


@pytest.mark.parametrize("command", [("build", "."), ("graph", "."), ("explain", ".", "dwd/orders/enrich_orders", "--format", "json")])
def test_a_row_type_with_an_unclosed_backtick_is_fx107_at_the_type(cli, ws, command):
    _edit(ws / "projects/ods/tables/products.yaml", "ROW<product_name STRING, category_id", "ROW<product_name STRING, `category_id")
    outcome = run(cli, ws, *command)
    assert behaved(outcome)
    assert outcome.exit_code == 1
    if "json" in command:  # the finding is in the document: the task's table did not load as written
        found = json.loads(outcome.stdout)["findings"]
        assert [(f["path"], f["line"], f["col"], f["code"]) for f in found] == [("projects/ods/tables/products.yaml", 10, 11, "FX107")]
        return
    finding = "projects/ods/tables/products.yaml:10:11: FX107 "
    assert any(line.startswith(finding) and "unclosed backtick" in line for line in outcome.lines), outcome.lines


@pytest.mark.parametrize("command", [("build", "."), ("lint", "."), ("build", ".", "--check")])
def test_a_task_that_is_a_symlink_to_itself_is_fx171(cli, ws, command):
    (ws / "projects/dwd/tasks/self.sql").symlink_to("self.sql")
    outcome = run(cli, ws, *command)
    assert outcome.exit_code == 1 and behaved(outcome)
    assert any(line.startswith("projects/dwd/tasks/self.sql:1:1: FX171 ") for line in outcome.lines), outcome.lines


def test_links_in_a_circle_are_each_fx171(cli, ws):
    (ws / "projects/ods/tables/a.yaml").symlink_to("b.yaml")
    (ws / "projects/ods/tables/b.yaml").symlink_to("a.yaml")
    outcome = run(cli, ws, "build", ".")
    assert outcome.exit_code == 1 and behaved(outcome)
    for name in ("a", "b"):
        assert any(line.startswith(f"projects/ods/tables/{name}.yaml:1:1: FX171 ") for line in outcome.lines), outcome.lines


@pytest.mark.parametrize(("fmt", "rel"), [("json", "projects/dim/functions/date_format.yaml"),
                                          ("sarif", "projects/dim/functions/date_format.yaml"),
                                          ("markdown", "projects/dim/functions/date_format.yaml"),
                                          ("json", "projects/dim/tables/dim_product.yaml")])
def test_impact_with_a_yaml_file_that_links_to_itself_reports_fx171(cli, ws, fmt, rel):
    """Found by the fuzzer: impact placed each finding by resolving its path, which loops for such a link;
    and again (a table's file) when it looked for the YAML of each table that did not load."""
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "init", "-q"], cwd=ws, check=True)
    subprocess.run([*git, "add", "-A"], cwd=ws, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "base"], cwd=ws, check=True)
    link = ws / rel
    link.unlink()
    link.symlink_to(link.name)
    outcome = run(cli, ws, "impact", ".", "--base", "HEAD", "--format", fmt)
    assert outcome.exit_code == 1 and behaved(outcome)
    assert rel in outcome.stdout and "FX171" in outcome.stdout


@pytest.mark.parametrize("folder", ["projects/dwd/tasks", "projects/dim/tables", "projects/dwd", "projects"])
def test_a_folder_that_is_a_symlink_to_itself_is_fx171_not_an_empty_folder(cli, ws, folder):
    """Found probing what the fuzzer's file edits could not reach: such a folder was skipped silently (build exit 0)."""
    shutil.rmtree(ws / folder)
    (ws / folder).symlink_to(folder.rsplit("/", 1)[-1])
    for command in (("build", "."), ("lint", "."), ("graph", ".")):
        outcome = run(cli, ws, *command)
        assert outcome.exit_code == 1 and behaved(outcome)
        assert any(line.startswith(f"{folder}:1:1: FX171 ") for line in outcome.lines), (command, outcome.lines)


@pytest.mark.parametrize("command", [("fix", ".", "projects/dws/tasks/user_profile_hbase.sql", "--diff"), ("fix", "."), ("lint", ".")])
def test_fix_of_a_statement_sqlfluff_cannot_lex_is_fx120_not_an_internal_error(cli, ws, command):
    """Found by a 30-minute run: `CAST(user_id (AS STRING)` leaves a bracket sqlfluff cannot
    match, so it returns no tree and `fix_string()` asserted."""
    task = ws / "projects/dws/tasks/user_profile_hbase.sql"
    _edit(task, "  CAST(user_id AS STRING)                          AS rowkey,",
          "  CAST(user_id (AS STRING)                          AS rowkey,")
    before = task.read_bytes()
    outcome = run(cli, ws, *command)
    assert behaved(outcome)
    if "--diff" in command:  # README: --diff prints the fixes, exit 1 only when there is one
        assert outcome.exit_code == 0 and "nothing to fix" in outcome.stderr, outcome.lines
    else:
        assert outcome.exit_code == 1, outcome.lines
        assert any(line.startswith("projects/dws/tasks/user_profile_hbase.sql:") and " FX120 " in line for line in outcome.lines), outcome.lines
    assert task.read_bytes() == before  # nothing to fix in a statement that does not parse


@pytest.mark.parametrize("command", [("lint", "."), ("lint", ".", "--format", "json"), ("fix", ".", "--diff")])
def test_a_stray_backtick_where_a_reserved_word_stops_the_parse_is_fx120(cli, ws, command):
    """Found by the fuzzer: looking for a reserved word that stops the parse, flinkx quoted the words and parsed
    again; with a backtick left open that text does not even lex, and sqlfluff's `.tree` asserted (an internal
    error of lint and fix)."""
    _edit(ws / "projects/dws/tasks/quick_refunds.sql", "CAST(o.order_time AS TIMESTAMP(3))", "CAST(o.order_time ` TIMESTAMP(3))")
    outcome = run(cli, ws, *command, "projects/dws/tasks/quick_refunds.sql")
    assert behaved(outcome)
    if command[0] == "lint":
        assert outcome.exit_code == 1 and "FX120" in outcome.stdout
    else:  # fix repairs what it can and names no finding
        assert outcome.exit_code == 0
