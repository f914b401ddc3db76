"""`flinkx upgrade-check --to 2.3` and `flinkx fix --to 2.3` on the version-sensitive tasks of
tests/fixtures/flink_targets (a 1.20 workspace), as real subprocesses of the CLI. Which tasks the
2.3 planner rejects and 1.20's accepts is recorded in expected.json from the real planners."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "flink_targets"
PLANNER = json.loads((FIXTURE / "expected.json").read_text())["planner"]


def flinkx(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args], capture_output=True, text=True, cwd=root, timeout=600)


def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE / "workspace", root)
    return root


def test_the_report_lists_every_task_the_move_breaks_and_nothing_else(tmp_path):
    root = workspace(tmp_path)
    done = flinkx(root, "upgrade-check", "--to", "2.3", "--format", "json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert (report["from"], report["to"]) == ("1.20", "2.3")
    broken = {t["task"].split("/")[1] for t in report["tasks"] if t["breaks"]}
    # exactly the tasks 2.3's planner rejects and 1.20's accepts
    newly_rejected = {task for task, verdict in PLANNER["2.3"].items()
                      if verdict.startswith("rejects") and PLANNER["1.20"][task] == "accepts"}
    assert broken == newly_rejected == {"new_reserved_word", "upsert_key_missing_on_conflict", "upsert_key_wider_than_pk"}
    codes = {t["task"].split("/")[1]: sorted({f["code"] for f in t["findings"]}) for t in report["tasks"]}
    assert codes["removed_option"] == ["FX122", "FX499"]  # a warning: 2.3 ignores the key
    assert codes["wrong_arity"] == []  # broken on 1.20 already: not the move's
    assert codes["variant_parse_json"] == []  # 2.3 has VARIANT and PARSE_JSON


def test_text_and_markdown_formats(tmp_path):
    root = workspace(tmp_path)
    text = flinkx(root, "upgrade-check", "--to", "2.3")
    assert text.returncode == 1
    assert "projects/dwd/tasks/removed_option.sql:1:1: FX122 'table.exec.topn-cache-size' was removed in Flink 2.0" in text.stdout
    assert text.stdout.splitlines()[-1] == "Flink 1.20 -> 2.3: 3 of 9 task(s) break, 3 more need attention"
    markdown = flinkx(root, "upgrade-check", "--to", "2.3", "--format", "markdown")
    assert markdown.stdout.startswith("## Flink 1.20 -> 2.3\n")
    assert "| dwd/upsert\\_key\\_missing\\_on\\_conflict |" in markdown.stdout or "| dwd/upsert_key_missing_on_conflict |" in markdown.stdout


def test_an_unknown_target_is_a_usage_error(tmp_path):
    done = flinkx(workspace(tmp_path), "upgrade-check", "--to", "1.17")
    assert done.returncode == 2
    assert done.stderr.strip() == ("flinkx: error: --to: flink_version '1.17' is not a Flink version flinkx has facts for "
                                   "(supported: 1.20, 2.3); adding one: docs/flink-versions.md")


def test_fix_to_makes_the_safe_fixes_and_only_those(tmp_path):
    root = workspace(tmp_path)
    before = {p.name: p.read_text() for p in (root / "projects/dwd/tasks").iterdir()}
    done = flinkx(root, "fix", "--to", "2.3")
    assert done.returncode == 0, done.stderr
    after = {p.name: p.read_text() for p in (root / "projects/dwd/tasks").iterdir()}
    assert {n for n in after if after[n] != before[n]} == {"removed_option.sql", "new_reserved_word.sql"}
    assert after["removed_option.sql"].startswith("SET 'table.exec.rank.topn-cache-size' = '100';\n")
    assert "name AS `monday` FROM" in after["new_reserved_word.sql"] and "COUNT(`monday`)" in after["new_reserved_word.sql"]
    # ON CONFLICT is the author's choice (which row wins): left alone, still reported
    report = json.loads(flinkx(root, "upgrade-check", "--to", "2.3", "--format", "json").stdout)
    left = {f["code"] for t in report["tasks"] for f in t["findings"]}
    assert left == {"FX497", "FX499"}
    # and the fixed workspace still lints as it did on 1.20 (quoting is valid on both)
    assert "FX01" not in flinkx(root, "lint").stdout
