"""lint --select/--ignore, fix's list of what it changed, fix --diff, the FX106 fix, `fixable` in JSON."""
from __future__ import annotations

import json
import re
import subprocess

import pytest

from flinkx_build.errors import UsageError
from flinkx_build.lint.select import CodeFilter
from flinkx_build.lint.select import parse_codes
from flinkx_build.lint.yamlfix import quote_values
from tests.cli.conftest import CLEAN_TASK
from tests.cli.conftest import FIXABLE_TASK


def codes_of(text: str) -> list[str]:
    return [m.group(1) for m in re.finditer(r"^(?:fixed )?\S+:\d+:\d+: (FX\d+) ", text, re.M)]


@pytest.mark.parametrize(
    "select, ignore, kept, dropped",
    [
        ((), (), ["FX01", "FX106", "FX130"], []),
        (("FX1",), (), ["FX106", "FX130", "FX100"], ["FX01", "FX02", "FX200"]),
        (("FX1",), ("FX106",), ["FX130"], ["FX106", "FX01"]),
        (("FX106",), ("FX1",), ["FX106"], ["FX130"]),  # the more specific selector wins
        (("FX1",), ("FX1",), [], ["FX106"]),  # a tie: ignore wins
        ((), ("FX0",), ["FX106"], ["FX01", "FX02", "FX03"]),
    ],
)
def test_prefix_selection_like_ruff(select, ignore, kept, dropped):
    rule = CodeFilter(select, ignore)
    assert [c for c in kept if rule.keeps(c)] == kept
    assert [c for c in dropped if rule.keeps(c)] == []


def test_selectors_are_split_upper_cased_and_checked():
    assert parse_codes(["fx01,FX13", " FX2 "], "--select") == ("FX01", "FX13", "FX2")
    with pytest.raises(UsageError, match=r"--ignore FX999: no code starts with 'FX999'"):
        parse_codes(["FX999"], "--ignore")


def test_lint_select_and_ignore(lint_ws, cli):
    root = lint_ws()
    assert sorted(codes_of(cli("lint", str(root)).stdout)) == ["FX01", "FX01", "FX02", "FX03", "FX106"]
    assert codes_of(cli("lint", str(root), "--select", "FX1").stdout) == ["FX106"]
    assert sorted(codes_of(cli("lint", str(root), "--select", "FX0", "--ignore", "FX01").stdout)) == ["FX02", "FX03"]
    result = cli("lint", str(root), "--select", "FX106")
    assert result.exit_code == 0  # only a warning is left


def test_json_says_what_is_fixable_and_links_the_docs(lint_ws, cli):
    root = lint_ws("SELECT id AS value FROM src;\nSELECT id FROM srcc;\n")
    findings = json.loads(cli("lint", str(root), "--format", "json").stdout)
    by_code = {f["code"]: f for f in findings}
    assert by_code["FX01"]["fixable"] is True and by_code["FX106"]["fixable"] is True
    assert by_code["FX130"]["fixable"] is False
    assert by_code["FX130"]["help"].endswith("error-codes.md#fx130")


def test_fix_lists_each_fix_and_what_is_left(lint_ws, cli):
    root = lint_ws(FIXABLE_TASK + "SELECT id FROM srcc;\n")
    result = cli("fix", str(root))
    assert result.exit_code == 1  # the unknown table is left
    fixed = [line for line in result.stdout.splitlines() if line.startswith("fixed ")]
    where = [re.sub(r"^fixed .*?/ws/", "", line).split(": ")[0] for line in fixed]
    assert where == ["projects/p/tables/src.yaml:5:45", "projects/p/tasks/t.sql:1:23", "projects/p/tasks/t.sql:2:42",
                     "projects/p/tasks/t.sql:2:76", "projects/p/tasks/t.sql:3:36"]
    assert sorted(codes_of("\n".join(fixed))) == ["FX01", "FX01", "FX02", "FX03", "FX106"]
    assert any(line.endswith("t.sql:2:42: FX01 Reserved word 'value' used as identifier must be backtick-quoted (`value`): Flink rejects it unquoted.")
               for line in fixed)
    left = [line for line in result.stdout.splitlines() if not line.startswith("fixed ")]
    assert codes_of("\n".join(left)) == ["FX130"]
    assert result.stderr == "flinkx: fixed 5; left: 1 error(s), 0 warning(s)\n"


def test_fix_diff_changes_nothing_and_git_applies(lint_ws, cli, monkeypatch):
    root = lint_ws()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts}
    result = cli("fix", "--diff", ".", cwd=root)
    assert result.exit_code == 1
    assert {p: p.read_bytes() for p in before} == before  # nothing written
    diff = result.stdout
    assert diff.startswith("--- a/projects/p/tables/src.yaml\n+++ b/projects/p/tables/src.yaml\n")
    assert "-with: {connector: datagen, rows-per-second: 10}\n+with: {connector: datagen, rows-per-second: \"10\"}\n" in diff
    assert "+CREATE TEMPORARY TABLE out_t (id STRING, `value` STRING) WITH ('connector' = 'print');\n" in diff
    assert result.stderr == "flinkx: would fix 5 finding(s) in 2 file(s)\n"
    # the diff is exactly what `flinkx fix` writes
    applied = subprocess.run(["git", "apply", "-"], cwd=root, input=diff, text=True, capture_output=True)
    assert applied.returncode == 0, applied.stderr
    after_apply = {p: p.read_bytes() for p in before}
    for p, data in before.items():
        p.write_bytes(data)
    assert cli("fix", ".", cwd=root).exit_code == 0
    assert {p: p.read_bytes() for p in before} == after_apply
    assert cli("fix", "--diff", ".", cwd=root).exit_code == 0  # nothing left to fix


def test_fx106_fix_keeps_every_other_byte_and_the_compiled_sql(lint_ws, cli):
    table = (
        "# the source of everything\n"
        "type: datagen   # kept\n"
        "columns:\n"
        "  - {name: id, type: STRING}\n"
        "with: {connector: datagen, rows-per-second: 10, fields.id.length: 0x10}\n"
        "stream:\n"
        "  with:\n"
        "    number-of-rows: 1.50     # trailing comment\n"
        "    'fields.id.kind': 'random'\n"
    )
    root = lint_ws(CLEAN_TASK, extra={"projects/p/tables/src.yaml": table})
    out = root / "build"
    assert cli("build", str(root), "--out", str(out)).exit_code == 0
    compiled = (out / "p" / "t.sql").read_text()
    result = cli("fix", str(root))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (root / "projects/p/tables/src.yaml").read_text() == table.replace(
        "rows-per-second: 10,", 'rows-per-second: "10",').replace("0x10}", '"16"}').replace("number-of-rows: 1.50 ", 'number-of-rows: "1.5" ')
    assert cli("build", str(root), "--out", str(out)).exit_code == 0
    assert (out / "p" / "t.sql").read_text() == compiled  # the fix changes no meaning


def test_quote_values_leaves_other_forms_alone():
    text = "a: 1\nb: |\n  2\nc: !!int 3\nd: [4, 5]\n"
    new, done = quote_values(text, {(1, 4), (2, 4), (4, 5)})
    assert new == 'a: "1"\nb: |\n  2\nc: !!int 3\nd: [4, 5]\n' and done == {(1, 4)}
    assert quote_values("a: [1\n", {(1, 5)}) == ("a: [1\n", set())  # broken YAML: no fix
    tagged = "w:\n  c: !!int 3\n  d: &x 4\n  e: *x\n  f: 2\n"
    assert quote_values(tagged, {(2, 6), (3, 6), (4, 6), (5, 6)}) == (tagged.replace("f: 2", 'f: "2"'), {(5, 6)})
