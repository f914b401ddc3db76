"""`flinkx lint` / `flinkx fix`: the FX rules, the workspace checks, formats, config, noqa."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from tests.conftest import EXAMPLE

TABLES = {
    "projects/p/tables/src.yaml": """
        type: datagen
        columns:
          - {name: id, type: STRING}
          - {name: ts, type: "TIMESTAMP(3)"}
        with: {connector: datagen}
    """,
}
# all three problems of the issue, from the seeds' examples
THREE_PROBLEMS = (
    "SET src.`watermark` = WATERMARK FOR ts AS withOffset(ts, 1000);\n"
    "CREATE TEMPORARY TABLE out_t (id STRING, value STRING) WITH ('connector' = \"print\");\n"
    "INSERT INTO out_t SELECT id, id AS value FROM src;\n"
)


@pytest.fixture
def ws(make_workspace):
    def make(task: str, config: str = "engine: flink\n", extra: dict | None = None):
        return make_workspace({"flinkx.yaml": config, **TABLES, "projects/p/tasks/t.sql": task, **(extra or {})})

    return make


def codes(result):
    return [line.split(": ")[1].split()[0] for line in result.stdout.splitlines() if ": FX" in line]


def test_three_problems_are_reported_with_positions(ws, cli):
    root = ws(THREE_PROBLEMS)
    result = cli("lint", str(root))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert any(line.endswith("t.sql:1:23: FX03 " + line.split(" FX03 ")[-1]) for line in lines if " FX03 " in line)
    assert sorted(set(codes(result))) == ["FX01", "FX02", "FX03"]
    assert any(":2:42: FX01" in line for line in lines)
    assert any(":2:76: FX02" in line for line in lines)


def test_fix_then_lint_is_clean_and_touches_nothing_else(ws, cli):
    root = ws(THREE_PROBLEMS)
    task = root / "projects/p/tasks/t.sql"
    fixed = cli("fix", str(root))
    assert fixed.exit_code == 0, fixed.lines
    assert task.read_text() == (
        "SET src.`watermark` = 'WATERMARK FOR ts AS withOffset(ts, 1000)';\n"
        "CREATE TEMPORARY TABLE out_t (id STRING, `value` STRING) WITH ('connector' = 'print');\n"
        "INSERT INTO out_t SELECT id, id AS `value` FROM src;\n"
    )
    assert cli("lint", str(root)).exit_code == 0


def test_fix_for_dataphin_3_6_unquotes_the_watermark(ws, cli):
    root = ws("SET src.`watermark` = 'WATERMARK FOR ts AS withOffset(ts, 1000)';\nSELECT id FROM src;\n", config="dataphin_version: '3.6'\n")
    assert cli("fix", str(root)).exit_code == 0
    assert (root / "projects/p/tasks/t.sql").read_text().startswith("SET src.`watermark` = WATERMARK FOR ts AS withOffset(ts, 1000);")


def test_one_broken_statement_does_not_hide_the_rest(ws, cli):
    root = ws("SELECT FROM WHERE;\nSELECT id AS value FROM src;\nSELECT id FROM srcc;\n")
    result = cli("lint", str(root))
    assert codes(result) == ["FX120", "FX01", "FX130"]


def test_workspace_checks_with_did_you_mean(ws, cli):
    root = ws("SELECT id FROM srcc;\nSELECT p:nope(id) FROM src;\nSELECT '${nope}' FROM src;\n")
    out = cli("lint", str(root)).stdout
    assert "t.sql:1:16: FX130 unknown table 'srcc' in project 'p' (did you mean 'src'?)" in out
    assert "t.sql:2:8: FX140 function 'nope' not found in project 'p'" in out
    assert "t.sql:3:9: FX110 unknown variable '${nope}'" in out


def test_noqa_and_config(ws, cli):
    root = ws("SELECT id AS value FROM src; -- noqa: FX01\nSELECT id FROM srcc; -- noqa\nSELECT id AS value FROM src;\n")
    result = cli("lint", str(root))
    assert codes(result) == ["FX01"] and ":3:" in result.stdout
    root2 = ws("SELECT id AS value FROM src;\nSELECT id FROM srcc;\n", config="lint:\n  FX01: off\n  FX130: warning\n")
    result = cli("lint", str(root2))
    assert codes(result) == ["FX130"]
    assert result.exit_code == 0  # a warning does not fail the lint


def test_yaml_is_linted_with_yaml_positions(ws, cli):
    bad_table = {
        "projects/p/tables/bad.yaml": (
            "type: kafka\n"
            "colums_extra: 1\n"
            "columns:\n"
            "  - {name: id, type: NUMBER}\n"
            "with: {connector: kafka, sink.parallelism: 4}\n"
        ),
    }
    root = ws("SELECT id FROM src;\n", extra=bad_table)
    out = cli("lint", str(root)).stdout
    assert "bad.yaml:2:1: FX103 unknown key 'colums_extra' in meta table" in out
    assert "bad.yaml:4:22: FX107 'NUMBER' is not a Flink data type" in out
    assert "bad.yaml:5:44: FX106 WITH value of 'sink.parallelism' is not a string" in out


@pytest.mark.parametrize("fmt", ["json", "sarif", "github"])
def test_machine_formats(ws, cli, fmt):
    root = ws("SELECT id AS value FROM src;\n")
    result = cli("lint", str(root), "--format", fmt)
    assert result.exit_code == 1
    if fmt == "json":
        [item] = json.loads(result.stdout)
        assert (item["code"], item["line"], item["col"], item["severity"]) == ("FX01", 1, 14, "error")
    elif fmt == "sarif":
        data = json.loads(result.stdout)
        [res] = data["runs"][0]["results"]
        assert res["ruleId"] == "FX01" and res["locations"][0]["physicalLocation"]["region"] == {"startLine": 1, "startColumn": 14}
    else:
        assert result.stdout.startswith("::error file=") and ",line=1,col=14,title=FX01::Reserved word " in result.stdout
        assert result.stdout.count("FX01") == 1  # the code once, as the title


def test_lint_only_the_given_files_with_workspace_context(ws, cli):
    root = ws("SELECT id FROM src;\n", extra={"projects/p/tasks/bad.sql": "SELECT id FROM srcc;\n"})
    assert cli("lint", str(root / "projects/p/tasks/t.sql")).exit_code == 0
    assert cli("lint", str(root / "projects/p/tasks/bad.sql")).exit_code == 1


def test_example_workspace_is_clean_whole_and_file_by_file(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "ws", ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    assert subprocess.run([sys.executable, "-m", "flinkx_build", "lint", "ws"], cwd=tmp_path, capture_output=True).returncode == 0
    one = next((tmp_path / "ws" / "projects").rglob("*.sql"))
    result = subprocess.run([sys.executable, "-m", "flinkx_build", "lint", str(one)], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_reserved_word_warnings_are_opt_in_warnings(ws, cli):
    task = "SELECT id AS name, id AS value FROM src;\n"
    assert codes(cli("lint", str(ws(task)))) == ["FX01"]  # only `value`: Flink rejects it
    result = cli("lint", str(ws(task, config="lint:\n  reserved_word_warnings: on\n")))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 2 and "'name'" in lines[0] and "'value'" in lines[1]
    assert "1 error(s), 1 warning(s)" in result.stderr
